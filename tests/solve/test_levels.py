"""Deal levels: proved solvable, graded by solver measurements, reproducible."""

from __future__ import annotations

from itertools import islice

import pytest

import cardtable
from cardtable.core.errors import OptionError
from cardtable.core.progress import is_progress
from cardtable.games import rules_for
from cardtable.solve.levels import LEVELS, EagerSpace, candidate_deals, deal_for_level, grade
from cardtable.solve.search import Budget, depth_first
from cardtable.solve.spaces import space_for
from tests.helpers import random_line


def test_a_tricky_deal_is_won_only_by_declining_a_play() -> None:
    r = rules_for("klondike")
    g = grade(r, 7)
    assert g.solvable and g.tricky and g.level == "tricky"
    # The plain solver wins it...
    assert depth_first(space_for(r), r.deal(7), Budget(nodes=50_000)).verdict == "solved"
    # ...the eager player, who always takes a move that makes progress now, provably cannot.
    assert depth_first(EagerSpace(r), r.deal(7), Budget(nodes=50_000)).verdict == "unsolvable"


@pytest.mark.parametrize("name", ["klondike", "desturado", "demonthief", "devils-square"])
def test_the_eager_player_takes_progress_when_there_is_some(name: str) -> None:
    r = rules_for(name)
    space, eager = space_for(r), EagerSpace(r)
    seen_both = set()
    for state in random_line(r, r.deal(2), seed=2, length=60):
        here = r.progress(state)
        every = list(space.children(state))
        chosen = list(eager.children(state))
        gains = [is_progress(r.progress(after), here) for _, after in chosen]
        if len(chosen) < len(every):
            assert all(gains) and all(len(moves) == 1 for moves, _ in chosen)  # only progress, taken now
            seen_both.add("restricted")
        else:
            assert [m for m, _ in chosen] == [m for m, _ in every]  # nothing makes progress now: no restriction
            seen_both.add("free")
    assert seen_both  # the line was long enough to look at something


@pytest.mark.parametrize(
    ("name", "level", "seed"),
    [("klondike", "easy", 1), ("klondike", "normal", 1), ("desturado", "easy", 1), ("devils-square", "easy", 3)],
)
def test_deal_for_level_gives_a_solvable_deal_of_that_level(name: str, level: str, seed: int) -> None:
    deal = deal_for_level(name, level, seed=seed)
    assert deal == deal_for_level(name, level, seed=seed)  # reproducible
    g = grade(rules_for(name), deal)
    assert g.solvable and g.level == level
    assert cardtable.solve(cardtable.new_game(name, deal=deal), seconds=30).solved


def test_random_level_is_the_first_candidate() -> None:
    assert deal_for_level("klondike", "random", seed=5) == next(candidate_deals(5))
    assert list(islice(candidate_deals(5), 3)) != list(islice(candidate_deals(6), 3))


def test_levels_and_errors() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard", "tricky")
    with pytest.raises(OptionError, match="unknown level"):
        deal_for_level("klondike", "expert")
    with pytest.raises(OptionError, match="one-player"):
        deal_for_level("deserto", "easy")

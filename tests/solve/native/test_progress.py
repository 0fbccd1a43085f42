"""The compiled ``can_progress`` of the Klondike and Demonthief cores: the same "over" as the
Python function (cardtable.core.progress.can_progress) on every position of random play, at
limits that make the search end every way; and the dispatch by the game's declaration.

Skipped when the Klondike core is not built, unless ``CARDTABLE_REQUIRE_NATIVE=1`` (then failed);
the Demonthief core's test below is skipped when that core is not built.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cardtable.core.progress import can_progress as python_can_progress
from cardtable.games import rules_for
from cardtable.solve import native
from cardtable.solve.native import demonthief, klondike

from .helpers import check_can_progress, random_positions

CORE = "klondike"

LIMITS = (200_000, 2_000, 40)
"""The default bound, and bounds that the searches reach (None) or not."""


@pytest.mark.parametrize(
    "options",
    [{"draw": 3}, {"draw": 1}, {"draw": 3, "redeals": 2}, {"draw": 1, "foundation_return": False}, {"redeals": 0}],
)
def test_klondike_core_says_over_exactly_as_python(options: dict[str, Any]) -> None:
    rules = rules_for("klondike", **options)
    # Every third position of random play (the next ones are much alike; without foundation
    # returns many are proved over only past 2,000 positions, a Python search of a quarter second).
    seen = check_can_progress(klondike, rules, random_positions(rules, range(6), 250, seed=7)[::3], LIMITS)
    assert True in seen and len(seen) >= 2, seen  # progress found, and some search ended otherwise


def test_klondike_positions_meet_every_answer() -> None:
    rules = rules_for("klondike")
    seen = check_can_progress(klondike, rules, random_positions(rules, range(4), 250, seed=7), LIMITS)
    assert seen == {True, False, None}


def test_targets_count_as_progress_and_never_make_over() -> None:
    rules = rules_for("klondike")
    positions = random_positions(rules, range(3), 120, seed=3)
    for before, state in itertools.pairwise(positions):
        # A target settles "not over": reaching it may answer 1 early, and a search that
        # reaches none is unchanged.
        plain = klondike.can_progress(rules, state, 2_000)
        with_target = klondike.can_progress(rules, state, 2_000, [before])
        assert with_target == 1 or with_target == plain
    start = rules.deal(0)
    child = rules.apply(start, rules.legal_moves(start)[-1])  # a draw: the deal is among its targets' reach
    assert klondike.can_progress(rules, child, 1, [start]) in (1, -1)


def test_targets_the_search_cannot_reach_change_nothing() -> None:
    # The core keys a search's positions by what can move in it (the start's face-down cards
    # and talon are taken as given): a target with other face-down cards, or a talon card the
    # start no longer has, must not pass for one of them. Targets here are positions of these
    # games that are not over with the progress measure of the position searched: one that
    # is over reaches none of them (it would then reach their progress).
    rules = rules_for("klondike")
    positions = random_positions(rules, range(8), 250, seed=11)
    answers = [klondike.can_progress(rules, s, 2_000) for s in positions]
    alive = [s for s, a in zip(positions, answers, strict=True) if a == 1]
    over = [s for s, a in zip(positions, answers, strict=True) if a == 0]
    assert len(over) >= 3 and len(alive) >= 100
    for state in over:
        base = rules.progress(state)
        targets = [s for s in alive if rules.progress(s) == base]
        assert klondike.can_progress(rules, state, 2_000, targets) == 0
    # A position the search reaches, and the same with two face-down cards swapped, or with a
    # face-down card swapped with a stock card: only the first is reached.
    state = next(s for s in over if sum(1 for d in s.down if d) >= 2 and s.stock)
    child = rules.apply(state, rules.legal_moves(state)[0])
    assert klondike.can_progress(rules, state, 2_000, [child]) == 1
    tableau = [list(pile) for pile in child.tableau]
    i, j = [k for k, d in enumerate(child.down) if d][:2]
    swapped = [list(p) for p in tableau]
    swapped[i][0], swapped[j][0] = tableau[j][0], tableau[i][0]
    other = child._replace(tableau=tuple(map(tuple, swapped)))
    stock = list(child.stock)
    from_stock = [list(p) for p in tableau]
    stock[0], from_stock[i][0] = tableau[i][0], stock[0]
    talon = child._replace(tableau=tuple(map(tuple, from_stock)), stock=tuple(stock))
    assert klondike.can_progress(rules, state, 2_000, [other, talon]) == 0


def test_dispatch_uses_the_declared_core_and_falls_back_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("klondike", "desturado", "devils-square", "demonthief"):
        rules = rules_for(name)
        state = rules.deal(1)
        assert (native.can_progress(rules, state, 500) is False) == (python_can_progress(rules, state, 500) is False)
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    rules = rules_for("klondike")
    assert klondike.can_progress(rules, rules.deal(0), 10) is None
    assert native.can_progress(rules, rules.deal(0), 10) == python_can_progress(rules, rules.deal(0), 10)


@pytest.mark.parametrize("game", ["demonthief", "demons-and-thieves"])
def test_demonthief_core_says_over_exactly_as_python(game: str) -> None:
    if not native.built()["demonthief"]:
        pytest.skip("the Demonthief core is not built")
    rules = rules_for(game)
    positions = random_positions(rules, range(6), 300, seed=5)
    seen = check_can_progress(demonthief, rules, positions, (200_000, 1_000, 30, 3))
    assert seen == {True, False, None}

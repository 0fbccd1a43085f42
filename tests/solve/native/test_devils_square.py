"""The native Devil's Square core (``cardtable.solve.native._devils_square``) against the pure
Python search: the same verdict, nodes and moves for the full, pruned and eager spaces, on
deals, on positions of random play, on positions near a win and on positions made from
them, at budgets that stop the search early and budgets that let it finish; and every line
it wins replays to a win.

Skipped when the core is not built, unless ``CARDTABLE_REQUIRE_NATIVE=1`` (then failed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest

from cardtable.games import rules_for
from cardtable.games.devils_square import NUMBER, DevilsSquare, DevilsSquareState, pile_problem
from cardtable.solve.native import devils_square as native_devils_square
from cardtable.solve.native import pure
from cardtable.solve.search import Budget, Pruned
from cardtable.solve.spaces import EagerSpace, RulesSpace, space_for
from tests.helpers import random_line
from tests.solve.native.helpers import line, same, spaces

CORE = "devils_square"
DEALS = range(20)


@pytest.fixture(scope="module")
def rules() -> DevilsSquare:
    """The rules of Devil's Square."""
    return DevilsSquare()


def winning_line(rules: DevilsSquare, deal: int) -> list[DevilsSquareState]:
    """The positions of the winning line the core finds for ``deal`` (which it wins)."""
    found = native_devils_square.search(space_for(rules), rules.deal(deal), Budget(nodes=100_000))
    assert found is not None and found.verdict == "solved"
    return line(rules, rules.deal(deal), found.moves)


def swapped(state: DevilsSquareState) -> Iterator[DevilsSquareState]:
    """Positions made from ``state`` by swapping two field cards of the same number in
    different positions, where both piles stay field piles."""
    places = [(i, k) for i, pile in enumerate(state.field) for k in range(len(pile))]
    for (i, a), (j, b) in combinations(places, 2):
        field = [list(pile) for pile in state.field]
        if i == j or NUMBER[field[i][a]] != NUMBER[field[j][b]]:
            continue
        field[i][a], field[j][b] = field[j][b], field[i][a]
        if pile_problem(tuple(field[i])) is None and pile_problem(tuple(field[j])) is None:
            yield state._replace(field=tuple(tuple(pile) for pile in field))


def test_deals_at_several_budgets(rules: DevilsSquare) -> None:
    verdicts: Counter[str] = Counter()
    for deal in DEALS:
        start = rules.deal(deal)
        for space in spaces(rules):
            for nodes in (1, 2, 40, 400, 3_000):
                verdicts[same(native_devils_square, space, rules, start, Budget(nodes=nodes)).verdict] += 1
    assert verdicts["solved"] and verdicts["unsolvable"] and verdicts["unknown"]


def test_longer_searches(rules: DevilsSquare) -> None:
    verdicts: Counter[str] = Counter()
    for deal in (16, 24, 35, 44):
        for space in spaces(rules):
            verdicts[same(native_devils_square, space, rules, rules.deal(deal), Budget(nodes=20_000)).verdict] += 1
    assert verdicts["solved"] and verdicts["unsolvable"]


def test_positions_of_random_play(rules: DevilsSquare) -> None:
    verdicts: Counter[str] = Counter()
    for seed in range(8):
        line = random_line(rules, rules.deal(100 + seed), seed=seed, length=80)
        for start in {line[min(d, len(line) - 1)] for d in (5, 10, 25, 40, len(line) - 1)}:
            for space in spaces(rules):
                for nodes in (30, 1_000):
                    verdicts[same(native_devils_square, space, rules, start, Budget(nodes=nodes)).verdict] += 1
    assert verdicts["solved"] and verdicts["unsolvable"] and verdicts["unknown"]


def short(state: DevilsSquareState) -> Iterator[DevilsSquareState]:
    """Positions made from ``state`` by taking the top card of one pile away (its book can
    then never be made: when the draw pile is empty, an unsolvable position)."""
    for i, pile in enumerate(state.field):
        if pile:
            yield state._replace(field=(*state.field[:i], pile[:-1], *state.field[i + 1 :]))


def test_positions_near_a_win_and_made_from_them(rules: DevilsSquare) -> None:
    verdicts: Counter[str] = Counter()
    for deal in (6, 16, 19, 25):
        line = winning_line(rules, deal)
        for back in (1, 4, 10, 20, 35):
            for space in spaces(rules):
                verdicts[same(native_devils_square, space, rules, line[-1 - back], Budget(nodes=3_000)).verdict] += 1
        for back in (6, 12):
            for start in [*list(swapped(line[-1 - back]))[:4], *short(line[-1 - back])]:
                for space in spaces(rules):
                    verdicts[same(native_devils_square, space, rules, start, Budget(nodes=3_000)).verdict] += 1
    assert verdicts["solved"] > 20 and verdicts["unsolvable"] > 20


def test_won_start_and_other_prunings(rules: DevilsSquare) -> None:
    won = DevilsSquareState(((),) * 16, (), 16)
    for space in spaces(rules):
        found = same(native_devils_square, space, rules, won, Budget(nodes=10))
        assert (found.verdict, found.nodes) == ("solved", 0)
    start = rules.deal(6)
    for space in (
        Pruned(space_for(rules), 0),
        Pruned(space_for(rules), 1),
        Pruned(Pruned(space_for(rules), 4), 2),
        Pruned(space_for(rules), 1_000),
        Pruned(space_for(rules), None),  # type: ignore[arg-type]
        Pruned(EagerSpace(rules), 2),
    ):
        for nodes in (5, 2_000):
            same(native_devils_square, space, rules, start, Budget(nodes=nodes))


def test_memory_and_time_budgets(rules: DevilsSquare) -> None:
    start = rules.deal(0)
    space = space_for(rules)
    found = same(native_devils_square, space, rules, start, Budget(nodes=None, memory=700))
    assert (found.verdict, found.nodes) == ("unknown", 700)
    assert same(native_devils_square, space, rules, start, Budget(nodes=50, memory=0)).nodes == 1
    # Out of time at the first check (every 256 positions), in both searches.
    found = same(native_devils_square, space, rules, start, Budget(nodes=None, seconds=0.0, memory=None))
    assert (found.verdict, found.nodes) == ("unknown", 256)
    same(native_devils_square, space, rules, start, Budget(nodes=900, seconds=1e9))
    same(native_devils_square, space, rules, start, Budget(nodes=250.5))  # type: ignore[arg-type]


def test_pure_and_unsupported(rules: DevilsSquare, monkeypatch: pytest.MonkeyPatch) -> None:
    start = rules.deal(0)
    budget = Budget(nodes=10)
    assert native_devils_square.search(RulesSpace(rules, key=lambda s: s.field), start, budget) is None
    assert native_devils_square.search(RulesSpace(rules, safe=lambda s: None), start, budget) is None
    desturado = rules_for("desturado")
    assert native_devils_square.search(RulesSpace(desturado), desturado.deal(0), budget) is None
    assert native_devils_square.search(EagerSpace(desturado), desturado.deal(0), budget) is None

    class Variant(DevilsSquare):
        pass

    assert native_devils_square.search(RulesSpace(Variant()), start, budget) is None
    assert native_devils_square.search(space_for(rules), tuple(start), budget) is None
    twice = start._replace(field=((start.field[0][0], start.field[0][0]), *start.field[1:]))
    assert native_devils_square.search(space_for(rules), twice, budget) is None
    listed = start._replace(draw=list(start.draw))  # type: ignore[arg-type]
    assert native_devils_square.search(space_for(rules), listed, budget) is None
    assert native_devils_square.search(space_for(rules), start._replace(books=True), budget) is None
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    assert pure()
    assert native_devils_square.search(space_for(rules), start, budget) is None

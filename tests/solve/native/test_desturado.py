"""The native Desturado core (``cardtable.solve._desturado``) against the pure Python search:
the same verdict, nodes and moves for the full, pruned and eager spaces, on deals, on
positions of random play and on positions near a win, at budgets that stop the search
early and budgets that let it finish; and every line it wins replays to a win.

Skipped when the core is not built, unless ``CARDTABLE_REQUIRE_NATIVE=1`` (then failed).
"""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.games import rules_for
from cardtable.games.desturado import Desturado, DesturadoState
from cardtable.solve.native import desturado as native_desturado
from cardtable.solve.native import pure
from cardtable.solve.search import Budget, Pruned
from cardtable.solve.spaces import DesturadoSpace, EagerSpace, RulesSpace
from tests.helpers import random_line
from tests.solve.native.helpers import KINDS as HELPER_KINDS
from tests.solve.native.helpers import line, same, spaces

CORE = "desturado"
MODES = ("easy", "medium", "hard")
KINDS = (*HELPER_KINDS, "solver", "solver-pruned")
"""The spaces compared: the core's usual ones, and the solver's (the children
``desturado_lost`` proves lost left out, in C and in Python), whole and pruned."""
DEALS = range(15)


def desturado(mode: str) -> Desturado:
    """The rules of Desturado in ``mode``."""
    return Desturado(mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_deals_at_several_budgets(mode: str) -> None:
    rules = desturado(mode)
    verdicts: Counter[str] = Counter()
    for deal in DEALS:
        start = rules.deal(deal)
        for space in spaces(rules, KINDS):
            for nodes in (1, 2, 40, 400) if deal >= 5 else (1, 2, 40, 400, 1_500, 8_000):
                verdicts[same(native_desturado, space, rules, start, Budget(nodes=nodes)).verdict] += 1
    assert verdicts["solved"] and verdicts["unknown"]


@pytest.mark.parametrize("mode", MODES)
def test_positions_of_random_play(mode: str) -> None:
    rules = desturado(mode)
    verdicts: Counter[str] = Counter()
    for seed in range(5):
        line = random_line(rules, rules.deal(100 + seed), seed=seed, length=60)
        for start in {line[min(d, len(line) - 1)] for d in (8, 20, 35, len(line) - 1)}:
            for space in spaces(rules, KINDS):
                for nodes in (30, 1_000):
                    verdicts[same(native_desturado, space, rules, start, Budget(nodes=nodes)).verdict] += 1
    assert verdicts["unsolvable"] and verdicts["unknown"]


@pytest.mark.parametrize("mode", MODES)
def test_positions_near_a_win(mode: str) -> None:
    rules = desturado(mode)
    verdicts: Counter[str] = Counter()
    for deal in range(4):
        found = native_desturado.search(DesturadoSpace(rules), rules.deal(deal), Budget(nodes=200_000))
        assert found is not None
        if found.verdict != "solved":
            continue
        won = line(rules, rules.deal(deal), found.moves)
        for back in (1, 4, 10, 20):
            for space in spaces(rules, KINDS):
                verdicts[same(native_desturado, space, rules, won[-1 - back], Budget(nodes=3_000)).verdict] += 1
    assert verdicts["solved"]


def test_won_start_and_other_prunings() -> None:
    rules = desturado("medium")
    start = rules.deal(2)
    won = DesturadoState(((),) * 4, (0,) * 4, (tuple(rules.deck()), (), (), ()))
    for space in spaces(rules, KINDS):
        assert same(native_desturado, space, rules, won, Budget(nodes=10)).verdict == "solved"
    for space in (
        Pruned(DesturadoSpace(rules), 0),
        Pruned(DesturadoSpace(rules), 1),
        Pruned(Pruned(DesturadoSpace(rules), 4), 2),
        Pruned(DesturadoSpace(rules), None),  # type: ignore[arg-type]
        Pruned(EagerSpace(rules), 2),
    ):
        for nodes in (5, 2_000):
            same(native_desturado, space, rules, start, Budget(nodes=nodes))


def test_memory_and_time_budgets() -> None:
    rules = desturado("hard")
    start = rules.deal(0)
    space = DesturadoSpace(rules)
    found = same(native_desturado, space, rules, start, Budget(nodes=None, memory=700))
    assert (found.verdict, found.nodes) == ("unknown", 700)
    assert same(native_desturado, space, rules, start, Budget(nodes=50, memory=0)).nodes == 1
    # Out of time at the first check (every 256 positions), in both searches.
    found = same(native_desturado, space, rules, start, Budget(nodes=None, seconds=0.0, memory=None))
    assert (found.verdict, found.nodes) == ("unknown", 256)
    same(native_desturado, space, rules, start, Budget(nodes=900, seconds=1e9))
    same(native_desturado, space, rules, start, Budget(nodes=250.5))  # type: ignore[arg-type]


def test_pure_and_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = desturado("easy")
    start = rules.deal(0)
    assert native_desturado.search(RulesSpace(rules), start, Budget(nodes=10)) is None
    assert native_desturado.search(Pruned(RulesSpace(rules), 2), start, Budget(nodes=10)) is None
    klondike = rules_for("klondike")
    assert native_desturado.search(EagerSpace(klondike), klondike.deal(0), Budget(nodes=10)) is None
    twice = start._replace(hand=(start.hand[0],) * 5)
    assert native_desturado.search(DesturadoSpace(rules), twice, Budget(nodes=10)) is None
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    assert pure()
    assert native_desturado.search(DesturadoSpace(rules), start, Budget(nodes=10)) is None

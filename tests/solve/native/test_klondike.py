"""The compiled Klondike core against the Python reference: the same children, and the same
verdict, node count and moves for the whole space, the pruned space, the eager space and
the class space (whole and pruned), at budgets that stop the search and budgets that let
it decide."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.games.klondike import Klondike, KlondikeState
from cardtable.levels.measures import measure
from cardtable.solve import search as search_module
from cardtable.solve import solve
from cardtable.solve.native import klondike as native
from cardtable.solve.native import pure
from cardtable.solve.search import Budget, Found, Pruned, depth_first
from cardtable.solve.spaces import EagerSpace, KlondikeClassSpace, KlondikeSpace
from tests.helpers import random_line
from tests.solve.native import helpers
from tests.solve.native.helpers import KINDS, line

CORE = "klondike"

CLASS_KINDS = ("classes", "classes-pruned")
"""The class space (``solve``'s), whole and pruned to three children."""

MODES = (*KINDS, *CLASS_KINDS)
"""The spaces searched both ways: every core's, and the Klondike core's own class space."""

OPTIONS: list[dict[str, Any]] = [
    {},
    {"draw": 1},
    {"redeals": 0},
    {"redeals": 2},
    {"foundation_return": False},
    {"draw": 1, "redeals": 1},
]


def klondike(**options: Any) -> Klondike:
    """Klondike rules with ``options``."""
    return Klondike(**options)


def space_of(rules: Klondike, kind: str) -> Any:
    """The space of ``kind``: one of :data:`CLASS_KINDS`, or :func:`helpers.space_of`'s."""
    if kind == "classes":
        return KlondikeClassSpace(rules)
    if kind == "classes-pruned":
        return Pruned(KlondikeClassSpace(rules), 3)
    return helpers.space_of(rules, kind)


def same(rules: Klondike, mode: str, state: KlondikeState, budget: Budget) -> str:
    """Search both ways in the space of ``mode`` (:func:`helpers.same`); the verdict."""
    return helpers.same(native, space_of(rules, mode), rules, state, budget).verdict


def mid_game(rules: Klondike, deals: range, seed: int) -> list[KlondikeState]:
    """Positions of seeded random play from each deal (every legal move equally likely)."""
    found = []
    for deal in deals:
        line = random_line(rules, rules.deal(deal), seed=seed + deal, length=80)
        found += line[20::30]
    return found


def endgames(rules: Klondike, deal: int, rng: random.Random) -> list[KlondikeState]:
    """Positions late on a winning line, random detours from them, and the same positions
    with two face-down cards exchanged (often unwinnable): small complete searches."""
    found = search_module.search(KlondikeSpace(rules), rules.deal(deal), Budget(nodes=200_000))
    assert found.verdict == "solved"
    won = line(rules, rules.deal(deal), found.moves)
    positions = []
    for i in range(len(won) - 8, len(won) // 3, -9):
        state = won[i]
        positions.append(state)
        for _ in range(rng.randint(1, 5)):
            state = rules.apply(state, rng.choice(rules.legal_moves(state)))
        positions.append(state)
        text = rules.to_text(won[i])
        hidden = list(re.finditer(r"<([^>]+)>", text))
        if len(hidden) >= 2:
            a, b = sorted(rng.sample(hidden, 2), key=lambda m: m.start())
            swapped = text[: a.start(1)] + b.group(1) + text[a.end(1) : b.start(1)] + a.group(1) + text[b.end(1) :]
            positions.append(rules.from_text(swapped))
    return positions


def test_children_are_the_spaces_own() -> None:
    for options in OPTIONS:
        rules = klondike(**options)
        for state in mid_game(rules, range(12), seed=1) + [rules.deal(d) for d in range(12)]:
            for mode in (*KINDS, "classes", "classes-pruned"):
                space = space_of(rules, mode)
                assert native.children(space, state) == [(list(m), s) for m, s in space.children(state)]


def test_class_numbers_follow_the_moves() -> None:
    """A child's class number, the parent's plus the move's change, is the number of its
    position counted afresh."""
    checked = 0
    for options in OPTIONS:
        rules = klondike(**options)
        for state in mid_game(rules, range(12), seed=3) + [rules.deal(d) for d in range(12)]:
            got = native.numbered_children(rules, state)
            assert got is not None
            assert [n for _, n in got] == native.class_numbers(rules, state, [s for s, _ in got])
            checked += len(got)
    assert checked > 1_000


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_class_numbers_are_exact(options: dict[str, Any]) -> None:
    """Positions reached from one start by random play (draws, redeals, moves of hanging
    runs, foundation returns) have equal numbers exactly when their classes are equal."""
    rules = klondike(**options)
    space = KlondikeClassSpace(rules)
    shared = 0
    for deal in range(6):
        start = random_line(rules, rules.deal(deal), seed=deal, length=15)[-1]
        positions = [s for seed in range(8) for s in random_line(rules, start, seed=seed, length=120)]
        numbers = native.class_numbers(rules, start, positions)
        assert numbers is not None
        keys = [space.key(s) for s in positions]
        assert len(set(zip(numbers, keys, strict=True))) == len(set(numbers)) == len(set(keys))
        shared += len(set(positions)) - len(set(keys))  # positions sharing a class with another
    assert shared > 0


def test_a_king_back_in_any_empty_pile() -> None:
    """The king of spades (51), last card out, alone in pile 3 at the start: home, then back
    in pile 2, 3 (its own) or 5, it is one class, and so one number."""
    rules = klondike()

    def king_in(pile: int) -> KlondikeState:
        tableau = tuple((51,) if i == pile else () for i in range(7))
        return KlondikeState((), (), (13, 13, 13, 12), tableau, (0,) * 7, 0)

    start = king_in(2)
    home = start._replace(foundations=(13, 13, 13, 13), tableau=((),) * 7)
    numbers = native.class_numbers(rules, start, [start, home, king_in(1), king_in(2), king_in(4)])
    assert numbers is not None
    assert numbers[0] == numbers[2] == numbers[3] == numbers[4] != numbers[1]


@pytest.mark.parametrize("draw", [3, 1])
def test_deals_at_small_budgets(draw: int) -> None:
    rules = klondike(draw=draw)
    verdicts: Counter[str] = Counter()
    for deal in range(30):
        for mode in MODES:
            verdicts[same(rules, mode, rules.deal(deal), Budget(nodes=50))] += 1
            if deal < 8:
                verdicts[same(rules, mode, rules.deal(deal), Budget(nodes=500))] += 1
    assert verdicts["unknown"] and verdicts["solved"]


@pytest.mark.parametrize("options", OPTIONS[2:], ids=str)
def test_other_options(options: dict[str, Any]) -> None:
    rules = klondike(**options)
    for deal in range(10):
        for mode in MODES:
            same(rules, mode, rules.deal(deal), Budget(nodes=200))


def test_mid_game_positions() -> None:
    for options in OPTIONS:
        rules = klondike(**options)
        for state in mid_game(rules, range(4), seed=7):
            for mode in MODES:
                same(rules, mode, state, Budget(nodes=150))


def test_searches_that_decide() -> None:
    """Deals decided within a few thousand positions, and end games of winning lines with
    detours and exchanged face-down cards: solved and unsolvable verdicts in every mode."""
    verdicts: Counter[tuple[str, str]] = Counter()
    draw3 = klondike()
    for deal in (3, 5, 7, 8, 9):  # deal 3 is unsolvable, deal 7 solvable but not eagerly
        for mode in MODES:
            verdicts[mode, same(draw3, mode, draw3.deal(deal), Budget(nodes=3_000, memory=None))] += 1
    rng = random.Random(5)
    for options, deal in (({}, 8), ({"draw": 1}, 2), ({"redeals": 1}, 5)):
        rules = klondike(**options)
        for state in endgames(rules, deal, rng):
            for mode in MODES:
                verdicts[mode, same(rules, mode, state, Budget(nodes=1_500, memory=None))] += 1
    for mode in MODES:
        assert verdicts[mode, "solved"] and verdicts[mode, "unsolvable"], verdicts


def test_memory_time_and_won_positions() -> None:
    rules = klondike()
    for mode in MODES:
        assert same(rules, mode, rules.deal(0), Budget(nodes=None, memory=300)) == "unknown"
        # A deadline already passed stops the search at its first check (256 positions).
        assert same(rules, mode, rules.deal(0), Budget(nodes=None, seconds=0.0)) == "unknown"
        same(rules, mode, rules.deal(9), Budget(nodes=2_000, seconds=60.0))
    found = native.search(KlondikeSpace(rules), rules.deal(0), Budget(nodes=None, memory=300))
    assert found is not None and found.nodes == 300
    won = KlondikeState((), (), (13, 13, 13, 13), ((),) * 7, (0,) * 7, 0)
    assert same(rules, "full", won, Budget()) == "solved"


def test_what_the_core_does_not_take_goes_to_python() -> None:
    budget = Budget(nodes=10)
    auto = klondike(autoplay=True)
    assert native.search(KlondikeSpace(auto), auto.deal(0), budget) is None
    assert native.search(KlondikeClassSpace(auto), auto.deal(0), budget) is None
    rules = klondike()
    assert native.search(Pruned(EagerSpace(rules), 2), rules.deal(0), budget) is None
    desturado = cardtable.new_game("desturado", deal=0)
    assert native.search(EagerSpace(desturado.rules), desturado.state, budget) is None
    short = rules.deal(0)._replace(stock=rules.deal(0).stock[1:])  # a card missing
    assert native.search(KlondikeSpace(rules), short, budget) is None
    assert native.search(EagerSpace(rules), rules.deal(0), budget) is not None
    assert native.search(Pruned(KlondikeClassSpace(rules), 2), short, budget) is None


def test_the_solver_and_levels_give_the_same_answers_with_and_without_the_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    def counting(space: Any, start: Any, budget: Budget) -> Found:
        calls.append(1)
        return depth_first(space, start, budget)

    monkeypatch.setattr(search_module, "depth_first", counting)
    rules = klondike()
    fast = [solve(cardtable.new_game("klondike", deal=d), nodes=4_000) for d in (3, 8)], measure(rules, 7)
    assert not calls  # the core did every search
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    assert pure()
    assert native.search(KlondikeSpace(rules), rules.deal(0), Budget(nodes=5)) is None
    slow = [solve(cardtable.new_game("klondike", deal=d), nodes=4_000) for d in (3, 8)], measure(rules, 7)
    assert calls  # Python did
    strip = [(r.verdict, r.moves, r.nodes) for r in fast[0]], fast[1]
    assert strip == ([(r.verdict, r.moves, r.nodes) for r in slow[0]], slow[1])

"""The compiled Demonthief core (``_demonthief.c``) against the Python search it replaces:
the same verdict, nodes and moves for Demonthief and Demons and Thieves, over the full
space, the pruned space and the eager space, at budgets that stop the search early and
at budgets that let it finish (won, or proved unsolvable), from deals, from positions of
random play and from positions near the end of a won game.

The tests skip when the core is not built, and fail instead with
``CARDTABLE_REQUIRE_NATIVE=1``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtable.core.cards import make_card
from cardtable.games.demonthief import DemonsAndThieves, Demonthief, DemonthiefMove, DemonthiefState
from cardtable.games.klondike import Klondike
from cardtable.solve.native import demonthief as native_demonthief
from cardtable.solve.native import pure
from cardtable.solve.search import Budget, Found, Pruned, depth_first
from cardtable.solve.spaces import DemonthiefSolverSpace, DemonthiefSpace, EagerSpace, KlondikeSpace
from tests.helpers import random_line
from tests.solve.native import helpers
from tests.solve.native.helpers import KINDS, line, space_of

CORE = "demonthief"
GAMES = (Demonthief, DemonsAndThieves)
SPACES = (*KINDS, "eager-pruned")


def spaces(rules: Demonthief) -> list[Any]:
    """The spaces the core runs: full, pruned to three children, eager, eager pruned to two,
    and the solver's order (full, and pruned to two children as in its first phase)."""
    return [*helpers.spaces(rules, SPACES), DemonthiefSolverSpace(rules), Pruned(DemonthiefSolverSpace(rules), 2)]


def same(space: Any, rules: Demonthief, start: DemonthiefState, budget: Budget) -> Found:
    """Search in Python and in C (:func:`helpers.same`, every move a DemonthiefMove)."""
    return helpers.same(native_demonthief, space, rules, start, budget, DemonthiefMove)


def stock_in_play(state: DemonthiefState, rng: random.Random, most: int = 6) -> DemonthiefState:
    """``state`` with some tableau top cards (at most ``most``) moved to the stock and the waste."""
    tab = [list(p) for p in state.tableau]
    moved: list[int] = []
    for j in rng.sample(range(9), 9):
        while tab[j] and len(moved) < most and rng.random() < 0.6:
            moved.append(tab[j].pop())
    cut = rng.randint(0, len(moved))
    return state._replace(
        stock=state.stock + tuple(moved[:cut]),
        waste=state.waste + tuple(moved[cut:]),
        tableau=tuple(tuple(p) for p in tab),
    )


def winning_line(rules: Demonthief, deal: int) -> list[DemonthiefState]:
    """The positions of the winning line the Python search finds for a deal."""
    found = depth_first(DemonthiefSpace(rules), rules.deal(deal), Budget(nodes=5_000))
    assert found.verdict == "solved"
    return line(rules, rules.deal(deal), found.moves)


@pytest.mark.parametrize("game", GAMES)
def test_deals_at_a_small_budget(game: type[Demonthief]) -> None:
    rules = game()
    verdicts: Counter[str] = Counter()
    for deal in range(20):
        for space in spaces(rules):
            verdicts[same(space, rules, rules.deal(deal), Budget(nodes=120)).verdict] += 1
    assert verdicts["unknown"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_deals_at_a_larger_budget(game: type[Demonthief]) -> None:
    rules = game()
    verdicts: Counter[str] = Counter()
    for deal in range(4):
        for space in spaces(rules):
            verdicts[same(space, rules, rules.deal(deal), Budget(nodes=1_500)).verdict] += 1
    assert verdicts["solved"] > 0 and verdicts["unknown"] > 0, verdicts


@pytest.mark.parametrize("game", GAMES)
def test_positions_of_random_play(game: type[Demonthief]) -> None:
    # Random legal moves (draws and redeals among them) from random deals: stock, waste
    # and, in Demons and Thieves, redeals used in every state; many such positions are lost.
    rules = game()
    rng = random.Random(game.name)
    verdicts: Counter[str] = Counter()
    for _ in range(20):
        line = random_line(rules, rules.deal(rng.randrange(10**6)), rng.randrange(10**6), rng.choice((20, 80, 200)))
        for space in spaces(rules):
            verdicts[same(space, rules, line[-1], Budget(nodes=500)).verdict] += 1
    assert set(verdicts) == {"solved", "unsolvable", "unknown"}, verdicts
    if game is DemonsAndThieves:
        assert any(s.redeals_used for s in line)


@pytest.mark.parametrize(("game", "deal"), [(Demonthief, 1), (DemonsAndThieves, 2)])
def test_positions_near_the_end(game: type[Demonthief], deal: int) -> None:
    # Positions of a won line, as they are and with cards put back into the stock and the
    # waste (the stock model and the redeals come into play): searches that finish.
    rules = game()
    rng = random.Random(deal)
    line = winning_line(rules, deal)
    verdicts: Counter[str] = Counter()
    for state in line[len(line) // 2 :: 15]:
        for here in (state, stock_in_play(state, rng)):
            for name in SPACES:
                found = same(space_of(rules, name), rules, here, Budget(nodes=800))
                verdicts[found.verdict] += 1
                if here is state and name == "full":
                    assert found.verdict == "solved"
    assert verdicts["solved"] > 10 and verdicts["unsolvable"] > 0, verdicts


@pytest.mark.parametrize(("game", "deal"), [(Demonthief, 1), (DemonsAndThieves, 2)])
def test_many_cards_back_in_the_stock(game: type[Demonthief], deal: int) -> None:
    # Up to 12 cards put back into the stock and the waste late in a won game: long stock
    # cycles, and in Demons and Thieves positions that differ only in the redeals used.
    rules = game()
    rng = random.Random(5)
    line = winning_line(rules, deal)
    for state in line[len(line) // 2 :: 10]:
        here = stock_in_play(state, rng, most=12)
        for space in spaces(rules):
            same(space, rules, here, Budget(nodes=600))


def test_redeals_used_and_left() -> None:
    # Demons and Thieves with the stock drawn to the waste, at every count of redeals used.
    rules = DemonsAndThieves()
    for deal in range(3):
        start = rules.deal(deal)
        for drawn in (0, 5, 46):
            for used in range(3):
                state = start._replace(
                    stock=start.stock[: len(start.stock) - drawn],
                    waste=start.stock[: len(start.stock) - drawn - 1 : -1],
                    redeals_used=used,
                )
                for space in spaces(rules):
                    same(space, rules, state, Budget(nodes=150))


def test_memory_time_and_odd_budgets() -> None:
    rules = DemonsAndThieves()
    start = rules.deal(1)
    space = DemonthiefSpace(rules)
    assert same(space, rules, start, Budget(nodes=None, memory=300)).nodes == 300
    assert same(space, rules, start, Budget(nodes=None, memory=0)).verdict == "unknown"
    # A deadline already past stops both searches at their first time check (every 256 nodes).
    assert same(space, rules, start, Budget(nodes=None, seconds=0.0, memory=None)).nodes == 256
    for nodes in (0, 1, 2, -5):
        same(space, rules, start, Budget(nodes=nodes))
    for limit in (99.5, float("inf"), float("nan")):
        same(Pruned(space, 1), rules, start, Budget(nodes=limit))  # type: ignore[arg-type]
    same(Pruned(space, 0), rules, start, Budget(nodes=10))


def test_a_won_start() -> None:
    rules = Demonthief()
    start = rules.deal(0)
    empty: tuple[int, ...] = ()
    below = start.base - 1 if start.base > 1 else 13  # the top card of a full foundation
    full = tuple(make_card(below, suit) for suit in range(4) for _ in range(2))
    won = start._replace(stock=empty, waste=empty, reserve=empty, foundations=full, tableau=(empty,) * 9)
    found = same(DemonthiefSpace(rules), rules, won, Budget())
    assert (found.verdict, found.nodes, found.moves) == ("solved", 0, [])


def test_pure_and_what_the_core_does_not_take(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Demonthief()
    start = rules.deal(0)
    budget = Budget(nodes=10)
    assert native_demonthief.search(DemonthiefSpace(rules), start, budget) is not None
    klondike = Klondike()
    assert native_demonthief.search(KlondikeSpace(klondike), klondike.deal(0), budget) is None
    assert native_demonthief.search(EagerSpace(klondike), klondike.deal(0), budget) is None
    assert native_demonthief.search(Pruned(DemonthiefSpace(rules), -1), start, budget) is None
    assert native_demonthief.search(DemonthiefSpace(rules), start._replace(foundations=(0,) * 9), budget) is None
    assert native_demonthief.search(DemonthiefSpace(rules), tuple(start), budget) is None
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    assert pure()
    assert native_demonthief.search(DemonthiefSpace(rules), start, budget) is None


@pytest.mark.parametrize("game", GAMES)
def test_the_lossy_search_finds_the_same_lines_and_proves_nothing(game: type[Demonthief]) -> None:
    # exact=False remembers fingerprints, not keys: on searches this small no two keys share
    # one, so it explores the same positions in the same order as the exact search, but a
    # search that ends without a win says "unknown" (a fingerprint could have cut a win).
    rules = game()
    rng = random.Random(31)
    verdicts: Counter[str] = Counter()
    won = winning_line(rules, 1 if game is Demonthief else 2)
    starts = [rules.deal(0), *won[len(won) // 2 :: 20]]
    starts += [random_line(rules, rules.deal(rng.randrange(10**6)), rng.randrange(10**6), 80)[-1] for _ in range(6)]
    for start in starts:
        for space in spaces(rules):
            for budget in (Budget(nodes=600), Budget(nodes=None, memory=250)):
                exact = same(space, rules, start, budget)
                lossy = native_demonthief.search(space, start, budget, exact=False)
                assert lossy is not None
                assert (lossy.nodes, lossy.moves) == (exact.nodes, exact.moves)
                assert lossy.verdict == ("unknown" if exact.verdict == "unsolvable" else exact.verdict)
                verdicts[exact.verdict] += 1
    assert set(verdicts) == {"solved", "unsolvable", "unknown"}, verdicts

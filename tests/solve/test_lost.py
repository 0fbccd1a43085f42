"""Proofs without search that a position is lost (cardtable.solve.lost): never a
winnable position, and the solver answers them at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import parse_card
from cardtable.games import rules_for
from cardtable.games.klondike import KlondikeState
from cardtable.hints import hint
from cardtable.solve import solve
from cardtable.solve.lost import PARENTS, klondike_lost, proved_lost
from cardtable.solve.search import Budget, depth_first, search
from cardtable.solve.spaces import RulesSpace, space_for
from tests.solve.test_solve import swap_hidden_cards


def endgame(piles: list[str], down: list[int]) -> KlondikeState:
    """All clubs home, diamonds and hearts to the queen, spades to the ten; the five
    cards left (KD, KH, JS, QS, KS) in the piles given (bottom first)."""
    tableau = [tuple(parse_card(c) for c in pile.split()) for pile in piles]
    return KlondikeState((), (), (13, 12, 12, 10), tuple(tableau), tuple(down), 0)


def exhaustive(state: KlondikeState) -> str:
    """The verdict of a complete search over every legal move."""
    found = depth_first(RulesSpace(rules_for("klondike")), state, Budget(nodes=200_000, memory=None))
    assert found.verdict != "unknown"
    return found.verdict


def test_parents_are_one_rank_higher_of_the_other_colour() -> None:
    assert sorted(PARENTS[parse_card("QS")]) == sorted([parse_card("KD"), parse_card("KH")])
    assert sorted(PARENTS[parse_card("5H")]) == sorted([parse_card("6C"), parse_card("6S")])
    assert PARENTS[parse_card("KC")] == ()


def test_a_card_that_can_only_go_home_over_its_own_suit_blocks_the_game() -> None:
    # The queen of spades lies on both red kings and the jack of spades: it can only
    # leave for its foundation, which needs the jack under it.
    blocked = endgame(["KH KD JS QS", "KS", "", "", "", "", ""], [3, 0, 0, 0, 0, 0, 0])
    assert klondike_lost(blocked)
    assert exhaustive(blocked) == "unsolvable"
    # With the king of diamonds elsewhere the queen can leave onto it: not proved lost.
    free = endgame(["KH JS QS", "KS", "KD", "", "", "", ""], [2, 0, 0, 0, 0, 0, 0])
    assert not klondike_lost(free)
    assert exhaustive(free) == "solved"


def test_the_solver_answers_a_proved_loss_without_search() -> None:
    blocked = endgame(["KH KD JS QS", "KS", "", "", "", "", ""], [3, 0, 0, 0, 0, 0, 0])
    rules = rules_for("klondike")
    game = cardtable.Game(rules, blocked)  # an endgame made up for the proof, not one a deal reaches
    result = solve(game, seconds=None)
    assert (result.verdict, result.nodes, result.moves) == ("unsolvable", 0, [])
    assert hint(game).status == "lost"


@pytest.mark.parametrize("options", [{}, {"draw": 1}, {"redeals": 1, "foundation_return": False}])
def test_no_deal_the_search_wins_is_proved_lost(options: dict[str, Any]) -> None:
    rules = rules_for("klondike", **options)
    space = space_for(rules)
    lost = won = 0
    for deal in range(300):
        state = rules.deal(deal)
        if klondike_lost(state):
            lost += 1
            assert search(space, state, Budget(nodes=20_000)).verdict != "solved", deal
        else:
            won += search(space, state, Budget(nodes=20_000)).verdict == "solved"
    assert lost >= 5 and won >= 20, (lost, won)


def test_no_winnable_position_is_proved_lost() -> None:
    """Positions a few random moves into a deal, with face-down cards swapped (often
    lost): a position proved lost is never won by the search."""
    rules = rules_for("klondike")
    space = space_for(rules)
    rng = random.Random(7)
    checked = {"lost": 0, "won": 0}
    for deal in range(300):
        state = rules.deal(deal)
        for _ in range(rng.randint(0, 20)):
            state = rules.apply(state, rng.choice(rules.legal_moves(state)))
        for _ in range(rng.randint(0, 3)):
            state = next(iter(swap_hidden_cards(rules, state, rng)), state)
        lost = klondike_lost(state)
        if search(space, state, Budget(nodes=20_000)).verdict == "solved":
            assert not lost, rules.to_text(state)
            checked["won"] += 1
        checked["lost"] += lost
    assert checked["lost"] >= 6 and checked["won"] >= 100, checked


def test_only_klondike_has_such_proofs() -> None:
    for name in ("desturado", "demonthief", "devils-square"):
        rules = rules_for(name)
        assert not proved_lost(rules, rules.deal(1))

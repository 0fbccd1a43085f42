"""Proofs without search that a position is lost (cardtable.solve.lost): never a
winnable position, and the solver answers them at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import parse_card
from cardtable.games import rules_for
from cardtable.games.desturado import Desturado, DesturadoState
from cardtable.games.klondike import KlondikeState
from cardtable.hints import hint
from cardtable.solve import solve
from cardtable.solve.lost import PARENTS, desturado_lost, klondike_lost, proved_lost
from cardtable.solve.search import Budget, depth_first, search
from cardtable.solve.spaces import DesturadoProofSpace, RulesSpace, space_for
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


def test_a_king_goes_onto_the_tableau_only_into_a_pile_that_can_be_emptied() -> None:
    # Deal 111: in the relaxed game no card ever leaves its pile, so no pile is ever empty
    # for a king, and 7 cards go home at most: proved lost, and the complete search agrees.
    rules = rules_for("klondike")
    assert klondike_lost(rules.deal(111))
    assert search(space_for(rules), rules.deal(111), Budget(nodes=200_000, memory=None)).verdict == "unsolvable"
    # An empty pile from the start takes a red king from the stock, the queen of spades goes
    # onto it, and the jack under her is reached: not proved lost, and won.
    cards = [tuple(parse_card(c) for c in pile.split()) for pile in ["JS QS", "KS", "", "", "", "", ""]]
    stock = (parse_card("KD"), parse_card("KH"))
    open_pile = KlondikeState(stock, (), (13, 12, 12, 10), tuple(cards), (1, 0, 0, 0, 0, 0, 0), 0)
    assert not klondike_lost(open_pile)
    assert exhaustive(open_pile) == "solved"


def test_the_solver_answers_a_proved_loss_without_search() -> None:
    blocked = endgame(["KH KD JS QS", "KS", "", "", "", "", ""], [3, 0, 0, 0, 0, 0, 0])
    rules = rules_for("klondike")
    game = cardtable.Game(rules, blocked)  # an endgame made up for the proof, not one a deal reaches
    result = solve(game, seconds=None)
    assert (result.verdict, result.nodes, result.moves) == ("unsolvable", 0, [])
    assert hint(game).status == "lost"


def test_a_draw_of_three_offers_only_the_cards_its_draws_end_on() -> None:
    # Deal 25: in draw 3 the stock never brings to the waste's top a card that can leave
    # it, so the relaxed game proves it lost, and the complete search agrees; the same
    # cards in draw 1 offer every stock card, and are won.
    three, one = rules_for("klondike"), rules_for("klondike", draw=1)
    state = three.deal(25)
    assert one.deal(25) == state
    assert klondike_lost(state, draw=3) and proved_lost(three, state)
    assert search(space_for(three), state, Budget(nodes=200_000, memory=None)).verdict == "unsolvable"
    assert not klondike_lost(state, draw=1) and not proved_lost(one, state)
    assert solve(cardtable.Game(one, state), seconds=None).verdict == "solved"


def test_no_position_on_a_winning_line_is_proved_lost() -> None:
    """Every position of the solver's winning lines of draw-3 deals (stock and waste in
    every state a game passes through): none is proved lost."""
    rules = rules_for("klondike")
    positions = 0
    for deal in range(40):
        found = search(space_for(rules), rules.deal(deal), Budget(nodes=20_000))
        if found.verdict != "solved":
            continue
        state = rules.deal(deal)
        for move in found.moves:
            assert not klondike_lost(state, draw=3), (deal, rules.to_text(state))
            state = rules.apply(state, move)
            positions += 1
    assert positions >= 2_000, positions


@pytest.mark.parametrize("options", [{}, {"draw": 1}, {"redeals": 1, "foundation_return": False}])
def test_no_deal_the_search_wins_is_proved_lost(options: dict[str, Any]) -> None:
    rules = rules_for("klondike", **options)
    space = space_for(rules)
    lost = won = 0
    for deal in range(300):
        state = rules.deal(deal)
        if proved_lost(rules, state):  # the relaxed game with the rules' draw
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
        lost = klondike_lost(state, draw=3)
        if search(space, state, Budget(nodes=20_000)).verdict == "solved":
            assert not lost, rules.to_text(state)
            checked["won"] += 1
        checked["lost"] += lost
    assert checked["lost"] >= 6 and checked["won"] >= 100, checked


def test_games_without_such_proofs_prove_nothing() -> None:
    for name in ("demonthief", "demons-and-thieves", "devils-square"):
        rules = rules_for(name)
        assert not proved_lost(rules, rules.deal(1))


# --- Desturado: the matching bound ------------------------------------------------------

NINE_ALONE = """desturado
a: 9C
b:
c:
1: TD 9D 8D 7D 6D 5D 4D 3D 2D AD
2: TH 9H 8H 7H 6H 5H 4H 3H 2H AH
3: TS 9S 8S 7S 6S 5S 4S 3S 2S AS
4: TC 8C 7C 6C 5C 4C 3C 2C AC"""
"""Hard mode: the nine of clubs alone on the board, every card it fits on covered for good
in the full hand, and no hand stack that can move: five bottoms, four hand spaces."""


def desturado_exhaustive(rules: Desturado, state: DesturadoState) -> str:
    """The verdict of a complete search over every legal move (no pruning at all)."""
    found = depth_first(RulesSpace(rules), state, Budget(nodes=200_000, memory=None))
    assert found.verdict != "unknown"
    return found.verdict


def test_desturado_a_bottom_with_nowhere_to_go_blocks_the_game() -> None:
    rules = Desturado(mode="hard")
    blocked = rules.from_text(NINE_ALONE)
    assert desturado_lost(blocked) and proved_lost(rules, blocked)
    assert desturado_exhaustive(rules, blocked) == "unsolvable"
    game = cardtable.Game(rules, blocked)  # a position made up for the proof
    result = solve(game, seconds=None)
    assert (result.verdict, result.nodes, result.moves) == ("unsolvable", 0, [])
    assert hint(game).status == "lost"


def test_desturado_near_misses_are_not_claimed() -> None:
    rules = Desturado(mode="hard")
    # The ten of clubs open on its own in the hand, its clubs on the board: the nine takes
    # the ten, the eight to ace take the nine.
    open_ten = rules.from_text(
        NINE_ALONE.replace("4: TC 8C 7C 6C 5C 4C 3C 2C AC", "4: TC").replace("b:", "b: 8C 7C 6C 5C 4C 3C 2C AC")
    )
    assert not desturado_lost(open_ten)
    assert desturado_exhaustive(rules, open_ten) == "solved"
    # An empty hand space and the spades on the board: the nine of clubs goes into the space
    # and the spades onto it (the matching: the nine of spades takes the nine of clubs).
    spare = rules.from_text(
        NINE_ALONE.replace("3: TS 9S 8S 7S 6S 5S 4S 3S 2S AS", "3: TS TC 8C 7C 6C 5C 4C 3C 2C AC")
        .replace("4: TC 8C 7C 6C 5C 4C 3C 2C AC", "4:")
        .replace("b:", "b: 9S 8S 7S 6S 5S 4S 3S 2S AS")
    )
    assert not desturado_lost(spare)
    assert desturado_exhaustive(rules, spare) == "solved"


def test_desturado_matching_counts_each_open_card_once() -> None:
    """Every board bottom has a card to take, but not one each: the seven of diamonds and
    the eight of clubs may both take only the eight of diamonds (the four of diamonds takes
    the five), so one bottom too many is left for the four full hand spaces, whose tens
    take nothing. A count of the bottoms with nothing to take would not see it."""
    rules = Desturado(mode="hard")
    crowded = rules.from_text(
        "desturado\na: 7D 6D 5D\nb: 4D 3D 2D AD\nc: 8C\n1: TD 9D 8D\n2: TH 9H 8H 7H 6H 5H 4H 3H 2H AH\n"
        "3: TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n4: TC 9C 7C 6C 5C 4C 3C 2C AC"
    )
    assert desturado_lost(crowded)
    assert desturado_exhaustive(rules, crowded) == "unsolvable"
    # The near miss: the nine of clubs open, for the eight of clubs to take.
    eased = rules.from_text(
        "desturado\na: 7D 6D 5D\nb: 4D 3D 2D AD\nc: 8C 7C 6C 5C 4C 3C 2C AC\n1: TD 9D 8D\n"
        "2: TH 9H 8H 7H 6H 5H 4H 3H 2H AH\n3: TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n4: TC 9C"
    )
    assert not desturado_lost(eased)
    assert desturado_exhaustive(rules, eased) == "solved"


@pytest.mark.parametrize("mode", ["easy", "medium", "hard"])
def test_desturado_no_deal_is_proved_lost_at_the_deal(mode: str) -> None:
    rules = Desturado(mode=mode)
    assert not any(desturado_lost(rules.deal(deal)) for deal in range(200))


@pytest.mark.parametrize("mode", ["easy", "medium", "hard"])
def test_desturado_no_winnable_position_is_proved_lost(mode: str) -> None:
    """Positions along random play: a position proved lost is never won by the complete
    search (the plain space, no bound), and some of each are seen."""
    rules = Desturado(mode=mode)
    space = space_for(rules)
    rng = random.Random(11)
    checked = {"lost": 0, "won": 0, "unsolvable": 0}
    for deal in range(120):
        state = rules.deal(deal)
        for _ in range(rng.randint(0, 10 if deal % 2 else 30)):
            moves = rules.legal_moves(state)
            if not moves:
                break
            state = rules.apply(state, rng.choice(moves))
        lost = desturado_lost(state)
        verdict = search(space, state, Budget(nodes=30_000)).verdict
        if verdict == "solved":
            assert not lost, rules.to_text(state)
            checked["won"] += 1
        checked["unsolvable"] += verdict == "unsolvable"
        checked["lost"] += lost
    assert checked["lost"] >= 3 and checked["won"] >= 10, checked


@pytest.mark.parametrize("mode", ["easy", "medium", "hard"])
def test_desturado_the_proving_space_agrees_with_the_plain_search(mode: str) -> None:
    """The solver's space (children proved lost left out) and the plain space reach the
    same verdict wherever both finish, on deals and on positions of random play."""
    rules = Desturado(mode=mode)
    plain, proving = space_for(rules), DesturadoProofSpace(rules)
    rng = random.Random(5)
    decided = fewer = 0
    for deal in range(80):
        state = rules.deal(deal)
        for _ in range(rng.randint(0, 12)):
            moves = rules.legal_moves(state)
            if not moves:
                break
            state = rules.apply(state, rng.choice(moves))
        a = search(plain, state, Budget(nodes=20_000))
        b = search(proving, state, Budget(nodes=20_000))
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, rules.to_text(state)
            decided += 1
            fewer += b.nodes < a.nodes
    assert decided >= 10 and fewer >= 1, (decided, fewer)

"""Issue 27, "Positions no deal can reach": a layout is read only if it is a position of the
game, one that some deal and some line of play can reach, as far as the rules of each game's
rulebook page ("Position text") check it; and every position play reaches is read back.

The issue's cases first (Klondike's 26 and 32 face-up cards that are no build, which broke the
move generator; six face-down cards on pile 1; thirteen in a Desturado column; a 58-card
Demonthief stock), then each rule of each game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import RANK, SUIT, card_text, make_card
from cardtable.core.errors import LayoutError
from cardtable.games import rules_for, specs
from cardtable.games.demonthief import Demonthief, DemonthiefState
from cardtable.games.deserto import Deserto
from cardtable.games.desturado import Desturado
from cardtable.games.klondike import Klondike, KlondikeState

VARIANTS = [(spec.name, dict(options)) for spec in specs() for options in spec.variants]


def refused(name: str, text: str, match: str, **options: Any) -> None:
    """``text`` is refused by the game's reader and by :func:`cardtable.new_game`, saying ``match``."""
    with pytest.raises(LayoutError, match=match) as caught:
        rules_for(name, **options).from_text(text)
    assert len(str(caught.value)) < 300
    with pytest.raises(LayoutError, match=match):
        cardtable.new_game(name, layout=text, **options)


# --- every position of play is read back ---------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_every_position_of_random_play_is_read_back(name: str, options: dict[str, Any]) -> None:
    rules = rules_for(name, **options)
    for deal in range(12):
        state = rules.deal(deal)
        rng = random.Random(deal)
        for _ in range(400):
            assert rules.from_text(rules.to_text(state)) == state
            moves = rules.legal_moves(state)
            if not moves:
                break
            state = rules.apply(state, rng.choice(moves))


@pytest.mark.parametrize("refill", [True, False])
def test_every_deserto_position_is_read_back_whatever_the_options(refill: bool) -> None:
    for players in (2, 3, 4):
        rules = Deserto(players=players, first=players - 1, refill_after_give=refill)
        for deal in range(10):
            state = rules.deal(deal)
            rng = random.Random(deal)
            while (moves := rules.legal_moves(state)) != []:
                assert rules.from_text(rules.to_text(state)) == state
                state = rules.apply(state, rng.choice(moves))
            assert rules.from_text(rules.to_text(state)) == state


# --- Klondike ---------------------------------------------------------------------------------


def klondike_text(state: KlondikeState) -> str:
    return Klondike().to_text(state)


def pile_of_face_up(count: int, build: bool) -> tuple[int, ...]:
    """A pile of ``count`` face-up cards: a build (K Q J ... of alternate colours) as far as it
    goes, or not (every second card's colour wrong)."""
    cards = [make_card(13 - k % 13, (k // 13 + (k % 2 if build else 0)) % 4) for k in range(count)]
    return tuple(cards)


def test_klondike_26_face_up_cards_that_are_no_build() -> None:
    # The issue: legal_moves() raised IndexError on such a pile. Now the reader refuses it.
    deck = list(range(52))
    pile = tuple(deck[:26])
    state = KlondikeState(
        tuple(deck[26:48]), (), (0, 0, 0, 0), (pile, *((c,) for c in deck[48:52]), (), ()), (0,) * 7, 0
    )
    refused("klondike", klondike_text(state), "tableau pile 1: .* is not a build down in alternate colours")


def test_klondike_32_face_up_cards() -> None:
    # The issue: with 32 face-up cards the generator offered 13:20, 20 cards with no king at their bottom.
    deck = list(range(52))
    state = KlondikeState(tuple(deck[32:52]), (), (0, 0, 0, 0), (tuple(deck[:32]), (), (), (), (), (), ()), (0,) * 7, 0)
    refused("klondike", klondike_text(state), "tableau pile 1")


def test_klondike_face_down_cards_at_most_as_dealt() -> None:
    state = Klondike().deal(0)
    text = klondike_text(state)
    # Six face-down cards on the first pile: move pile 7's face-down cards under pile 1's card.
    first, seventh = state.tableau[0], state.tableau[6]
    moved = state._replace(tableau=(seventh[:6] + first, *state.tableau[1:6], seventh[6:]), down=(6, 1, 2, 3, 4, 5, 0))
    refused("klondike", klondike_text(moved), r"tableau pile 1 holds 6 face-down cards, at most 0")
    assert Klondike().from_text(text) == state


def test_klondike_face_up_runs_must_be_builds() -> None:
    text = klondike_text(Klondike().deal(0))
    # Deal 0: pile 1 is TH, pile 2's top KS. KS on TH is no build.
    assert "\n1: TH\n" in text
    state = Klondike().from_text(text)
    king = state.tableau[1][-1]
    two = state._replace(
        tableau=((*state.tableau[0], king), state.tableau[1][:-1], *state.tableau[2:]), down=(0, 0, 2, 3, 4, 5, 6)
    )
    refused("klondike", klondike_text(two), "tableau pile 1: KS on TH is not a build down in alternate colours")


def test_klondike_stock_and_waste_hold_at_most_the_deal_s_stock() -> None:
    state = Klondike().deal(0)
    pile = state.tableau[1]  # one face-down card, one face-up
    more = state._replace(
        stock=state.stock + pile[:1],
        tableau=(state.tableau[0], pile[1:], *state.tableau[2:]),
        down=(0, 0, 2, 3, 4, 5, 6),
    )
    refused("klondike", klondike_text(more), "the stock and the waste holds 25 cards, at most 24")


def test_the_pysol_reader_checks_the_same() -> None:
    state = Klondike().deal(5)
    text = Klondike().to_text(state, "pysol")
    assert Klondike().from_text(text) == state
    lines = text.splitlines()
    lines[1] = "<" + lines[2].split()[0].strip("<>") + "> " + lines[1]  # pile 1 gets pile 2's face-down card
    lines[2] = " ".join(lines[2].split()[1:])
    refused("klondike", "\n".join(lines), "tableau pile 1 holds 1 face-down cards, at most 0")


# --- Desturado ---------------------------------------------------------------------------------


def test_desturado_thirteen_face_down_cards_in_a_column() -> None:
    rules = Desturado(mode="hard")
    state = rules.deal(0)
    a, b = state.columns[0], state.columns[1]
    moved = state._replace(columns=(b[:2] + a, b[2:], *state.columns[2:]), down=(13, 9, *state.down[2:]))
    refused("desturado", rules.to_text(moved), "column a holds 13 face-down cards, at most 11", mode="hard")


@pytest.mark.parametrize("mode", ["easy", "medium", "hard"])
def test_desturado_face_down_cards_at_most_as_the_mode_deals(mode: str) -> None:
    rules = Desturado(mode=mode)
    state = rules.deal(1)
    extra = state.hand[0]
    moved = state._replace(
        columns=(extra + state.columns[0], *state.columns[1:]),
        down=(rules.height, *state.down[1:]),
        hand=((), *state.hand[1:]),
    )
    refused("desturado", rules.to_text(moved), f"at most {rules.height - 1}: mode {mode} deals", mode=mode)


def test_desturado_units_and_hand_stacks_are_fits() -> None:
    rules = Desturado(mode="hard")
    s = rules.deal(0)
    # Hard deal 0: column tops 9H 8H 2D, hand 6S 5C 3S 9C.
    assert [card_text(c[-1]) for c in s.columns] == ["9H", "8H", "2D"]
    assert [card_text(h[0]) for h in s.hand] == ["6S", "5C", "3S", "9C"]
    unit = s._replace(columns=(s.columns[0] + s.hand[0], *s.columns[1:]), hand=((), *s.hand[1:]))
    refused("desturado", rules.to_text(unit), "column a: 6S on 9H is not a fit", mode="hard")
    stack = s._replace(hand=(s.hand[0] + s.hand[1], (), *s.hand[2:]))
    refused("desturado", rules.to_text(stack), "hand space 1: 5C on 6S is not a fit", mode="hard")
    fits = s._replace(hand=(s.hand[1] + s.hand[0], (), *s.hand[2:]))  # 6S on 5C: neither rank nor suit
    refused("desturado", rules.to_text(fits), "hand space 1: 6S on 5C", mode="hard")
    good = s._replace(hand=(s.hand[0] + s.hand[2], s.hand[1], (), s.hand[3]))  # 3S on 6S: same suit, lower
    assert rules.from_text(rules.to_text(good)) == good


# --- Demonthief --------------------------------------------------------------------------------


def demonthief(state: DemonthiefState, name: str = "demonthief") -> str:
    return rules_for(name).to_text(state)


def test_demonthief_a_58_card_stock() -> None:
    rules = Demonthief()
    s = rules.deal(0)
    pile = s.tableau[8]
    bigger = s._replace(stock=s.stock + s.reserve[:12], reserve=s.reserve[12:])
    refused("demonthief", demonthief(bigger), "the stock and the waste holds 58 cards, at most 46")
    assert len(pile) == 8


def test_demonthief_reserve_at_most_13() -> None:
    s = Demonthief().deal(0)
    bigger = s._replace(stock=s.stock[1:], reserve=s.stock[:1] + s.reserve)
    refused("demonthief", demonthief(bigger), "the reserve holds 14 cards, at most 13")


def test_demonthief_builds_above_the_dealt_cards() -> None:
    s = Demonthief().deal(0)
    # A stock card on a left pile (one dealt card) or on a right pile (eight) is built only if it fits.
    card = s.stock[-1]
    left = s._replace(stock=s.stock[:-1], tableau=((*s.tableau[0], card), *s.tableau[1:]))
    fits_left = Demonthief().from_text(demonthief(left)) if _lies(s.tableau[0][-1], card) else None
    if fits_left is None:
        refused("demonthief", demonthief(left), "tableau pile 1: .* so no play can have put it there")
    right = s._replace(stock=s.stock[:-1], tableau=(*s.tableau[:8], (*s.tableau[8], card)))
    if not _lies(s.tableau[8][-1], card):
        refused("demonthief", demonthief(right), "tableau pile 9: .* so no play can have put it there")
    # The eight dealt cards of a right pile may be anything; so may the one card of a left pile.
    assert Demonthief().from_text(demonthief(s)) == s


def _lies(under: int, card: int) -> bool:
    from cardtable.games.demonthief import _lies_on

    return _lies_on(under, card)


def built_on(j: int, same_suit: bool, rank: int | None = None) -> DemonthiefState:
    """A deal with a card of its stock moved onto tableau pile ``j``, one rank lower than the
    pile's top card (a king on an ace) and of the same suit or of the other colour; with
    ``rank``, the pile's top card has that rank."""
    for deal in range(500):
        s = Demonthief().deal(deal)
        top = s.tableau[j][-1]
        if rank is not None and RANK[top] != rank:
            continue
        for k, card in enumerate(s.stock):
            if _lies(top, card) and (SUIT[card] == SUIT[top]) == same_suit:
                piles = (*s.tableau[:j], (*s.tableau[j], card), *s.tableau[j + 1 :])
                return s._replace(stock=s.stock[:k] + s.stock[k + 1 :], tableau=piles)
    raise AssertionError("no such deal")


@pytest.mark.parametrize("same_suit", [False, True])
@pytest.mark.parametrize("j", [0, 8])
def test_demonthief_builds_are_what_the_two_sides_make(j: int, same_suit: bool) -> None:
    # Above the dealt cards a card lies one rank lower than the one under it, of the other
    # colour (a left build, or a left run moved right) or of the same suit (the other way).
    state = built_on(j, same_suit)
    assert Demonthief().from_text(demonthief(state)) == state
    wrapped = built_on(j, same_suit, rank=1)  # a king on an ace
    assert RANK[wrapped.tableau[j][-1]] == 13
    assert Demonthief().from_text(demonthief(wrapped)) == wrapped


def test_demonthief_redeals_used_within_the_game_s_redeals() -> None:
    text = demonthief(Demonthief().deal(1)).replace("redeals used: 0", "redeals used: 1")
    refused("demonthief", text, "redeals used in demonthief must be 0, not 1")


# --- Deserto ------------------------------------------------------------------------------------


def deserto_text(players: int = 2, **changes: str) -> str:
    """Deserto deal 5 with some lines changed (``hand_0="T T"``: the line ``hand 0``)."""
    text = Deserto(players=players).to_text(Deserto(players=players).deal(5))
    lines = text.splitlines()
    for key, value in changes.items():
        name = key.replace("_", " ")
        lines = [f"{name}: {value}" if line.partition(":")[0] == name else line for line in lines]
    return "\n".join(lines)


def test_deserto_deck_at_most_what_the_deal_leaves() -> None:
    rules = Deserto()
    s = rules.deal(5)
    state = s._replace(deck=s.deck + s.hands[1], hands=(s.hands[0], ()))
    refused("deserto", rules.to_text(state), "the deck holds 48 cards, at most 45")


def test_deserto_hands_full_while_the_deck_holds_cards() -> None:
    rules = Deserto()
    s = rules.deal(5)
    state = s._replace(captured=((), s.hands[1][:1]), hands=(s.hands[0], s.hands[1][1:]))
    refused("deserto", rules.to_text(state), "hand 1 holds 2 cards while the deck holds cards")
    assert Deserto(refill_after_give=False).from_text(rules.to_text(state)) == state


def test_deserto_area_piles_no_card_on_its_own_kind() -> None:
    rules = Deserto()
    s = rules.deal(5)
    pair = next((k, k) for k in (0, 1, 2, 3) if s.deck.count(k) >= 2)
    deck = list(s.deck)
    for k in pair:
        deck.remove(k)
    state = s._replace(deck=tuple(deck), area=(pair, (), (), ()))
    refused("deserto", rules.to_text(state), "position 1: a .* lies on a")


@pytest.mark.parametrize(
    ("area", "match"),
    [
        ("VTOO", "thief at 2 next to a vizier at 1"),
        ("OTOG", "treasure at 4 next to a thief at 2"),
        ("VVVV", "four viziers"),
    ],
)
def test_deserto_area_tops_that_play_never_leaves(area: str, match: str) -> None:
    rules = Deserto()
    s = rules.deal(5)
    deck = list(s.deck)
    tops = tuple(("OVTG".index(c),) for c in area)
    for (k,) in tops:
        deck.remove(k)
    state = s._replace(deck=tuple(deck), area=tops)
    refused("deserto", rules.to_text(state), match)


def test_deserto_stuck_records_play_can_make() -> None:
    rules = Deserto()
    text = rules.to_text(rules.deal(5))
    for record, match in (("1 of V", "no area leaves exactly V unplaceable"), ("1 of O V T G", "no area leaves")):
        refused("deserto", text.replace("stuck 0:", f"stuck 0: {record}", 1), match)


def test_deserto_none_to_move_only_when_everything_is_played() -> None:
    text = deserto_text(to_move="none")
    refused("deserto", text, "some hand holds cards")


def test_deserto_layouts_of_other_first_seats_and_refill_rules_are_read() -> None:
    # The seat to move is not checked against the `first` option (see the rulebook), and with
    # refill_after_give off a hand may be short while the deck holds cards.
    rules = Deserto(players=3, first=2, refill_after_give=False)
    state = rules.deal(7)
    rng = random.Random(7)
    while (moves := rules.legal_moves(state)) != [] and state.deck:
        gifts = [m for m in moves if str(m).startswith("g")]
        state = rules.apply(state, rng.choice(gifts or moves))
        assert Deserto(players=3, refill_after_give=False).from_text(rules.to_text(state)) == state


# --- Devil's Square -------------------------------------------------------------------------------


def test_devils_square_piles_that_could_not_arise() -> None:
    rules = rules_for("devils-square")
    text = rules.to_text(rules.deal(0))
    first = text.splitlines()[1]  # a1: 4GC
    second = text.splitlines()[2]
    card, other = first.split()[1], second.split()[1]
    both = text.replace(first, f"a1: {card} {other}").replace(second, "b1:")
    refused("devils-square", both, "could not arise|empty while the draw pile has cards")


# --- what the engine relies on ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_legal_moves_never_raise_on_an_accepted_layout(name: str, options: dict[str, Any]) -> None:
    """Defensive: whatever layout is accepted (real positions with cards swapped, moved, turned,
    numbers changed...), its legal moves, their application and the outcome raise nothing, and
    every legal move reads back from its text (the fuzz suite does the same with more inputs)."""
    from tests.core.test_fuzz_inputs import check_position, mutate_layout, played

    rng = random.Random(name)
    accepted = 0
    for k in range(60):
        text = played(name, options, k, rng.randrange(60)).to_text()
        text = mutate_layout(text, rng) if k % 3 else text
        try:
            game = cardtable.new_game(name, layout=text, **options)
        except LayoutError:
            continue
        accepted += 1
        check_position(game)
    assert accepted

"""Deserto, tested rule by rule from ``cardtable/rulebook/deserto.md``.

Positions are written as layouts (see :func:`layout`): lines left out are
empty, ``to move`` is seat 0 unless given, and every card not named lies at
the bottom of the deck (a ``deck:`` line names the cards on top of it, top
last), or in the line named by ``rest``.
"""

from __future__ import annotations

import itertools
import json
import random
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.errors import IllegalMoveError, LayoutError, MoveParseError, NotYourTurnError, OptionError
from cardtable.core.multiplayer import MultiplayerGame, Result
from cardtable.core.shuffle import shuffled
from cardtable.games import deserto as deserto_module
from cardtable.games.deserto import (
    GIFT,
    GIVE,
    KINDS,
    NEIGHBOURS,
    OASIS,
    PLACE,
    THIEF,
    TREASURE,
    VIZIER,
    Deserto,
    DesertoEvent,
    DesertoMove,
    DesertoState,
    DesertoView,
    arrange,
    parse_kind,
)
from tests.helpers import distinct_positions, perft

PLAYERS = (2, 3, 4)
RULES = {n: Deserto(players=n) for n in PLAYERS}
DECK = Deserto().deck()
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def layout(body: str, players: int = 2, rest: str = "deck") -> str:
    """Layout text from ``name: cards`` lines (see the module docstring)."""
    given: dict[str, str] = {}
    for line in textwrap.dedent(body).strip().splitlines():
        name, _, value = line.partition(":")
        given[name.strip()] = value.strip()
    names = ["to move", "deck", "1", "2", "3", "4"]
    names += [f"{line} {s}" for s in range(players) for line in ("hand", "captured", "gifts", "stuck")]
    assert set(given) <= set(names), f"unknown lines {set(given) - set(names)}"
    named = Counter(
        parse_kind(token)
        for name, value in given.items()
        if name != "to move" and not name.startswith("stuck")
        for token in value.split()
    )
    left = Counter(DECK) - named
    assert not named - Counter(DECK), f"too many cards: {named - Counter(DECK)}"
    spare = " ".join(KINDS[k] for k in sorted(left.elements()))
    given.setdefault("to move", "0")
    if rest == "deck":
        given["deck"] = f"{spare} {given.get('deck', '')}"
    else:
        given[rest] = f"{given.get(rest, '')} {spare}"
    given["deck"] = " ".join(f"<{t}>" for t in given.get("deck", "").split())
    return "deserto\n" + "\n".join(f"{n}: {given.get(n, '')}" for n in names)


def position(body: str, players: int = 2, rest: str = "deck", **options: Any) -> DesertoState:
    """The position of :func:`layout` text, read without the checks that a deal and play reach it
    (the spare cards make a deck bigger than any deal leaves): the rules play any position."""
    return Deserto(players=players, **options)._read(layout(body, players, rest))


def legal(state: DesertoState, players: int = 2) -> list[str]:
    """The legal moves as text, in the generator's order."""
    return [str(m) for m in RULES[players].legal_moves(state)]


def play(state: DesertoState, text: str, players: int = 2, **options: Any) -> DesertoState:
    """The position after a move, checking it is legal first."""
    rules = Deserto(players=players, **options)
    move = rules.parse_move(text)
    assert move in rules.legal_moves(state), f"{text} is not legal: {rules.explain_illegal(state, move)}"
    return rules.apply(state, move)


def explain(state: DesertoState, text: str, players: int = 2) -> str:
    """explain_illegal for a move that must not be legal."""
    rules = RULES[players]
    move = rules.parse_move(text)
    assert move not in rules.legal_moves(state), f"{text} is legal"
    return rules.explain_illegal(state, move)


def kinds(text: str) -> tuple[int, ...]:
    """Cards from their letters, e.g. ``kinds("V T")``."""
    return tuple(parse_kind(t) for t in text.split())


def places(state: DesertoState, kind: str, players: int = 2) -> list[int]:
    """The positions (1-4) where a card of ``kind`` may be placed now."""
    return [int(m[1]) for m in legal(state, players) if m[0] == kind]


# --- an independent reading of the rules, to check the generator against ----------------

# Positions as (row, column): 1 (0, 0), 2 (0, 1), 3 (1, 0), 4 (1, 1); next to = sharing a side.
CELL = ((0, 0), (0, 1), (1, 0), (1, 1))


def ref_next_to(p: int, q: int) -> bool:
    (r1, c1), (r2, c2) = CELL[p], CELL[q]
    return abs(r1 - r2) + abs(c1 - c2) == 1


def ref_may_place(area: tuple[tuple[int, ...], ...], kind: int, p: int) -> bool:
    filled = [q for q in range(4) if area[q]]
    if len(filled) < 4:
        if area[p]:
            return False
        if filled and not any(ref_next_to(p, q) for q in filled):
            return False
    elif area[p][-1] == kind:
        return False
    beside = [area[q][-1] for q in range(4) if ref_next_to(p, q) and area[q]]
    if kind == THIEF and VIZIER in beside:
        return False
    return not (kind == TREASURE and THIEF in beside)


def ref_legal(rules: Deserto, state: DesertoState) -> list[DesertoMove]:
    if state.turn < 0:
        return []
    hand = state.hands[state.turn]
    found = [DesertoMove(k, p) for k in sorted(set(hand)) for p in range(4) if ref_may_place(state.area, k, p)]
    return found or [DesertoMove(k, GIVE) for k in sorted(set(hand))]


def ref_apply(rules: Deserto, state: DesertoState, move: DesertoMove) -> DesertoState:
    n = rules.players
    seat = state.turn
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    area = [list(p) for p in state.area]
    captured = [list(c) for c in state.captured]
    gifts = [list(g) for g in state.gifts]
    stuck = list(state.stuck)
    hands[seat].remove(move.kind)
    if move.pos == GIVE:
        gifts[(seat - 1) % n].append(move.kind)
        unplaceable = [k for k in range(4) if not any(ref_may_place(state.area, k, p) for p in range(4))]
        stuck[seat] = (sum(1 << k for k in unplaceable), len(hands[seat]))
        draw = rules.options["refill_after_give"]
    else:
        area[move.pos].append(move.kind)
        prey = {VIZIER: THIEF, THIEF: TREASURE}.get(move.kind)
        won = [q for q in range(4) if ref_next_to(move.pos, q) and area[q] and area[q][-1] == prey]
        if all(p and p[-1] == VIZIER for p in area):
            won = [0, 1, 2, 3]
        for q in won:
            captured[seat] += area[q]
            area[q] = []
        mask, held = stuck[seat]
        if held and mask & (1 << move.kind):
            stuck[seat] = (mask, held - 1)
        draw = True
    while draw and deck and len(hands[seat]) < 3:
        hands[seat].append(deck.pop())
    turn = -1
    for nxt in [(seat + i) % n for i in range(1, n + 1)]:
        # An empty hand is skipped once the deck is empty; before that, it draws up to 3.
        if not hands[nxt]:
            while deck and len(hands[nxt]) < 3:
                hands[nxt].append(deck.pop())
        if hands[nxt]:
            turn = nxt
            break
    return DesertoState(
        turn,
        tuple(tuple(sorted(h)) for h in hands),
        tuple(deck),
        tuple(tuple(p) for p in area),
        tuple(tuple(sorted(c)) for c in captured),
        tuple(tuple(sorted(g)) for g in gifts),
        tuple(stuck),
    )


def random_game(rules: Deserto, deal: int, seed: int) -> list[DesertoState]:
    """Every position of a seeded random game to its end."""
    rng = random.Random(seed)
    state = rules.deal(deal)
    line = [state]
    while state.turn >= 0:
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
        line.append(state)
    return line


ALL_OPTIONS = [
    {"players": n, "first": f, "refill_after_give": refill}
    for n in PLAYERS
    for f in (0, n - 1)
    for refill in (True, False)
]


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_legal_moves_and_apply_match_the_rules_in_play(options: dict[str, Any]) -> None:
    rules = Deserto(**options)
    for deal in range(15):
        for state in random_game(rules, deal, seed=deal):
            moves = rules.legal_moves(state)
            assert moves == ref_legal(rules, state)
            for move in moves:
                assert rules.apply(state, move) == ref_apply(rules, state, move)


# --- cards and the deal ----------------------------------------------------------------


def test_the_deck() -> None:
    assert len(DECK) == 51
    assert Counter(DECK) == {OASIS: 6, VIZIER: 15, THIEF: 15, TREASURE: 15}
    assert "".join(KINDS[c] for c in DECK) == "O" * 6 + "V" * 15 + "T" * 15 + "G" * 15
    assert [Deserto().card_text(k) for k in range(4)] == ["O", "V", "T", "G"]
    assert [parse_kind(t) for t in "ovtgOVTG"] == [0, 1, 2, 3] * 2
    with pytest.raises(LayoutError, match="not a deserto card"):
        parse_kind("X")


@pytest.mark.parametrize(("players", "first"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1)])
def test_dealing_order(players: int, first: int) -> None:
    # The shuffled deck's last card first; three rounds, one card a seat, from the first seat on.
    rules = Deserto(players=players, first=first)
    top_first = shuffled(DECK, 99)[::-1]
    state = rules.deal(99)
    for i in range(players):
        seat = (first + i) % players
        assert state.hands[seat] == tuple(sorted(top_first[i : 3 * players : players]))
    assert state.deck == tuple(top_first[3 * players :][::-1])  # the top card (drawn first) is last
    assert state.turn == first
    assert state.area == ((),) * 4
    assert state.captured == state.gifts == ((),) * players
    assert state.stuck == ((0, 0),) * players
    assert Counter(rules.cards(state)) == Counter(DECK)


def test_deal_zero_is_fixed_forever() -> None:
    text = RULES[2].to_text(RULES[2].deal(0))
    assert text == textwrap.dedent("""\
        deserto
        to move: 0
        deck: <G> <G> <T> <G> <V> <V> <T> <G> <G> <O> <V> <V> <V> <G> <G> <O> <V> <V> <V> <T> <G> <G> <O> <G> \
<T> <O> <T> <G> <O> <T> <T> <G> <G> <T> <T> <V> <T> <V> <T> <V> <V> <T> <V> <V> <T>
        1:
        2:
        3:
        4:
        hand 0: T G G
        captured 0:
        gifts 0:
        stuck 0:
        hand 1: O V T
        captured 1:
        gifts 1:
        stuck 1:""")


@pytest.mark.parametrize("players", PLAYERS)
def test_deals_have_the_right_shape_and_differ(players: int) -> None:
    rules = RULES[players]
    states = [rules.deal(n) for n in range(40)]
    assert len(set(states)) == 40
    for state in states:
        assert [len(h) for h in state.hands] == [3] * players
        assert len(state.deck) == 51 - 3 * players
        assert all(h == tuple(sorted(h)) for h in state.hands)


# --- options ---------------------------------------------------------------------------


def test_options_and_their_defaults() -> None:
    assert Deserto().options == {"players": 2, "first": 0, "refill_after_give": True}
    assert Deserto(players="4", first="3", refill_after_give="off").options == {
        "players": 4,
        "first": 3,
        "refill_after_give": False,
    }
    for bad in ({"players": 1}, {"players": 5}, {"first": -1}, {"refill_after_give": "maybe"}):
        with pytest.raises(OptionError):
            Deserto(**bad)


@pytest.mark.parametrize(("players", "first"), [(2, 2), (3, 3), (4, 4), (2, 7)])
def test_the_first_seat_must_be_a_seat(players: int, first: int) -> None:
    with pytest.raises(OptionError, match=f"first.*0 to {players - 1}"):
        Deserto(players=players, first=first)
    with pytest.raises(OptionError):
        cardtable.new_game("deserto", deal=1, players=players, first=first)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_option(first: int) -> None:
    game = cardtable.new_game("deserto", deal=3, players=3, first=first)
    assert game.to_move == first
    game.play(game.legal_moves()[0])
    assert game.to_move == (first + 1) % 3  # play passes to the next seat


# --- the area: the incomplete square ---------------------------------------------------


def test_neighbours_share_a_side_never_a_diagonal() -> None:
    assert NEIGHBOURS == ((1, 2), (0, 3), (0, 3), (1, 2))
    for p in range(4):
        assert len(NEIGHBOURS[p]) == 2
        assert all(ref_next_to(p, q) == (q in NEIGHBOURS[p]) for q in range(4))
        assert all(p in NEIGHBOURS[q] for q in NEIGHBOURS[p])


def test_an_empty_area_takes_a_card_anywhere() -> None:
    state = position("hand 0: O V G")
    assert legal(state) == ["O1", "O2", "O3", "O4", "V1", "V2", "V3", "V4", "G1", "G2", "G3", "G4"]


@pytest.mark.parametrize(
    ("filled", "allowed"),
    [
        ({1}, [2, 3]),
        ({2}, [1, 4]),
        ({3}, [1, 4]),
        ({4}, [2, 3]),
        ({1, 2}, [3, 4]),
        ({1, 4}, [2, 3]),  # a diagonal pair: both holes are next to both cards
        ({2, 3}, [1, 4]),
        ({1, 2, 3}, [4]),
        ({2, 3, 4}, [1]),
    ],
)
def test_an_incomplete_square_takes_a_card_into_an_empty_position_next_to_a_filled_one(
    filled: set[int], allowed: list[int]
) -> None:
    state = position("\n".join(f"{p}: O" for p in filled) + "\nhand 0: V")
    assert places(state, "V") == allowed
    for p in range(1, 5):
        if p in filled:
            assert explain(state, f"V{p}") == (
                "the square is incomplete: a card goes into an empty position next to a filled one "
                f"(position {p} is filled)"
            )


def test_an_empty_position_next_to_no_card_is_refused() -> None:
    state = position("1: O\nhand 0: V")
    assert explain(state, "V4") == (
        "the square is incomplete: a card goes into an empty position next to a filled one "
        "(position 4 is next to no card)"
    )


def test_a_complete_square_takes_a_card_on_top_of_a_pile() -> None:
    state = position("1: O\n2: G\n3: G V\n4: O\nhand 0: V\nhand 1: O")
    assert legal(state) == ["V1", "V2", "V4"]  # not V3: a vizier on a vizier
    after = play(state, "V4")
    assert after.area[3] == kinds("O V")  # on top of the pile
    assert legal(after) == ["O2", "O3", "O4"]  # the other seat: on any pile but the oasis


def test_a_capture_opens_the_square_again() -> None:
    state = position("1: O\n2: T\n3: G\n4: O\nhand 0: V\nhand 1: O G")
    after = play(state, "V1")  # covers the oasis at 1, wins the thief at 2
    assert after.area == (kinds("O V"), (), kinds("G"), kinds("O"))
    # The square is incomplete: the next card must fill the hole, not go on a pile.
    assert legal(after) == ["O2", "G2"]


# --- rule 2: forbidden placements ------------------------------------------------------------


def test_a_thief_may_not_go_next_to_a_vizier() -> None:
    state = position("1: V\nhand 0: T")
    assert places(state, "T") == [] and legal(state) == ["gT"]
    assert explain(state, "T2") == "rule 2: a thief may not go next to a vizier (position 1 shows a vizier)"
    assert explain(state, "T3") == "rule 2: a thief may not go next to a vizier (position 1 shows a vizier)"


def test_a_treasure_may_not_go_next_to_a_thief() -> None:
    state = position("1: T\nhand 0: G")
    assert legal(state) == ["gG"]
    assert explain(state, "G2") == "rule 2: a treasure may not go next to a thief (position 1 shows a thief)"


def test_the_other_way_round_is_a_capture_not_a_fault() -> None:
    # A vizier may go next to a thief, a thief next to a treasure: they win the piles.
    assert places(position("1: T\nhand 0: V"), "V") == [2, 3]
    assert places(position("1: G\nhand 0: T"), "T") == [2, 3]


@pytest.mark.parametrize("kind", "OVTG")
def test_a_card_may_not_go_on_a_card_of_the_same_kind(kind: str) -> None:
    # Every top an oasis but position 4, which shows the kind; nothing else forbids the placement.
    state = position(f"1: O\n2: O\n3: O\n4: {kind}\nhand 0: {kind}")
    name = {"O": "oasis", "V": "vizier", "T": "thief", "G": "treasure"}[kind]
    expected = f"rule 2: a card may not go on a pile whose top card is of the same kind (position 4 shows a {name})"
    assert explain(state, f"{kind}4") == expected
    assert places(state, kind) == ([] if kind == "O" else [1, 2, 3])


def test_other_pairs_of_kinds_may_be_neighbours() -> None:
    # Oases go next to anything; viziers next to treasures; thieves next to thieves, treasures next to treasures.
    for hand, top in [("O", "V"), ("O", "T"), ("O", "G"), ("V", "G"), ("V", "V"), ("T", "T"), ("G", "G"), ("G", "V")]:
        assert places(position(f"1: {top}\nhand 0: {hand}"), hand) == [2, 3], (hand, top)


def test_next_to_reads_the_neighbours_top_cards_only() -> None:
    # A vizier covered by an oasis at 1 does not stop a thief at 2; a visible vizier at 4 does.
    state = position("1: V O\n2: G\n3: O\n4: O\nhand 0: T")
    assert places(state, "T") == [1, 2, 3, 4]
    state = position("1: O\n2: G\n3: O\n4: V\nhand 0: T")
    assert places(state, "T") == [1, 4]  # 4: a thief covers the vizier
    assert explain(state, "T2") == "rule 2: a thief may not go next to a vizier (position 4 shows a vizier)"


def test_a_thief_may_cover_a_vizier() -> None:
    state = position("1: V\n2: O\n3: O\n4: O\nhand 0: T")
    after = play(state, "T1")
    assert after.area[0] == kinds("V T")


def test_a_treasure_may_cover_a_thief() -> None:
    state = position("1: T\n2: O\n3: O\n4: O\nhand 0: G")
    after = play(state, "G1")
    assert after.area[0] == kinds("T G")


def test_diagonals_are_not_next_to() -> None:
    # A vizier at 4 is diagonal to 1: a thief may go on 1; a vizier on 4 does not win the thief at 1.
    state = position("1: O\n2: G\n3: G\n4: V\nhand 0: T")
    assert "T1" in legal(state)
    state = position("1: T\n2: O\n3: O\n4: G\nhand 0: V")
    after = play(state, "V4")
    assert after.area == (kinds("T"), kinds("O"), kinds("O"), kinds("G V")) and after.captured[0] == ()


# --- rule 3: captures ------------------------------------------------------------------------


def test_a_vizier_wins_a_neighbouring_pile_topped_by_a_thief() -> None:
    state = position("1: O G T\n2: O\n3: O\n4: T\nhand 0: V")
    after = play(state, "V2")
    # 1 (next to 2, thief on top) is won whole; 4 (next to 2, thief) too.
    assert after.area == ((), kinds("O V"), kinds("O"), ())
    assert after.captured[0] == kinds("O T T G")  # winnings are kept sorted: O V T G


def test_a_thief_wins_a_neighbouring_pile_topped_by_a_treasure() -> None:
    state = position("1: V G\nhand 0: T")
    after = play(state, "T2")
    assert after.area == ((), kinds("T"), (), ())  # the placed card stays
    assert after.captured[0] == kinds("V G")


def test_two_piles_at_once() -> None:
    state = position("1: G\n4: T G\n3: O\nhand 0: T")
    after = play(state, "T2")  # next to 1 and 4, both topped by a treasure
    assert after.area == ((), kinds("T"), kinds("O"), ())
    assert after.captured[0] == kinds("T G G")


def test_no_capture_by_oasis_or_treasure_or_of_other_kinds() -> None:
    state = position("1: T\n2: O\n4: G\nhand 0: O")
    after = play(state, "O3")  # an oasis wins nothing
    assert after.captured[0] == () and all(after.area)
    after = play(position("1: G\nhand 0: V O"), "V2")  # a vizier does not win a treasure
    assert after.captured[0] == () and after.area[0] == kinds("G")
    after = play(position("1: V\nhand 0: G O"), "G2")  # nor a treasure a vizier
    assert after.captured[0] == () and after.area[0] == kinds("V")
    after = play(position("1: T\nhand 0: T O"), "T2")  # nor a thief a thief
    assert after.captured[0] == () and after.area[0] == kinds("T")


def test_captured_cards_go_to_the_player_who_placed() -> None:
    state = position("to move: 1\n1: T\nhand 1: V", players=3)
    after = play(state, "V2", players=3)
    assert after.captured == ((), kinds("T"), ())


# --- rule 4: four viziers ----------------------------------------------------------------------


def test_four_viziers_win_the_whole_area() -> None:
    state = position("1: O V\n2: T V\n3: V\n4: G O\nhand 0: V")
    after = play(state, "V4")
    assert after.area == ((), (), (), ())
    assert after.captured[0] == kinds("O O V V V V T G")


def test_four_viziers_when_filling_the_last_hole() -> None:
    state = position("1: V\n2: V\n3: G V\nhand 0: V")
    after = play(state, "V4")
    assert after.area == ((), (), (), ()) and after.captured[0] == kinds("V V V V G")


def test_three_viziers_are_not_four() -> None:
    state = position("1: V\n2: V\n3: V\n4: G\nhand 0: O")
    after = play(state, "O4")
    assert after.captured[0] == () and after.area[3] == kinds("G O")


# --- rule 5: giving a card ----------------------------------------------------------------------


def test_a_player_who_can_place_must_place() -> None:
    state = position("1: V\nhand 0: T O")
    assert legal(state) == ["O2", "O3"]
    assert explain(state, "gT") == "rule 5: you can place a card (e.g. O2), so you may not give one"


def test_a_player_who_cannot_place_gives_any_card_to_the_previous_seat() -> None:
    # Every top is a thief: no thief (same kind) and no treasure (next to a thief) can be placed.
    state = position("to move: 0\n1: T\n2: T\n3: T\n4: T\nhand 0: T T G\nhand 1: O", players=3)
    assert legal(state, 3) == ["gT", "gG"]  # one gift per kind held
    for move, hand in (("gT", "T G"), ("gG", "T T")):
        after = play(state, move, players=3, refill_after_give=False)
        assert after.gifts == ((), (), kinds(move[1]))  # seat 0 gives to seat 2, the seat before it
        assert after.hands[0] == kinds(hand)
        assert after.turn == 1


def test_the_previous_seat_of_a_later_seat() -> None:
    state = position("to move: 2\n1: V\n2: V\n3: V\n4: O\nhand 2: T", players=4)
    after = play(state, "gT", players=4)
    assert after.gifts == ((), kinds("T"), (), ())


def test_giving_a_card_not_held_is_refused() -> None:
    state = position("1: V\n2: V\n3: V\n4: O\nhand 0: T")
    assert explain(state, "gG") == "seat 0 holds no treasure"
    assert explain(state, "V2") == "seat 0 holds no vizier"


def test_gifts_count_for_the_receiver() -> None:
    state = position("to move: 1\n1: V\n2: V\n3: V\n4: O\nhand 1: T", rest="captured 1")
    after = play(state, "gT")
    assert after.turn == -1
    result = RULES[2].result(after)
    assert result is not None and result.scores[0] == 1


# --- rule 6: drawing ----------------------------------------------------------------------------


def test_drawing_after_placing() -> None:
    state = position("hand 0: V T O\nhand 1: O\ndeck: G O T")  # T is the top card
    after = play(state, "V1")
    assert after.hands[0] == kinds("O T T") and after.deck[-2:] == kinds("G O")


def test_drawing_up_to_three_after_several_turns_without_drawing() -> None:
    state = position("hand 0: V\ndeck: G O T", refill_after_give=False)
    after = play(state, "V1", refill_after_give=False)
    assert after.hands[0] == kinds("O T G")  # draws three: back to 3 cards


def test_drawing_stops_when_the_deck_is_empty() -> None:
    state = position("hand 0: V O\nhand 1: O\ndeck: T", rest="captured 1")
    after = play(state, "V1")
    assert after.hands[0] == kinds("O T") and after.deck == ()


@pytest.mark.parametrize("refill", [True, False])
def test_drawing_after_giving_follows_the_option(refill: bool) -> None:
    state = position("1: V\n2: V\n3: V\n4: O\nhand 0: T T\nhand 1: T\ndeck: G O", refill_after_give=refill)
    after = play(state, "gT", refill_after_give=refill)
    assert after.hands[0] == (kinds("O T G") if refill else kinds("T"))
    assert len(after.deck) == len(state.deck) - (2 if refill else 0)


def test_drawing_after_placing_whatever_the_option() -> None:
    state = position("hand 0: V T\ndeck: G O", refill_after_give=False)
    assert play(state, "V1", refill_after_give=False).hands[0] == kinds("O T G")


# --- the end: empty deck, skipped seats, end and score ---------------------------------------


def test_play_goes_on_when_the_deck_is_empty_and_empty_hands_are_skipped() -> None:
    body = "to move: 0\nhand 0: O\nhand 1:\nhand 2: O V\ndeck:"
    state = position(body, players=3, rest="captured 1")
    after = play(state, "O1", players=3)
    assert after.hands[0] == () and after.turn == 2  # seat 1 has no cards: skipped
    after = play(after, "V2", players=3)
    assert after.turn == 2  # seat 2 alone holds cards: it plays again
    after = play(after, "O3", players=3)
    assert after.turn == -1 and RULES[3].legal_moves(after) == [] and RULES[3].to_move(after) is None


def test_an_empty_hand_draws_when_its_turn_comes_while_the_deck_has_cards() -> None:
    # With refill_after_give off a seat can give its last card away. The rules skip empty
    # hands only once the deck is empty, so this seat draws up to 3 as its next turn begins.
    state = position("to move: 1\n1: V\n2: V\n3: V\n4: O\nhand 1: T\nhand 0: V O\ndeck: G", refill_after_give=False)
    after = play(state, "gT", refill_after_give=False)
    assert after.hands[1] == () and after.turn == 0
    deck = len(after.deck)
    after = play(after, "O1", refill_after_give=False)
    assert len(after.hands[0]) == 3  # seat 0 refilled after placing: 2 cards from the deck
    assert after.turn == 1 and len(after.hands[1]) == 3  # seat 1 drew 3 as its turn began
    assert len(after.deck) == deck - 5
    # Every hand empty but the deck is not: the next seat draws and play goes on.
    state = position("to move: 1\n1: V\n2: V\n3: V\n4: O\nhand 1: T", refill_after_give=False)
    after = play(state, "gT", refill_after_give=False)
    assert after.turn == 0 and len(after.hands[0]) == 3 and len(after.deck) == 43
    assert RULES[2].result(after) is None


def test_the_game_ends_when_every_hand_is_empty() -> None:
    state = position("hand 0: O\nhand 1: O", rest="captured 0")
    assert RULES[2].result(state) is None
    after = play(state, "O1")
    assert after.turn == 1 and RULES[2].result(after) is None
    after = play(after, "O2")
    assert after.turn == -1
    assert RULES[2].result(after) == Result.from_scores((49, 0))  # the two oases in the area count for nobody


def test_scores_ranks_and_shared_wins() -> None:
    body = "1: O O\nhand 3: O\ncaptured 0: V V V\ngifts 0: T\ncaptured 1: T T T T\ncaptured 2: G G\nto move: 3"
    state = position(body, players=4, rest="captured 3")
    assert RULES[4].result(state) is None
    after = play(state, "O2", players=4)  # the last card: the game ends
    result = RULES[4].result(after)
    assert result is not None
    assert result.scores == (4, 4, 2, 38)
    assert result.ranks == (2, 2, 4, 1) and result.winners == (3,)
    # A tie for first place is a shared win.
    tie = position("1: O O O\ncaptured 0: V V\ncaptured 1: T T\nto move: none", rest="2")
    assert RULES[2].result(tie) == Result(scores=(2, 2), ranks=(1, 1), winners=(0, 1))
    tie3 = position("1: O O O\ncaptured 0: V\ncaptured 1: T T\ncaptured 2: G G\nto move: none", players=3, rest="2")
    assert RULES[3].result(tie3) == Result(scores=(1, 2, 2), ranks=(3, 1, 1), winners=(1, 2))
    assert RULES[3].status(tie3)[0] == "game over: seats 1, 2 share the win"


# --- 2, 3 and 4 players --------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_every_seat_plays_in_turn(players: int) -> None:
    rules = RULES[players]
    state = rules.deal(5)
    seen = []
    for _ in range(2 * players):
        seen.append(state.turn)
        state = rules.apply(state, rules.legal_moves(state)[0])
    assert seen == list(range(players)) * 2
    assert len(state.hands) == len(state.captured) == len(state.gifts) == len(state.stuck) == players


# --- notation ---------------------------------------------------------------------------------


def test_move_notation() -> None:
    rules = RULES[2]
    assert str(PLACE[VIZIER][2]) == "V3" and str(GIFT[THIEF]) == "gT" and str(GIFT[TREASURE]) == "gG"
    for move in [*(m for row in PLACE for m in row), *GIFT]:
        assert rules.parse_move(str(move)) == move
        assert rules.parse_move(f" {str(move).lower()} ") == move
        assert rules.parse_move(str(move).upper()) == move
    assert rules.parse_move("o4") == DesertoMove(OASIS, 3)


@pytest.mark.parametrize("text", ["", "V", "V0", "V5", "X1", "1V", "gX", "g", "gV1", "V 3", "V3 ", "give T", "VV"])
def test_parse_errors(text: str) -> None:
    if text == "V3 ":
        assert RULES[2].parse_move(text) == PLACE[VIZIER][2]  # spaces around are fine
        return
    with pytest.raises(MoveParseError, match="not a deserto move"):
        RULES[2].parse_move(text)


def test_parse_error_for_non_text() -> None:
    with pytest.raises(MoveParseError):
        RULES[2].parse_move(3)  # type: ignore[arg-type]


def test_illegal_moves_leave_the_game_unchanged() -> None:
    game = cardtable.new_game("deserto", deal=0)
    before = game.state
    with pytest.raises(IllegalMoveError, match="rule 5"):
        game.play("gT")
    with pytest.raises(IllegalMoveError, match="holds no oasis"):
        game.play("O1")
    with pytest.raises(MoveParseError):
        game.play("zz")
    assert game.state == before and game.moves == []
    game.play("T1")
    with pytest.raises(IllegalMoveError, match="position 4 is next to no card"):
        game.play("O4")


def test_explain_after_the_end() -> None:
    state = position("to move: none", rest="captured 0")
    assert RULES[2].explain_illegal(state, PLACE[OASIS][0]) == "the game is over: every hand is empty"


# --- position text ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_text_round_trips(players: int) -> None:
    rules = Deserto(players=players, refill_after_give=False)
    for deal in range(8):
        for state in random_game(rules, deal, seed=deal):
            assert rules.from_text(rules.to_text(state)) == state


def test_a_worked_example_of_the_text() -> None:
    text = layout(
        "to move: 1\n1: O V\n2: G\nhand 0: T T\nhand 1: V G O\ncaptured 0: T T\ngifts 1: G\nstuck 0: 2 of t g",
    )
    state = RULES[2]._read(text)  # the spare cards make a deck bigger than a deal leaves
    assert state.turn == 1 and state.area == (kinds("O V"), kinds("G"), (), ())
    assert state.hands == (kinds("T T"), kinds("O V G"))  # read in any order, kept sorted
    assert state.stuck == (((1 << THIEF) | (1 << TREASURE), 2), (0, 0))
    assert RULES[2].to_text(state).splitlines()[7:12] == [
        "hand 0: T T",
        "captured 0: T T",
        "gifts 0:",
        "stuck 0: 2 of T G",
        "hand 1: O V G",
    ]


GOOD = layout("to move: 1\n1: O V\nhand 0: T T\nhand 1: G\ngifts 1: T\nstuck 0: 2 of T")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "must start with the line 'deserto'"),
        ("klondike\n", "must start with the line 'deserto'"),
        (GOOD.replace("hand 1: G", "hand 1: G G"), "too many: G"),
        (GOOD.replace("1: O V", "1: O"), "missing: V"),
        (GOOD.replace("hand 1: G", "hand 1: X"), "not a deserto card"),
        (GOOD.replace("hand 0: T T", "hand 0: T T O O").replace("<O> <O> ", "", 1), "hand 0 holds 4 cards"),
        (GOOD.replace("1: O V", "1: O <V>"), "position 1: every card is face up"),
        (GOOD.replace("deck: <O>", "deck: O"), "deck: every card is face down"),
        (GOOD.replace("to move: 1", "to move: 2"), "'2' is not a seat"),
        (GOOD.replace("to move: 1", "to move: x"), "'x' is not a seat"),
        (GOOD.replace("to move: 1", "to move: none"), "some hand holds cards"),
        (GOOD.replace("stuck 0: 2 of T", "stuck 0: 3 of T"), "is not a stuck record"),  # at most 2 held after a gift
        (GOOD.replace("stuck 0: 2 of T", "stuck 0: 1 of G"), "hand 0 does not hold 1 cards of G"),
        (GOOD.replace("stuck 0: 2 of T", "stuck 0: two of T"), "is not a stuck record"),
        (GOOD.replace("stuck 0: 2 of T", "stuck 0: 2 of"), "is not a stuck record"),
        (GOOD.replace("stuck 0: 2 of T", "stuck 0: 2 T"), "is not a stuck record"),
        (GOOD.replace("gifts 1: T", "gifts 1:").replace("captured 1: \n", "captured 1: T\n"), "holds none"),
        (GOOD + "\nhand 2:", "unknown layout line 'hand 2'"),
        (GOOD.replace("\nstuck 1:", ""), "missing the line"),
        (GOOD.replace("hand 0: T T", "hand 0: T T\n1: O"), "appears twice"),
    ],
)
def test_layout_errors(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        RULES[2].from_text(text)


def test_the_number_of_seats_must_match_the_players_option() -> None:
    text = RULES[3].to_text(RULES[3].deal(1))
    with pytest.raises(LayoutError, match="players=2: seats 0 to 1"):
        RULES[2].from_text(text)
    with pytest.raises(LayoutError, match="players=4: seats 0 to 3"):
        RULES[4].from_text(text)
    with pytest.raises(LayoutError, match="must be text"):
        RULES[2].from_text(None)  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="only cardtable"):
        RULES[2].to_text(RULES[2].deal(0), "pysol")


def test_the_seat_to_move_must_hold_cards() -> None:
    with pytest.raises(LayoutError, match="seat 1 holds no cards"):
        position("to move: 1\nhand 0: V")


# --- display and status -----------------------------------------------------------------------


def test_display() -> None:
    state = position("to move: 1\n1: O V\n2: G\nhand 0: T T\nhand 1: V G O\ncaptured 0: T T\ngifts 1: G")
    rows = RULES[2].display(state)
    assert [[name for name, _ in row] for row in rows] == [
        ["1", "2"],
        ["3", "4"],
        ["deck"],
        ["hand 0", "won 0"],
        ["hand 1", "won 1"],
    ]
    assert rows[0] == [("1", [(OASIS, False), (VIZIER, True)]), ("2", [(TREASURE, True)])]
    assert rows[1] == [("3", []), ("4", [])]
    assert all(not up for _, up in rows[2][0][1]) and len(rows[2][0][1]) == len(state.deck)
    assert rows[3] == [("hand 0", [(THIEF, False)] * 2), ("won 0", [(THIEF, False)] * 2)]
    assert rows[4] == [("hand 1", [(OASIS, True), (VIZIER, True), (TREASURE, True)]), ("won 1", [(TREASURE, False)])]


def test_status() -> None:
    state = position("to move: 1\n1: O V\nhand 0: T T\nhand 1: V\ncaptured 0: T T\ngifts 1: G", players=3)
    assert RULES[3].status(state) == [
        "to move: seat 1",
        f"deck: {len(state.deck)} cards",
        "seat 0: 2 cards in hand, 2 won",
        "seat 1: 1 card in hand, 1 won",
        "seat 2: 0 cards in hand, 0 won",
    ]
    over = position("to move: none\ncaptured 1: T", rest="captured 0")
    assert RULES[2].status(over)[:2] == ["game over: seat 0 wins", "deck: 0 cards"]


# --- hidden information ------------------------------------------------------------------------


def test_public_move_texts() -> None:
    state = position("to move: 1\n1: T\n4: O T\nhand 1: V", players=3)
    move = RULES[3].parse_move("V2")
    assert {str(RULES[3].public_move(state, move, s)) for s in (0, 1, 2, None)} == {
        "seat 1: V2, wins piles 1 (T), 4 (O T)"
    }
    assert RULES[3].public_move(state, move, None) == DesertoEvent(
        1, VIZIER, 1, None, ((0, (THIEF,)), (3, (OASIS, THIEF)))
    )
    state = position("1: O\n2: G\nhand 0: T")
    assert str(RULES[2].public_move(state, RULES[2].parse_move("T3"), 1)) == "seat 0: T3"
    assert str(RULES[2].public_move(state, RULES[2].parse_move("T4"), 1)) == "seat 0: T4, wins pile 2 (G)"
    state = position("1: V\n2: V\n3: V\n4: T O\nhand 0: V")
    four = RULES[2].public_move(state, PLACE[VIZIER][3], 0)
    assert str(four) == "seat 0: V4, four viziers, wins piles 1 (V), 2 (V), 3 (V), 4 (T O V)"
    assert four.four_viziers and [q for q, _ in four.captures] == [0, 1, 2, 3]


def test_a_gift_is_known_to_giver_and_receiver_only() -> None:
    state = position("to move: 2\n1: T\n2: T\n3: T\n4: T\nhand 2: T G", players=4)
    assert legal(state, 4) == ["gT", "gG"]
    texts = [str(RULES[4].public_move(state, GIFT[THIEF], s)) for s in range(4)]
    assert texts == [
        "seat 2: gives a card to seat 1",
        "seat 2: gT, gives a thief to seat 1",
        "seat 2: gT, gives a thief to seat 1",
        "seat 2: gives a card to seat 1",
    ]
    assert RULES[4].public_move(state, GIFT[TREASURE], 0) == RULES[4].public_move(state, GIFT[THIEF], 0)
    assert RULES[4].public_move(state, GIFT[TREASURE], None) == DesertoEvent(2, None, None, receiver=1)


def test_the_view_holds_exactly_what_the_seat_may_know() -> None:
    state = position("to move: 1\n1: O V\n2: G\nhand 0: T T\nhand 1: V G O\ncaptured 0: T T\ngifts 1: G")
    view = RULES[2].view(state, 0, (DesertoEvent(0, THIEF, 0),))
    assert isinstance(view, DesertoView)
    assert view._fields == ("seat", "hand", "area", "deck", "hand_sizes", "won", "to_move", "history")
    assert view.hand == kinds("T T")
    assert [(p.top, p.size) for p in view.area] == [(VIZIER, 2), (TREASURE, 1), (None, 0), (None, 0)]
    assert view.deck == len(state.deck) and view.hand_sizes == (2, 3) and view.won == (2, 1)
    assert view.to_move == 1 and view.history == (DesertoEvent(0, THIEF, 0),)
    data = view.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "seat": 0,
        "hand": ["T", "T"],
        "area": [{"top": "V", "size": 2}, {"top": "G", "size": 1}, {"top": None, "size": 0}, {"top": None, "size": 0}],
        "deck": len(state.deck),
        "hand_sizes": [2, 3],
        "won": [2, 1],
        "to_move": 1,
        "history": ["seat 0: T1"],
    }
    hash(view)


def test_views_do_not_see_hidden_cards() -> None:
    # Swap cards between seat 1's hand, the deck, the cards under the area's tops, and gifts seat 0 cannot see:
    # seat 0's view does not change.
    rules = RULES[3]
    state = position("to move: 0\n1: T V\nhand 0: O\nhand 1: G G V\nhand 2: O T\ngifts 1: V\ndeck: T", players=3)
    other = state._replace(
        area=(kinds("O V"), (), (), ()),
        hands=(kinds("O"), kinds("V T G"), kinds("T T")),
        gifts=((), kinds("V"), ()),
        deck=state.deck[:-1] + kinds("G"),
    )
    assert Counter(rules.cards(other)) == Counter(DECK)
    assert rules.view(state, 0, ()) == rules.view(other, 0, ())
    assert rules.view(state, 1, ()) != rules.view(other, 1, ())


# --- sampling ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_samples_keep_what_the_seat_knows(players: int) -> None:
    rules = RULES[players]
    rng = random.Random(players)
    for deal in range(6):
        for state in random_game(rules, deal, seed=deal)[::3]:
            for seat in range(players):
                sample = rules.sample(state, seat, rng)
                assert rules.view(sample, seat, ()) == rules.view(state, seat, ())
                assert Counter(rules.cards(sample)) == Counter(DECK)
                assert sample.hands[seat] == state.hands[seat]
                assert (sample.area, sample.captured, sample.stuck, sample.turn) == (
                    state.area,
                    state.captured,
                    state.stuck,
                    state.turn,
                )
                for r in (seat, (seat - 1) % players):  # gifts received, and gifts seat gave
                    assert sample.gifts[r] == state.gifts[r]
                assert [len(g) for g in sample.gifts] == [len(g) for g in state.gifts]
                assert len(sample.deck) == len(state.deck)
                assert rules.from_text(rules.to_text(sample)) == sample  # it meets the stuck records too


def test_samples_re_deal_every_hidden_card() -> None:
    rules = RULES[3]
    state = position("to move: 0\n1: O\nhand 0: V V V\nhand 1: T T T\nhand 2: G G G\ngifts 1: O\ngifts 0: O", players=3)
    seen: dict[str, set[Any]] = {"hand 1": set(), "hand 2": set(), "deck": set(), "gifts 1": set()}
    rng = random.Random(1)
    for _ in range(300):
        sample = rules.sample(state, 0, rng)
        seen["hand 1"].add(sample.hands[1])
        seen["hand 2"].add(sample.hands[2])
        seen["deck"].add(sample.deck[-5:])
        seen["gifts 1"].add(sample.gifts[1])  # from seat 2 to seat 1: seat 0 cannot see it
        assert sample.gifts[0] == kinds("O")  # seat 0 received it
    assert all(len(values) > 5 for name, values in seen.items() if name != "gifts 1")
    assert seen["gifts 1"] == {kinds(k) for k in "OVTG"}


def test_samples_of_a_two_player_game_keep_every_gift() -> None:
    state = position("1: O\nhand 0: V\nhand 1: T\ngifts 0: G\ngifts 1: O")
    rng = random.Random(2)
    for seat in (0, 1):
        for _ in range(50):
            assert RULES[2].sample(state, seat, rng).gifts == state.gifts


def test_samples_respect_a_forced_gift() -> None:
    # Seat 1 had to give when it could place no thief or treasure, and has not drawn since: it holds only those.
    body = "to move: 0\n1: O\nhand 0: V\nhand 1: T G\nhand 2: O V T\ngifts 0: G\nstuck 1: 2 of T G"
    state = position(body, players=3)
    rng = random.Random(3)
    hands: Counter[tuple[int, ...]] = Counter()
    gifts: Counter[tuple[int, ...]] = Counter()
    for _ in range(400):
        sample = RULES[3].sample(state, 2, rng)
        hands[sample.hands[1]] += 1
        gifts[sample.gifts[0]] += 1
    assert set(hands) == {kinds("T T"), kinds("T G"), kinds("G G")}
    # The gift seat 1 made (to seat 0; seat 2 cannot see it) was a thief or a treasure too.
    assert set(gifts) == {kinds("T"), kinds("G")}


def test_the_stuck_record_follows_play() -> None:
    rules = RULES[2]
    state = position("to move: 1\n1: T\n2: T\n3: T\n4: T\nhand 1: T T G\nhand 0: O\ndeck: O O O V")
    after = play(state, "gG")  # no thief or treasure can be placed: every card seat 1 holds is one of those
    stuck = (1 << THIEF) | (1 << TREASURE)
    assert after.stuck[1] == (stuck, 2) and after.hands[1] == kinds("V T T")
    assert rules.to_text(after).splitlines()[-1] == "stuck 1: 2 of T G"
    after = play(after, "O1")
    after = play(after, "V2")  # not one of those kinds: both thieves are still from then
    assert after.stuck[1] == (stuck, 2)
    after = play(after, "O4")
    after = play(after, "T2")  # maybe one of those cards: at least one is left
    assert after.stuck[1] == (stuck, 1)
    assert after.stuck[0] == (0, 0)  # seat 0 never had to give


def _exact_orders(pool: list[int], conditions: list[tuple[int, int, int]]) -> Counter[tuple[int, ...]]:
    """Every order of the pool's cards (cards told apart) that meets the conditions, as kinds."""
    found: Counter[tuple[int, ...]] = Counter()
    for order in itertools.permutations(pool):
        if deserto_module._meets(order, conditions):
            found[order] += 1
    return found


@pytest.mark.parametrize("counting", [False, True])
def test_arrange_draws_uniformly_among_the_orders_that_meet_the_conditions(
    counting: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if counting:
        monkeypatch.setattr(deserto_module, "REJECTION_TRIES", 0)
    pool = [OASIS, VIZIER, THIEF, THIEF, TREASURE, TREASURE]
    conditions = [(2, 1 << THIEF, 1), (2, (1 << TREASURE) | (1 << OASIS), 2)]
    exact = _exact_orders(pool, conditions)
    total = sum(exact.values())
    rng = random.Random(4)
    draws = 20000
    got = Counter(tuple(arrange(pool, conditions, rng)) for _ in range(draws))
    assert set(got) == set(exact)
    # Every order within 5 standard deviations of its expected count.
    for order, ways in exact.items():
        p = ways / total
        assert abs(got[order] - draws * p) < 5 * (draws * p * (1 - p)) ** 0.5, order


def test_sampling_falls_back_to_counting_when_rejection_keeps_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deserto_module, "REJECTION_TRIES", 0)
    body = (
        "to move: 0\n1: O\nhand 0: V\nhand 1: T T G\nhand 2: T G G\nhand 3: T\n"
        "gifts 0: T\ngifts 1: G\nstuck 1: 2 of T G\nstuck 2: 2 of G"
    )
    state = position(body, players=4)
    rng = random.Random(5)
    for _ in range(200):
        sample = RULES[4].sample(state, 0, rng)
        assert sum(1 for k in sample.hands[1] if k in (THIEF, TREASURE)) >= 2
        assert sum(1 for k in sample.hands[2] if k == TREASURE) >= 2
        assert RULES[4].view(sample, 0, ()) == RULES[4].view(state, 0, ())


def test_a_stuck_record_play_cannot_leave_is_refused() -> None:
    # A seat gives one card of at most 3, so it held at most 2 after; and V T is unplaceable
    # only in an area of four viziers on top, which rule 4 never leaves.
    body = "1: V\n4: T\nhand 0: V V O\nhand 1: T T G\ngifts 0: G\nstuck 1: {}"
    assert position(body.format("2 of T G")).stuck[1] == (1 << THIEF | 1 << TREASURE, 2)
    with pytest.raises(LayoutError, match="is not a stuck record"):
        position(body.format("3 of T G"))
    body = "1: V\n4: T\nhand 0: V V O\nhand 1: V T G\ngifts 0: V\nstuck 1: {}"
    with pytest.raises(LayoutError, match="no area leaves exactly V T unplaceable"):
        position(body.format("1 of V T"))


def test_a_sample_keeps_only_the_public_record_of_other_seats_gifts() -> None:
    # Seat 2 gives a treasure to seat 1: seat 0 sees only that a card was given, and a
    # sample made for seat 0 must not hold the kind anywhere, not even in seat 1's history.
    layout_text = layout("to move: 2\n1: V\n4: T\nhand 0: V V G\nhand 1: T T G\nhand 2: T G G", players=3)
    game = cardtable.new_game("deserto", layout=layout_text, players=3)
    game.play("gG", seat=2)
    assert str(game.history(1)[-1]) == "seat 2: gG, gives a treasure to seat 1"
    for seed in range(5):
        sample = game.sample(0, random.Random(seed))
        assert [sample.history(s) for s in (0, 1, 2)] == [game.history(0)] * 3
        assert sample.history(None) == game.history(None)
    assert game.sample(1, random.Random(0)).history(1) == game.history(1)  # its own record stays


def test_a_position_that_breaks_its_stuck_records_is_not_sampled() -> None:
    state = position("to move: 0\n1: O\nhand 0: V\nhand 1: T\nhand 2: O", players=3)
    broken = state._replace(stuck=((0, 0), (1 << TREASURE, 1), (0, 0)))
    with pytest.raises(ValueError, match="stuck record"):
        RULES[3].sample(broken, 0, random.Random(0))


# --- the game API: several seats --------------------------------------------------------------


def test_not_your_turn() -> None:
    game = cardtable.new_game("deserto", deal=2, players=3)
    with pytest.raises(NotYourTurnError, match="seat 0's turn, not seat 2's"):
        game.play(game.legal_moves()[0], seat=2)
    game.play(game.legal_moves()[0], seat=0)
    assert game.to_move == 1


def test_history_as_each_seat_saw_it() -> None:
    layout_text = layout("to move: 2\n1: T\n2: T\n3: T\n4: T\nhand 2: T G\nhand 1: O", players=3)
    rules = Deserto(players=3)
    game = MultiplayerGame(rules, rules._read(layout_text))  # the spare cards: a deck bigger than a deal leaves
    game.play("gT", seat=2)
    assert [str(e) for e in game.history(0)] == ["seat 2: gives a card to seat 1"]
    assert game.history(None) == game.history(0) == (DesertoEvent(2, None, None, receiver=1),)
    assert [str(e) for e in game.history(1)] == ["seat 2: gT, gives a thief to seat 1"]
    assert game.history(1) == game.history(2) == (DesertoEvent(2, THIEF, None, receiver=1),)
    view = game.view(0)
    assert isinstance(view, DesertoView) and view.history == game.history(0)
    assert "thief" not in json.dumps(view.to_json())


# --- random games: properties -------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> MultiplayerGame[DesertoState, DesertoMove]:
    players = draw(st.sampled_from(PLAYERS))
    first = draw(st.integers(0, players - 1))
    refill = draw(st.booleans())
    deal = draw(st.integers(0, 2**63 - 1))
    game = cardtable.new_game("deserto", deal=deal, players=players, first=first, refill_after_give=refill)
    return game


def play_out(game: MultiplayerGame[DesertoState, DesertoMove], data: st.DataObject) -> list[DesertoState]:
    """Play random legal moves to the end; return every position."""
    seen = [game.state]
    for _ in range(DECK_BOUND + 1):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(data.draw(st.sampled_from(moves)), seat=game.to_move)
        seen.append(game.state)
    return seen


DECK_BOUND = 51
"""Every move takes a card out of a hand for good, so a game has at most 51 moves."""


@SETTINGS
@given(st.data())
def test_random_games_keep_every_card_always_have_a_move_and_end(data: st.DataObject) -> None:
    game = data.draw(games())
    rules = game.rules
    states = play_out(game, data)
    assert len(states) - 1 <= DECK_BOUND
    for state in states:
        assert Counter(rules.cards(state)) == Counter(DECK)
        assert all(len(h) <= 3 for h in state.hands)
        if any(state.hands):
            assert rules.to_move(state) is not None and state.hands[state.turn]
            assert rules.legal_moves(state)
        else:
            assert rules.to_move(state) is None and rules.legal_moves(state) == []
    assert game.outcome.over and game.outcome.result == rules.result(game.state)
    result = game.outcome.result
    assert result is not None
    assert sum(result.scores) + sum(map(len, game.state.area)) + len(game.state.deck) == 51


@SETTINGS
@given(st.data())
def test_views_never_leak_and_samples_look_the_same(data: st.DataObject) -> None:
    game = data.draw(games())
    rules = game.rules
    assert isinstance(rules, Deserto)
    states = play_out(game, data)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    length = data.draw(st.integers(0, len(states) - 1))
    while len(game.moves) > length:
        game.undo()
    for seat in range(game.players):
        view = game.view(seat)
        sampled = game.sample(seat, rng)
        assert sampled.view(seat) == view
        sample = sampled.state
        # What differs between the two is hidden from seat: its view (and view JSON) must not differ.
        assert json.dumps(rules.view(sample, seat, game.history(seat)).to_json()) == json.dumps(
            rules.view(game.state, seat, game.history(seat)).to_json()
        )
        assert isinstance(view, DesertoView)
        data_json = view.to_json()
        assert set(data_json) == {"seat", "hand", "area", "deck", "hand_sizes", "won", "to_move", "history"}
        assert data_json["hand"] == [KINDS[c] for c in game.state.hands[seat]]
        # Play on in the sample: its moves are legal in the real game for seat's own turns too.
        if sampled.legal_moves() and sampled.to_move == seat:
            assert sampled.legal_moves() == game.legal_moves()


@SETTINGS
@given(st.data())
def test_save_load_and_undo_round_trip(data: st.DataObject) -> None:
    game = data.draw(games())
    states = play_out(game, data)
    back = cardtable.load(game.save())
    assert isinstance(back, MultiplayerGame)
    assert back.state == game.state and back.moves == game.moves
    assert [back.history(s) for s in range(game.players)] == [game.history(s) for s in range(game.players)]
    for state in reversed(states[:-1]):
        game.undo()
        assert game.state == state
    assert game.moves == [] and all(game.history(s) == () for s in range(game.players))


@SETTINGS
@given(st.data())
def test_the_wrong_seat_may_not_play(data: st.DataObject) -> None:
    game = data.draw(games())
    states = play_out(game, data)
    game.restart()
    for _ in range(min(len(states) - 1, 10)):
        mover = game.to_move
        assert mover is not None
        move = game.legal_moves()[0]
        for seat in range(game.players):
            if seat != mover:
                with pytest.raises(NotYourTurnError):
                    game.play(move, seat=seat)
        game.play(move, seat=mover)
    if game.to_move is None:
        with pytest.raises(NotYourTurnError, match="game is over"):
            game.play(PLACE[OASIS][0], seat=0)


# --- perft: move counts of fixed deals -----------------------------------------------------------

# (players, deal): perft for depth 1, 2, 3, then distinct positions for depth 1, 2, 3.
# Depth 1 by hand: the area is empty, so each kind in the first hand goes to any of the 4 positions:
#   2 players deal 0, seat 0 holds T G G: 2 kinds x 4 = 8;
#   2 players deal 1, seat 0 holds V G G: 2 kinds x 4 = 8;
#   4 players deal 0, seat 0 holds V T G: 3 kinds x 4 = 12.
# Depth 2 of 2 players deal 0 by hand too: seat 1 holds O V T; after seat 0's card at p, each of its kinds goes
# to the two positions next to p: 8 x 6 = 48 lines. 12 pairs of them meet: T then T at two positions in either
# order (4 pairs, seat 0 draws the same card); a vizier winning the thief at p, or a thief winning the treasure
# at p, leaves only the new card, which two p's can lead to (4 + 4 pairs): 36 positions.
PERFT = {
    (2, 0): ((8, 48, 128), (8, 36, 68)),
    (2, 1): ((8, 16, 80), (8, 12, 48)),
    (4, 0): ((12, 64, 296), (12, 48, 176)),
}


@pytest.mark.parametrize(("players", "deal"), list(PERFT))
def test_perft(players: int, deal: int) -> None:
    rules = RULES[players]
    state = rules.deal(deal)
    lines, positions = PERFT[players, deal]
    assert tuple(perft(rules, state, d) for d in (1, 2, 3)) == lines
    assert tuple(distinct_positions(rules, state, d) for d in (1, 2, 3)) == positions


def test_first_moves_of_the_perft_deals() -> None:
    assert RULES[2].deal(0).hands == (kinds("T G G"), kinds("O V T"))
    assert RULES[2].deal(1).hands[0] == kinds("V G G")
    assert RULES[4].deal(0).hands[0] == kinds("V T G")
    assert legal(RULES[4].deal(0), 4) == [f"{k}{p}" for k in "VTG" for p in "1234"]


def test_the_docs_example_position() -> None:
    game = cardtable.new_game("deserto", deal=28, players=3)
    for move in ["T2", "O1", "G3", "T4", "T3", "V2", "V4", "G3", "gT", "G1", "V3", "gT", "G2", "V2"]:
        game.play(move)
    page = (Path(deserto_module.__file__).parent.parent / "rulebook" / "deserto.md").read_text()
    example = page.split("```\ndeserto\n", 1)[1].split("```", 1)[0]
    assert game.to_text() == "deserto\n" + example.rstrip("\n")
    assert [str(e) for e in game.history(0)[-4:-2]] == ["seat 1: V3", "seat 2: gives a card to seat 1"]
    assert [str(e) for e in game.history(1)[-4:-2]] == ["seat 1: V3", "seat 2: gT, gives a thief to seat 1"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_depends_only_on_what_the_seat_knows(players: int) -> None:
    """Two games a seat cannot tell apart give that seat the same sample from the same
    random stream: hidden cards never steer a computer player, not even through their order."""
    for deal in range(5):
        game = cardtable.new_game("deserto", deal=deal, players=players)
        rng = random.Random(deal)
        for _ in range(rng.randint(0, 12)):
            if game.to_move is None:
                break
            game.play(rng.choice(game.legal_moves()))
        for seat in range(players):
            other = game.sample(seat, random.Random(99))  # same view, hidden cards elsewhere
            assert other.view(seat) == game.view(seat)
            a = game.sample(seat, random.Random(7))
            b = other.sample(seat, random.Random(7))
            assert a.state == b.state

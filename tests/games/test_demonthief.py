"""Demonthief and Demons and Thieves: the rules (cardtable/rulebook/demonthief.md), case by case.

Most positions are built by :func:`layout` from the cards outside the
foundations; every other card is put on the foundations (so each suit's
outside cards must be the last cards of its two foundations).
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.cards import RANK, RANKS, RED, SUIT, SUITS, card_text, make_card, parse_card
from cardtable.core.errors import IllegalMoveError, LayoutError, MoveParseError, OptionError
from cardtable.core.game import Ending
from cardtable.core.progress import can_progress
from cardtable.core.shuffle import shuffled
from cardtable.games import rules_for
from cardtable.games.demonthief import (
    DRAW,
    FOUNDATION,
    REDEAL,
    RESERVE,
    STOCK,
    WASTE,
    DemonsAndThieves,
    Demonthief,
    DemonthiefMove,
    DemonthiefState,
)
from cardtable.solve import native
from tests.helpers import distinct_positions, perft, random_line, reachable

DT = Demonthief()
DAT = DemonsAndThieves()


# --- building positions ---------------------------------------------------------


def layout(
    game: str = "demonthief",
    *,
    base: str = "A",
    tab: dict[int, str] | None = None,
    stock: str = "",
    waste: str = "",
    reserve: str = "",
    used: int = 0,
) -> str:
    """Layout text with the given piles (tableau piles by number); every other card is on the foundations."""
    tab = tab or {}
    outside: list[int] = []
    for text in (stock, waste, reserve, *tab.values()):
        outside += [parse_card(t.strip("<>")) for t in text.split()]
    b = RANKS.index(base) + 1
    founds: list[list[int]] = []
    for s in range(4):
        counts = [0] * 13  # outside copies of each card of the suit, from the base rank up
        for c in outside:
            if SUIT[c] == s:
                counts[(RANK[c] - b) % 13] += 1
        assert counts == sorted(counts) and counts[-1] <= 2, f"suit {SUITS[s]}: not the tops of two foundations"
        for size in (sum(1 for m in counts if m <= 1), sum(1 for m in counts if m == 0)):
            if size:
                founds.append([make_card((b - 1 + k) % 13 + 1, s) for k in range(size)])
    founds += [[] for _ in range(8 - len(founds))]
    lines = [game, f"stock: {stock}", f"waste: {waste}", f"reserve: {reserve}"]
    lines += [f"f{k + 1}: {' '.join(card_text(c) for c in f)}" for k, f in enumerate(founds)]
    lines += [f"{j}: {tab.get(j, '')}" for j in range(1, 10)]
    lines.append(f"redeals used: {used}")
    return "\n".join(line.rstrip() for line in lines)


def state_of(text: str) -> DemonthiefState:
    """The position of :func:`layout` text, read without the checks that a deal and play reach it
    (a test's piles may hold runs no play builds): the rules play any position."""
    return (DAT if text.startswith("demons-and-thieves") else DT)._read(text)


def game_at(text: str, **options: Any) -> cardtable.Game[DemonthiefState, DemonthiefMove]:
    """The game at a position of :func:`layout` text, read as :func:`state_of` reads it."""
    rules = (DemonsAndThieves if text.startswith("demons-and-thieves") else Demonthief)(**options)
    return cardtable.Game(rules, rules._read(text))


def names(rules: Demonthief, state: DemonthiefState) -> list[str]:
    return [str(m) for m in rules.legal_moves(state)]


def play(rules: Demonthief, state: DemonthiefState, *moves: str) -> DemonthiefState:
    for text in moves:
        move = rules.parse_move(text)
        assert move in rules.legal_moves(state), f"{text} is not legal"
        state = rules.apply(state, move)
    return state


def foundation_text(rules: Demonthief, state: DemonthiefState) -> list[str]:
    lines = rules.to_text(state).splitlines()[4:12]
    return [line.partition(":")[2].strip() for line in lines]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def over(text: str) -> bool:
    return bool(game_at(text).outcome.over)


# --- the deal -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [DT, DAT])
def test_deal_layout(rules: Demonthief) -> None:
    for n in (0, 1, 99, 2**63 - 1):
        s = rules.deal(n)
        assert [len(p) for p in s.tableau] == [1, 1, 1, 1, 8, 8, 8, 8, 8]
        assert len(s.reserve) == 13 and len(s.stock) == 46 and s.waste == () and s.redeals_used == 0
        assert s.foundations[1:] == (-1,) * 7 and s.base == RANK[s.foundations[0]]
        assert sorted(rules.cards(s)) == sorted(rules.deck()) == sorted(list(range(52)) * 2)
        piles = {name: pile for row in rules.display(s) for name, pile in row}
        assert [up for _, up in piles["x"]] == [False] * 12 + [True]
        assert not any(up for _, up in piles["stock"]) and piles["w"] == []
        assert all(up for j in range(1, 10) for _, up in piles[str(j)])
        assert piles["f1"] == [(s.foundations[0], True)] and all(piles[f"f{k}"] == [] for k in range(2, 9))
        assert rules.deal(n) == s  # deterministic
        assert rules.status(s)[1:] == [f"redeals left: {rules.REDEALS}", "on foundations: 1/104"]
    assert rules.deal(1) != rules.deal(2)


def test_dealing_order() -> None:
    deck = shuffled(DT.deck(), 7)
    s = DT.deal(7)
    assert s.foundations[0] == deck[-1]
    assert s.reserve == tuple(reversed(deck[-14:-1]))  # the last one dealt is the face-up top
    assert [p[0] for p in s.tableau[:4]] == deck[-18:-14][::-1]
    assert [p[0] for p in s.tableau[4:]] == deck[-23:-18][::-1]  # the first round on the right
    assert s.tableau[8][-1] == deck[-58]
    assert s.stock == tuple(deck[:46])
    assert play(DT, s, "d").waste == (deck[45],)  # the stock's top is drawn first
    assert DAT.deal(7) == s  # the two games deal alike


def test_deal_text_and_first_moves_by_hand() -> None:
    lines = DT.to_text(DT.deal(0)).splitlines()
    assert lines[0] == "demonthief" and lines[1].startswith("stock: <3D> <8S> <JC>") and lines[1].endswith("<QS>")
    assert lines[2:6] == [
        "waste:",
        "reserve: <QD> <5S> <KC> <9S> <TS> <8H> <AS> <TH> <7S> <AD> <4C> <6S> 4H",
        "f1: TH",
        "f2:",
    ]
    assert lines[12:] == [
        "1: 9S",
        "2: QD",
        "3: KH",
        "4: JC",
        "5: 2S 7S 4H 9D QC 8D 6D 5H",
        "6: AS 3S 3S 2H 8S 7D 5C 9H",
        "7: JD JS KD 2S 4S 7C QH 4C",
        "8: TC 4D 5D 7H TS AD 6H 8H",
        "9: 3C 7C QS 2D 6H 8C 3D JD",
        "redeals used: 0",
    ]
    # By hand: no T or JH on top; JC on QD (left); 8H on 9S (left) or 9H (right); 4H (reserve) on 5H; draw.
    assert names(DT, DT.deal(0)) == ["42", "81", "86", "x5", "d"]


# --- foundations ------------------------------------------------------------------


def test_foundation_starts_with_base_rank_of_any_suit() -> None:
    stock = " ".join(f"<{r}S> <{r}C>" for r in "3456789TJQK")
    s = state_of(layout(tab={1: "2S", 2: "AS", 3: "AC", 4: "2C"}, stock=stock))
    assert foundation_text(DT, s)[6:] == ["", ""]
    moves = names(DT, s)
    assert "2f" in moves and "3f" in moves and "1f" not in moves and "4f" not in moves
    s = play(DT, s, "2f")
    assert foundation_text(DT, s)[6:] == ["AS", ""]
    s = play(DT, s, "1f", "3f", "4f")
    assert foundation_text(DT, s)[6:] == ["AS 2S", "AC 2C"]


def test_foundation_builds_in_suit_and_wraps_king_to_ace() -> None:
    # Base 2: a foundation runs 2 3 ... K A. Clubs and spades wait for their aces (after the king).
    s = state_of(layout(base="2", tab={5: "AC", 6: "AS AS", 1: "AD KD", 2: "AH"}, stock="<KH>"))
    moves = names(DT, s)
    assert {"5f", "6f", "1f"} <= set(moves) and "2f" not in moves  # AH needs the KH first
    s = play(DT, s, "5f", "6f", "6f")
    assert foundation_text(DT, s)[0] == "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    assert foundation_text(DT, s)[6:] == ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"] * 2
    s = play(DT, s, "1f", "1f")  # KD, then AD on it
    assert foundation_text(DT, s)[2:4] == ["2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"] * 2
    s = play(DT, s, "d")
    assert "wf" in names(DT, s) and "2f" not in names(DT, s)  # the KH goes home, then the AH on it
    assert DT.is_won(play(DT, s, "wf", "2f"))


def test_foundation_holds_13_cards_at_most() -> None:
    # Base 2: one heart foundation is complete (2H..AH); the 2H starts an empty one, not a 14th card.
    rest = " ".join(f"<{r}H>" for r in "3456789TJQKA")
    s = state_of(layout(base="2", tab={7: "2H"}, stock=rest))
    complete = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    spades = complete.replace("H", "S")
    assert foundation_text(DT, s)[4:] == [complete, spades, spades, ""]
    s = play(DT, s, "7f")
    assert foundation_text(DT, s)[4:] == [complete, spades, spades, "2H"]


def test_two_foundations_per_suit_first_one_that_takes_the_card() -> None:
    # Base A; both heart foundations end at the jack.
    s = state_of(layout(tab={5: "KH QH", 6: "KH QH"}))
    hearts = [k for k, f in enumerate(foundation_text(DT, s)) if f.startswith("AH")]
    assert len(hearts) == 2 and all(foundation_text(DT, s)[k].endswith("JH") for k in hearts)
    s = play(DT, s, "5f", "6f")
    assert all(foundation_text(DT, s)[k].endswith("QH") for k in hearts)
    s = play(DT, s, "6f")
    assert [foundation_text(DT, s)[k][-2:] for k in hearts] == ["KH", "QH"]  # the first that takes it
    assert DT.is_won(play(DT, s, "5f"))


def test_nothing_leaves_a_foundation() -> None:
    s = state_of(layout(tab={5: "KH QH", 6: "KH QH"}))
    assert DT.legal_moves(s) and all(m.src != FOUNDATION for m in DT.legal_moves(s))
    for text in ("f1", "f5", "ff", "fw", "f15", "fx"):
        with pytest.raises(MoveParseError):
            DT.parse_move(text)


# --- the tableau --------------------------------------------------------------------


def test_left_builds_down_by_alternate_colour_with_wrap() -> None:
    # Base 2, so aces and kings are the last cards of their foundations. Left piles: AS AD AH AC.
    s = state_of(layout(base="2", tab={1: "AS", 2: "AD", 3: "AH", 4: "AC", 5: "KH", 6: "KC", 7: "KS", 8: "KD"}))
    moves = names(DT, s)
    assert {"51", "81", "62", "72", "63", "73"} <= set(moves)  # red king on black ace and vice versa
    assert not {"61", "71", "52", "82", "53", "83"} & set(moves)
    # Base T: 9C on the left takes a red 8 only.
    s = state_of(layout(base="T", tab={1: "9C", 5: "8H", 6: "8C", 7: "7H", 8: "8S"}, stock="<9H> <9S>"))
    moves = names(DT, s)
    assert "51" in moves and not {"61", "71", "81"} & set(moves)


def test_right_builds_down_in_suit_with_wrap() -> None:
    s = state_of(layout(base="2", tab={5: "AH", 6: "KH", 7: "KD", 1: "KC", 8: "QH"}, stock="<AD> <AC>"))
    moves = names(DT, s)
    assert "65" in moves and "75" not in moves and "15" not in moves  # KH on AH, in suit
    assert "86" in moves and "87" not in moves  # QH on KH, not on KD


def test_waste_and_reserve_cards_follow_the_target_rule() -> None:
    s = state_of(
        layout(base="T", tab={1: "9C", 2: "9D", 5: "9H", 6: "9S"}, stock="<9H>", waste="8H", reserve="<8D> 8H")
    )
    moves = names(DT, s)
    # 8H: home (both heart foundations end at 7H), on the left black 9C, on the right 9H,
    # and into every empty pile (3, 4, 7, 8, 9); not on the left red 9D nor the right 9S.
    assert [m for m in moves if m[0] == "w"] == ["wf", "w1", "w3", "w4", "w5", "w7", "w8", "w9"]
    assert [m for m in moves if m[0] == "x"] == ["xf", "x1", "x3", "x4", "x5", "x7", "x8", "x9"]


def test_left_run_moves_right_but_is_no_group_there() -> None:
    # Base J. Pile 1 (left): 9S 8H 7C, an alternate-colour run; pile 5 (right): TS.
    tab = {1: "9S 8H 7C", 2: "8C", 3: "TC", 4: "9D", 5: "TS", 6: "9H", 7: "TH", 8: "9C", 9: "TD"}
    s = state_of(layout(base="J", tab=tab))
    assert "15:3" in names(DT, s)
    s = play(DT, s, "15:3")
    assert s.tableau[4] == cards("TS 9S 8H 7C")
    # On the right it is no group: only the 7C moves (home, or into the empty pile 1).
    assert [m for m in names(DT, s) if m[0] == "5"] == ["5f", "51"]
    game = cardtable.new_game("demonthief", layout=DT.to_text(s))
    with pytest.raises(IllegalMoveError, match="rule 4: 9S-8H is not a same-suit run on the right side"):
        game.play("51:3")
    with pytest.raises(IllegalMoveError, match="rule 4: 8H-7C is not a same-suit run on the right side"):
        game.play("51:2")
    assert game.state == s


def test_right_same_suit_top_part_moves_as_a_group() -> None:
    # Base J. Pile 5 (right): TS 9S 8H 7H 6H; its groups are 6H, 7H 6H and 8H 7H 6H.
    tab = {1: "9C", 2: "TH", 3: "TC", 4: "TD", 5: "TS 9S 8H 7H 6H", 6: "9H", 7: "9D", 8: "TS"}
    s = state_of(layout(base="J", tab=tab))
    from5 = [m for m in names(DT, s) if m[0] == "5" and m[1] != "f"]
    # 8H 7H 6H onto the left 9C (alternate colour) or the right 9H (in suit); every length into pile 9.
    assert from5 == ["51:3", "56:3", "59", "59:2", "59:3"]


def test_right_run_goes_left_only_if_its_bottom_card_fits() -> None:
    # Base T. 8H 7H 6H on the right: onto a left black 9, not a left red 9.
    tab = {1: "9C", 2: "9D", 3: "9H", 4: "9S", 5: "8H 7H 6H", 6: "9C", 7: "9D", 8: "9H", 9: "9S"}
    s = state_of(layout(base="T", tab=tab))
    moves = names(DT, s)
    assert {"51:3", "54:3", "58:3"} <= set(moves) and not {"52:3", "53:3", "56:3", "57:3", "59:3"} & set(moves)
    s = play(DT, s, "51:3")
    # On the left, 8H 7H 6H is no alternate-colour run: only the 6H moves (home, or into the emptied pile 5).
    assert [m for m in names(DT, s) if m[0] == "1"] == ["1f", "15"]
    with pytest.raises(IllegalMoveError, match="rule 4: 7H-6H is not an alternate-colour run on the left side"):
        cardtable.new_game("demonthief", layout=DT.to_text(s)).play("15:2")


def test_empty_pile_takes_any_card_or_any_legal_group() -> None:
    # Base 2. Pile 5 (right): AC KH QH JH; pile 1 (left): KS QD JS; piles 8 and 9 empty.
    tab = {1: "KS QD JS", 2: "AH", 3: "AS", 4: "AD", 5: "AC KH QH JH", 6: "KD", 7: "KC"}
    s = state_of(layout(base="2", tab=tab, waste="QC", reserve="QS"))
    moves = names(DT, s)
    for j in (8, 9):
        assert {f"5{j}", f"5{j}:2", f"5{j}:3", f"1{j}", f"1{j}:2", f"1{j}:3", f"w{j}", f"x{j}"} <= set(moves)
        assert f"5{j}:4" not in moves and f"1{j}:4" not in moves
    s2 = play(DT, s, "58:3")  # the group keeps its order; nothing fills pile 9 on its own
    assert s2.tableau[7] == cards("KH QH JH") and s2.tableau[8] == () and s2.tableau[4] == cards("AC")
    s3 = play(DT, s, "18:3")
    assert s3.tableau[0] == () and {"w1", "x1", "51", "51:3", "81"} <= set(names(DT, s3))
    assert "81:2" not in names(DT, s3)  # KS QD JS is no group on the right


# --- reserve, waste, stock ---------------------------------------------------------------


def test_reserve_top_plays_and_the_next_turns_up() -> None:
    s = state_of(layout(tab={1: "KS", 2: "KS"}, reserve="<KH> <QH> JH"))
    assert DT.to_text(s).splitlines()[3] == "reserve: <KH> <QH> JH"
    assert names(DT, s)[0] == "xf"
    t = play(DT, s, "xf")
    assert DT.to_text(t).splitlines()[3] == "reserve: <KH> QH"
    assert DT.display(t)[0][2] == ("x", [(parse_card("KH"), False), (parse_card("QH"), True)])
    assert DT.progress(t) == (DT.score(s) + 1, -2)
    assert "x1" in names(DT, t)  # QH on the left KS
    u = play(DT, t, "x1")
    assert DT.progress(u) == (DT.score(s) + 1, -1) and u.tableau[0] == cards("KS QH")


def test_only_the_waste_top_plays_and_the_stock_turns_one_card() -> None:
    s = state_of(layout(tab={1: "KS", 2: "KS", 3: "KH"}, stock="<QH> <QD>", waste="JH KD"))
    moves = names(DT, s)
    assert "wf" not in moves  # KD waits for QD; the JH under it cannot play
    assert [m for m in moves if m[0] == "w"] == [f"w{j}" for j in range(4, 10)]
    assert play(DT, s, "w4").tableau[3] == cards("KD")
    s = play(DT, s, "d")
    assert DT.to_text(s).splitlines()[1:3] == ["stock: <QH>", "waste: JH KD QD"]
    s = play(DT, s, "wf", "wf", "wf")  # QD, KD, then the JH
    assert s.waste == () and s.stock == cards("QH")


def test_no_redeal_in_demonthief() -> None:
    s = state_of(layout(tab={1: "KS", 2: "KS", 3: "KH", 4: "KD"}, waste="QH QD"))
    assert "r" not in names(DT, s) and "d" not in names(DT, s)
    assert DT.explain_illegal(s, REDEAL) == "rule 1: demonthief has no redeals"
    assert DT.explain_illegal(s, DRAW) == "rule 1: the stock is empty"
    with pytest.raises(LayoutError, match="redeals used in demonthief must be 0, not 1"):
        DT.from_text(layout(tab={1: "KS", 2: "KS", 3: "KH", 4: "KD"}, waste="QH QD", used=1))


def test_two_redeals_in_demons_and_thieves() -> None:
    s = state_of(layout("demons-and-thieves", tab={1: "KS", 2: "KS", 3: "KH", 4: "KD"}, stock="<QH> <QD>"))
    assert DAT.explain_illegal(s, REDEAL) == "rule 1: redeal only when the stock is empty (draw with d)"
    s = play(DAT, s, "d", "d")
    assert "r" in names(DAT, s) and DAT.explain_illegal(s, DRAW) == "rule 1: the stock is empty (redeal with r)"
    s = play(DAT, s, "r")
    assert s.waste == () and s.redeals_used == 1
    assert DAT.to_text(s).splitlines()[1] == "stock: <QH> <QD>"  # the first card drawn is the top again
    s = play(DAT, s, "d", "d", "r", "d", "d")
    assert s.redeals_used == 2 and "r" not in names(DAT, s) and "d" not in names(DAT, s)
    assert DAT.explain_illegal(s, REDEAL) == "rule 1: no redeals left (demons-and-thieves allows 2)"
    assert DAT.status(s) == ["base rank: A", "redeals left: 0", "on foundations: 98/104"]
    assert DAT.to_text(s).splitlines()[-1] == "redeals used: 2"
    with pytest.raises(
        LayoutError, match="redeals used in demons-and-thieves must be a whole number from 0 to 2, not 3"
    ):
        DAT.from_text(DAT.to_text(s).replace("redeals used: 2", "redeals used: 3"))
    t = state_of(layout("demons-and-thieves", tab={1: "KS", 2: "KS", 3: "KH", 4: "KD", 5: "QH QD"}))
    assert DAT.explain_illegal(t, REDEAL) == "rule 1: the waste is empty, nothing to redeal"


# --- the end ----------------------------------------------------------------------------


# Base A, every foundation at the ten; every jack under a queen under a king,
# or under the QS on pile 1, which nothing takes. There is no legal move.
STUCK = {
    1: "JC QS",
    2: "JC QC KS",
    3: "JD QD KS",
    4: "JD QD KC",
    5: "JH QH KC",
    6: "JH QH KD",
    7: "JS QS KD",
    8: "JS QC KH",
    9: "KH",
}
# The same, with JS, QS, QC taken out of piles 7 and 8.
SHORT = {**STUCK, 7: "JS KD", 8: "KH"}


def test_win() -> None:
    s = state_of(layout(base="7", tab={5: "6S"}))
    assert not DT.is_won(s) and DT.score(s) == 103
    s = play(DT, s, "5f")
    assert DT.is_won(s) and DT.legal_moves(s) == [] and DT.progress(s) == (104, 0)
    assert cardtable.new_game("demonthief", layout=DT.to_text(s)).outcome.ending is Ending.WON


def test_over_when_stuck() -> None:
    assert DT.legal_moves(state_of(layout(tab=STUCK))) == []
    assert over(layout(tab=STUCK))
    assert over(layout("demons-and-thieves", tab=STUCK))
    assert game_at(layout(tab=STUCK)).outcome.ending is Ending.NO_LEGAL_MOVE


def test_not_over_when_the_card_is_deep_in_the_stock() -> None:
    text = layout(tab=SHORT, stock="<JS> <QS> <QC>")
    assert not over(text)
    s = state_of(text)
    assert not [m for m in names(DT, s) if m.endswith("f")]
    s = play(DT, s, "d", "w5", "d", "d", "wf")  # QC onto KC (pile 5); QS stays; JS goes home
    assert DT.score(s) == DT.score(state_of(text)) + 1


def test_over_or_not_when_the_card_is_under_the_waste() -> None:
    # The JS lies at the bottom of the waste under QS and QC, and the stock is empty. QC may
    # still go onto KC (pile 5), to no end: but it changes the position (the waste never
    # takes a card back), so the game is not over until it is played (rules: "no move of
    # rules 1-5 can change the position").
    game = game_at(layout(tab=SHORT, waste="JS QS QC"))
    assert [str(m) for m in game.legal_moves()] == ["w5"] and not game.outcome.over
    game.play("w5")
    assert game.outcome.over and game.outcome.ending is Ending.NO_LEGAL_MOVE
    for used in (0, 1, 2):
        assert not over(layout("demons-and-thieves", tab=SHORT, waste="JS QS QC", used=used))
    game = game_at(layout("demons-and-thieves", tab=SHORT, waste="JS QS QC", used=2))
    game.play("w5")
    assert game.outcome.over
    s = state_of(layout("demons-and-thieves", tab=SHORT, waste="JS QS QC", used=1))
    assert DAT.score(play(DAT, s, "r", "d", "wf")) == DAT.score(s) + 1


def test_not_over_while_a_tableau_move_cannot_be_taken_back() -> None:
    # QC lies on KH in a right pile, where it does not fit (same suit only): it may go onto
    # KC (pile 5), to no end, and can never come back. That changes the position for good,
    # and no count sees it: the search for progress finds none, then finds a position that
    # cannot come back to this one.
    text = layout(tab={**STUCK, 8: "JS KH QC"})
    game = game_at(text)
    assert [str(m) for m in game.legal_moves()] == ["85"] and not game.outcome.over
    s = state_of(text)
    assert DT.one_way(DT.apply(s, game.legal_moves()[0])) == DT.one_way(s)
    assert can_progress(DT, s) is True and native.can_progress(DT, s) is True
    game.play("85")
    assert game.outcome.over and game.outcome.ending is Ending.NO_LEGAL_MOVE


# Base A, every foundation at the ten: each pile holds a jack under a king under
# a queen, pile 4 is empty. Only pile 5's KD QD is a run (same suit, right side).
GROUP_TAB = {
    1: "JC KC QS",
    2: "JS KS QC",
    3: "JD KH QD",
    5: "JH KD QD",
    6: "JC KC QH",
    7: "JS KS QH",
    8: "JD KH QC",
    9: "JH KD QS",
}


class SingleCards(Demonthief):
    """Demonthief without group moves: to show that the group is what saves GROUP_TAB."""

    def legal_moves(self, state: DemonthiefState) -> list[DemonthiefMove]:
        return [m for m in super().legal_moves(state) if m.n <= 1]


def test_not_over_after_a_group_shift_through_an_empty_pile() -> None:
    text = layout(tab=GROUP_TAB)
    assert not over(text)
    s = play(DT, state_of(text), "54:2", "5f")
    assert s.tableau[3] == cards("KD QD")
    # One card at a time no card would ever go home: a queen parked in the empty pile
    # uncovers a king, and a king never finds a place while no pile is empty.
    assert not any(SingleCards().score(t) > DT.score(state_of(text)) for t in reachable(SingleCards(), state_of(text)))


# --- move text -----------------------------------------------------------------------------


def random_positions(rules: Demonthief, deals: range, length: int) -> list[DemonthiefState]:
    out: list[DemonthiefState] = []
    for d in deals:
        out += random_line(rules, rules.deal(d), seed=d, length=length)
    return out


@pytest.mark.parametrize("rules", [DT, DAT])
def test_move_text_round_trip(rules: Demonthief) -> None:
    seen: set[str] = set()
    for s in random_positions(rules, range(6), 150):
        moves = rules.legal_moves(s)
        assert len(set(moves)) == len(moves)
        for m in moves:
            text = str(m)
            seen.add(text[0] + ("f" if text.endswith("f") else ":" if ":" in text else ""))
            assert rules.parse_move(text) == m and rules.parse_move(text.upper()) == m
    assert {"d", "wf", "xf", "w", "x", "1", "1f", "5:"} <= seen


@pytest.mark.parametrize(
    "text",
    ["", "x", "w", "fw", "f1", "ww", "wx", "xw", "55", "3f:2", "w5:2", "x5:2", "35:0", "35:01", "35:104", "0f"]
    + ["10f", "3 5", "35:", "dd", "rr", "df", "d1", "35:-1", "a5", "3g", "w0", "3d"],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(MoveParseError, match="not a demonthief move"):
        DT.parse_move(text)


def test_parse_error_says_what_moves_look_like() -> None:
    with pytest.raises(MoveParseError, match=r"moves look like d, r, wf, xf, 3f, w5, x2, 35, 35:3"):
        DAT.parse_move("hello")
    with pytest.raises(MoveParseError):
        DT.parse_move(5)  # type: ignore[arg-type]


def test_parse_accepts_case_spaces_and_a_count_of_one() -> None:
    assert DT.parse_move(" WF ") == DemonthiefMove(WASTE, FOUNDATION, 1)
    assert DT.parse_move("X9") == DemonthiefMove(RESERVE, 8, 1)
    assert DT.parse_move("35:1") == DT.parse_move("35") == DemonthiefMove(2, 4, 1)
    assert DT.parse_move("3f:1") == DT.parse_move("3f")
    assert DT.parse_move("19:103") == DemonthiefMove(0, 8, 103)
    assert DT.parse_move("d") == DRAW == DemonthiefMove(STOCK, WASTE, 0) and DT.parse_move("R") == REDEAL


def test_resolve_picks_the_only_move() -> None:
    tab = {1: "9C", 2: "9D", 3: "9H", 4: "9S", 5: "8H 7H 6H", 6: "9C", 7: "9D", 8: "9H", 9: "9S"}
    s = state_of(layout(base="T", tab=tab))
    assert str(DT.resolve(s, "51")) == "51:3" and str(DT.resolve(s, "51:1")) == "51"
    game = cardtable.new_game("demonthief", layout=DT.to_text(s))
    assert str(game.play("51")) == "51:3"
    # Into an empty pile several counts fit, so "59" stays one card.
    s = state_of(layout(base="T", tab={**tab, 9: ""}, stock="<9S>"))
    assert str(DT.resolve(s, "59")) == "59"


def test_illegal_moves_are_refused_explained_and_change_nothing() -> None:
    game = cardtable.new_game("demonthief", deal=0)
    before = game.state
    cases = {
        "r": "rule 1: demonthief has no redeals",
        "wf": "rule 2: the waste is empty",
        "xf": "rule 2: no foundation takes 4H (they build up in suit from the base rank T; they need JH, any T)",
        "x1": "rule 2: 4H cannot go on 9S (the left side builds down by alternate colour; an ace takes a king)",
        "5f": "rule 3: no foundation takes 5H",
        "56": "rule 4: 5H cannot go on 9H (the right side builds down in suit; an ace takes a king)",
        "12": "rule 4: 9S cannot go on QD (the left side builds down by alternate colour",
        "56:2": "rule 4: 6D-5H is not a same-suit run on the right side",
        "13:2": "rule 4: pile 1 holds only 1 card",
        "13:9": "rule 4: pile 1 holds only 1 card",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalMoveError) as err:
            game.play(text)
        assert why in str(err.value)
        assert game.state == before and game.moves == []
    with pytest.raises(MoveParseError):
        game.play("zz")
    assert game.state == before


def test_explain_empty_sources() -> None:
    s = state_of(layout(tab={1: "KS", 2: "KS", 3: "KH", 4: "KD"}, waste="QH QD"))
    assert DT.explain_illegal(s, DT.parse_move("56")) == "tableau pile 5 is empty"
    assert DT.explain_illegal(s, DT.parse_move("x3")) == "rule 2: the reserve is empty"


# --- position text ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [DT, DAT])
def test_text_round_trip(rules: Demonthief) -> None:
    for s in random_positions(rules, range(10, 14), 250):
        text = rules.to_text(s)
        assert rules.from_text(text) == s
        assert rules.to_text(rules.from_text(text)) == text
        assert sorted(rules.cards(s)) == sorted(rules.deck())
    loose = "\n# a comment\n\n" + layout(tab={5: "kh qh", 6: "kh qh jh", 7: "10s js qs ks"}) + "\n\n"
    assert DT.from_text(loose) == state_of(layout(tab={5: "KH QH", 6: "KH QH JH", 7: "TS JS QS KS"}))


def test_to_text_example() -> None:
    text = layout(base="Q", tab={1: "JS", 5: "JH TH"}, stock="<TS>", waste="JH")
    assert DT.to_text(state_of(text)) == "\n".join(
        [
            "demonthief",
            "stock: <TS>",
            "waste: JH",
            "reserve:",
            "f1: QC KC AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            "f2: QC KC AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
            "f3: QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
            "f4: QD KD AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
            "f5: QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
            "f6: QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H",
            "f7: QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
            "f8: QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S",
            "1: JS",
            "2:",
            "3:",
            "4:",
            "5: JH TH",
            "6:",
            "7:",
            "8:",
            "9:",
            "redeals used: 0",
        ]
    )


BASIC = layout(tab={1: "KS"})
BAD_LAYOUTS = [
    ("klondike\nstock:", "must start with the line 'demonthief'"),
    (BASIC.replace("f1: ", "f1: <AC> "), "foundation f1: every card is face up"),
    (BASIC.replace("\n1: KS", "\n1: <KS>"), "tableau pile 1: every card is face up"),
    (layout(tab={1: "KS"}, stock="QS"), "stock: every card is face down"),
    (layout(tab={1: "KS"}, waste="<QS>"), "waste: every card is face up"),
    (layout(tab={1: "KS"}, reserve="<KS> <QS>"), "reserve: face-down cards lie under face-up ones"),
    (layout(tab={1: "KS"}, reserve="KS QS"), "reserve cards are face down except the top"),
    (BASIC.replace("redeals used: 0", "redeals used: x"), "redeals used in demonthief must be 0, not 'x'"),
    (BASIC.replace("redeals used: 0", "redeals used: -1"), "redeals used in demonthief must be 0, not -1"),
    (BASIC.replace("\n1: KS", "\n1: KS KS"), "too many: KS"),
    (BASIC.replace("\n1: KS", "\n1:"), "missing: KS"),
    (BASIC.replace("\n1: KS", "\n1: KX"), "not a card"),
    (BASIC.replace("\n1: KS", "\n1: K<S>"), "bad face-down card"),
    (BASIC.replace("\n9:", ""), "missing the line"),
    (BASIC + "\n9:", "appears twice"),
    (BASIC + "\nhello: 3", "unknown layout line"),
    (BASIC.replace(BASIC.splitlines()[4], "f1:"), "f1 must hold a card"),
    (BASIC.replace("f2: AC 2C", "f2: AC 2D"), "must run up in suit from the base rank A"),
    (BASIC.replace("f2: AC 2C", "f2: 2C"), "must run up in suit from the base rank A"),
    (BASIC.replace("f2: AC 2C", "f2: AC AC 2C"), "holds 14 cards; a foundation holds at most 13"),
]


@pytest.mark.parametrize(("text", "message"), BAD_LAYOUTS)
def test_layout_errors(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        DT.from_text(text)


def test_foundations_fill_in_order() -> None:
    lines = layout(tab={1: "KS"}, stock=" ".join(f"<{r}S>" for r in RANKS[:-1])).splitlines()
    assert lines[11] == "f8:"
    DT.from_text("\n".join(lines))
    lines[10], lines[11] = "f7:", lines[10].replace("f7", "f8")
    with pytest.raises(LayoutError, match="foundation f8 holds cards but an earlier foundation is empty"):
        DT.from_text("\n".join(lines))


def test_layout_type_and_format_errors() -> None:
    with pytest.raises(LayoutError, match="a layout must be text"):
        DT.from_text(3)  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="unknown demonthief layout format"):
        DT.to_text(DT.deal(0), "pysol")
    with pytest.raises(LayoutError, match="must start with the line 'demons-and-thieves'"):
        DAT.from_text(BASIC)


# --- autoplay -------------------------------------------------------------------------------


def test_autoplay_plays_only_safe_cards() -> None:
    # Base 6: the fives are the last cards. 5H is safe once both 4H, 4C and 4S are home.
    assert str(DT.auto_move(state_of(layout(base="6", tab={5: "5H"})))) == "5f"
    unsafe = state_of(layout(base="6", tab={5: "5H", 1: "4S 5S"}))  # a 4S could still go on the 5H
    assert "5f" in names(DT, unsafe) and DT.auto_move(unsafe) is None
    red = state_of(layout(base="6", tab={5: "5H", 1: "4D 5D"}))  # a 4D never goes on a 5H
    assert str(DT.auto_move(red)) == "5f"
    # A base-rank card is never automatic (the last cards could still go on it).
    base_card = state_of(layout(base="A", tab={5: "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"}))
    assert names(DT, base_card)[0] == "5f" and DT.auto_move(base_card) is None


def test_autoplay_in_a_game_and_undo() -> None:
    # Base 6: 4H then 5H are the hearts still out. Playing the 4H home makes the 5H safe.
    text = layout(base="6", tab={5: "5H 4H"})
    game = game_at(text, autoplay="on")
    assert game.options == {"autoplay": True}
    game.play("5f")
    assert [str(m) for m in game.moves] == ["5f", "5f"] and game.outcome.won
    assert str(game.undo()) == "5f" and game.state == state_of(text) and game.moves == []
    # Without the option nothing follows.
    plain = game_at(text)
    plain.play("5f")
    assert [str(m) for m in plain.moves] == ["5f"]


def test_options() -> None:
    assert Demonthief().option_text() == "autoplay=off"
    with pytest.raises(OptionError):
        rules_for("demonthief", redeals=3)
    assert rules_for("demons-and-thieves").title == "Demons and Thieves"


# --- a slow reference generator: the rules file read literally ----------------------------------


def _takes(left: bool, below: int, card: int) -> bool:
    """Whether ``card`` may lie on ``below`` in a left (alternate colour) or right (in suit) pile."""
    down = RANK[below] - 1 or 13
    return RANK[card] == down and (RED[card] != RED[below] if left else SUIT[card] == SUIT[below])


def reference_moves(rules: Demonthief, s: DemonthiefState) -> set[str]:
    """Every legal move, found by trying every source, target and count against the rules text."""
    homes = [rules_text_foundation(t, s.base) for t in s.foundations]

    def to_foundation(c: int) -> bool:
        for home in homes:
            if not home and RANK[c] == s.base:
                return True
            if home and len(home) < 13 and SUIT[home[-1]] == SUIT[c] and RANK[c] == RANK[home[-1]] % 13 + 1:
                return True
        return False

    def fits(j: int, c: int) -> bool:
        q = s.tableau[j]
        return not q or _takes(j < 4, q[-1], c)

    out: set[str] = set()
    for name, pile in (("w", s.waste), ("x", s.reserve)):
        if pile:
            out |= {name + "f"} if to_foundation(pile[-1]) else set()
            out |= {f"{name}{j + 1}" for j in range(9) if fits(j, pile[-1])}
    for i, p in enumerate(s.tableau):
        if p and to_foundation(p[-1]):
            out.add(f"{i + 1}f")
        for n in range(1, len(p) + 1):
            group = p[-n:]
            if all(_takes(i < 4, a, b) for a, b in pairwise(group)):
                out |= {f"{i + 1}{j + 1}" + (f":{n}" if n > 1 else "") for j in range(9) if j != i and fits(j, p[-n])}
    if s.stock:
        out.add("d")
    elif s.waste and s.redeals_used < rules.REDEALS:
        out.add("r")
    return out


def rules_text_foundation(top: int, base: int) -> list[int]:
    """A foundation's cards from the base rank up to ``top`` (empty for -1), counted the slow way."""
    if top < 0:
        return []
    pile = [make_card(base, SUIT[top])]
    while pile[-1] != top:
        pile.append(make_card(RANK[pile[-1]] % 13 + 1, SUIT[top]))
    return pile


@pytest.mark.parametrize("rules", [DT, DAT])
def test_legal_moves_match_the_reference(rules: Demonthief) -> None:
    order = {"f": 0, "t": 1, "w": 2, "x": 3, "d": 4, "r": 4}
    for s in random_positions(rules, range(20, 30), 200):
        moves = names(rules, s)
        assert set(moves) == reference_moves(rules, s)
        kinds = [order["f" if m.endswith("f") else "t" if m[0].isdigit() else m[0]] for m in moves]
        assert kinds == sorted(kinds)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(0, 10**6), st.sampled_from([DT, DAT]))
def test_random_play_invariants(deal: int, seed: int, rules: Demonthief) -> None:
    rng = random.Random(seed)
    s = rules.deal(deal)
    for _ in range(150):
        moves = rules.legal_moves(s)
        if not moves:
            break
        nxt = rules.apply(s, rng.choice(moves))
        assert sorted(rules.cards(nxt)) == sorted(rules.deck())
        assert rules.score(nxt) >= rules.score(s) and len(nxt.reserve) <= len(s.reserve)
        assert nxt.redeals_used <= rules.REDEALS
        s = nxt
    assert rules.from_text(rules.to_text(s)) == s


# --- perft ------------------------------------------------------------------------------------


PERFT = [
    (DT, 0, (5, 34, 271), (5, 25, 107)),
    (DT, 1, (2, 13, 73), (2, 12, 47)),
    (DT, 3, (7, 79, 941), (7, 59, 377)),
    (DAT, 4, (5, 40, 385), (5, 30, 168)),
    (DAT, 5, (4, 36, 317), (4, 30, 148)),
    (DAT, 6, (4, 14, 45), (4, 8, 13)),
]


@pytest.mark.parametrize(("rules", "deal", "counts", "positions"), PERFT)
def test_perft(rules: Demonthief, deal: int, counts: tuple[int, ...], positions: tuple[int, ...]) -> None:
    s = rules.deal(deal)
    assert tuple(perft(rules, s, d) for d in (1, 2, 3)) == counts
    assert tuple(distinct_positions(rules, s, d) for d in (1, 2, 3)) == positions

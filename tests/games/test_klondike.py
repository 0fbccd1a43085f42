"""Klondike, rule by rule from ``cardtable/rulebook/klondike.md``."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.core.cards import card_text, french_deck, parse_card
from cardtable.core.errors import IllegalMoveError, LayoutError, MoveParseError
from cardtable.core.game import Ending
from cardtable.games.klondike import Klondike, KlondikeMove, KlondikeState, javasol_deck
from tests.helpers import distinct_positions, perft, random_line


def layout(
    piles: dict[int, str],
    found: tuple[int, int, int, int] = (0, 0, 0, 0),
    waste: str = "",
    stock: str = "",
    rest: int | str | None = None,
    redeals_used: int = 0,
) -> str:
    """A full Klondike layout. Cards not named (and not on the foundations) go face
    down under pile ``rest``, or into the stock when ``rest == "stock"``."""
    named = " ".join([*piles.values(), waste, stock]).replace("<", " ").replace(">", " ").split()
    used = {parse_card(c) for c in named}
    on_found = {s * 13 + r for s in range(4) for r in range(found[s])}
    missing = [c for c in french_deck() if c not in used and c not in on_found]
    text = dict(piles)
    if rest == "stock":
        stock = " ".join(f"<{card_text(c)}>" for c in missing) + " " + stock
    elif missing:
        assert isinstance(rest, int), f"unplaced cards: {[card_text(c) for c in missing]}"
        text[rest] = " ".join(f"<{card_text(c)}>" for c in missing) + " " + text.get(rest, "")
    names = ("clubs", "diamonds", "hearts", "spades")
    lines = ["klondike", f"stock: {stock}", f"waste: {waste}"]
    for s in range(4):
        lines.append(f"{names[s]}: " + " ".join(card_text(s * 13 + r) for r in range(found[s])))
    lines += [f"{i}: {text.get(i, '')}" for i in range(1, 8)]
    lines.append(f"redeals used: {redeals_used}")
    return "\n".join(lines)


def game(text: str, **options: Any) -> cardtable.Game[KlondikeState, KlondikeMove]:
    """The game at ``text``, a position made for one rule (most dump the rest of the deck face
    down under one pile, which no deal reaches: ``from_text`` refuses them), read without the
    checks that a deal and play reach it: the rules play any position."""
    rules = Klondike(**options)
    return cardtable.Game(rules, rules._read(text))


def moves_of(game: cardtable.Game[KlondikeState, KlondikeMove]) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def test_the_positions_made_for_one_rule_are_not_reachable() -> None:
    with pytest.raises(LayoutError, match="face-down cards, at most 0"):
        cardtable.new_game("klondike", layout=layout({1: "<5D> AS"}, rest=1))


# --- layout and deal ---------------------------------------------------------


def test_deal_layout() -> None:
    s = Klondike().deal(12345)
    assert [len(p) for p in s.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert s.down == (0, 1, 2, 3, 4, 5, 6)  # only the top card of each pile is face up
    assert len(s.stock) == 24 and s.waste == () and s.foundations == (0, 0, 0, 0)
    assert sorted(Klondike().cards(s)) == list(range(52))


def test_deals_are_deterministic_and_differ() -> None:
    assert Klondike().deal(7) == Klondike().deal(7)
    assert Klondike().deal(7) != Klondike().deal(8)
    # The cardtable shuffle of deal 0 is fixed forever: pin its first tableau cards and stock top.
    s = Klondike().deal(0)
    assert [card_text(p[-1]) for p in s.tableau] == ["TH", "KS", "AS", "4D", "TS", "8D", "5D"]
    assert card_text(s.stock[-1]) == "TD"


def test_javasol_numbering_matches_the_rules_check() -> None:
    deck = [card_text(c) for c in javasol_deck(0)]
    assert deck[:10] == ["8H", "JS", "9S", "JC", "AC", "2D", "QH", "3D", "TH", "7S"]
    assert deck[-3:] == ["6C", "8S", "7D"]
    s = Klondike(numbering="javasol").deal(0)
    # Deal: 7D (top) face up on pile 1, then 8S face down on pile 2, 6C on pile 3...
    assert card_text(s.tableau[0][0]) == "7D"
    assert card_text(s.tableau[1][0]) == "8S"
    assert card_text(s.tableau[2][0]) == "6C"
    # The stock's top card (drawn first) is the deck's 29th card from the top.
    assert s.stock[-1] == javasol_deck(0)[-29]


# --- rule 1 and 2: stock and waste -----------------------------------------------


def test_draw_three_turns_three_one_after_another() -> None:
    r = Klondike()
    s = r.deal(3)
    top3 = s.stock[-3:]
    t = r.apply(s, r.parse_move("d"))
    # The stock's top card is turned first, so the third card turned is the waste top.
    assert t.waste == (top3[2], top3[1], top3[0])
    assert len(t.stock) == 21


def test_draw_turns_fewer_when_the_stock_is_short() -> None:
    g = game(layout({1: "KS"}, stock="<2H> <3H>", rest=1, found=(13, 13, 0, 0)))
    # 1: face-down hearts under KS (the rest), stock holds two cards
    g.play("d")
    assert [card_text(c) for c in g.state.waste] == ["3H", "2H"]
    assert g.state.stock == ()


def test_draw_one_option() -> None:
    r = Klondike(draw=1)
    s = r.apply(r.deal(3), r.parse_move("d"))
    assert len(s.waste) == 1


def test_redeal_restores_the_original_order() -> None:
    r = Klondike()
    s = r.deal(4)
    stock = s.stock
    for _ in range(8):
        s = r.apply(s, r.parse_move("d"))
    assert s.stock == ()
    assert "r" in [str(m) for m in r.legal_moves(s)] and "d" not in [str(m) for m in r.legal_moves(s)]
    s = r.apply(s, r.parse_move("r"))
    assert s.stock == stock and s.waste == ()


def test_redeals_option_limits_redeals() -> None:
    r = Klondike(redeals=1)
    s = r.deal(4)
    for _ in range(8):
        s = r.apply(s, r.parse_move("d"))
    s = r.apply(s, r.parse_move("r"))
    assert s.redeals_used == 1
    for _ in range(8):
        s = r.apply(s, r.parse_move("d"))
    assert "r" not in [str(m) for m in r.legal_moves(s)]
    assert "no redeals left" in r.explain_illegal(s, r.parse_move("r"))


def test_redeal_refused_while_the_stock_has_cards() -> None:
    g = cardtable.new_game("klondike", deal=1)
    with pytest.raises(IllegalMoveError, match="rule 2"):
        g.play("r")
    assert g.moves == []


def test_only_the_waste_top_is_playable() -> None:
    # Waste: 9S (under) then 2C (top). 9S could go on TH, but it is not the top.
    g = game(layout({1: "TH", 2: "KD"}, waste="9S 2C", rest=2, found=(1, 0, 0, 0)))
    assert "w1" not in moves_of(g)
    assert "wf" in moves_of(g)  # 2C on AC


# --- rule 3: to a tableau pile ---------------------------------------------------


def test_tableau_needs_other_colour_and_one_rank_higher() -> None:
    g = game(layout({1: "8H", 2: "7S", 3: "7D", 4: "6S"}, rest=4))
    ms = moves_of(g)
    assert "21" in ms  # black 7 on red 8
    assert "31" not in ms  # red on red
    assert "41" not in ms  # two ranks lower
    with pytest.raises(IllegalMoveError, match="rule 3: 7D cannot go on 8H"):
        g.play("31")


def test_a_face_up_card_moves_with_every_card_on_it() -> None:
    g = game(layout({1: "<2C> 9H 8S 7H", 2: "TC"}, rest=2))
    ms = moves_of(g)
    assert "12:3" in ms  # 9H 8S 7H onto TC
    g.play("12")  # the short form finds the only move from 1 to 2
    assert [card_text(c) for c in g.state.tableau[1][-4:]] == ["TC", "9H", "8S", "7H"]
    # Rule 6: the exposed face-down 2C turned face up at once.
    assert g.state.down[0] == 0 and card_text(g.state.tableau[0][-1]) == "2C"


def test_an_empty_pile_takes_only_a_king() -> None:
    g = game(layout({1: "<3C> KH QS", 2: "<4C> QD", 3: ""}, rest=2))
    ms = moves_of(g)
    assert "13:2" in ms
    assert "23" not in ms
    with pytest.raises(IllegalMoveError, match="only a king"):
        g.play("23")


def test_face_down_cards_never_move() -> None:
    g = game(layout({1: "<9H> 8S", 2: "TS"}, rest=2))
    with pytest.raises(IllegalMoveError, match="face-down"):
        g.play("12:2")


# --- rule 4: to a foundation ------------------------------------------------------


def test_foundation_takes_an_ace_then_the_suit_upward() -> None:
    g = game(layout({1: "AH", 2: "2H", 3: "3H", 4: "2S"}, rest=4))
    assert moves_of(g)[:1] == ["1f"]
    assert "2f" not in moves_of(g)
    g.play("1f")
    g.play("2f")
    assert "4f" not in moves_of(g)  # 2S needs AS
    with pytest.raises(IllegalMoveError, match="rule 4: 2S cannot go to its foundation, which needs AS"):
        g.play("4f")
    g.play("3f")
    assert g.state.foundations == (0, 0, 3, 0)


def test_only_single_exposed_cards_go_to_a_foundation() -> None:
    with pytest.raises(MoveParseError):
        Klondike().parse_move("1f:2")
    # a foundation's top never goes to another foundation
    with pytest.raises(MoveParseError):
        Klondike().parse_move("fhf")


# --- rule 5: back from a foundation ----------------------------------------------------


def test_foundation_top_may_return_to_the_tableau() -> None:
    g = game(layout({1: "4C"}, found=(0, 0, 3, 0), rest=1))
    assert "fh1" in moves_of(g)
    g.play("fh1")
    assert g.state.foundations == (0, 0, 2, 0)
    assert card_text(g.state.tableau[0][-1]) == "3H"


def test_foundation_return_option_off() -> None:
    text = layout({1: "4C"}, found=(0, 0, 3, 0), rest=1)
    g = game(text, foundation_return=False)
    assert "fh1" not in moves_of(g)
    with pytest.raises(IllegalMoveError, match="rule 5"):
        g.play("fh1")


def test_foundation_king_returns_to_an_empty_pile() -> None:
    g = game(layout({1: "5C"}, found=(0, 0, 13, 0), rest=1))
    assert "fh2" in moves_of(g)


# --- rule 6: auto flip ------------------------------------------------------------------


def test_exposed_face_down_card_turns_up_at_once() -> None:
    g = game(layout({1: "<5D> AS"}, rest=1))
    assert len(g.state.tableau[0]) - g.state.down[0] == 1
    g.play("1f")
    assert len(g.state.tableau[0]) - g.state.down[0] == 1  # 5D is now the face-up card
    assert card_text(g.state.tableau[0][-1]) == "5D"


# --- end -------------------------------------------------------------------------


def test_win() -> None:
    # Everything on the foundations but the king of spades.
    g = cardtable.new_game("klondike", layout=layout({1: "KS"}, found=(13, 13, 13, 12)))
    assert not g.outcome.won and not g.outcome.over
    g.play("1f")
    assert g.outcome.won and g.outcome.over and g.outcome.score == 52
    assert g.outcome.ending is Ending.WON and g.outcome.describe() == "You won!"


def test_over_when_stuck() -> None:
    # Four deuces on top of face-down cards, aces buried, threes buried, no stock or waste.
    text = layout({1: "2H", 2: "2D", 3: "2C", 4: "2S"}, rest=1)
    g = game(text)
    assert g.legal_moves() == []
    assert g.outcome.over and g.outcome.lost and g.outcome.score == 0
    assert g.outcome.ending is Ending.NO_LEGAL_MOVE
    assert g.outcome.describe() == "Game over: there are no more valid moves to play."


def test_over_when_only_pointless_moves_remain() -> None:
    # A king at the bottom of pile 2 may move to empty piles forever, and the stock
    # cycles forever, but no card ever reaches a foundation or turns up.
    text = layout({1: "2H", 2: "KC QH", 3: "2S"}, stock="<9H> <9D> <4H> <4D>", rest=1)
    g = game(text)
    assert g.legal_moves()  # moves exist...
    assert g.outcome.over  # ...but none makes progress
    assert g.outcome.ending is Ending.NO_PROGRESS
    assert g.outcome.describe() == (
        "Game over: no move can change the position any more "
        "(the moves left only go back and forth, or round in a circle)."
    )


def test_not_over_when_progress_needs_a_king_move_and_a_redeal() -> None:
    # Stock, first drawn first: 7C 5D KC AH 9S. Drawing three at a time shows only
    # KC and 9S. The only way on: play KC into an empty pile, finish the pass, redeal;
    # now the draws fall differently and AH shows on the waste.
    stock = "<9S> <AH> <KC> <5D> <7C>"  # bottom first
    text = layout({1: "2H", 2: "2S"}, stock=stock, rest=1)
    g = game(text)
    assert not g.outcome.over
    for move in ["d", "w3", "d", "r", "d"]:
        assert not g.outcome.over
        g.play(move)
    assert card_text(g.state.waste[-1]) == "AH"
    g.play("wf")


def test_not_over_when_a_foundation_card_must_come_down_first() -> None:
    # 6D (pile 1) and 4H (pile 2) cover face-down cards and have nowhere to go, but
    # 5S can come down from its foundation onto 6D (rule 5), then 4H onto 5S, and
    # pile 2's face-down 9C turns up.
    text = layout({1: "6D", 2: "<9C> 4H"}, found=(0, 0, 2, 5), rest=1)
    g = game(text)
    assert not g.outcome.over
    g.play("fs1")
    g.play("21")
    assert g.state.down[1] == 0
    # Without rule 5 the same position is over.
    assert game(text, foundation_return=False).outcome.over


def test_redeal_limit_makes_a_position_over() -> None:
    text = layout({1: "2H"}, waste="9H", rest=1, redeals_used=1)
    g = game(text, redeals=1)
    assert g.outcome.over
    g2 = game(text.replace("redeals used: 1", "redeals used: 0"), redeals=1)
    assert g2.outcome.over  # redeal possible, but the 9H never helps


# --- notation ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["d", "r", "w3", "wf", "3f", "35", "35:3", "fh5", "fc1", "71:12"])
def test_move_text_round_trips(text: str) -> None:
    r = Klondike()
    assert str(r.parse_move(text)) == text
    assert r.parse_move(str(r.parse_move(text))) == r.parse_move(text)


@pytest.mark.parametrize("text", ["", "x", "88", "11", "w", "f3", "ff", "3w", "35:0", "35:25", "w3:2", "d2", "fx1"])
def test_bad_move_text_is_refused(text: str) -> None:
    with pytest.raises(MoveParseError):
        Klondike().parse_move(text)


def test_illegal_and_unparsable_moves_leave_the_game_unchanged() -> None:
    g = cardtable.new_game("klondike", deal=5)
    before = g.state
    for bad in ["zz", "r", "17:5"]:
        with pytest.raises((IllegalMoveError, MoveParseError)):
            g.play(bad)
    assert g.state == before and g.moves == []


# --- position text ----------------------------------------------------------------------


def test_text_round_trip_along_random_play() -> None:
    r = Klondike()
    for seed in range(5):
        for s in random_line(r, r.deal(seed), seed, 60):
            assert r.from_text(r.to_text(s)) == s


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace("klondike", "freecell", 1), "must start with"),
        (lambda t: t.replace("\nwaste:", "\nwasted:"), "unknown layout line"),
        (lambda t: t.replace("1: TH", "1: TH TH"), "exactly once"),
        (lambda t: t.replace("1: TH", "1: TX"), "not a card"),
        (lambda t: t.replace("1: TH", "1: <TH>"), "top card is face up"),
        (lambda t: t.replace("redeals used: 0", "redeals used: 3"), "redeals"),
        (lambda t: t.replace("\nclubs:", "\nclubs: 2C"), "foundation"),
    ],
)
def test_malformed_layouts_are_refused(change: object, message: str) -> None:
    text = Klondike().to_text(Klondike().deal(0))
    assert callable(change)
    with pytest.raises(LayoutError, match=message):
        Klondike().from_text(change(text))


def test_pysol_format_round_trips_pyksolve_deals() -> None:
    solver = pytest.importorskip("pyksolve.solver")
    for seed in (0, 1, 2, 17, 12345):
        s = solver.Solitaire()
        s.shuffle1(seed)
        s.reset_game(3)
        text = s.get_pysol()
        game = cardtable.new_game("klondike", layout=text)
        assert game.to_text(format="pysol") == text
        # pyksolve reads our text back to the same deal (its reader wants CRLF lines).
        back = solver.Solitaire()
        back.load_pysol(game.to_text(format="pysol").replace("\n", "\r\n"))
        assert back.get_pysol() == text


def test_pysol_talon_lists_the_first_card_drawn_first() -> None:
    r = Klondike()
    s = r.deal(2)
    talon = r.to_text(s, "pysol").splitlines()[0].split()[1:]
    assert talon[0] == card_text(s.stock[-1])


def test_pysol_refuses_positions_it_cannot_hold() -> None:
    r = Klondike()
    s = r.apply(r.deal(2), r.parse_move("d"))
    with pytest.raises(LayoutError, match="PySol"):
        r.to_text(s, "pysol")


# --- autoplay ---------------------------------------------------------------------


def test_autoplay_is_off_by_default_and_plays_safe_cards_when_on() -> None:
    text = layout({1: "<5D> AS", 2: "<6D> 2S", 3: "KH"}, rest=3)
    g = game(text)
    g.play("1f")
    assert g.state.foundations == (0, 0, 0, 1)
    g2 = game(text, autoplay=True)
    g2.play("1f")
    assert g2.state.foundations == (0, 0, 0, 2)  # 2S followed on its own
    assert [str(m) for m in g2.moves] == ["1f", "2f"]
    g2.undo()  # one undo takes back the move and what autoplay did after it
    assert g2.state == Klondike()._read(text)


# --- perft ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, deal, expected",
    [
        # d=1 checked by hand: deal 0 has 3f (AS) and d; deal 1 only d; javasol 0 has
        # 25, 27 (9H on either black ten), 43 (3H on 4S) and d; draw-1 deal 2 has 7f and d.
        ({}, 0, [(2, 2), (3, 2), (4, 2)]),
        ({}, 1, [(1, 1), (1, 1), (1, 1)]),
        ({"numbering": "javasol"}, 0, [(4, 4), (18, 13), (83, 31)]),
        ({"draw": 1}, 2, [(2, 2), (4, 3), (8, 4)]),
    ],
)
def test_perft(options: dict[str, object], deal: int, expected: list[tuple[int, int]]) -> None:
    r = Klondike(**options)
    s = r.deal(deal)
    got = [(perft(r, s, d), distinct_positions(r, s, d)) for d in (1, 2, 3)]
    assert got == expected


# --- an independent reading of the rules, against the move generator -----------------------


def literal_legal(r: Klondike, s: KlondikeState, move: object) -> bool:
    """Rules 1-5 read literally, move by move, with no shared code with the generator."""
    from cardtable.games.klondike import FOUNDATION, STOCK, WASTE

    assert isinstance(move, tuple)
    src, dst, n = move

    def rank(c: int) -> int:
        return c % 13 + 1

    def red(c: int) -> bool:
        return c // 13 in (1, 2)

    def fits_tableau(c: int, j: int) -> bool:
        q = s.tableau[j]
        if not q:
            return rank(c) == 13
        return red(q[-1]) != red(c) and rank(q[-1]) == rank(c) + 1

    def fits_foundation(c: int) -> bool:
        return s.foundations[c // 13] == rank(c) - 1

    if src == STOCK:
        return dst == WASTE and n == 0 and len(s.stock) > 0
    if dst == STOCK:
        limit = r.options["redeals"]
        return src == WASTE and not s.stock and bool(s.waste) and (limit is None or s.redeals_used < limit)
    if src == WASTE:
        if not s.waste or n != 1:
            return False
        return fits_foundation(s.waste[-1]) if dst == FOUNDATION else fits_tableau(s.waste[-1], dst)
    if src >= FOUNDATION:
        suit = src - FOUNDATION
        if not r.options["foundation_return"] or not s.foundations[suit] or dst == FOUNDATION or n != 1:
            return False
        return fits_tableau(suit * 13 + s.foundations[suit] - 1, dst)
    pile = s.tableau[src]
    face_up = len(pile) - s.down[src]
    if not 1 <= n <= face_up or src == dst:
        return False
    if dst == FOUNDATION:
        return n == 1 and fits_foundation(pile[-1])
    return fits_tableau(pile[-n], dst)


def all_klondike_moves() -> list[object]:
    from cardtable.games.klondike import FOUNDATION, STOCK, WASTE, KlondikeMove

    moves: list[object] = [KlondikeMove(STOCK, WASTE, 0), KlondikeMove(WASTE, STOCK, 0)]
    moves.append(KlondikeMove(WASTE, FOUNDATION, 1))
    for j in range(7):
        moves.append(KlondikeMove(WASTE, j, 1))
        moves.append(KlondikeMove(j, FOUNDATION, 1))
        moves += [KlondikeMove(FOUNDATION + s, j, 1) for s in range(4)]
        moves += [KlondikeMove(i, j, n) for i in range(7) if i != j for n in range(1, 25)]
    return moves


@pytest.mark.parametrize("options", [{}, {"draw": 1, "redeals": 1}, {"foundation_return": False}])
def test_generator_agrees_with_a_literal_reading_of_the_rules(options: dict[str, object]) -> None:
    r = Klondike(**options)
    universe = all_klondike_moves()
    checked = 0
    for seed in range(12):
        for s in random_line(r, r.deal(seed), seed, 120):
            generated = r.legal_moves(s)
            assert len(generated) == len(set(generated))
            assert set(generated) == {m for m in universe if literal_legal(r, s, m)}
            checked += 1
    assert checked > 1000


def test_the_pysol_format_refuses_what_it_cannot_hold() -> None:
    # Only a fresh deal, or one cycled whole: with a redeal used, reading it back would
    # give the redeal back; with a waste or foundations, it would lose them.
    game = cardtable.new_game("klondike", deal=0, redeals=2)
    for move in ["d"] * 8:
        game.play(move)
    with pytest.raises(LayoutError, match="empty waste and foundations"):
        game.to_text(format="pysol")
    game.play("r")
    assert game.state.redeals_used == 1 and not game.state.waste
    with pytest.raises(LayoutError, match="no redeal used"):
        game.to_text(format="pysol")
    fresh = cardtable.new_game("klondike", deal=0, redeals=2)
    assert fresh.rules.from_text(fresh.to_text(format="pysol")) == fresh.state


# --- the end: a move that changes the position for good -----------------------------------

# Found by an audit: the waste's 9D can go onto TC (pile 7) and nothing can ever follow.
WASTE_PLAY_LEFT = """\
klondike
stock: <3D> <4D> <5D> <6D> <7D> <8D> <KD> <2H> <3H> <4H> <5H> <6H> <7H> <8H> <KH> <2S> <3S> <4S> <5S> <6S> <7S> <9S> \
<TS>
waste: 9D
clubs:
diamonds:
hearts:
spades:
1: KC
2: <AC> KS
3: <AD> <AH> QC
4: <AS> <QD> <QH> QS
5: <JD> <JH> <TD> <TH> JC
6: <9H> <8C> <8S> <2C> <3C> JS
7: <4C> <5C> <6C> <7C> <9C> <2D> TC
redeals used: 0"""


def test_not_over_while_a_waste_card_can_still_be_played() -> None:
    # The rules: over when no tableau or foundation move exists "nor for any card that can
    # reach the waste top by cycling the stock". w7 leads nowhere, but it changes the
    # position for good (the talon never takes a card back), so the game goes on until it
    # is played; then only the stock's cycling is left, which is no change.
    g = cardtable.new_game("klondike", layout=WASTE_PLAY_LEFT)
    assert [str(m) for m in g.legal_moves()] == ["w7", "d"]
    assert not g.outcome.over and g.outcome.ending is None
    g.play("w7")
    assert [str(m) for m in g.legal_moves()] == ["d"]
    assert g.outcome.over and g.outcome.ending is Ending.NO_PROGRESS
    # A player at the table is told so only when nothing is left to play: the exact
    # "over" has looked at the stock, which the player has not seen.
    assert not g.seen_outcome.over and g.seen_outcome.ending is None


def test_one_way_counts_cards_out_of_the_talon_and_piles_left_for_kings() -> None:
    r = Klondike(numbering="javasol")
    s = r.deal(0)
    kings_at_bottom = sum(1 for p in s.tableau if card_text(p[0])[0] == "K")
    assert r.one_way(s) == (-24, -(7 - kings_at_bottom))
    assert r.one_way(r.apply(s, r.parse_move("d"))) == r.one_way(s)  # cycling: no change
    s = r.from_text(WASTE_PLAY_LEFT)
    assert r.one_way(r.apply(s, r.parse_move("w7"))) == (-23, -6)
    # A lone queen moved off its pile: the pile now takes kings only.
    s = s._replace(tableau=((parse_card("QH"),), *s.tableau[1:]))
    assert r.one_way(r.apply(s, r.parse_move("12")))[1] == r.one_way(s)[1] + 1

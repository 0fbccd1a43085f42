"""Desturado, tested rule by rule from ``cardtable/rulebook/desturado.md``.

Positions are written as layouts (see :func:`layout`): ``*`` in a column
stands for every card not named elsewhere, face down (so the unit above it
has face-down cards under it), and lines left out are empty piles.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.cards import card_text, french_deck, parse_card
from cardtable.core.errors import IllegalMoveError, LayoutError, MoveParseError, OptionError
from cardtable.core.game import Ending
from cardtable.core.shuffle import shuffled
from cardtable.games.desturado import HAND, MOVES, Desturado, DesturadoMove, DesturadoState, fits
from tests.helpers import distinct_positions, perft, random_line

MODES = ("easy", "medium", "hard")
SHAPE = {"easy": (5, 7, 5), "medium": (4, 9, 4), "hard": (3, 12, 4)}  # columns, cards per column, hand spaces
RULES = {mode: Desturado(mode=mode) for mode in MODES}
DECK = french_deck(max_rank=10)
FIT_TEXT = "(needs the same rank, or the same suit and higher)"


def layout(body: str, mode: str = "easy") -> str:
    """Layout text from ``name: cards`` lines: ``*`` is every card not named, face down; missing lines are empty."""
    columns, _, spaces = SHAPE[mode]
    given: dict[str, str] = {}
    for line in textwrap.dedent(body).strip().splitlines():
        name, _, value = line.partition(":")
        given[name.strip()] = value.strip()
    named = {parse_card(tok.strip("<>")) for value in given.values() for tok in value.split() if tok != "*"}
    rest = " ".join(f"<{card_text(c)}>" for c in DECK if c not in named)
    names = [*"abcde"[:columns], *(str(k + 1) for k in range(spaces))]
    assert set(given) <= set(names), f"unknown lines {set(given) - set(names)}"
    return "desturado\n" + "\n".join(f"{n}: {given.get(n, '').replace('*', rest)}" for n in names)


def position(body: str, mode: str = "easy") -> DesturadoState:
    """The position of :func:`layout` text, read by the rules of ``mode`` without the checks that a
    deal and play reach it (``*`` puts more face-down cards in a column than any deal): the rules
    play any position."""
    return RULES[mode]._read(layout(body, mode))


def game_at(text: str, mode: str) -> cardtable.Game[DesturadoState, DesturadoMove]:
    """The game at a layout made for one rule, read as :func:`position` reads it."""
    return cardtable.Game(RULES[mode], RULES[mode]._read(text))


def legal(state: DesturadoState, mode: str = "easy") -> list[str]:
    """The legal moves as text, in the generator's order."""
    return [str(m) for m in RULES[mode].legal_moves(state)]


def play(state: DesturadoState, text: str, mode: str = "easy") -> DesturadoState:
    """The position after a move, checking it is legal first."""
    rules = RULES[mode]
    move = rules.parse_move(text)
    assert move in rules.legal_moves(state), f"{text} is not legal"
    return rules.apply(state, move)


def explain(state: DesturadoState, text: str, mode: str = "easy") -> str:
    """explain_illegal for a move that must not be legal."""
    rules = RULES[mode]
    move = rules.parse_move(text)
    assert move not in rules.legal_moves(state), f"{text} is legal"
    return rules.explain_illegal(state, move)


def cards(text: str) -> tuple[int, ...]:
    """Cards from their text, e.g. ``cards("9D 8D")``."""
    return tuple(parse_card(t) for t in text.split())


# --- an independent reading of rules 1-6, to check the generator against ---------


def ref_fits(bottom: int, top: int) -> bool:
    """The fit rule from the card text: same rank, or same suit and lower rank."""
    b, t = card_text(bottom), card_text(top)
    order = "A23456789T"
    return b[0] == t[0] or (b[1] == t[1] and order.index(b[0]) < order.index(t[0]))


def reference_moves(mode: str, state: DesturadoState) -> list[tuple[int, int]]:
    """Every (source, target) place pair that rules 1-6 allow, by source then target."""
    columns, _, spaces = SHAPE[mode]
    places = [*range(columns), *range(HAND, HAND + spaces)]
    found = []
    for src in places:
        for dst in places:
            if src == dst:
                continue
            if src < HAND:
                col = state.columns[src]
                if not col:
                    continue
                bottom = col[state.down[src]]
                if dst < HAND:
                    target = state.columns[dst]
                    ok = ref_fits(bottom, target[-1]) if target else state.down[src] > 0  # rules 1 and 4
                else:
                    target = state.hand[dst - HAND]
                    ok = ref_fits(bottom, target[-1]) if target else True  # rules 2 and 5
            else:
                stack = state.hand[src - HAND]
                if not stack or dst < HAND:  # rule 6: never hand to board
                    continue
                target = state.hand[dst - HAND]
                ok = bool(target) and ref_fits(stack[0], target[-1])  # rule 3; rule 6: not to an empty space
            if ok:
                found.append((src, dst))
    return found


# --- the fit rule -----------------------------------------------------------------


def test_the_fit_rule_on_every_pair_of_cards() -> None:
    assert all(fits(b, t) == ref_fits(b, t) for b in DECK for t in DECK if b != t)


FIT_CASES = [
    ("6C", "6H", True),  # same rank, any suits
    ("TC", "TD", True),
    ("AS", "AH", True),
    ("6C", "7C", True),  # same suit, one lower
    ("6C", "TC", True),  # same suit, any amount lower
    ("AD", "9D", True),
    ("6C", "7H", False),  # lower, but another suit
    ("6C", "5H", False),  # higher, another suit
    ("6C", "5C", False),  # same suit but higher
    ("TS", "AS", False),
]


@pytest.mark.parametrize(("bottom", "top", "fit"), FIT_CASES)
def test_rule_1_board_onto_board(bottom: str, top: str, fit: bool) -> None:
    state = position(f"a: * {bottom}\nb: {top}")
    if fit:
        after = play(state, "ab")
        assert after.columns[1] == cards(f"{top} {bottom}")
    else:
        assert explain(state, "ab") == f"rule 1: {bottom} does not fit on {top} {FIT_TEXT}"


@pytest.mark.parametrize(("bottom", "top", "fit"), FIT_CASES)
def test_rule_2_board_onto_hand(bottom: str, top: str, fit: bool) -> None:
    state = position(f"a: * {bottom}\n1: {top}")
    if fit:
        after = play(state, "a1")
        assert after.hand[0] == cards(f"{top} {bottom}")
    else:
        assert explain(state, "a1") == f"rule 2: {bottom} does not fit on {top} {FIT_TEXT}"


@pytest.mark.parametrize(("bottom", "top", "fit"), FIT_CASES)
def test_rule_3_hand_onto_hand(bottom: str, top: str, fit: bool) -> None:
    state = position(f"a: * 5D\n1: {bottom}\n2: {top}")
    if fit:
        after = play(state, "12")
        assert after.hand[:2] == ((), cards(f"{top} {bottom}"))  # its space becomes empty
    else:
        assert explain(state, "12") == f"rule 3: {bottom} does not fit on {top} {FIT_TEXT}"


def test_the_full_move_list_and_its_order() -> None:
    state = position("a: * 6C\nb: 6H")
    # a's unit: onto b (rule 1), into the empty c, d, e (rule 4), into hand spaces 1-5 (rule 5);
    # b's unit has no face-down card under it: onto a (rule 1) and into the hand only.
    assert legal(state) == [
        *("ab", "ac", "ad", "ae", "a1", "a2", "a3", "a4", "a5"),
        *("ba", "b1", "b2", "b3", "b4", "b5"),
    ]


# --- units ------------------------------------------------------------------------


def test_a_board_unit_moves_whole() -> None:
    # a's unit is 8D 8S 5S: its bottom card 8D decides, and all three cards move.
    state = position("a: * 8D 8S 5S\nb: 9D\nc: 5H\n1: 8C\n2: 5D")
    assert explain(state, "ac") == f"rule 1: 8D does not fit on 5H {FIT_TEXT}"  # though 5S would
    assert explain(state, "a2") == f"rule 2: 8D does not fit on 5D {FIT_TEXT}"
    after = play(state, "ab")
    assert after.columns[1] == cards("9D 8D 8S 5S")
    assert play(state, "a1").hand[0] == cards("8C 8D 8S 5S")


def test_a_hand_stack_moves_whole() -> None:
    state = position("a: * 5D\n1: 7H 7C 2C\n2: 9H\n3: 2D")
    assert explain(state, "13") == f"rule 3: 7H does not fit on 2D {FIT_TEXT}"  # though 2C would
    after = play(state, "12")
    assert after.hand[:3] == ((), cards("9H 7H 7C 2C"), cards("2D"))


def test_the_new_top_card_turns_face_up() -> None:
    state = position("a: <2H> <3H> 8D 8S\nb: 9D\nc: * 5C")
    assert state.down[0] == 2
    after = play(state, "ab")
    assert after.columns[0] == cards("2H 3H") and after.down[0] == 1
    assert RULES["easy"].to_text(after).splitlines()[1] == "a: <2H> 3H"
    assert RULES["easy"].display(after)[0][0] == ("a", [(parse_card("2H"), False), (parse_card("3H"), True)])
    after = play(after, "a1")  # the unit is now 3H alone
    assert after.columns[0] == cards("2H") and after.down[0] == 0 and after.hand[0] == cards("3H")


def test_a_column_without_face_down_cards_empties() -> None:
    state = position("a: 8D 8S\nb: 9D\nc: * 5C")
    after = play(state, "ab")
    assert after.columns[0] == () and after.down[0] == 0


# --- rule 4: into an empty board column -------------------------------------------


def test_rule_4_needs_a_face_down_card_under_the_unit() -> None:
    state = position("a: * 6C\nb: 5H 5S\nd: 9S\ne: 9C")
    # a (face-down card under it) may go into the empty c; b (none under it) may not.
    assert "ac" in legal(state)
    assert [m for m in legal(state) if m[0] == "b" and m[1] in "abcde"] == []
    assert (
        explain(state, "bc")
        == "rule 4: a unit moves into an empty column only when a face-down card lies under it (column b has none)"
    )
    after = play(state, "ac")
    assert after.columns[2] == cards("6C") and after.down[0] == len(after.columns[0]) - 1


def test_rule_4_any_card_and_every_empty_column() -> None:
    state = position("a: * 9D 9S\nb: AC")
    assert [m for m in legal(state) if m[0] == "a"][:3] == ["ac", "ad", "ae"]
    assert play(state, "ae").columns[4] == cards("9D 9S")


# --- rule 5: into an empty hand space ---------------------------------------------


def test_rule_5_any_unit_into_any_empty_hand_space() -> None:
    state = position("a: * 6C\nb: 5H 5S\n1: AD\n3: AH\n4: AS\n5: 2D 2S 2H")
    # b has no face-down card under it, but an empty hand space takes any unit.
    assert [m for m in legal(state) if m[0].isalpha() and m[1].isdigit()] == ["a2", "b2"]
    assert play(state, "b2").hand[1] == cards("5H 5S")


# --- rule 6: nothing from the hand to the board; not into an empty hand space ---------


def test_rule_6_nothing_moves_from_the_hand_to_the_board() -> None:
    state = position("a: * 7H\n1: 6H\n2: 7S")
    assert [m for m in legal(state) if m[0].isdigit() and m[1].isalpha()] == []
    for move in ("1a", "1b", "1e", "2a"):  # onto a card it fits, into an empty column
        assert explain(state, move) == "rule 6: nothing ever moves from the hand to the board"


def test_rule_6_a_hand_stack_never_moves_to_an_empty_hand_space() -> None:
    state = position("a: * 2D\n1: 6H 5H\n2: 7S")
    assert legal(state) == ["ab", "ac", "ad", "ae", "a3", "a4", "a5"]
    assert explain(state, "13") == "rule 6: a hand stack never moves to an empty hand space (it would change nothing)"


def test_empty_sources_have_nothing_to_move() -> None:
    state = position("a: * 2D\n1: 6H")
    assert explain(state, "ba") == "column b is empty: there is no unit to move"
    assert explain(state, "21") == "hand space 2 is empty: there is no stack to move"


# --- counts of columns and hand spaces --------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_column_and_hand_space_counts_are_never_exceeded(mode: str) -> None:
    rules = RULES[mode]
    columns, _, spaces = SHAPE[mode]
    allowed = "abcde"[:columns] + "12345"[:spaces]
    for deal in range(20):
        for state in random_line(rules, rules.deal(deal), seed=deal, length=200):
            assert len(state.columns) == len(state.down) == columns and len(state.hand) == spaces
            assert all(str(m)[0] in allowed and str(m)[1] in allowed for m in rules.legal_moves(state))


@pytest.mark.parametrize(
    ("mode", "text"), [("hard", "d1"), ("hard", "ad"), ("hard", "a5"), ("medium", "e1"), ("medium", "15")]
)
def test_places_outside_the_mode_are_not_moves(mode: str, text: str) -> None:
    with pytest.raises(MoveParseError, match=f"mode {mode}"):
        RULES[mode].parse_move(text)


def test_explaining_a_move_outside_the_mode() -> None:
    state = RULES["hard"].deal(0)
    assert RULES["hard"].explain_illegal(state, DesturadoMove(4, 0)) == "there is no column e in mode hard"
    assert RULES["hard"].explain_illegal(state, DesturadoMove(0, HAND + 4)) == "there is no hand space 5 in mode hard"


# --- legal moves against the independent reading ----------------------------------


def _random_state(data: st.DataObject, mode: str) -> DesturadoState:
    """Any position of the mode's shape (not necessarily reachable)."""
    columns, _, spaces = SHAPE[mode]
    deck = data.draw(st.permutations(DECK))
    where = data.draw(st.lists(st.integers(0, columns + spaces - 1), min_size=40, max_size=40))
    piles: list[list[int]] = [[] for _ in range(columns + spaces)]
    for card, place in zip(deck, where, strict=True):
        piles[place].append(card)
    down = tuple(data.draw(st.integers(0, max(len(p) - 1, 0))) for p in piles[:columns])
    return DesturadoState(tuple(map(tuple, piles[:columns])), down, tuple(map(tuple, piles[columns:])))


def reference_apply(state: DesturadoState, move: DesturadoMove) -> DesturadoState:
    """The position after a move: the whole unit goes; a column's new top card turns face up."""
    columns, down, hand = list(state.columns), list(state.down), list(state.hand)
    if move.src < HAND:
        unit = columns[move.src][down[move.src] :]
        rest = columns[move.src][: down[move.src]]
        columns[move.src], down[move.src] = rest, max(len(rest) - 1, 0)
    else:
        unit, hand[move.src - HAND] = hand[move.src - HAND], ()
    if move.dst < HAND:
        columns[move.dst] += unit
    else:
        hand[move.dst - HAND] += unit
    return DesturadoState(tuple(columns), tuple(down), tuple(hand))


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(MODES))
def test_legal_moves_match_the_rules_on_any_position(data: st.DataObject, mode: str) -> None:
    rules = RULES[mode]
    columns, _, spaces = SHAPE[mode]
    state = _random_state(data, mode)
    assert state == rules._read(rules.to_text(state))  # the text holds any position, reachable or not
    moves = rules.legal_moves(state)
    assert [(m.src, m.dst) for m in moves] == reference_moves(mode, state)
    for move in MOVES.values():
        if move in moves:
            after = rules.apply(state, move)
            assert after == reference_apply(state, move)
            before_progress, after_progress = rules.progress(state), rules.progress(after)
            assert all(a >= b for a, b in zip(after_progress, before_progress, strict=True))
            # Only a hand merge, or a board unit with nothing under it going onto another column, is no progress.
            quiet = move.src >= HAND or (state.down[move.src] == 0 and move.dst < HAND)
            assert (after_progress == before_progress) == quiet
        elif all(p < columns or HAND <= p < HAND + spaces for p in move):
            reason = rules.explain_illegal(state, move)
            assert reason.startswith("rule ") or "is empty" in reason, reason


@pytest.mark.parametrize("mode", MODES)
def test_legal_moves_match_the_rules_in_play(mode: str) -> None:
    rules = RULES[mode]
    for deal in range(30):
        for state in random_line(rules, rules.deal(deal), seed=deal, length=200):
            assert [(m.src, m.dst) for m in rules.legal_moves(state)] == reference_moves(mode, state)
            # a non-empty column's top card is face up; face-down cards only at the bottom
            assert all(d < len(c) or d == len(c) == 0 for c, d in zip(state.columns, state.down, strict=True))


# --- the deal -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_deal_layout(mode: str) -> None:
    rules = RULES[mode]
    columns, height, spaces = SHAPE[mode]
    for deal in (0, 1, 2, 12345, 2**63 - 1):
        state = rules.deal(deal)
        assert [len(c) for c in state.columns] == [height] * columns
        assert state.down == (height - 1,) * columns  # all face down but the top card
        assert [len(h) for h in state.hand] == [1] * spaces
        assert sorted(rules.cards(state)) == sorted(DECK) and len(set(rules.cards(state))) == 40
        board, hand = rules.display(state)
        assert [[up for _, up in pile] for _, pile in board] == [[False] * (height - 1) + [True]] * columns
        assert [[up for _, up in pile] for _, pile in hand] == [[True]] * spaces


@pytest.mark.parametrize("mode", MODES)
def test_dealing_order(mode: str) -> None:
    # The shuffled deck's last card is dealt first; the board round by round, left to right; then the hand.
    columns, height, _ = SHAPE[mode]
    top_first = shuffled(DECK, 77)[::-1]
    state = RULES[mode].deal(77)
    for i in range(columns):
        assert state.columns[i] == tuple(top_first[i : columns * height : columns])
    assert state.hand == tuple((c,) for c in top_first[columns * height :])


def test_deal_zero_is_fixed_forever() -> None:
    assert RULES["hard"].to_text(RULES["hard"].deal(0)) == textwrap.dedent("""\
        desturado
        a: <6D> <7D> <TC> <8C> <TS> <5S> <7C> <TH> <4S> <3H> <9D> 9H
        b: <AC> <2S> <6C> <2C> <5H> <2H> <4D> <4H> <5D> <AD> <3C> 8H
        c: <TD> <AS> <4C> <7H> <8D> <AH> <8S> <7S> <6H> <3D> <9S> 2D
        1: 6S
        2: 5C
        3: 3S
        4: 9C""")


@pytest.mark.parametrize("mode", MODES)
def test_deals_are_deterministic_and_differ(mode: str) -> None:
    rules = RULES[mode]
    assert rules.deal(7) == Desturado(mode=mode).deal(7)
    assert len({rules.deal(n) for n in range(50)}) == 50


def test_mode_option() -> None:
    assert Desturado().options == {"mode": "easy"}
    assert Desturado(mode="HARD").options == {"mode": "hard"}
    with pytest.raises(OptionError):
        Desturado(mode="expert")


# --- the end: won, over, score ------------------------------------------------------


WON_IN_ONE = """\
    desturado
    a: 5C
    b:
    c:
    d:
    e:
    1: TC 9C 8C 7C 6C
    2: 4C 3C 2C AC
    3: TD 9D 8D 7D 6D 5D 4D 3D 2D AD
    4: TH 9H 8H 7H 6H 5H 4H 3H 2H AH
    5: TS 9S 8S 7S 6S 5S 4S 3S 2S AS
"""


def test_win() -> None:
    game = cardtable.new_game("desturado", layout=textwrap.dedent(WON_IN_ONE))
    assert not game.outcome.won and not game.outcome.over and game.outcome.score == 1
    assert [str(m) for m in game.legal_moves()] == ["a1", "21"]
    game.play("a1")
    assert game.rules.is_won(game.state)
    assert game.outcome.won and game.outcome.over and game.outcome.score == 0
    assert game.outcome.ending is Ending.WON
    assert game.rules.status(game.state) == ["on the board: 0 cards (0 face down)", "in the hand: 40/40"]


STUCK = """\
    desturado
    a: <9D> <8D> <7D> <6D> <5D> <4D> <3D> 2D
    b: <9H> <8H> <7H> <6H> <5H> <4H> <2H> 3H
    c: <9S> <8S> <7S> <6S> <5S> <2S> <3S> 4S
    1: TC 9C 8C 7C 6C 5C 4C 3C 2C AC
    2: TD AD
    3: TH AH
    4: TS AS
"""


def test_over_with_no_move_at_all() -> None:
    game = cardtable.new_game("desturado", layout=textwrap.dedent(STUCK), mode="hard")
    assert game.legal_moves() == []
    assert game.outcome.over and game.outcome.lost and game.outcome.score == 24
    assert game.outcome.ending is Ending.NO_LEGAL_MOVE


def test_not_over_while_a_move_remains() -> None:
    # cb is legal (2D on 2H), but no column has a face-down card and nothing fits in the hand:
    # no sequence of moves can bring a card to the hand or turn one up. The rules end the
    # game only when no move of rules 1-5 remains, and cb empties column c for good.
    text = """\
        desturado
        a: 9D 8D 7D 6D 5D 4D 3D 3S
        b: 9H 8H 7H 6H 5H 4H 3H 2H
        c: 2D 2S
        1: TC 9C 8C 7C 6C 5C 4C 3C 2C AC
        2: TD AD
        3: TH AH
        4: TS 9S 8S 7S 6S 5S 4S AS
    """
    game = cardtable.new_game("desturado", layout=textwrap.dedent(text), mode="hard")
    assert [str(m) for m in game.legal_moves()] == ["cb"]
    assert not game.outcome.over and game.outcome.ending is None
    game.play("cb")
    after = game.outcome
    assert game.legal_moves() == [] and after.over and after.ending is Ending.NO_LEGAL_MOVE


def test_not_over_when_the_only_move_is_into_an_empty_column() -> None:
    text = """\
        desturado
        a: <2H> <9S> <8S> <7S> <6S> <5S> <4S> <3S> <2S> <9D> <8D> <7D> <6D> <5D> <4D> <3D> 2D
        b: 9H 8H 7H 6H 5H 4H 3H
        c:
        1: TC 9C 8C 7C 6C 5C 4C 3C 2C AC
        2: TD AD
        3: TH AH
        4: TS AS
    """
    game = game_at(textwrap.dedent(text), "hard")  # column a: more face-down cards than a deal puts there
    assert [str(m) for m in game.legal_moves()] == ["ac"]  # b has no face-down card: not bc
    assert not game.outcome.over
    game.play("ac")
    assert game.state.columns[0][-1] == parse_card("3D") and game.rules.progress(game.state) == (16, -15)


def test_not_over_when_a_hand_merge_frees_a_space() -> None:
    # Only hand merges (no progress by themselves); then an empty hand space takes a board unit.
    text = STUCK.replace("4: TS AS", "4: AS").replace("<2S>", "<2S> <TS>")
    game = cardtable.new_game("desturado", layout=textwrap.dedent(text), mode="hard")
    assert [str(m) for m in game.legal_moves()] == ["41", "42", "43"]
    assert not game.outcome.over
    game.play("41")
    assert "a4" in [str(m) for m in game.legal_moves()]


def test_not_over_when_emptying_a_column_lets_another_unit_in() -> None:
    # bc empties column b (no progress); then a or c, with face-down cards, may move into b.
    body = """
        a: * 4D
        b: 2S
        c: <2H> 9H 8H 7H 6H 5H 4H 3H 3S
        1: TC 9C 8C 7C 6C 5C 4C 3C 2C AC
        2: TD AD
        3: TH AH
        4: TS AS
    """
    game = game_at(layout(body, "hard"), "hard")
    assert [str(m) for m in game.legal_moves()] == ["bc"]
    assert not game.outcome.over
    game.play("bc")
    assert [str(m) for m in game.legal_moves()] == ["ab", "cb"]


def test_score_and_status() -> None:
    rules = RULES["easy"]
    state = rules.deal(0)
    assert rules.score(state) == 35 and rules.progress(state) == (5, -30)
    assert rules.status(state) == ["on the board: 35 cards (30 face down)", "in the hand: 5/40"]


# --- move text ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_move_text_round_trips(mode: str) -> None:
    rules = RULES[mode]
    for deal in range(20):
        for state in random_line(rules, rules.deal(deal), seed=deal, length=100):
            for move in rules.legal_moves(state):
                assert rules.parse_move(str(move)) == move
                assert rules.parse_move(str(move).upper()) == move
    columns, _, spaces = SHAPE[mode]
    for move in MOVES.values():
        if (move.src < columns or HAND <= move.src < HAND + spaces) and (
            move.dst < columns or HAND <= move.dst < HAND + spaces
        ):
            assert rules.parse_move(f" {move} ") == move


def test_move_notation() -> None:
    rules = RULES["easy"]
    assert rules.parse_move("ab") == DesturadoMove(0, 1)
    assert rules.parse_move("E5") == DesturadoMove(4, HAND + 4)
    assert rules.parse_move("31") == DesturadoMove(HAND + 2, HAND)
    assert rules.parse_move("1a") == DesturadoMove(HAND, 0)  # a move, never a legal one (rule 6)


@pytest.mark.parametrize(
    "text", ["", " ", "a", "abc", "aa", "11", "a6", "f1", "0a", "a-b", "a b", "ab:2", "x", "a\u0661"]
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(MoveParseError, match="desturado move"):
        RULES["easy"].parse_move(text)


def test_parse_error_for_non_text() -> None:
    with pytest.raises(MoveParseError):
        RULES["easy"].parse_move(12)  # type: ignore[arg-type]


def test_illegal_moves_leave_the_game_unchanged() -> None:
    game = cardtable.new_game("desturado", deal=0, mode="hard")
    before = game.state
    with pytest.raises(IllegalMoveError, match="rule 1: 9H does not fit on 8H"):
        game.play("ab")
    with pytest.raises(IllegalMoveError, match="rule 6"):
        game.play("1a")
    with pytest.raises(IllegalMoveError, match="rule 3"):
        game.play("12")
    with pytest.raises(MoveParseError):
        game.play("zz")
    assert game.state == before and game.moves == []
    game.play("a4")
    assert game.state.hand[3] == cards("9C 9H") and game.state.columns[0][-1] == parse_card("9D")


def test_save_and_load() -> None:
    game = cardtable.new_game("desturado", deal=2, mode="medium")
    for _ in range(3):
        game.play(game.legal_moves()[-1])
    loaded = cardtable.load(game.save())
    assert loaded.state == game.state and loaded.options == {"mode": "medium"}


# --- position text ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_text_round_trips(mode: str) -> None:
    rules = RULES[mode]
    for deal in range(10):
        for state in random_line(rules, rules.deal(deal), seed=deal, length=100):
            assert rules.from_text(rules.to_text(state)) == state


def test_display_names_match_the_notation() -> None:
    rules = RULES["medium"]
    rows = rules.display(rules.deal(3))
    assert [[name for name, _ in row] for row in rows] == [["a", "b", "c", "d"], ["1", "2", "3", "4"]]


GOOD = STUCK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "must start with the line 'desturado'"),
        ("klondike\n", "must start with the line 'desturado'"),
        ("hello world", "must start with the line"),
        (GOOD.replace("4: TS AS", "4: TS"), "missing: AS"),
        (GOOD.replace("4: TS AS", "4: TS AS AS"), "too many: AS"),
        (GOOD.replace("4: TS AS", "4: TS AS JH"), "too many: JH"),
        (GOOD.replace("4: TS AS", "4: TS AS\n5:"), "unknown layout line '5'"),
        (GOOD.replace("c: <9S>", "d: <9S>"), "unknown layout line 'd'"),
        (GOOD.replace("    4: TS AS\n", ""), "missing the line"),
        (GOOD.replace("2D\n", "2D\n    a: 3D\n"), "appears twice"),
        (GOOD.replace("4: TS AS", "4: TS <AS>"), "hand space 4: every card is face up"),
        (GOOD.replace(" 2D\n", " <2D>\n"), "top card is face up"),
        (GOOD.replace("<9D> <8D>", "9D <8D>"), "column a: face-down cards lie under face-up ones"),
        (GOOD.replace("4S\n", "4Z\n"), "not a card"),
        (GOOD.replace("<9D>", "<9D"), "bad face-down card"),
        (GOOD.replace("a: <9D>", "a <9D>"), "has no 'name:'"),
    ],
)
def test_layout_errors(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        RULES["hard"].from_text(textwrap.dedent(text))


def test_layout_must_fit_the_mode() -> None:
    text = RULES["easy"].to_text(RULES["easy"].deal(1))
    for mode in ("medium", "hard"):
        with pytest.raises(LayoutError, match=f"mode {mode}"):
            RULES[mode].from_text(text)
    with pytest.raises(LayoutError, match="mode easy"):
        RULES["easy"].from_text(RULES["hard"].to_text(RULES["hard"].deal(1)))
    # The lines fit with an empty column d, but a hard deal's columns hold more face-down cards than medium deals.
    with pytest.raises(LayoutError, match="column a holds 11 face-down cards, at most 8: mode medium deals 8"):
        RULES["medium"].from_text(RULES["hard"].to_text(RULES["hard"].deal(1)).replace("\n1:", "\nd:\n1:"))
    with pytest.raises(LayoutError, match="must be text"):
        RULES["easy"].from_text(None)  # type: ignore[arg-type]


def test_comments_and_blank_lines_are_ignored() -> None:
    rules = RULES["hard"]
    state = rules.deal(5)
    text = rules.to_text(state).replace("\n1:", "\n# the hand\n\n1:")
    assert rules.from_text(text) == state


# --- perft: move counts of fixed deals ------------------------------------------------

# (mode, deal): perft for depth 1, 2, 3, then distinct positions for depth 1, 2, 3.
# Depth 1 was checked by hand against the printed deals (the move lists of test_first_moves_of_fixed_deals),
# and depth 2 of hard deal 0 too (21 lines, 16 positions: five pairs of moves commute).
PERFT = {
    ("easy", 0): ((15, 203, 2657), (15, 128, 852)),
    ("easy", 1): ((11, 116, 1257), (11, 76, 475)),
    ("easy", 2): ((14, 192, 2631), (14, 120, 850)),
    ("medium", 0): ((7, 49, 391), (7, 35, 171)),
    ("medium", 1): ((10, 89, 729), (10, 56, 245)),
    ("medium", 2): ((9, 78, 642), (9, 50, 211)),
    ("hard", 0): ((4, 21, 113), (4, 16, 55)),
    ("hard", 1): ((7, 43, 242), (7, 28, 95)),
    ("hard", 2): ((9, 76, 589), (9, 48, 189)),
}


@pytest.mark.parametrize(("mode", "deal"), list(PERFT))
def test_perft(mode: str, deal: int) -> None:
    rules = RULES[mode]
    state = rules.deal(deal)
    lines, positions = PERFT[mode, deal]
    assert tuple(perft(rules, state, d) for d in (1, 2, 3)) == lines
    assert tuple(distinct_positions(rules, state, d) for d in (1, 2, 3)) == positions


@pytest.mark.parametrize(
    ("mode", "deal", "moves"),
    [
        ("hard", 0, ["a4", "ba", "24", "31"]),
        ("hard", 1, ["ac", "a1", "bc", "cb", "12", "21", "42"]),
        ("hard", 2, ["ab", "a2", "ba", "bc", "12", "21", "31", "34", "43"]),
        ("easy", 0, ["ac", "ad", "a5", "b3", "b4", "b5", "ca", "cd", "c5", "da", "dc", "d5", "ed", "35", "42"]),
        ("easy", 1, ["ce", "c3", "c4", "db", "d1", "d2", "e1", "21", "23", "32", "53"]),
        ("easy", 2, ["ba", "b1", "de", "d3", "ea", "eb", "ed", "e1", "23", "32", "42", "45", "51", "54"]),
        ("medium", 0, ["ab", "a4", "ba", "b4", "cb", "24", "31"]),
        ("medium", 1, ["ac", "a2", "a3", "bd", "b1", "cd", "dc", "12", "21", "42"]),
        ("medium", 2, ["bc", "b2", "cb", "cd", "12", "21", "31", "34", "43"]),
    ],
)
def test_first_moves_of_fixed_deals(mode: str, deal: int, moves: list[str]) -> None:
    assert legal(RULES[mode].deal(deal), mode) == moves

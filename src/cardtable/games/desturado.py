"""Desturado (``cardtable/rulebook/desturado.md``): clear the board into the hand.

**Deck and modes.** The 40 cards ace to ten (no jacks, queens or kings). The
option ``mode`` sets the layout; every mode deals all 40 cards:

==========  =============  ================  ===========
mode        board columns  cards per column  hand spaces
==========  =============  ================  ===========
``easy``    5 (a-e)        7                 5 (1-5)
``medium``  4 (a-d)        9                 4 (1-4)
``hard``    3 (a-c)        12                4 (1-4)
==========  =============  ================  ===========

**Dealing.** The deck (:meth:`Desturado.deck`, clubs, diamonds, hearts,
spades, ace to ten) is shuffled by the cardtable shuffle for the deal number;
the shuffled list's *last* card is the top of the deck and is dealt first.
The board is dealt in rounds: one card to each column from left to right,
round after round, until every column has its cards; the last card dealt to a
column is its top card, the only one face up. Then one card, face up, goes
into each hand space from left to right.

**Position.** A :class:`DesturadoState`: the board columns (bottom first),
the number of face-down cards at the bottom of each column, and the hand
stacks (bottom first; an empty hand space is ``()``). In a column the
*unit* is the whole face-up part; in a hand space it is the whole stack.

**Play.** A unit *fits* on a card when its bottom card has the same rank
(any suits), or the same suit and a lower rank (any amount). Rules 1-6: a
board unit onto another column's top card (1) or a hand stack's top card (2)
if it fits; a hand stack onto another hand stack if it fits (3); a board unit
into an empty column only if a face-down card lies under it (4); a board unit
into an empty hand space (5); nothing from the hand to the board, and no hand
stack into an empty hand space (6). When a unit leaves a column, the new top
card turns face up.

**The end.** Won when every board column is empty. The progress measure is
(cards in the hand, minus face-down cards); the game is over when no
sequence of moves can raise either (see :mod:`cardtable.core.progress`).
The score is the number of cards left on the board (0 is a win).

**Notation** (lower case; upper case accepted): a move is its source then its
target, board columns are letters ``a b c d e`` and hand spaces digits
``1 2 3 4 5``. Units are never split, so nothing else is needed.

======  ============================================================
``ab``  the unit of column a onto column b (into b if b is empty)
``a3``  the unit of column a onto the stack in hand space 3, or into it
``13``  the stack in hand space 1 onto the stack in hand space 3
======  ============================================================

Moves from the hand to the board (``1a``) are moves of the notation but are
never legal (rule 6).

**Move order** of :meth:`Desturado.legal_moves`: by source (board columns
left to right, then hand spaces 1 up), then by target (board columns left to
right, then hand spaces 1 up).

>>> r = Desturado()
>>> s = r.deal(0)
>>> [len(c) for c in s.columns], s.down, [len(h) for h in s.hand]
([7, 7, 7, 7, 7], (6, 6, 6, 6, 6), [1, 1, 1, 1, 1])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..core.cards import RANK, SUIT, FrenchCards, card_text, french_deck, parse_card
from ..core.errors import LayoutError, MoveParseError
from ..core.inputs import quote
from ..core.layout import (
    DOWN_UNDER_UP,
    FACE_UP,
    check_at_most,
    check_cards,
    check_run,
    format_pile,
    join_layout,
    read_pile,
    split_layout,
)
from ..core.options import Option
from ..core.rules import MovePlaces, Pile, Rules, replace_at
from ..core.scoring import position_scoring
from ..core.shuffle import shuffled
from ..core.spec import GameSpec, LevelKey, Place, TableSpec

MODES: tuple[tuple[str, int, int, int], ...] = (
    ("easy", 5, 7, 5),
    ("medium", 4, 9, 4),
    ("hard", 3, 12, 4),
)
"""Each mode: name, board columns, cards per column, hand spaces."""

HAND = 5
"""Place codes: board column ``i`` is ``i`` (0..4), hand space ``k`` is ``HAND + k``."""
PLACES = "abcde12345"
"""Notation of each place code."""
DECK_SIZE = 40


class DesturadoMove(NamedTuple):
    """A Desturado move: the unit at place ``src`` goes to place ``dst``.

    Places are board columns ``0..4`` (shown ``a``-``e``) and hand spaces
    ``HAND + 0..4`` (shown ``1``-``5``).

    >>> str(DesturadoMove(0, 1)), str(DesturadoMove(0, HAND + 2)), str(DesturadoMove(HAND, HAND + 2))
    ('ab', 'a3', '13')
    """

    src: int
    dst: int

    def __str__(self) -> str:
        return PLACES[self.src] + PLACES[self.dst]


# Every move there can be, made once, by (src, dst); legal_moves hands out these objects.
MOVES: dict[tuple[int, int], DesturadoMove] = {
    (i, j): DesturadoMove(i, j) for i in range(len(PLACES)) for j in range(len(PLACES)) if i != j
}


def fits(bottom: int, top: int) -> bool:
    """Whether a unit whose bottom card is ``bottom`` fits on the card ``top``:
    the same rank (any suits), or the same suit and a lower rank (any amount).

    >>> fits(parse_card("6C"), parse_card("6H")), fits(parse_card("6C"), parse_card("TC"))
    (True, True)
    >>> fits(parse_card("6C"), parse_card("7H")), fits(parse_card("6C"), parse_card("5C"))
    (False, False)
    """
    return RANK[bottom] == RANK[top] or (SUIT[bottom] == SUIT[top] and RANK[bottom] < RANK[top])


def _lies_on(under: int, card: int) -> bool:
    """Whether ``card`` may lie on ``under`` in a unit or a hand stack: it fits there (rules 1-3)."""
    return fits(card, under)


_BUILD = "a fit (the same rank, or the same suit and lower)"

EMPTY_COLUMN = 52
"""Stands for the top card of an empty board column in the tables below."""
EMPTY_SPACE = 53
"""Stands for the top card of an empty hand space in the tables below."""

# Lookup tables [bottom][top] for the French card codes 0..51 and the two stand-ins:
# whether a unit with that bottom card may move onto that top card, or into that empty place.
_FIT_ROWS = tuple(tuple(fits(b, t) for t in range(52)) for b in range(52))
FITS_COVERING: tuple[tuple[bool, ...], ...] = tuple(row + (True, True) for row in _FIT_ROWS)
"""A column unit with a face-down card under it: rules 1, 2, 4 and 5."""
FITS_BARE: tuple[tuple[bool, ...], ...] = tuple(row + (False, True) for row in _FIT_ROWS)
"""A column unit with no face-down card under it: rules 1, 2 and 5 (not 4)."""
FITS_HAND: tuple[tuple[bool, ...], ...] = tuple(row + (False, False) for row in _FIT_ROWS)
"""A hand stack: rule 3 (never into an empty hand space, rule 6; never to the board, not offered)."""


class DesturadoState(NamedTuple):
    """A Desturado position (see the module docstring).

    ``columns[i]`` is board column ``i`` bottom first, of which the lowest
    ``down[i]`` cards are face down (a non-empty column's top card is always
    face up); ``hand[k]`` is the stack in hand space ``k``, bottom first.

    >>> DesturadoState(((), ()), (0, 0), ((1, 0), ())).hand[0]
    (1, 0)
    """

    columns: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    hand: tuple[tuple[int, ...], ...]


_MOVE_RE = re.compile(r"^([a-e1-5])([a-e1-5])$")


class Desturado(FrenchCards, Rules[DesturadoState, DesturadoMove]):
    """Desturado with the option ``mode`` (``easy``, ``medium`` or ``hard``; default ``easy``).

    >>> Desturado(mode="hard").columns, Desturado(mode="hard").hand_spaces
    (3, 4)
    """

    name = "desturado"
    title = "Desturado"
    OPTIONS = (
        Option(
            "mode",
            str,
            "easy",
            choices=tuple(m[0] for m in MODES),
            help="easy: 5 columns of 7 and 5 hand cards; medium: 4 of 9 and 4; hard: 3 of 12 and 4",
        ),
    )
    NOTATION = "source then target: ab column a onto column b, a3 column a to hand space 3, 13 hand 1 onto hand 3"
    OVER_SEES_HIDDEN = False  # face down: under the columns; a card turned up is progress
    MOVE_TYPE = DesturadoMove

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._mode: str = self.options["mode"]
        _, self.columns, self.height, self.hand_spaces = next(m for m in MODES if m[0] == self._mode)
        cols = range(self.columns)
        hands = range(HAND, HAND + self.hand_spaces)
        # For each source place, its possible targets (index in the places, move), in the documented order.
        places = (*cols, *hands)
        self._from_column = tuple(tuple((t, MOVES[i, j]) for t, j in enumerate(places) if j != i) for i in cols)
        self._from_space = tuple(
            tuple((t, MOVES[k, j]) for t, j in enumerate(places) if j in hands and j != k) for k in hands
        )
        self._places = PLACES[: self.columns] + PLACES[HAND : HAND + self.hand_spaces]
        self._names = list(self._places)

    # --- positions -------------------------------------------------------------

    def deck(self) -> list[int]:
        """The 40-card deck in order: clubs, diamonds, hearts, spades, each ace to ten.

        >>> d = Desturado().deck(); len(d), card_text(d[0]), card_text(d[-1])
        (40, 'AC', 'TS')
        """
        return french_deck(max_rank=10)

    def deal(self, deal: int) -> DesturadoState:
        """Deal number ``deal``, dealt as the module docstring says: the shuffled
        deck's last card first, the board round by round, then the hand.

        >>> s = Desturado(mode="medium").deal(5)
        >>> [len(c) for c in s.columns], s.down, len(s.hand)
        ([9, 9, 9, 9], (8, 8, 8, 8), 4)
        """
        deck = shuffled(self.deck(), deal)
        columns: list[list[int]] = [[] for _ in range(self.columns)]
        for _ in range(self.height):
            for column in columns:
                column.append(deck.pop())
        hand = tuple((deck.pop(),) for _ in range(self.hand_spaces))
        return DesturadoState(tuple(tuple(c) for c in columns), (self.height - 1,) * self.columns, hand)

    def cards(self, state: DesturadoState) -> list[int]:
        """Every card of the position: the board columns, then the hand.

        >>> sorted(Desturado().cards(Desturado().deal(1))) == sorted(Desturado().deck())
        True
        """
        return [*(c for col in state.columns for c in col), *(c for stack in state.hand for c in stack)]

    def _column_pile(self, state: DesturadoState, i: int) -> Pile:
        d = state.down[i]
        return [(c, k >= d) for k, c in enumerate(state.columns[i])]

    def display(self, state: DesturadoState) -> list[list[tuple[str, Pile]]]:
        """Two rows of named piles: the board columns, then the hand spaces.

        >>> [[name for name, _ in row] for row in Desturado(mode="hard").display(Desturado(mode="hard").deal(0))]
        [['a', 'b', 'c'], ['1', '2', '3', '4']]
        """
        board = [(PLACES[i], self._column_pile(state, i)) for i in range(self.columns)]
        hand: list[tuple[str, Pile]] = [
            (PLACES[HAND + k], [(c, True) for c in stack]) for k, stack in enumerate(state.hand)
        ]
        return [board, hand]

    def status(self, state: DesturadoState) -> list[str]:
        """Cards left on the board (and how many are face down), cards in the hand.

        >>> Desturado().status(Desturado().deal(0))
        ['on the board: 35 cards (30 face down)', 'in the hand: 5/40']
        """
        on_board = self.score(state)
        return [
            f"on the board: {on_board} card{'' if on_board == 1 else 's'} ({sum(state.down)} face down)",
            f"in the hand: {DECK_SIZE - on_board}/{DECK_SIZE}",
        ]

    def to_text(self, state: DesturadoState, format: str = "cardtable") -> str:
        """The position as text: one line per board column (``a``, ``b``...) and one
        per hand space (``1``, ``2``...), each pile bottom first, face-down cards
        in ``<>``. The mode is an option, not part of the text.

        >>> print(Desturado(mode="hard").to_text(Desturado(mode="hard").deal(0)).splitlines()[4])
        1: 6S
        """
        if format != "cardtable":
            raise LayoutError(f"unknown desturado layout format {quote(format)} (only cardtable)")
        lines = [(PLACES[i], format_pile(self._column_pile(state, i), card_text)) for i in range(self.columns)]
        lines += [(PLACES[HAND + k], " ".join(card_text(c) for c in stack)) for k, stack in enumerate(state.hand)]
        return join_layout(self.name, lines)

    def from_text(self, text: str) -> DesturadoState:
        """Read a position written by :meth:`to_text`. It must have exactly the
        mode's columns and hand spaces and hold the 40-card deck exactly once;
        in a column the face-down cards lie under the face-up ones, at most as
        many as the mode deals there (``height - 1``), and a non-empty column's
        top card is face up; hand cards are face up; in a column's unit and in a
        hand stack each card fits on the one under it (no rule makes any other).

        >>> r = Desturado(mode="medium"); s = r.deal(4)
        >>> r.from_text(r.to_text(s)) == s
        True
        """
        return self._reachable(self._read(text))

    def _read(self, text: str) -> DesturadoState:
        """The position ``text`` writes, holding the 40 cards once each, before the checks that
        some deal and play reach it (:meth:`_reachable`)."""
        if not isinstance(text, str):
            raise LayoutError("a layout must be text")
        try:
            parts = split_layout(text, self.name, self._names)
        except LayoutError as err:
            raise LayoutError(
                f"{err} (mode {self._mode}: columns a-{PLACES[self.columns - 1]}, hand spaces 1-{self.hand_spaces})"
            ) from None
        columns = [
            read_pile(parts[PLACES[i]], parse_card, f"column {PLACES[i]}", DOWN_UNDER_UP) for i in range(self.columns)
        ]
        hand = [
            read_pile(parts[PLACES[HAND + k]], parse_card, f"hand space {k + 1}", FACE_UP)[0]
            for k in range(self.hand_spaces)
        ]
        state = DesturadoState(tuple(c for c, _ in columns), tuple(d for _, d in columns), tuple(hand))
        check_cards(self.cards(state), self.deck(), card_text)
        return state

    def _reachable(self, state: DesturadoState) -> DesturadoState:
        """``state`` if no rule forbids some deal and play to reach it (see :meth:`from_text`),
        else raise :class:`LayoutError`."""
        for i, (column, down) in enumerate(zip(state.columns, state.down, strict=True)):
            where = f"column {PLACES[i]}"
            why = f"mode {self._mode} deals {self.height - 1} face down there, and none is added"
            check_at_most(down, self.height - 1, where, why, "face-down cards")
            check_run(column, down, _lies_on, card_text, where, _BUILD)
        for k, stack in enumerate(state.hand):
            check_run(stack, 0, _lies_on, card_text, f"hand space {k + 1}", _BUILD)
        return state

    # --- moves ----------------------------------------------------------------

    def legal_moves(self, state: DesturadoState) -> list[DesturadoMove]:
        """The legal moves (rules 1-6), by source then target (board columns, then hand spaces).

        >>> r = Desturado(mode="hard")
        >>> [str(m) for m in r.legal_moves(r.deal(0))]
        ['a4', 'ba', '24', '31']
        """
        columns, down, hand = state
        # The top card of every place, in place order; an empty place has a stand-in "card".
        tops = [c[-1] if c else EMPTY_COLUMN for c in columns]
        tops += [h[-1] if h else EMPTY_SPACE for h in hand]
        moves: list[DesturadoMove] = []
        add = moves.append
        for i, targets in enumerate(self._from_column):
            column = columns[i]
            if column:
                under = down[i]
                fit = (FITS_COVERING if under else FITS_BARE)[column[under]]  # by the unit's bottom card
                for j, move in targets:
                    if fit[tops[j]]:
                        add(move)  # rules 1, 2, 4, 5
        for k, targets in enumerate(self._from_space):
            stack = hand[k]
            if stack:
                fit = FITS_HAND[stack[0]]
                for j, move in targets:
                    if fit[tops[j]]:
                        add(move)  # rule 3
        return moves

    def apply(self, state: DesturadoState, move: DesturadoMove) -> DesturadoState:
        """The position after a legal move. The whole unit moves; when it leaves a
        column, the column's new top card turns face up.

        >>> r = Desturado(mode="hard"); s = r.apply(r.deal(0), r.parse_move("a1"))
        >>> len(s.columns[0]), s.down[0], len(s.hand[0])
        (11, 10, 2)
        """
        columns, down, hand = state
        src, dst = move
        if src < HAND:
            column = columns[src]
            under = down[src]
            unit = column[under:]
            columns = replace_at(columns, src, column[:under])
            if under:
                down = replace_at(down, src, under - 1)
        else:
            unit = hand[src - HAND]
            hand = replace_at(hand, src - HAND, ())
        if dst < HAND:
            columns = replace_at(columns, dst, columns[dst] + unit)
        else:
            hand = replace_at(hand, dst - HAND, hand[dst - HAND] + unit)
        return DesturadoState(columns, down, hand)

    def parse_move(self, text: str) -> DesturadoMove:
        """Read a move: source then target, a letter for a board column of the mode,
        a digit for a hand space of the mode.

        >>> Desturado().parse_move(" A3 ") == DesturadoMove(0, HAND + 2)
        True
        """
        m = _MOVE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise MoveParseError(
                f"not a desturado move: {quote(text)} (moves look like ab: column a onto column b, "
                "a3: column a to hand space 3, 13: hand stack 1 onto hand stack 3)"
            )
        a, b = m.groups()
        for place in (a, b):
            if place not in self._places:
                kind = "column" if place.isalpha() else "hand space"
                raise MoveParseError(
                    f"not a desturado move: {quote(text)} (there is no {kind} {place} in mode {self._mode}: "
                    f"columns a-{PLACES[self.columns - 1]}, hand spaces 1-{self.hand_spaces})"
                )
        if a == b:
            raise MoveParseError(f"not a desturado move: {quote(text)} (a move goes from one place to another)")
        return MOVES[PLACES.index(a), PLACES.index(b)]

    def move_places(self, state: DesturadoState, move: DesturadoMove) -> MovePlaces:
        """Where a legal move happens on the table: the piles of :meth:`display` it joins
        and the cards of the unit it moves.

        >>> r = Desturado(mode="hard"); s = r.deal(0)
        >>> r.move_places(s, r.parse_move("a4"))
        MovePlaces(src='a', dst='4', n=1, card=None)
        """
        return MovePlaces(PLACES[move.src], PLACES[move.dst], self._unit_size(state, move.src))

    def _unit_size(self, state: DesturadoState, place: int) -> int:
        """The cards of the unit at ``place``: a column's face-up part, a hand space's stack."""
        if place < HAND:
            return len(state.columns[place]) - state.down[place]
        return len(state.hand[place - HAND])

    def _drop_move(self, state: DesturadoState, src: str, count: int, dst: str) -> DesturadoMove:
        """The move of a drop (see :meth:`Rules.drop_move`): a whole unit, dropped by its
        bottom card (units are never split).

        >>> r = Desturado(mode="hard"); str(r.drop_move(r.deal(0), "b", 11, "a"))
        'ba'
        """
        a, b = PLACES.index(src), PLACES.index(dst)
        unit = self._unit_size(state, a)
        if count != unit:
            where = f"column {src}" if a < HAND else f"hand space {src}"
            raise MoveParseError(f"a unit moves whole: the unit of {where} is its top {unit} card(s)")
        return MOVES[a, b]

    def explain_illegal(self, state: DesturadoState, move: DesturadoMove) -> str:
        """Which rule forbids ``move`` here.

        >>> r = Desturado(mode="hard"); r.explain_illegal(r.deal(0), r.parse_move("ab"))
        'rule 1: 9H does not fit on 8H (needs the same rank, or the same suit and higher)'
        """
        columns, down, hand = state
        src, dst = move
        for place in move:
            if PLACES[place] not in self._places:
                return f"there is no {'column' if place < HAND else 'hand space'} {PLACES[place]} in mode {self._mode}"
        if src >= HAND:
            if dst < HAND:
                return "rule 6: nothing ever moves from the hand to the board"
            stack = hand[src - HAND]
            if not stack:
                return f"hand space {PLACES[src]} is empty: there is no stack to move"
            target = hand[dst - HAND]
            if not target:
                return "rule 6: a hand stack never moves to an empty hand space (it would change nothing)"
            return _no_fit(3, stack[0], target[-1])
        column = columns[src]
        if not column:
            return f"column {PLACES[src]} is empty: there is no unit to move"
        bottom = column[down[src]]
        if dst < HAND:
            target = columns[dst]
            if not target:
                if not down[src]:
                    return (
                        "rule 4: a unit moves into an empty column only when a face-down card lies under it "
                        f"(column {PLACES[src]} has none)"
                    )
            else:
                return _no_fit(1, bottom, target[-1])
        else:
            target = hand[dst - HAND]
            if target:
                return _no_fit(2, bottom, target[-1])
        return f"{move} is legal here"

    # --- what a player sees -----------------------------------------------------

    def with_face_down(self, state: DesturadoState, cards: Sequence[int]) -> DesturadoState:
        """``state`` with ``cards`` face down (:meth:`~cardtable.core.rules.Rules.face_down`'s
        order: the face-down part of each column, left to right, bottom first).

        >>> r = Desturado(); s = r.deal(0)
        >>> t = r.with_face_down(s, r.face_down(s)[::-1])
        >>> t.columns[0][0] == s.columns[-1][s.down[-1] - 1], t.hand == s.hand
        (True, True)
        """
        columns = []
        at = 0
        for column, d in zip(state.columns, state.down, strict=True):
            columns.append(tuple(cards[at : at + d]) + column[d:])
            at += d
        return state._replace(columns=tuple(columns))

    # --- the end ----------------------------------------------------------------

    def is_won(self, state: DesturadoState) -> bool:
        """Every board column is empty (all 40 cards are in the hand).

        >>> r = Desturado(mode="hard"); r.is_won(r.deal(0))
        False
        """
        return not any(state.columns)

    def progress(self, state: DesturadoState) -> tuple[int, ...]:
        """Cards in the hand, and face-down cards turned up (negated count).

        >>> Desturado().progress(Desturado().deal(0))
        (5, -30)
        """
        return (sum(map(len, state.hand)), -sum(state.down))

    def one_way(self, state: DesturadoState) -> tuple[int, ...]:
        """Empty board columns and empty hand spaces. With :meth:`progress` they make
        every move count: a unit leaves a column for good (its column empties, or a card
        turns up), a hand stack onto another empties its space, a unit into an empty
        column turns a card up and one into the hand adds cards to it. So, as the rules
        say, the game is over exactly when no move of rules 1-5 remains.

        >>> Desturado().one_way(Desturado().deal(0))
        (0, 0)
        """
        return (sum(1 for c in state.columns if not c), sum(1 for h in state.hand if not h))

    def score(self, state: DesturadoState) -> int:
        """Cards left on the board (0 is a win).

        >>> Desturado(mode="hard").score(Desturado(mode="hard").deal(0))
        36
        """
        return sum(map(len, state.columns))

    # --- in words (issue 26) ------------------------------------------------------

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words.

        >>> Desturado().pile_name("b"), Desturado().pile_name("2")
        ('column b', 'hand space 2')
        """
        return table_place(name).label


def _no_fit(rule: int, bottom: int, top: int) -> str:
    """The message for a unit that does not fit on its target."""
    return (
        f"rule {rule}: {card_text(bottom)} does not fit on {card_text(top)} "
        "(needs the same rank, or the same suit and higher)"
    )


def table_place(name: str) -> Place:
    """Where a pile of :meth:`Desturado.display` lies on the browser's table.

    >>> table_place("c").label, table_place("2").kind
    ('column c', 'hand')
    """
    if name.isdigit():
        return Place("hand", int(name) - 1, 1, "down", "unit", f"hand space {name}")
    return Place("tableau", "abcde".index(name), 0, "down", "unit", f"column {name}")


def action_moves(rules: Rules[Any, Any]) -> list[DesturadoMove]:
    """Every Desturado move of the rules' mode, numbered once (the research action
    space): a column to any other place, then a hand space to another hand space, each
    in the order of the places (a hand space never moves to a column).

    >>> [len(action_moves(Desturado(mode=m))) for m in ("easy", "medium", "hard")]
    [65, 40, 30]
    """
    assert isinstance(rules, Desturado)
    columns = range(rules.columns)
    hands = range(HAND, HAND + rules.hand_spaces)
    places = (*columns, *hands)
    moves = [MOVES[i, j] for i in columns for j in places if j != i]
    return moves + [MOVES[i, j] for i in hands for j in hands if j != i]


GAME = GameSpec(
    name="desturado",
    rules=Desturado,
    table=TableSpec(width=5, place=table_place, cards="french", back="#2f7d4f", areas={"tableau": "board"}),
    action_moves=action_moves,
    action_options=("mode",),
    search_space="cardtable.solve.spaces:DesturadoSpace",
    solver_space="cardtable.solve.spaces:DesturadoProofSpace",
    native="cardtable.solve.native.desturado",
    lost="cardtable.solve.lost:desturado_lost",
    appeal="cardtable.levels.position_value_desturado:desturado_appeal",
    level_keys=tuple(LevelKey(f"desturado-{m[0]}", "desturado", "mode", m[0]) for m in MODES),
    gymnasium_id="cardtable/Desturado-v0",
    openspiel_name="cardtable_desturado",
    variants=tuple({"mode": m[0]} for m in MODES),
    scoring=(
        position_scoring(
            "cards-left", "Cards left", "cards left", "cards left on the board: 0 is the win", lower_is_better=True
        ),
    ),
)
"""Desturado, as every layer knows it (see :mod:`cardtable.core.spec`)."""

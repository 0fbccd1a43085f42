"""Devil's Square (``cardtable/rulebook/devils-square.md``), with the 64-card King's Keys deck.

**Field.** Sixteen positions in a 4 x 4 square, named like a chess board:
columns ``a b c d`` from left to right, rows ``1 2 3 4`` from top to bottom.
Reading order (row by row, left to right) is ``a1 b1 c1 d1 a2 ... d4``; it is
the order of dealing, of refilling and of :attr:`DevilsSquareState.field`.
Each position holds a pile, listed bottom first (its top card is the last).

**Position.** A :class:`DevilsSquareState`: the 16 piles in reading order,
the face-down draw pile (bottom first, so its last card is the next one dealt)
and the number of books made. The cards of the books are the cards on neither
the field nor the draw pile, so they need not be stored.

**Moves.** The top card, the top two cards or the whole pile of a position go
onto the pile of another position when all those cards and the target pile
are one colour, the bottom moved card's number is one higher than the target's
top card, and no item appears twice in the combined pile. Nothing goes into an
empty position. A pile that becomes 1-2-3-4 (a book) is removed at once; then
every empty position is refilled from the draw pile in reading order.

**Notation** (lower case; upper case accepted):

==========  ==================================================
``a1b2``    the top card of a1 onto the pile of b2
``a1b2:2``  the top two cards of a1 onto b2
``a1b2:3``  three cards: the whole 3-card pile of a1 onto b2
==========  ==================================================

The count is written only when it is more than one. When playing, ``a1b2``
also means the only legal move from a1 to b2, however many cards it takes
(see :meth:`DevilsSquare.resolve`).

**Move order** of :meth:`DevilsSquare.legal_moves`: by source position in
reading order, then target position in reading order, then count. (At most one
count can fit a given source and target: the bottom moved card differs in
number from one count to another, and the target's top card fits only one.)

>>> r = DevilsSquare()
>>> s = r.deal(0)
>>> [len(p) for p in s.field], len(s.draw), s.books
([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 48, 0)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import permutations
from typing import Any, NamedTuple

from ..core.cards import (
    KK_ITEM_NAMES,
    kings_keys_deck,
    kk_card,
    kk_colour,
    kk_item,
    kk_name,
    kk_number,
    kk_text,
    parse_kk_card,
)
from ..core.errors import LayoutError, MoveParseError
from ..core.inputs import quote
from ..core.layout import (
    FACE_DOWN,
    FACE_UP,
    check_cards,
    format_pile,
    join_layout,
    read_pile,
    split_layout,
)
from ..core.rules import MovePlaces, Pile, Rules
from ..core.scoring import position_scoring
from ..core.shuffle import shuffled
from ..core.spec import GameSpec, Place, TableSpec

SIZE = 16
"""Positions on the field."""
FIELD_CARDS = 16
"""Cards dealt face up at the start, one to each position."""
DECK_SIZE = 64
BOOK_POINTS = 10
ALL_BOOKS = DECK_SIZE // 4

POSITIONS: tuple[str, ...] = tuple(f"{'abcd'[i % 4]}{i // 4 + 1}" for i in range(SIZE))
"""Position names in reading order: ``a1 b1 c1 d1 a2 ... d4``."""
_INDEX = {name: i for i, name in enumerate(POSITIONS)}

# Lookup tables indexed by card: faster than arithmetic in the hot loops.
COLOUR: tuple[int, ...] = tuple(kk_colour(c) for c in range(DECK_SIZE))
ITEM: tuple[int, ...] = tuple(kk_item(c) for c in range(DECK_SIZE))
NUMBER: tuple[int, ...] = tuple(kk_number(c) for c in range(DECK_SIZE))


class DevilsSquareMove(NamedTuple):
    """A Devil's Square move: source and target positions (0..15, reading order) and
    the number of cards taken from the top of the source. ``str`` gives its notation.

    >>> str(DevilsSquareMove(0, 5, 1)), str(DevilsSquareMove(15, 4, 3))
    ('a1b2', 'd4a2:3')
    """

    src: int
    dst: int
    n: int

    def __str__(self) -> str:
        src, dst, n = self
        return POSITIONS[src] + POSITIONS[dst] + (f":{n}" if n > 1 else "")


MAX_TAKE = 3
"""The most cards a move can take: a pile of four cards is a book and is removed at once."""

# Every move there can be, made once: legal_moves hands out these objects.
# MOVES[src][dst][n - 1] (src == dst included for simple indexing; never legal).
MOVES: tuple[tuple[tuple[DevilsSquareMove, ...], ...], ...] = tuple(
    tuple(tuple(DevilsSquareMove(i, j, n) for n in range(1, MAX_TAKE + 1)) for j in range(SIZE)) for i in range(SIZE)
)


class DevilsSquareState(NamedTuple):
    """A Devil's Square position (see the module docstring).

    ``field`` holds the 16 piles in reading order, each bottom first; ``draw``
    is the face-down draw pile, its last card dealt next; ``books`` counts the
    books made and removed.

    >>> DevilsSquareState(((),) * 16, (), 16).books
    16
    """

    field: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    books: int


_MOVE_RE = re.compile(r"^([a-d][1-4])([a-d][1-4])(?::([23]))?$")
_MOVE_HELP = "moves look like a1b2 (top card of a1 onto b2), a1b2:2 (top two cards), a1b2:3 (a whole 3-card pile)"


def pile_problem(pile: tuple[int, ...]) -> str | None:
    """Why a non-empty pile could not lie on the field, or None if it could.

    A field pile is one colour, its numbers go up by one from the bottom, no
    item appears twice, and it has at most three cards (four would be a book,
    removed at once).

    >>> pile_problem((parse_kk_card("1GK"), parse_kk_card("2GA"))) is None
    True
    >>> pile_problem((parse_kk_card("1GK"), parse_kk_card("2RA")))
    'its cards are not all one colour'
    """
    if any(COLOUR[c] != COLOUR[pile[0]] for c in pile):
        return "its cards are not all one colour"
    if any(NUMBER[pile[k + 1]] != NUMBER[pile[k]] + 1 for k in range(len(pile) - 1)):
        return "its numbers do not go up by one from the bottom"
    if len({ITEM[c] for c in pile}) != len(pile):
        return "an item appears twice"
    if len(pile) > MAX_TAKE:
        return "it is a book, which is removed at once"
    return None


def split_books(cards: Iterable[int]) -> list[tuple[int, int, int, int]] | None:
    """The cards as whole books (each 1-2-3-4 of one colour, four different items), or
    None if they cannot be split so. The split is the first one found taking the
    cards in deck order, books by colour (``Y R G B``).

    >>> [" ".join(kk_text(c) for c in b) for b in split_books(parse_kk_card(t) for t in "4YC 1YK 2YA 3YS".split())]
    ['1YK 2YA 3YS 4YC']
    >>> split_books([parse_kk_card("1YK")]) is None
    True
    """
    books: list[tuple[int, int, int, int]] = []
    ordered = sorted(cards)
    for colour in range(4):
        by_number = [[c for c in ordered if COLOUR[c] == colour and NUMBER[c] == n] for n in range(1, 5)]
        if len({len(cs) for cs in by_number}) != 1:
            return None
        found = _match(by_number)
        if found is None:
            return None
        books.extend(found)
    return books


def _match(by_number: list[list[int]]) -> list[tuple[int, int, int, int]] | None:
    """Books from cards of one colour grouped by number (equal counts), or None."""
    ones, twos, threes, fours = by_number
    if not ones:
        return []
    one = ones[0]
    for two in twos:
        if ITEM[two] == ITEM[one]:
            continue
        for three in threes:
            if ITEM[three] in (ITEM[one], ITEM[two]):
                continue
            for four in fours:
                if ITEM[four] in (ITEM[one], ITEM[two], ITEM[three]):
                    continue
                rest = _match(
                    [
                        ones[1:],
                        [c for c in twos if c != two],
                        [c for c in threes if c != three],
                        [c for c in fours if c != four],
                    ]
                )
                if rest is not None:
                    return [(one, two, three, four), *rest]
    return None


def field_piles() -> list[tuple[int, ...]]:
    """Every pile that can lie on the field, by colour, bottom number, length and items:
    one colour, numbers up by one from the bottom, no item twice, one to three
    cards (see :func:`pile_problem`). There are 100 of each colour.

    >>> piles = field_piles()
    >>> len(piles), [kk_text(c) for c in piles[-1]]
    (400, ['4BC'])
    """
    piles: list[tuple[int, ...]] = []
    for colour in range(4):
        for low in range(1, 5):
            for length in range(1, min(MAX_TAKE, 5 - low) + 1):
                for items in permutations(range(4), length):
                    piles.append(tuple(kk_card(colour, item, low + k) for k, item in enumerate(items)))
    return piles


_EMPTY_KEY = 16
"""The filing key of a pile that takes nothing; see :func:`_pile_info`."""


def _pile_info(pile: tuple[int, ...]) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """What :meth:`DevilsSquare.legal_moves` needs to know of a pile, without looking at cards.

    - As a target, the key it is filed under: ``colour * 4 + number - 1`` of its
      top card (0..15); ``_EMPTY_KEY`` when nothing can go on it (an empty
      position, or a top 4).
    - Its items, as a bit mask.
    - As a source, what it can give: for the top card, the top two and the
      whole pile, when the bottom moved card is not a 1 (a 1 goes on nothing),
      ``(key of the targets it fits on, count - 1, bit mask of the moved items)``.
    """
    if not pile:
        return (_EMPTY_KEY, 0, ())
    top = pile[-1]
    key = COLOUR[top] * 4 + NUMBER[top] - 1 if NUMBER[top] < 4 else _EMPTY_KEY
    takes: list[tuple[int, int, int]] = []
    mask = 0
    size = len(pile)
    for k in range(1, size + 1):
        bottom = pile[size - k]
        mask |= 1 << ITEM[bottom]
        if (k <= 2 or k == size) and NUMBER[bottom] > 1:  # the top one, the top two, or the whole pile
            takes.append((COLOUR[bottom] * 4 + NUMBER[bottom] - 2, k - 1, mask))
    return (key, mask, tuple(takes))


# Every pile there can be, with what legal_moves needs of it, made once.
_PILES = {pile: _pile_info(pile) for pile in [(), *field_piles()]}


class DevilsSquare(Rules[DevilsSquareState, DevilsSquareMove]):
    """Devil's Square. No options (the rules mark none).

    >>> DevilsSquare().options
    {}
    """

    name = "devils-square"
    title = "Devil's Square"
    NOTATION = "a1b2 top card of a1 onto b2, a1b2:2 top two cards, a1b2:3 a whole 3-card pile"
    OVER_SEES_HIDDEN = False  # face down: the draw pile; a card dealt from it is progress
    MOVE_TYPE = DevilsSquareMove
    COUNT_OPTIONAL = True

    # --- positions -------------------------------------------------------------

    def deck(self) -> list[int]:
        """The 64 King's Keys cards in order (colours ``Y R G B``; items ``K A S C``; numbers 1-4).

        >>> [kk_text(c) for c in DevilsSquare().deck()[:5]]
        ['1YK', '2YK', '3YK', '4YK', '1YA']
        """
        return kings_keys_deck()

    def card_text(self, card: int) -> str:
        """Text of a card: number, colour, item (``3GK`` is the green 3 of keys).

        >>> DevilsSquare().card_text(63)
        '4BC'
        """
        return kk_text(card)

    def deal(self, deal: int) -> DevilsSquareState:
        """Deal number ``deal``: the deck is shuffled by the cardtable shuffle, its last
        card being the top; the top 16 cards go face up, one to each position in
        reading order (a1 gets the top card); the other 48 are the draw pile,
        whose top card (the last of ``draw``) is dealt first.

        >>> s = DevilsSquare().deal(1)
        >>> len(s.draw), s.field[0][0] == shuffled(kings_keys_deck(), 1)[-1]
        (48, True)
        """
        deck = shuffled(self.deck(), deal)
        field = tuple((deck.pop(),) for _ in range(SIZE))
        return DevilsSquareState(field, tuple(deck), 0)

    def removed(self, state: DevilsSquareState) -> list[int]:
        """The cards of the books made: those on neither the field nor the draw pile, in deck order.

        >>> DevilsSquare().removed(DevilsSquare().deal(0))
        []
        """
        present = {c for p in state.field for c in p}
        present.update(state.draw)
        return [c for c in range(DECK_SIZE) if c not in present]

    def cards(self, state: DevilsSquareState) -> list[int]:
        """Every card of the position: the field (reading order, bottom first), the draw
        pile (bottom first), then the cards of the books made.

        >>> sorted(DevilsSquare().cards(DevilsSquare().deal(1))) == list(range(64))
        True
        """
        return [*(c for p in state.field for c in p), *state.draw, *self.removed(state)]

    def display(self, state: DevilsSquareState) -> list[list[tuple[str, Pile]]]:
        """Four rows of four named piles (``a1 b1 c1 d1`` on top), then the draw pile face down.

        >>> rows = DevilsSquare().display(DevilsSquare().deal(0))
        >>> [name for name, _ in rows[1]], rows[4][0][0], len(rows[4][0][1])
        (['a2', 'b2', 'c2', 'd2'], 'draw', 48)
        """
        rows: list[list[tuple[str, Pile]]] = [
            [(POSITIONS[i], [(c, True) for c in state.field[i]]) for i in range(r * 4, r * 4 + 4)] for r in range(4)
        ]
        rows.append([("draw", [(c, False) for c in state.draw])])
        return rows

    def status(self, state: DevilsSquareState) -> list[str]:
        """Books made and the score, and the cards left in the draw pile.

        >>> DevilsSquare().status(DevilsSquare().deal(0))
        ['books: 0/16 (score 0)', 'draw pile: 48 cards']
        """
        left = len(state.draw)
        books = f"books: {state.books}/{ALL_BOOKS} (score {self.score(state)})"
        return [books, f"draw pile: {left} card" + ("" if left == 1 else "s")]

    def to_text(self, state: DevilsSquareState, format: str = "cardtable") -> str:
        """The position as text: a line per position ``a1`` to ``d4`` (each pile bottom
        first), ``draw`` (face down, bottom first: the last card is dealt next)
        and ``books`` (the cards of the books made, book by book, each 1-2-3-4).

        >>> print(DevilsSquare().to_text(DevilsSquare().deal(0)).splitlines()[1])
        a1: 4GC
        """
        if format != "cardtable":
            raise LayoutError(f"unknown devils-square layout format {quote(format)} (cardtable)")
        books = split_books(self.removed(state))
        if books is None:  # a state made by hand, not by deal/apply/from_text
            raise LayoutError("the cards off the field and the draw pile do not form whole books")
        lines = [(POSITIONS[i], format_pile([(c, True) for c in p], kk_text)) for i, p in enumerate(state.field)]
        lines.append(("draw", format_pile([(c, False) for c in state.draw], kk_text)))
        lines.append(("books", " ".join(kk_text(c) for b in books for c in b)))
        return join_layout(self.name, lines)

    def from_text(self, text: str) -> DevilsSquareState:
        """Read a position written by :meth:`to_text` (the ``books`` cards in any order).

        Raises :class:`LayoutError` unless every card appears exactly once and the
        position could arise: each pile one colour, numbers up by one from the
        bottom, no item twice, at most three cards; no empty position while the
        draw pile has cards; the ``books`` cards splitting into whole books.

        >>> r = DevilsSquare(); s = r.deal(4)
        >>> r.from_text(r.to_text(s)) == s
        True
        """
        if not isinstance(text, str):
            raise LayoutError("a layout must be text")
        parts = split_layout(text, self.name, [*POSITIONS, "draw", "books"])
        field = [read_pile(parts[name], parse_kk_card, f"position {name}", FACE_UP)[0] for name in POSITIONS]
        draw, _ = read_pile(parts["draw"], parse_kk_card, "draw pile", FACE_DOWN)
        book_cards, _ = read_pile(parts["books"], parse_kk_card, "books", FACE_UP)
        check_cards([*(c for p in field for c in p), *draw, *book_cards], self.deck(), kk_text)
        for name, pile in zip(POSITIONS, field, strict=True):
            problem = pile_problem(pile) if pile else None
            if problem:
                shown = " ".join(kk_text(c) for c in pile)
                raise LayoutError(f"position {name} ({shown}) could not arise: {problem}")
            if not pile and draw:
                raise LayoutError(
                    f"position {name} is empty while the draw pile has cards (empty positions are filled at once)"
                )
        if split_books(book_cards) is None:
            raise LayoutError(
                "the books line must hold whole books: each 1-2-3-4 of one colour with four different items"
            )
        return DevilsSquareState(tuple(field), draw, len(book_cards) // 4)

    # --- moves ----------------------------------------------------------------

    def legal_moves(self, state: DevilsSquareState) -> list[DevilsSquareMove]:
        """The legal moves, by source position (reading order), then target, then count.

        ``state`` is a position that can arise (as :meth:`deal`, :meth:`apply` and
        :meth:`from_text` make them): every pile is one of :func:`field_piles`.

        >>> r = DevilsSquare()
        >>> [str(m) for m in r.legal_moves(r.deal(0))]
        ['c1b1', 'c1b3', 'b2d3', 'c3b3', 'a4b4', 'c4d1']
        """
        field = state[0]
        infos = [_PILES[p] for p in field]
        # slots[key]: the positions filed under that key, in reading order.
        slots: list[list[int] | None] = [None] * (_EMPTY_KEY + 1)
        for j, (key, _, _) in enumerate(infos):
            slot = slots[key]
            if slot is None:
                slots[key] = [j]
            else:
                slot.append(j)
        moves: list[DevilsSquareMove] = []
        add = moves.append
        for i, (_, _, takes) in enumerate(infos):
            if not takes:
                continue
            row = MOVES[i]
            if len(takes) == 1:  # the usual case, kept short
                key, k, mask = takes[0]
                targets = slots[key]
                if targets:
                    for j in targets:
                        if not infos[j][1] & mask:
                            add(row[j][k])
                continue
            start = len(moves)
            counts = 0
            for key, k, mask in takes:
                targets = slots[key]
                if targets:
                    counts += 1
                    for j in targets:
                        if not infos[j][1] & mask:
                            add(row[j][k])
            if counts > 1:  # targets of different counts: put them in target order
                moves[start:] = sorted(moves[start:])
        return moves

    def apply(self, state: DevilsSquareState, move: DevilsSquareMove) -> DevilsSquareState:
        """The position after a legal move: a target pile that is now a book is removed
        (10 points); then the empty positions are refilled from the draw pile in
        reading order, as long as it has cards.

        >>> r = DevilsSquare(); s = r.apply(r.deal(0), r.parse_move("c1b1"))
        >>> [r.card_text(c) for c in s.field[1] + s.field[2]], len(s.draw)
        (['1GA', '2GK', '2RA'], 47)
        """
        field, draw, books = state
        src, dst, n = move
        p = field[src]
        rest = p[:-n]
        pile = field[dst] + p[-n:]
        if len(pile) == 4:  # one colour, numbers up by one, four items: 1-2-3-4, a book
            pile = ()
            books += 1
        f = list(field)
        f[src] = rest
        f[dst] = pile
        if draw and not (rest and pile):
            for hole in (src, dst) if src < dst else (dst, src):
                if not f[hole] and draw:
                    f[hole] = draw[-1:]
                    draw = draw[:-1]
        return DevilsSquareState(tuple(f), draw, books)

    def parse_move(self, text: str) -> DevilsSquareMove:
        """Read a move in the notation of the module docstring.

        >>> DevilsSquare().parse_move(" A1B2:2 ") == DevilsSquareMove(0, 5, 2)
        True
        """
        m = _MOVE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise MoveParseError(f"not a devils-square move: {quote(text)} ({_MOVE_HELP})")
        a, b, count = m.groups()
        if a == b:
            raise MoveParseError(f"not a devils-square move: {quote(text)} (a move goes from one position to another)")
        return MOVES[_INDEX[a]][_INDEX[b]][int(count or 1) - 1]

    def move_places(self, state: DevilsSquareState, move: DevilsSquareMove) -> MovePlaces:
        """Where a legal move happens on the table: the two positions and the cards moved.

        >>> r = DevilsSquare(); r.move_places(r.deal(0), r.parse_move("c1b1"))
        MovePlaces(src='c1', dst='b1', n=1, card=None)
        """
        return MovePlaces(POSITIONS[move.src], POSITIONS[move.dst], move.n)

    def _drop_move(self, state: DevilsSquareState, src: str, count: int, dst: str) -> DevilsSquareMove:
        """The move of a drop (see :meth:`Rules.drop_move`): nothing goes on the draw pile.

        >>> r = DevilsSquare(); str(r.drop_move(r.deal(0), "c1", 0, "b1"))
        'c1b1'
        """
        if dst == "draw":
            raise MoveParseError("no card may be put on the draw pile")
        if count > MAX_TAKE:
            raise MoveParseError(f"a move takes at most {MAX_TAKE} cards")
        return MOVES[_INDEX[src]][_INDEX[dst]][count - 1]

    def explain_illegal(self, state: DevilsSquareState, move: DevilsSquareMove) -> str:
        """Which rule forbids ``move`` here.

        >>> r = DevilsSquare(); r.explain_illegal(r.deal(0), r.parse_move("a1d1"))
        'different colours: 4GC and 1RC are not one colour (the moved cards and the target pile must be)'
        """
        field = state.field
        src, dst, n = move
        a, b = POSITIONS[src], POSITIONS[dst]
        if src == dst:
            return "a move goes from one position to another"
        p, q = field[src], field[dst]
        if not p:
            return f"{a} is empty: there is no card to move"
        if not (1 <= n <= len(p)) or (n > 2 and n != len(p)):
            have = f"{len(p)} card" + ("s" if len(p) > 1 else "")
            return f"{a} holds {have}: a move takes the top card, the top two cards or the whole pile"
        if not q:
            return f"{b} is empty: nothing is ever moved into an empty position"
        moved = p[-n:]
        shown = " ".join(kk_text(c) for c in moved)
        if any(COLOUR[c] != COLOUR[moved[0]] for c in moved + q):
            return (
                f"different colours: {shown} and {' '.join(kk_text(c) for c in q)} are not one colour "
                "(the moved cards and the target pile must be)"
            )
        bottom, top = moved[0], q[-1]
        if NUMBER[bottom] != NUMBER[top] + 1:
            return (
                f"number not one higher: the bottom moved card {kk_text(bottom)} must be one higher "
                f"than {b}'s top card {kk_text(top)} (2 goes on 1, 4 on 3)"
            )
        items = [ITEM[c] for c in q + moved]
        for item in range(4):
            if items.count(item) > 1:
                return f"repeated item: {KK_ITEM_NAMES[item]} would appear twice in the combined pile"
        return "the move is legal here"

    # --- what a player sees -----------------------------------------------------

    def with_face_down(self, state: DevilsSquareState, cards: Sequence[int]) -> DevilsSquareState:
        """``state`` with ``cards`` as its draw pile (bottom first), the only face-down cards.

        >>> r = DevilsSquare(); s = r.deal(0)
        >>> r.with_face_down(s, r.face_down(s)[::-1]).draw == s.draw[::-1]
        True
        """
        return state._replace(draw=tuple(cards))

    # --- the end ----------------------------------------------------------------

    def is_won(self, state: DevilsSquareState) -> bool:
        """All 16 books made: the field and the draw pile are empty.

        >>> DevilsSquare().is_won(DevilsSquareState(((),) * 16, (), 16))
        True
        """
        return state.books == ALL_BOOKS

    def progress(self, state: DevilsSquareState) -> tuple[int, ...]:
        """Books made, and cards dealt from the draw pile.

        >>> DevilsSquare().progress(DevilsSquare().deal(0))
        (0, 0)
        """
        return (state.books, DECK_SIZE - FIELD_CARDS - len(state.draw))

    def one_way(self, state: DevilsSquareState) -> tuple[int, ...]:
        """Empty positions: a whole pile moved once the draw pile is spent leaves its
        position empty for good (nothing moves into one). Every other move can be taken
        back (the cards go back onto the card they left, one lower in their colour), or
        makes a book or deals a card (:meth:`progress`).

        >>> DevilsSquare().one_way(DevilsSquare().deal(0))
        (0,)
        """
        return (sum(1 for p in state.field if not p),)

    def score(self, state: DevilsSquareState) -> int:
        """10 points a book (160 is the win).

        >>> DevilsSquare().score(DevilsSquareState(((),) * 16, (), 16))
        160
        """
        return BOOK_POINTS * state.books

    # --- in words, and the books beside the table (issue 26) ---------------------------

    def card_name(self, card: int) -> str:
        """A card in words: colour, number and item.

        >>> DevilsSquare().card_name(parse_kk_card("3GK"))
        'green 3 of keys'
        """
        return kk_name(card)

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words.

        >>> DevilsSquare().pile_name("b2"), DevilsSquare().pile_name("draw")
        ('square b2', 'the draw pile')
        """
        return "the draw pile" if name == "draw" else f"square {name}"

    def pile_notes(self, state: DevilsSquareState) -> dict[str, str]:
        """The books made and the score, written on the pile of books.

        >>> DevilsSquare().pile_notes(DevilsSquare().deal(0))
        {'books': '0 books, score 0'}
        """
        books = state.books
        return {"books": f"{books} book{'' if books == 1 else 's'}, score {self.score(state)}"}

    def aside(self, state: DevilsSquareState) -> list[tuple[str, Pile]]:
        """The books made, face up beside the table: one pile ``books``, book after book,
        each from its 1 to its 4 (so a 4 is on top).

        >>> books = DevilsSquare().aside(DevilsSquareState(((),) * 16, (), 16))[0][1]  # won: all 16 books
        >>> len(books), [NUMBER[c] for c, _ in books[:5]]
        (64, [1, 2, 3, 4, 1])
        """
        found = split_books(self.removed(state)) or []
        return [("books", [(c, True) for book in found for c in sorted(book, key=lambda c: NUMBER[c])])]


def table_place(name: str) -> Place:
    """Where a pile of :meth:`DevilsSquare.display` lies on the browser's table.

    >>> table_place("b2"), table_place("draw").kind
    (Place(kind='cell', x=1, y=1, fan='down', grab='group', label='square b2'), 'draw')
    """
    if name == "draw":
        return Place("draw", 4.25, 0, "none", "none", "draw pile")
    if name == "books":
        return Place("books", 4.25, 2, "none", "none", "books made")
    return Place("cell", "abcd".index(name[0]), int(name[1]) - 1, "down", "group", f"square {name}")


def action_moves(rules: Rules[Any, Any]) -> list[DevilsSquareMove]:
    """Every Devil's Square move, numbered once (the research action space): ``xy``
    (from, to) in reading order ``a1``..``d4``, then n in 1..3.

    >>> len(action_moves(DevilsSquare()))
    720
    """
    return [MOVES[i][j][n] for i in range(SIZE) for j in range(SIZE) if i != j for n in range(3)]


GAME = GameSpec(
    name="devils-square",
    rules=DevilsSquare,
    table=TableSpec(width=5.25, place=table_place, cards="kings-keys", back="#5d2f86"),
    action_moves=action_moves,
    search_space="cardtable.solve.spaces:devils_square_space",
    native="cardtable.solve.native.devils_square",
    gymnasium_id="cardtable/DevilsSquare-v0",
    openspiel_name="cardtable_devils_square",
    scoring=(position_scoring("books", "Books", "points", "10 points a book: all 16 books (160) clear the field"),),
)
"""Devil's Square, as every layer knows it (see :mod:`cardtable.core.spec`)."""

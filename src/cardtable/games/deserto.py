"""Deserto (``cardtable/rulebook/deserto.md``): 2 to 4 players win cards in a 2 x 2 square.

**Cards.** 51 cards of four kinds. Cards of one kind are identical, so a card
is its kind, a small int: ``0`` oasis ``O``, ``1`` vizier ``V``, ``2`` thief
``T``, ``3`` treasure ``G`` (gold). :meth:`Deserto.deck` lists the 6 oases,
15 viziers, 15 thieves and 15 treasures in that order. Hands and winnings are
multisets, kept as sorted tuples, so equal hands are equal states.

**Dealing.** ``shuffled(deck, n)``; the shuffled list's *last* card is the top
of the deck and is dealt first. Three rounds, one card to each seat per round,
starting with the seat that starts (option ``first``) and going on in seat
order; the rest is the face-down deck, its top card (the last one) drawn first.

**The area.** Positions ``1 2 / 3 4`` (reading order). Each has two
neighbours: 1 with 2 and 3, 2 with 1 and 4, 3 with 1 and 4, 4 with 2 and 3
(never 1-4 or 2-3). Each position holds a pile, bottom first; only its top
card counts.

**A turn** of the seat to move. It must place a card if any placement is
legal (:func:`placement_fault` says which are not); then captures happen, and
the seat draws from the deck up to 3 cards. If no card can be placed, it gives
one card of its choice to the previous seat, which keeps it as winnings; then
it draws (unless ``refill_after_give`` is off). Play passes to the next seat
that holds cards; a seat whose hand is empty while the deck still holds cards
(possible only with ``refill_after_give`` off) draws up to 3 as its turn
begins. When every hand is empty the game is over.

**Position.** A :class:`DesertoState`: the seat to move (``-1`` when the game
is over), each seat's hand, the deck (top last), the four area piles (bottom
first), each seat's captured cards, each seat's gifts received (winnings that
only giver and receiver know), and each seat's *stuck record*: the kinds it
could not place when it last had to give (a bit mask) and how many of its
cards are surely still from then (see :meth:`Deserto.sample`).

**Notation** (upper case; lower case accepted): ``V3`` places a vizier at
position 3, ``gT`` gives a thief. **Move order** of
:meth:`Deserto.legal_moves`: placements by kind (``O V T G``) then position
(1 to 4); or, when no placement is legal, one gift for each kind in the hand,
in the same kind order.

>>> r = Deserto(players=3)
>>> s = r.deal(0)
>>> [len(h) for h in s.hands], len(s.deck), s.turn
([3, 3, 3], 42, 0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import factorial
from typing import Any, NamedTuple

from ..core.errors import LayoutError, MoveParseError, NotYourTurnError, OptionError
from ..core.inputs import quote, read_int
from ..core.layout import (
    FACE_DOWN,
    FACE_UP,
    check_at_most,
    check_cards,
    format_pile,
    join_layout,
    read_pile,
    split_layout,
)
from ..core.multiplayer import Event, MultiplayerRules, Result, SeenPile
from ..core.options import Option
from ..core.rules import MovePlaces, Pile, Rules, check_pile_names, drop_count, replace_at
from ..core.shuffle import shuffled
from ..core.spec import GameSpec, Place, TableSpec

OASIS, VIZIER, THIEF, TREASURE = range(4)
KINDS = "OVTG"
"""The letter of each kind, in kind order."""
KIND_NAMES = ("oasis", "vizier", "thief", "treasure")
KIND_PLURALS = ("oases", "viziers", "thieves", "treasures")
KIND_COUNTS = (6, 15, 15, 15)
DECK_SIZE = 51
HAND_SIZE = 3
EMPTY = 4
"""Stands for the top card of an empty position in the tables below."""
GIVE = 4
"""The ``pos`` of a gift move."""
INCOMPLETE = "the square is incomplete: a card goes into an empty position next to a filled one"
NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 2), (0, 3), (0, 3), (1, 2))
"""The two neighbours of each position (0-3 for 1-4): sides shared, never diagonals."""


def kind_text(card: int) -> str:
    """The letter of a card's kind.

    >>> kind_text(VIZIER), kind_text(TREASURE)
    ('V', 'G')
    """
    return KINDS[card]


def parse_kind(text: str) -> int:
    """Read a card's letter (``O V T G``, either case).

    >>> parse_kind("t") == THIEF
    True
    """
    t = text.strip().upper() if isinstance(text, str) and text.isascii() else ""
    if len(t) != 1 or t not in KINDS:
        raise LayoutError(f"not a deserto card: {quote(text)} (O oasis, V vizier, T thief, G treasure)")
    return KINDS.index(t)


class DesertoMove(NamedTuple):
    """A Deserto move: place a card of ``kind`` at position ``pos`` (0-3, shown 1-4),
    or give a card of ``kind`` to the previous seat (``pos == GIVE``).

    >>> str(DesertoMove(VIZIER, 2)), str(DesertoMove(THIEF, GIVE))
    ('V3', 'gT')
    """

    kind: int
    pos: int

    def __str__(self) -> str:
        if self.pos == GIVE:
            return "g" + KINDS[self.kind]
        return f"{KINDS[self.kind]}{self.pos + 1}"


# Every move there can be, made once: legal_moves hands out these objects.
PLACE: tuple[tuple[DesertoMove, ...], ...] = tuple(tuple(DesertoMove(k, p) for p in range(4)) for k in range(4))
"""``PLACE[kind][pos]``: the placement moves."""
GIFT: tuple[DesertoMove, ...] = tuple(DesertoMove(k, GIVE) for k in range(4))
"""``GIFT[kind]``: the gift moves."""


def placement_fault(tops: tuple[int, ...], kind: int, pos: int) -> str | None:
    """Why a card of ``kind`` may not go at ``pos`` (0-3) of an area whose top cards
    are ``tops`` (``EMPTY`` for an empty position), or None if it may.

    The square rule, then rule 2 (same kind on same kind; a thief next to a
    vizier; a treasure next to a thief). "Next to" reads the two neighbours'
    top cards only, never the card being covered.

    >>> placement_fault((VIZIER, EMPTY, EMPTY, EMPTY), THIEF, 2)
    'rule 2: a thief may not go next to a vizier (position 1 shows a vizier)'
    >>> placement_fault((VIZIER, OASIS, OASIS, OASIS), THIEF, 0) is None  # a thief may cover a vizier
    True
    """
    if EMPTY in tops:  # the square is incomplete
        if tops[pos] != EMPTY:
            return f"{INCOMPLETE} (position {pos + 1} is filled)"
        if tops != (EMPTY,) * 4 and all(tops[q] == EMPTY for q in NEIGHBOURS[pos]):
            return f"{INCOMPLETE} (position {pos + 1} is next to no card)"
    elif tops[pos] == kind:
        return (
            f"rule 2: a card may not go on a pile whose top card is of the same kind "
            f"(position {pos + 1} shows a {KIND_NAMES[kind]})"
        )
    for q in NEIGHBOURS[pos]:
        if kind == THIEF and tops[q] == VIZIER:
            return f"rule 2: a thief may not go next to a vizier (position {q + 1} shows a vizier)"
        if kind == TREASURE and tops[q] == THIEF:
            return f"rule 2: a treasure may not go next to a thief (position {q + 1} shows a thief)"
    return None


def captures(tops: tuple[int, ...], kind: int, pos: int) -> tuple[int, ...]:
    """The positions (0-3) whose piles a legal placement wins: rule 3 (a vizier wins
    neighbouring piles topped by a thief, a thief those topped by a treasure),
    or all four when the area then shows four viziers (rule 4).

    >>> captures((TREASURE, EMPTY, TREASURE, EMPTY), THIEF, 3)
    (2,)
    >>> captures((VIZIER, VIZIER, VIZIER, OASIS), VIZIER, 3)
    (0, 1, 2, 3)
    """
    after = replace_at(tops, pos, kind)
    if after == (VIZIER,) * 4:
        return (0, 1, 2, 3)
    prey = THIEF if kind == VIZIER else TREASURE if kind == THIEF else None
    return tuple(q for q in NEIGHBOURS[pos] if after[q] == prey)


# Lookup tables by the area's top cards, coded as tops[0] + 5*tops[1] + 25*tops[2] + 125*tops[3].
_ALL_TOPS: list[tuple[int, ...]] = [
    (a, b, c, d) for d in range(5) for c in range(5) for b in range(5) for a in range(5)
]
_PLACEABLE: list[tuple[tuple[DesertoMove, ...], ...]] = [
    tuple(tuple(PLACE[k][p] for p in range(4) if placement_fault(tops, k, p) is None) for k in range(4))
    for tops in _ALL_TOPS
]
_STUCK_MASK: list[int] = [sum(1 << k for k in range(4) if not placeable[k]) for placeable in _PLACEABLE]
"""The kinds (bit mask) with no legal placement, by top-card code."""
_CAPTURES: list[tuple[tuple[int, ...], ...]] = [
    tuple(captures(tops, k, p) for k in range(4) for p in range(4)) for tops in _ALL_TOPS
]
"""The positions won, by top-card code and ``kind * 4 + pos`` (for legal placements)."""


def _legal(placeable: tuple[tuple[DesertoMove, ...], ...], hand_mask: int) -> tuple[DesertoMove, ...]:
    """The legal moves of a hand holding the kinds of ``hand_mask``: its placements, else its gifts."""
    kinds = [k for k in range(4) if hand_mask >> k & 1]
    return tuple(m for k in kinds for m in placeable[k]) or tuple(GIFT[k] for k in kinds)


_LEGAL: list[tuple[DesertoMove, ...]] = [_legal(placeable, mask) for placeable in _PLACEABLE for mask in range(16)]
"""The legal moves by ``code * 16 + hand mask``."""
# Every hand there can be (a sorted tuple of at most 3 kinds), with its kinds as a bit mask.
_HANDS: list[tuple[int, ...]] = sorted(
    {tuple(sorted(h)) for n in range(HAND_SIZE + 1) for h in product(range(4), repeat=n)}
)
_HAND_MASK: dict[tuple[int, ...], int] = {h: sum(1 << k for k in set(h)) for h in _HANDS}
_REMOVE: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {
    (h, k): h[: h.index(k)] + h[h.index(k) + 1 :] for h in _HANDS for k in set(h)
}


def _code(area: tuple[tuple[int, ...], ...]) -> int:
    """The top-card code of an area."""
    a, b, c, d = area
    return (
        (a[-1] if a else EMPTY)
        + 5 * (b[-1] if b else EMPTY)
        + 25 * (c[-1] if c else EMPTY)
        + 125 * (d[-1] if d else EMPTY)
    )


def _tops(area: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(p[-1] if p else EMPTY for p in area)


def _in_mask(cards: Iterable[int], mask: int) -> int:
    """How many of ``cards`` are of a kind in ``mask``."""
    return sum(1 for c in cards if mask >> c & 1)


def _mask_text(mask: int) -> str:
    return " ".join(KINDS[k] for k in range(4) if mask >> k & 1)


def _cards_text(cards: Iterable[int]) -> str:
    return " ".join(KINDS[c] for c in cards)


REJECTION_TRIES = 64
"""Tries of plain rejection in :func:`arrange` before it counts instead."""
_FACTORIAL = [factorial(i) for i in range(DECK_SIZE + 1)]


def _ways(counts: Sequence[int]) -> int:
    """The number of orders of a multiset with these counts per kind."""
    ways = _FACTORIAL[sum(counts)]
    for c in counts:
        ways //= _FACTORIAL[c]
    return ways


def _meets(cards: Sequence[int], conditions: Sequence[tuple[int, int, int]]) -> bool:
    """Whether the front groups of ``cards`` meet ``conditions`` (see :func:`arrange`)."""
    start = 0
    for size, mask, need in conditions:
        if _in_mask(cards[start : start + size], mask) < need:
            return False
        start += size
    return True


def arrange(pool: Sequence[int], conditions: Sequence[tuple[int, int, int]], rng: random.Random) -> list[int]:
    """The cards of ``pool`` in an order drawn uniformly among the orders that meet
    ``conditions``: each ``(size, mask, need)`` in turn says that the next ``size``
    cards include at least ``need`` of the kinds in the bit mask ``mask``. The
    cards after the conditioned groups are in uniform random order too.

    Exact: plain rejection (draw the conditioned groups' cards, keep them if they
    meet the conditions) for :data:`REJECTION_TRIES` tries, then, if all failed,
    counting: each group's kind counts are drawn in turn with probability
    proportional to the number of whole orders that have them and meet every
    condition. The conditions must be possible.

    >>> sorted(arrange([OASIS, VIZIER, THIEF, THIEF], [(2, 1 << THIEF, 2)], random.Random(1))[:2])
    [2, 2]
    """
    cards = list(pool)
    head = sum(size for size, _, _ in conditions)
    total = len(cards)
    for _ in range(REJECTION_TRIES if head else 1):
        for i in range(head):  # Fisher-Yates, for the conditioned places only
            j = rng.randrange(i, total)
            cards[i], cards[j] = cards[j], cards[i]
        if _meets(cards, conditions):
            break
    else:
        cards = _arrange_by_counting(cards, conditions, rng)
    rest = cards[head:]
    rng.shuffle(rest)
    return cards[:head] + rest


def _arrange_by_counting(
    pool: Sequence[int], conditions: Sequence[tuple[int, int, int]], rng: random.Random
) -> list[int]:
    """:func:`arrange` by counting (the conditioned groups first, each shuffled; the rest in kind order)."""

    def options(size: int, mask: int, need: int, left: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The kind counts a group of ``size`` may take from ``left`` and meet its condition."""
        found: list[tuple[int, ...]] = []
        for a in range(min(size, left[0]) + 1):
            for b in range(min(size - a, left[1]) + 1):
                for c in range(min(size - a - b, left[2]) + 1):
                    m = (a, b, c, size - a - b - c)
                    if m[3] <= left[3] and sum(m[k] for k in range(4) if mask >> k & 1) >= need:
                        found.append(m)
        return found

    @cache
    def weight(i: int, left: tuple[int, ...]) -> int:
        """The number of orders of the cards ``left`` for conditions ``i`` on and the rest."""
        if i == len(conditions):
            return _ways(left)
        return sum(
            _ways(m) * weight(i + 1, tuple(x - y for x, y in zip(left, m, strict=True)))
            for m in options(*conditions[i], left)
        )

    left = tuple(sum(1 for c in pool if c == k) for k in range(4))
    head: list[int] = []
    for i, condition in enumerate(conditions):
        choices = [(m, tuple(x - y for x, y in zip(left, m, strict=True))) for m in options(*condition, left)]
        weights = [_ways(m) * weight(i + 1, after) for m, after in choices]
        x = rng.randrange(sum(weights))
        pick = 0
        while x >= weights[pick]:
            x -= weights[pick]
            pick += 1
        m, left = choices[pick]
        group = [k for k in range(4) for _ in range(m[k])]
        rng.shuffle(group)
        head += group
    return head + [k for k in range(4) for _ in range(left[k])]


def _check_area(area: tuple[tuple[int, ...], ...]) -> None:
    """Raise :class:`LayoutError` unless the area is one play leaves: in a pile no card lies on
    one of its own kind (rule 2), and the top cards show no thief next to a vizier and no
    treasure next to a thief (the second card of such a pair is never placed, or wins the
    first's pile: rules 2 and 3), and not four viziers (they win all four piles: rule 4)."""
    for p, pile in enumerate(area):
        for k in range(1, len(pile)):
            if pile[k] == pile[k - 1]:
                raise LayoutError(f"position {p + 1}: a {KIND_NAMES[pile[k]]} lies on a {KIND_NAMES[pile[k]]} (rule 2)")
    tops = _tops(area)
    if tops == (VIZIER,) * 4:
        raise LayoutError("the area shows four viziers, which win all four piles at once (rule 4)")
    for p in range(4):
        for q in NEIGHBOURS[p]:
            for prey, hunter in ((THIEF, VIZIER), (TREASURE, THIEF)):
                if tops[p] == prey and tops[q] == hunter:
                    raise LayoutError(
                        f"the area shows a {KIND_NAMES[prey]} at {p + 1} next to a {KIND_NAMES[hunter]} at {q + 1}, "
                        "which play never leaves (rules 2 and 3)"
                    )


def _left_by_play(tops: tuple[int, ...]) -> bool:
    """Whether an area with these top cards passes :func:`_check_area` (one play can leave)."""
    try:
        _check_area(tuple((t,) if t != EMPTY else () for t in tops))
    except LayoutError:
        return False
    return True


_STUCK_MASKS = frozenset(
    _STUCK_MASK[code] for code, tops in enumerate(_ALL_TOPS) if _STUCK_MASK[code] and _left_by_play(tops)
)
"""The kinds (bit masks) a seat can have been unable to place when it gave, in an area play
can leave (any other stuck record is unreachable: ``V T`` only in an area of four viziers)."""


class DesertoState(NamedTuple):
    """A Deserto position (see the module docstring). Seats are 0 to ``players - 1``.

    ``turn`` is the seat to move (-1: over); ``hands[s]`` sorted kinds; ``deck``
    top last; ``area[p]`` the pile at position ``p`` (0-3), bottom first;
    ``captured[s]`` and ``gifts[s]`` the sorted kinds seat ``s`` won by capture
    and was given; ``stuck[s]`` is ``(mask, held)``: the kinds seat ``s`` could
    not place when it last had to give (0: never gave), and how many cards of
    its hand are surely from then.

    >>> Deserto().deal(0).area
    ((), (), (), ())
    """

    turn: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    area: tuple[tuple[int, ...], ...]
    captured: tuple[tuple[int, ...], ...]
    gifts: tuple[tuple[int, ...], ...]
    stuck: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class DesertoEvent:
    """What a seat (or a spectator) learns of one Deserto move (see :meth:`Deserto.public_move`).

    ``seat`` moved. A placement: ``kind`` placed at area ``position`` (0-3, shown 1-4),
    and the piles it won, ``captures``: ``(position, cards bottom first)`` each, all
    four when the area then shows ``four_viziers``. A gift (``position`` None): to
    ``receiver``, the previous seat; its ``kind`` only for the two seats it concerns
    (None for the others and spectators). ``str`` gives the history line of the saves,
    logs and research strings; :meth:`told` the sentence a player reads.

    >>> e = DesertoEvent(1, VIZIER, 1, captures=((0, (THIEF,)), (3, (OASIS, THIEF))))
    >>> str(e)
    'seat 1: V2, wins piles 1 (T), 4 (O T)'
    >>> str(DesertoEvent(1, None, None, receiver=0)), str(DesertoEvent(1, THIEF, None, receiver=0))
    ('seat 1: gives a card to seat 0', 'seat 1: gT, gives a thief to seat 0')
    """

    seat: int
    kind: int | None
    position: int | None
    receiver: int | None = None
    captures: tuple[tuple[int, tuple[int, ...]], ...] = ()
    four_viziers: bool = False

    @property
    def gift(self) -> bool:
        """Whether the move gave a card (rather than placed one).

        >>> DesertoEvent(1, None, None, receiver=0).gift
        True
        """
        return self.position is None

    def __str__(self) -> str:
        seat, kind = self.seat, self.kind
        if self.position is None:
            if kind is None:
                return f"seat {seat}: gives a card to seat {self.receiver}"
            return f"seat {seat}: {GIFT[kind]}, gives a {KIND_NAMES[kind]} to seat {self.receiver}"
        text = f"seat {seat}: {'?' if kind is None else KINDS[kind]}{self.position + 1}"
        if not self.captures:
            return text
        piles = ", ".join(f"{q + 1} ({_cards_text(cards)})" for q, cards in self.captures)
        four = ", four viziers" if self.four_viziers else ""
        return f"{text}{four}, wins pile{'s' if len(self.captures) > 1 else ''} {piles}"

    def told(self, names: Sequence[str]) -> str:
        """The move as a sentence, the seats called by ``names`` (a seat without a name: "seat N", from 1).

        >>> e = DesertoEvent(0, THIEF, 0, captures=((1, (TREASURE, THIEF)), (2, (TREASURE,))))
        >>> e.told(["Ana", "Ben"])
        'Ana put a thief at 1 and won 2 piles (3 cards)'
        >>> DesertoEvent(1, None, None, receiver=0).told(["Ana", "Ben"])
        'Ben could not play and gave a card to Ana'
        """

        def name(seat: int | None) -> str:
            i = -1 if seat is None else seat
            return names[i] if 0 <= i < len(names) else f"seat {i + 1}"

        kind = self.kind
        what = "a card" if kind is None else f"a{'n' if kind == OASIS else ''} {KIND_NAMES[kind]}"
        if self.position is None:
            return f"{name(self.seat)} could not play and gave {what} to {name(self.receiver)}"
        text = f"{name(self.seat)} put {what} at {self.position + 1}"
        if self.captures:
            piles = len(self.captures)
            cards = sum(len(c) for _, c in self.captures)
            text += f"{': four viziers!' if self.four_viziers else ''} and won {piles} pile{'s' if piles > 1 else ''}"
            text += f" ({cards} card{'s' if cards > 1 else ''})"
        return text


class PileView(NamedTuple):
    """What every seat sees of an area position: its top card (None when empty) and its size.

    >>> PileView(VIZIER, 2).size
    2
    """

    top: int | None
    size: int


class DesertoView(NamedTuple):
    """Exactly what ``seat`` may know: its own hand, the area's top cards and pile
    sizes, the deck size, every seat's hand size and won count, the seat to move
    (None when the game is over) and the public history as that seat saw it
    (:class:`DesertoEvent` values). A spectator's view has ``seat`` None and no hand.

    >>> v = Deserto().view(Deserto().deal(0), 0, ())
    >>> v.deck, v.hand_sizes, v.won, v.to_move
    (45, (3, 3), (0, 0), 0)
    """

    seat: int | None
    hand: tuple[int, ...]
    area: tuple[PileView, ...]
    deck: int
    hand_sizes: tuple[int, ...]
    won: tuple[int, ...]
    to_move: int | None
    history: tuple[Event, ...]

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards as their letters, history as its lines).

        >>> import json
        >>> data = Deserto().view(Deserto().deal(0), 1, ()).to_json()
        >>> data["hand"], data["area"][0], json.loads(json.dumps(data)) == data
        (['O', 'V', 'T'], {'top': None, 'size': 0}, True)
        """
        return {
            "seat": self.seat,
            "hand": [KINDS[c] for c in self.hand],
            "area": [{"top": None if p.top is None else KINDS[p.top], "size": p.size} for p in self.area],
            "deck": self.deck,
            "hand_sizes": list(self.hand_sizes),
            "won": list(self.won),
            "to_move": self.to_move,
            "history": [str(event) for event in self.history],
        }


_MOVE_RE = re.compile(r"^(?:([OVTG])([1-4])|G([OVTG]))$")


class Deserto(MultiplayerRules[DesertoState, DesertoMove]):
    """Deserto with options ``players`` (2, 3 or 4; default 2), ``first`` (the seat
    that starts; default 0) and ``refill_after_give`` (default on).

    >>> Deserto(players=4, first=3).deal(0).turn
    3
    """

    name = "deserto"
    title = "Deserto"
    SCORE_UNIT = "cards"
    OPTIONS = (
        Option("players", int, 2, choices=(2, 3, 4), help="number of players (seats 0 to players-1)"),
        Option("first", int, 0, minimum=0, help="the seat that starts (0 is the first seat)", seat=True),
        Option("refill_after_give", bool, True, help="a player who gives a card also draws up to 3"),
    )
    NOTATION = "V3 place a vizier at position 3 (positions 1 2 / 3 4), gT give a thief; cards O V T G"
    MOVE_TYPE = DesertoMove

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._players: int = self.options["players"]
        self._first: int = self.options["first"]
        self._refill_after_give: bool = self.options["refill_after_give"]
        if self._first >= self._players:
            raise OptionError(
                f"deserto option 'first' must be a seat of the game (0 to {self._players - 1} "
                f"with players={self._players}), not {self._first}"
            )
        seats = range(self._players)
        self._names = ["to move", "deck", "1", "2", "3", "4"]
        self._names += [f"{line} {s}" for s in seats for line in ("hand", "captured", "gifts", "stuck")]

    @property
    def players(self) -> int:
        """The number of seats (option ``players``).

        >>> Deserto(players=3).players
        3
        """
        return self._players

    # --- positions -------------------------------------------------------------

    def deck(self) -> list[int]:
        """The 51 cards in order: 6 oases, 15 viziers, 15 thieves, 15 treasures.

        >>> "".join(kind_text(c) for c in Deserto().deck()[4:8])
        'OOVV'
        """
        return [k for k in range(4) for _ in range(KIND_COUNTS[k])]

    def card_text(self, card: int) -> str:
        """The letter of a card: ``O`` oasis, ``V`` vizier, ``T`` thief, ``G`` treasure.

        >>> Deserto().card_text(TREASURE)
        'G'
        """
        return KINDS[card]

    def deal(self, deal: int) -> DesertoState:
        """Deal number ``deal``: the shuffled deck's last card first, three rounds of
        one card a seat starting with seat ``first``; the rest is the deck.

        >>> s = Deserto(players=4).deal(7)
        >>> [len(h) for h in s.hands], len(s.deck)
        ([3, 3, 3, 3], 39)
        """
        deck = shuffled(self.deck(), deal)
        n = self._players
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for i in range(n):
                hands[(self._first + i) % n].append(deck.pop())
        none: tuple[tuple[int, ...], ...] = ((),) * n
        return DesertoState(
            self._first, tuple(tuple(sorted(h)) for h in hands), tuple(deck), ((),) * 4, none, none, ((0, 0),) * n
        )

    def cards(self, state: DesertoState) -> list[int]:
        """Every card of the position: hands, deck, area, captured cards, gifts.

        >>> sorted(Deserto().cards(Deserto().deal(1))) == Deserto().deck()
        True
        """
        found = [c for h in state.hands for c in h]
        found += state.deck
        found += [c for p in state.area for c in p]
        found += [c for w in state.captured for c in w]
        found += [c for g in state.gifts for c in g]
        return found

    def display(self, state: DesertoState) -> list[list[tuple[str, Pile]]]:
        """The table as the seat to move sees it: the area as two rows (``1 2`` and
        ``3 4``; covered cards face down), the deck (face down), then a row per
        seat: its hand (face up only for the seat to move) and its winnings (face
        down).

        >>> [[n for n, _ in row] for row in Deserto().display(Deserto().deal(0))]
        [['1', '2'], ['3', '4'], ['deck'], ['hand 0', 'won 0'], ['hand 1', 'won 1']]
        """
        area: list[tuple[str, Pile]] = [
            (str(p + 1), [(c, i == len(pile) - 1) for i, c in enumerate(pile)]) for p, pile in enumerate(state.area)
        ]
        rows = [area[:2], area[2:], [("deck", [(c, False) for c in state.deck])]]
        for s in range(self._players):
            won = state.captured[s] + state.gifts[s]
            rows.append(
                [
                    (f"hand {s}", [(c, s == state.turn) for c in state.hands[s]]),
                    (f"won {s}", [(c, False) for c in won]),
                ]
            )
        return rows

    def status(self, state: DesertoState) -> list[str]:
        """The seat to move (or the result), the deck size, and each seat's hand size and cards won.

        >>> Deserto().status(Deserto().deal(0))
        ['to move: seat 0', 'deck: 45 cards', 'seat 0: 3 cards in hand, 0 won', 'seat 1: 3 cards in hand, 0 won']
        """
        result = self.result(state)
        if result is None:
            head = f"to move: seat {state.turn}"
        elif len(result.winners) == 1:
            head = f"game over: seat {result.winners[0]} wins"
        else:
            head = "game over: seats " + ", ".join(map(str, result.winners)) + " share the win"
        lines = [head, f"deck: {len(state.deck)} card{'' if len(state.deck) == 1 else 's'}"]
        for s in range(self._players):
            size = len(state.hands[s])
            won = len(state.captured[s]) + len(state.gifts[s])
            lines.append(f"seat {s}: {size} card{'' if size == 1 else 's'} in hand, {won} won")
        return lines

    def to_text(self, state: DesertoState, format: str = "cardtable") -> str:
        """The full position as text (see the docs page): the seat to move, the deck
        (face down, top last), the area piles ``1``-``4`` (bottom first), then for
        each seat its hand, captured cards, gifts received and stuck record.

        >>> print(Deserto().to_text(Deserto().deal(0)).splitlines()[7])
        hand 0: T G G
        """
        if format != "cardtable":
            raise LayoutError(f"unknown deserto layout format {quote(format)} (only cardtable)")
        lines = [
            ("to move", "none" if state.turn < 0 else str(state.turn)),
            ("deck", format_pile([(c, False) for c in state.deck], kind_text)),
        ]
        lines += [(str(p + 1), _cards_text(pile)) for p, pile in enumerate(state.area)]
        for s in range(self._players):
            mask, held = state.stuck[s]
            lines += [
                (f"hand {s}", _cards_text(state.hands[s])),
                (f"captured {s}", _cards_text(state.captured[s])),
                (f"gifts {s}", _cards_text(state.gifts[s])),
                (f"stuck {s}", f"{held} of {_mask_text(mask)}" if mask else ""),
            ]
        return join_layout(self.name, lines)

    def from_text(self, text: str) -> DesertoState:
        """Read a position written by :meth:`to_text`. It must have exactly the lines
        of the ``players`` option's seats and hold the 51 cards exactly once; a hand
        holds at most 3 cards (exactly 3 while the deck holds cards, with
        ``refill_after_give`` on); the deck at most what the deal leaves; the seat
        to move holds cards (``none`` only when every hand and the deck are
        empty); each stuck record fits its hand and the gifts and names kinds some
        area leaves unplaceable; the area is one play leaves (see
        :func:`_check_area`). Hands and winnings may be written in any order.

        >>> r = Deserto(players=3); s = r.deal(4)
        >>> r.from_text(r.to_text(s)) == s
        True
        """
        state = self._read(text)
        self._check_counts(state)
        _check_area(state.area)
        return state

    def _read(self, text: str) -> DesertoState:
        """The position ``text`` writes, holding the 51 cards once each, its hands and stuck
        records consistent, before the checks that some deal and play reach it."""
        if not isinstance(text, str):
            raise LayoutError("a layout must be text")
        n = self._players
        try:
            parts = split_layout(text, self.name, self._names)
        except LayoutError as err:
            raise LayoutError(f"{err} (players={n}: seats 0 to {n - 1})") from None
        deck, _ = read_pile(parts["deck"], parse_kind, "deck", FACE_DOWN)
        area = tuple(read_pile(parts[str(p + 1)], parse_kind, f"position {p + 1}", FACE_UP)[0] for p in range(4))

        def multiset(name: str) -> tuple[int, ...]:
            return tuple(sorted(read_pile(parts[name], parse_kind, name, FACE_UP)[0]))

        hands = tuple(multiset(f"hand {s}") for s in range(n))
        captured = tuple(multiset(f"captured {s}") for s in range(n))
        gifts = tuple(multiset(f"gifts {s}") for s in range(n))
        stuck = tuple(self._read_stuck(parts[f"stuck {s}"], s) for s in range(n))
        for s, hand in enumerate(hands):
            if len(hand) > HAND_SIZE:
                raise LayoutError(f"hand {s} holds {len(hand)} cards (at most {HAND_SIZE})")
            mask, held = stuck[s]
            if held > len(hand) or _in_mask(hand, mask) < held:
                raise LayoutError(f"stuck {s}: hand {s} does not hold {held} cards of {_mask_text(mask)}")
            if mask and not _in_mask(gifts[(s - 1) % n], mask):
                raise LayoutError(
                    f"stuck {s}: seat {s} gave a card of {_mask_text(mask)} to seat {(s - 1) % n}, "
                    f"but gifts {(s - 1) % n} holds none"
                )
        turn = self._read_turn(parts["to move"], hands, deck)
        state = DesertoState(turn, hands, deck, area, captured, gifts, stuck)
        check_cards(self.cards(state), self.deck(), kind_text)
        return state

    def _read_turn(self, text: str, hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...]) -> int:
        if text.lower() == "none":
            if any(hands):
                raise LayoutError("to move: none, but some hand holds cards (the game ends when every hand is empty)")
            if deck:
                raise LayoutError("to move: none, but the deck holds cards (a seat with an empty hand draws from it)")
            return -1
        try:
            turn = read_int(text, "to move", LayoutError, 0, self._players - 1)
        except LayoutError:
            raise LayoutError(f"to move: {quote(text)} is not a seat (0 to {self._players - 1}, or none)") from None
        if not hands[turn]:
            raise LayoutError(f"to move: seat {turn} holds no cards (a seat with no cards is skipped)")
        return turn

    def _read_stuck(self, text: str, seat: int) -> tuple[int, int]:
        if not text:
            return (0, 0)
        words = text.upper().split()
        bad = LayoutError(f"stuck {seat}: {quote(text)} is not a stuck record (like '2 of T G', or empty)")
        if len(words) < 3 or words[1] != "OF" or any(len(w) != 1 or w not in KINDS for w in words[2:]):
            raise bad
        try:
            held = read_int(words[0], f"stuck {seat}", LayoutError, 0, HAND_SIZE - 1)  # it gave one of at most 3
        except LayoutError:
            raise bad from None
        mask = sum(1 << k for k in {KINDS.index(w) for w in words[2:]})
        if mask not in _STUCK_MASKS:
            possible = ", ".join(_mask_text(m) for m in sorted(_STUCK_MASKS))
            raise LayoutError(
                f"stuck {seat}: no area leaves exactly {_mask_text(mask)} unplaceable ({possible} can be)"
            )
        return (mask, held)

    def _check_counts(self, state: DesertoState) -> None:
        """Raise :class:`LayoutError` unless the counts are ones a deal and play reach: the deck at
        most what the deal leaves; a stuck record's cards held at most 2 (a seat gives one of at most
        3); while the deck holds cards, every hand full when ``refill_after_give`` is on (each seat
        draws up to 3 after its move)."""
        n = self._players
        check_at_most(
            len(state.deck), DECK_SIZE - HAND_SIZE * n, "the deck", f"the deal leaves that many with {n} players"
        )
        if state.deck and self._refill_after_give:
            for s, hand in enumerate(state.hands):
                if len(hand) != HAND_SIZE:
                    raise LayoutError(
                        f"hand {s} holds {len(hand)} cards while the deck holds cards: "
                        f"every seat draws up to {HAND_SIZE} after its move (refill_after_give is on)"
                    )

    # --- moves ----------------------------------------------------------------

    def to_move(self, state: DesertoState) -> int | None:
        """The seat to play, or None when every hand is empty.

        >>> Deserto(players=3, first=2).to_move(Deserto(players=3, first=2).deal(0))
        2
        """
        return None if state.turn < 0 else state.turn

    def legal_moves(self, state: DesertoState) -> list[DesertoMove]:
        """The placements of the seat to move (by kind ``O V T G``, then position 1-4);
        when none is legal, one gift for each kind it holds (rule 5); nothing once
        the game is over.

        >>> r = Deserto(); [str(m) for m in r.legal_moves(r.deal(0))][:5]
        ['T1', 'T2', 'T3', 'T4', 'G1']
        """
        turn = state.turn
        if turn < 0:
            return []
        return list(_LEGAL[_code(state.area) * 16 + _HAND_MASK[state.hands[turn]]])

    def apply(self, state: DesertoState, move: DesertoMove) -> DesertoState:
        """The position after a legal move: the card is placed and captures are made
        (rules 3 and 4), or the card is given to the previous seat (rule 5); then the
        seat draws up to 3 (rule 6) and play passes to the next seat holding cards.

        >>> r = Deserto(); s = r.apply(r.deal(0), r.parse_move("T1"))
        >>> s.area[0], s.hands[0], len(s.deck), s.turn
        ((2,), (2, 3, 3), 44, 1)
        """
        turn, hands, deck, area, captured, gifts, stuck = state
        kind, pos = move
        hand = _REMOVE[hands[turn], kind]
        if pos == GIVE:
            receiver = (turn - 1) % self._players
            gifts = replace_at(gifts, receiver, tuple(sorted(gifts[receiver] + (kind,))))
            stuck = replace_at(stuck, turn, (_STUCK_MASK[_code(area)], len(hand)))
            draw = self._refill_after_give
        else:
            won = _CAPTURES[_code(area)][kind * 4 + pos]
            area = replace_at(area, pos, area[pos] + (kind,))
            if won:
                cards = captured[turn]
                for q in won:
                    cards += area[q]
                    area = replace_at(area, q, ())
                captured = replace_at(captured, turn, tuple(sorted(cards)))
            mask, held = stuck[turn]
            if held and mask >> kind & 1:
                stuck = replace_at(stuck, turn, (mask, held - 1))  # the card may have been one of those held then
            draw = True
        if draw and deck and len(hand) < HAND_SIZE:
            k = min(HAND_SIZE - len(hand), len(deck))
            hand = tuple(sorted(hand + deck[-k:]))
            deck = deck[:-k]
        hands = replace_at(hands, turn, hand)
        n = self._players
        for step in range(1, n + 1):
            seat = (turn + step) % n
            if not hands[seat] and deck:
                # Only with refill_after_give off can a hand be empty while the deck
                # holds cards; that seat is not skipped (the rules skip empty hands
                # once the deck is empty): it draws up to 3 as its turn begins.
                k = min(HAND_SIZE, len(deck))
                hands = replace_at(hands, seat, tuple(sorted(deck[-k:])))
                deck = deck[:-k]
            if hands[seat]:
                return DesertoState(seat, hands, deck, area, captured, gifts, stuck)
        return DesertoState(-1, hands, deck, area, captured, gifts, stuck)

    def parse_move(self, text: str) -> DesertoMove:
        """Read a move: a card letter and a position (``V3``), or ``g`` and a card letter
        (``gT``). Either case; spaces around are ignored.

        >>> Deserto().parse_move(" v3 ") == PLACE[VIZIER][2], Deserto().parse_move("gT") == GIFT[THIEF]
        (True, True)
        """
        m = _MOVE_RE.fullmatch(text.strip().upper()) if isinstance(text, str) else None
        if not m:
            raise MoveParseError(
                f"not a deserto move: {quote(text)} (moves look like V3: place a vizier at position 3, "
                "gT: give a thief; cards O V T G, positions 1 2 / 3 4)"
            )
        kind, pos, gift = m.groups()
        if gift:
            return GIFT[KINDS.index(gift)]
        return PLACE[KINDS.index(kind)][int(pos) - 1]

    def move_places(self, state: DesertoState, move: DesertoMove) -> MovePlaces:
        """Where a legal move happens on the table of :meth:`display`: from the hand of the
        seat to move, the card of the move's kind, to its area position, or, a gift, to
        the previous seat's winnings.

        >>> r = Deserto(); s = r.deal(0)
        >>> r.move_places(s, r.parse_move("T2")), r.move_places(s, GIFT[TREASURE]).dst
        (MovePlaces(src='hand 0', dst='2', n=1, card=2), 'won 1')
        """
        kind, pos = move
        turn = state.turn
        dst = f"won {(turn - 1) % self._players}" if pos == GIVE else str(pos + 1)
        return MovePlaces(f"hand {turn}", dst, 1, kind)

    def drop_move(self, state: DesertoState, src: str, index: int, dst: str) -> DesertoMove:
        """The move of dropping card ``index`` of a hand on pile ``dst`` of :meth:`display`:
        on an area position, placing it there; on the previous seat's winnings, giving it
        (see :meth:`Rules.drop_move <cardtable.core.rules.Rules.drop_move>`). A drop from
        the hand of a seat that is not to move raises :class:`NotYourTurnError`.

        >>> r = Deserto(); s = r.deal(0)
        >>> str(r.drop_move(s, "hand 0", 0, "2")), str(r.drop_move(s, "hand 0", 1, "won 1"))
        ('T2', 'gG')
        >>> r.drop_move(s, "hand 1", 0, "2")
        Traceback (most recent call last):
        ...
        cardtable.core.errors.NotYourTurnError: it is seat 0's turn, not seat 1's
        """
        check_pile_names(src, dst)
        turn = state.turn
        if turn < 0:
            raise NotYourTurnError("the game is over: nobody is to play")
        hand, piles = f"hand {turn}", self.piles(state)
        if src != hand and src.startswith("hand ") and src in piles:
            raise NotYourTurnError(f"it is seat {turn}'s turn, not seat {src.removeprefix('hand ')}'s")
        drop_count(piles, src, index, dst)
        if src != hand:
            raise MoveParseError(f"cards are played from the hand of the seat to move ({hand})")
        kind = state.hands[turn][index]
        if dst.isdigit():
            return PLACE[kind][int(dst) - 1]
        receiver = f"won {(turn - 1) % self._players}"
        if dst == receiver:
            return GIFT[kind]
        raise MoveParseError(
            f"a card goes to an area position (1 to 4), or as a gift to the previous seat's winnings ({receiver})"
        )

    def explain_illegal(self, state: DesertoState, move: DesertoMove) -> str:
        """Which rule forbids ``move`` here.

        >>> r = Deserto(); r.explain_illegal(r.deal(0), r.parse_move("gT"))
        'rule 5: you can place a card (e.g. T1), so you may not give one'
        """
        turn = state.turn
        if turn < 0:
            return "the game is over: every hand is empty"
        kind, pos = move
        if kind not in state.hands[turn]:
            return f"seat {turn} holds no {KIND_NAMES[kind]}"
        if pos == GIVE:
            legal = self.legal_moves(state)
            if legal[0].pos != GIVE:
                return f"rule 5: you can place a card (e.g. {legal[0]}), so you may not give one"
        else:
            fault = placement_fault(_tops(state.area), kind, pos)
            if fault is not None:
                return fault
        return f"{move} is legal here"

    # --- hidden information -------------------------------------------------------

    def public_move(self, state: DesertoState, move: DesertoMove, seat: int | None) -> DesertoEvent:
        """What ``seat`` learns of ``move`` played in ``state`` (a :class:`DesertoEvent`): a
        placement in full (who, what, where, and the piles won); a gift's kind only if
        ``seat`` gives or receives it (not a spectator, ``seat`` None). Never the cards drawn.

        >>> r = Deserto(players=3); s = r.deal(0)
        >>> str(r.public_move(s, r.legal_moves(s)[0], 2))
        'seat 0: T1'
        """
        mover = state.turn
        kind, pos = move
        if pos == GIVE:
            receiver = (mover - 1) % self._players
            return DesertoEvent(mover, kind if seat in (mover, receiver) else None, None, receiver)
        won = _CAPTURES[_code(state.area)][kind * 4 + pos]
        if not won:
            return DesertoEvent(mover, kind, pos)
        area = replace_at(state.area, pos, state.area[pos] + (kind,))
        return DesertoEvent(mover, kind, pos, None, tuple((q, area[q]) for q in won), len(won) == 4)

    def view(self, state: DesertoState, seat: int | None, history: tuple[Event, ...]) -> DesertoView:
        """Exactly what ``seat`` may know (see :class:`DesertoView`); ``seat`` None: a
        spectator, who sees no hand.

        >>> r = Deserto(); v = r.view(r.deal(0), 0, ())
        >>> v.hand, v.area[0], r.view(r.deal(0), None, ()).hand
        ((2, 3, 3), PileView(top=None, size=0), ())
        """
        return DesertoView(
            seat,
            () if seat is None else state.hands[seat],
            tuple(PileView(p[-1] if p else None, len(p)) for p in state.area),
            len(state.deck),
            tuple(map(len, state.hands)),
            tuple(len(c) + len(g) for c, g in zip(state.captured, state.gifts, strict=True)),
            self.to_move(state),
            history,
        )

    # --- a seat's table in words and pictures -------------------------------------------

    def view_display(self, view: Hashable) -> list[list[tuple[str, SeenPile]]]:
        """The table of :meth:`display` as a :class:`DesertoView` shows it: the area's covered
        cards face down under its top cards, the deck, every hand but the viewer's and all
        winnings face down (a spectator sees no hand).

        >>> r = Deserto(); v = r.view(r.apply(r.deal(0), r.parse_move("T1")), 1, ())
        >>> piles = {n: p for row in r.view_display(v) for n, p in row}
        >>> piles["1"], piles["hand 0"], piles["hand 1"]
        ([(2, True)], [(None, False), (None, False), (None, False)], [(0, True), (1, True), (2, True)])
        """
        v = _deserto_view(view)
        hidden: SeenPile = [(None, False)]
        area: list[tuple[str, SeenPile]] = [
            (str(p + 1), [] if pile.top is None else hidden * (pile.size - 1) + [(pile.top, True)])
            for p, pile in enumerate(v.area)
        ]
        rows = [area[:2], area[2:], [("deck", hidden * v.deck)]]
        for s, size in enumerate(v.hand_sizes):
            hand: SeenPile = [(c, True) for c in v.hand] if s == v.seat else hidden * size
            rows.append([(f"hand {s}", hand), (f"won {s}", hidden * v.won[s])])
        return rows

    def seat_lines(self, view: Hashable, names: Sequence[str]) -> list[str]:
        """Each seat's hand size and cards won, and the cards it won by capture (which every
        seat sees, from the history's events), the seats called by ``names``.

        >>> r = Deserto(); e = DesertoEvent(1, VIZIER, 1, captures=((0, (THIEF, THIEF)), (3, (OASIS,))))
        >>> r.seat_lines(r.view(r.deal(0), 0, (e,)), ["You", "Ben"])[1]
        'Ben: 3 in hand, 0 won (captured: 1 oasis, 2 thieves)'
        """
        v = _deserto_view(view)
        captured = captured_kinds(v.history, len(v.hand_sizes))
        lines = []
        for s, size in enumerate(v.hand_sizes):
            counts = [(k, captured[s].count(k)) for k in range(4)]
            kinds = ", ".join(f"{n} {(KIND_PLURALS if n > 1 else KIND_NAMES)[k]}" for k, n in counts if n)
            line = f"{names[s]}: {size} in hand, {v.won[s]} won"
            lines.append(f"{line} (captured: {kinds})" if kinds else line)
        return lines

    def prompt(self, view: Hashable, names: Sequence[str]) -> str:
        """What the viewer is to do on its turn: place a card on the square, or, when no card
        of its hand can be placed (rule 5), give one to the previous seat.

        >>> r = Deserto(); r.prompt(r.view(r.deal(0), 0, ()), ["You", "Ben"])
        'Your turn: drag a card from your hand onto the square.'
        """
        v = _deserto_view(view)
        tops = tuple(EMPTY if p.top is None else p.top for p in v.area)
        code = tops[0] + 5 * tops[1] + 25 * tops[2] + 125 * tops[3]
        moves = _LEGAL[code * 16 + _HAND_MASK.get(v.hand, 0)]
        if moves and moves[0].pos == GIVE and v.seat is not None:
            receiver = names[(v.seat - 1) % len(v.hand_sizes)]
            return f"You cannot place a card: give one to {receiver} (drag it onto their winnings)."
        return "Your turn: drag a card from your hand onto the square."

    def sample(self, state: DesertoState, seat: int, rng: random.Random) -> DesertoState:
        """A full position ``seat`` cannot tell from ``state``.

        Kept: ``seat``'s hand, the area, every captured card, the gifts ``seat``
        gave or received, the stuck records, the seat to move, every count.
        Re-dealt uniformly from the cards ``seat`` cannot see: the other hands,
        the deck order, the gifts between other seats; conditioned on the stuck
        records: each other seat still holds at least ``held`` cards of the kinds
        it could not place when it last had to give, and the gifts it received
        from the next seat hold at least one of the kinds that seat could not
        place when it last gave (for gifts ``seat`` cannot see). See :func:`arrange`.

        >>> r = Deserto(players=3); s = r.deal(0)
        >>> t = r.sample(s, 1, random.Random(5))
        >>> t.hands[1] == s.hands[1] and r.view(t, 1, ()) == r.view(s, 1, ())
        True
        """
        turn, hands, deck, area, captured, gifts, stuck = state
        n = self._players
        # The groups of cards seat cannot see: (is a hand, seat, size, mask, at least this many of the mask).
        groups = [(True, s, len(hands[s]), *stuck[s]) for s in range(n) if s != seat]
        hidden_gifts = [r for r in range(n) if seat not in (r, (r + 1) % n)]  # gifts[r] come from seat r + 1
        groups += [(False, r, len(gifts[r]), stuck[(r + 1) % n][0], 1) for r in hidden_gifts]
        groups.sort(key=lambda g: not (g[3] and g[4]))  # the groups with a condition first
        pool = list(deck)
        for is_hand, s, _, mask, need in groups:
            cards = hands[s] if is_hand else gifts[s]
            if mask and _in_mask(cards, mask) < need:
                raise ValueError(f"the position breaks the stuck record of a seat: it cannot be sampled ({groups})")
            pool += cards
        conditions = [(size, mask, need) for _, _, size, mask, need in groups if mask and need]
        # Sorted, so that the sample depends on what seat knows (the multiset of unseen
        # cards) and the rng alone, never on where the hidden cards really lie.
        pool.sort()
        pool = arrange(pool, conditions, rng)
        new_hands = list(hands)
        new_gifts = list(gifts)
        start = 0
        for is_hand, s, size, _, _ in groups:
            (new_hands if is_hand else new_gifts)[s] = tuple(sorted(pool[start : start + size]))
            start += size
        return DesertoState(turn, tuple(new_hands), tuple(pool[start:]), area, captured, tuple(new_gifts), stuck)

    # --- the end ----------------------------------------------------------------

    def result(self, state: DesertoState) -> Result | None:
        """None while any hand holds cards; then each seat's score (cards won: captured
        and given), ranks and winners.

        >>> Deserto().result(Deserto().deal(0)) is None
        True
        """
        if state.turn >= 0:
            return None
        return Result.from_scores([len(c) + len(g) for c, g in zip(state.captured, state.gifts, strict=True)])

    def score(self, state: DesertoState) -> int:
        """Cards won so far by all seats together (each seat's score is in :meth:`result`).

        >>> Deserto().score(Deserto().deal(0))
        0
        """
        return sum(map(len, state.captured)) + sum(map(len, state.gifts))

    # --- in words (issue 26) ------------------------------------------------------

    def card_name(self, card: int) -> str:
        """A card in words: its kind.

        >>> Deserto().card_name(VIZIER)
        'vizier'
        """
        return KIND_NAMES[card]

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words: the area's positions are the squares 1-4.

        >>> Deserto().pile_name("2"), Deserto().pile_name("hand 1")
        ('square 2', 'hand 1')
        """
        return f"square {name}" if name.isdigit() else name

    def describe_move(self, state: DesertoState, move: DesertoMove) -> str:
        """The legal ``move`` in words, with what it wins: "Put the vizier on square 2: wins
        the thief pile", "Give a thief to the previous player".

        >>> r = Deserto(); s = r.apply(r.deal(0), PLACE[THIEF][0])
        >>> r.describe_move(s, PLACE[VIZIER][1])
        'Put the vizier on square 2: wins the thief pile'
        >>> r.describe_move(s, GIFT[OASIS])
        'Give the oasis to the previous player'
        """
        kind, pos = move
        if pos == GIVE:
            return f"Give the {KIND_NAMES[kind]} to the previous player"
        text = f"Put the {KIND_NAMES[kind]} on square {pos + 1}"
        event = self.public_move(state, move, state.turn)
        if not event.captures:
            return text
        if len(event.captures) == 1:
            _, cards = event.captures[0]
            size = f" ({len(cards)} cards)" if len(cards) > 1 else ""
            return f"{text}: wins the {KIND_NAMES[cards[-1]]} pile{size}"
        total = sum(len(c) for _, c in event.captures)
        squares = ", ".join(str(q + 1) for q, _ in event.captures[:-1]) + f" and {event.captures[-1][0] + 1}"
        four = "four viziers! " if event.four_viziers else ""
        return f"{text}: {four}wins the piles of squares {squares} ({total} cards)"


def captured_kinds(history: Sequence[Event], players: int) -> list[tuple[int, ...]]:
    """The cards each seat won by capture (public), from a history's events.

    >>> captured_kinds([DesertoEvent(0, THIEF, 0), DesertoEvent(1, VIZIER, 1, captures=((0, (VIZIER, THIEF)),))], 2)
    [(), (1, 2)]
    """
    won: list[tuple[int, ...]] = [()] * players
    for event in history:
        if isinstance(event, DesertoEvent) and 0 <= event.seat < players:
            won[event.seat] += tuple(c for _, cards in event.captures for c in cards)
    return won


def _deserto_view(view: Hashable) -> DesertoView:
    if not isinstance(view, DesertoView):
        raise TypeError(f"not a deserto view: {view!r}")
    return view


def table_place(name: str, viewer: int | None, players: int) -> Place:
    """Where a pile of a seat's table lies in the browser, seen from seat ``viewer``
    (None: a spectator, who sees the table from seat 0's side): the area's positions
    ``1``-``4`` and the ``deck`` in the middle, the viewer's ``hand S`` and ``won S`` at
    the bottom, the other seats' along the top.

    >>> table_place("2", 0, 3).label, table_place("hand 0", 0, 3).y, table_place("hand 1", 0, 3).y
    ('square 2', 3, 0)
    """
    if name.isdigit():
        p = int(name) - 1
        return Place("area", 2.6 + p % 2 * 1.3, 1 + p // 2, "none", "none", f"square {name}")
    if name == "deck":
        return Place("deck", 6.1, 1, "none", "none", "deck")
    what, _, number = name.partition(" ")
    seat, me = int(number), 0 if viewer is None else viewer
    who = "your" if seat == viewer else f"seat {seat + 1}'s"
    if seat == me:
        x, won_x, y, fan, grab = 2.3, 5.8, 3, "right", "single" if viewer is not None else "none"
    else:
        others = [s for s in range(players) if s != me]
        x = others.index(seat) * 2.6 + (3 - len(others)) * 1.3
        won_x, y, fan, grab = x + 1.15, 0, "none", "none"
    if what == "hand":
        return Place("hand", x, y, fan, grab, f"{who} hand", seat)
    return Place("won", won_x, y, "none", "none", f"{who} winnings", seat)


def action_moves(rules: Rules[Any, Any]) -> list[DesertoMove]:
    """Every Deserto move, numbered once (the research action space): ``O1``..``O4``,
    ``V1``..``V4``, ``T1``..``T4``, ``G1``..``G4``, then the gifts ``gO``, ``gV``, ``gT``, ``gG``.

    >>> [str(m) for m in action_moves(Deserto())][::4]
    ['O1', 'V1', 'T1', 'G1', 'gO']
    """
    return [m for row in PLACE for m in row] + list(GIFT)


GAME = GameSpec(
    name="deserto",
    rules=Deserto,
    seats=(2, 4),
    table=TableSpec(width=7.3, place=table_place, cards="deserto", back="#a8743a"),
    action_moves=action_moves,
    level_keys=None,
    observation="cardtable.research.observations:DesertoEncoder",
    openspiel_name="cardtable_deserto",
    openspiel_game="cardtable.research.openspiel:DesertoGame",
    bots=("random", "greedy", "ismcts"),
    variants=({"players": 2}, {"players": 3}, {"players": 4}),
)
"""Deserto, as every layer knows it (see :mod:`cardtable.core.spec`)."""

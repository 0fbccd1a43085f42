"""Demonthief and Demons and Thieves (``cardtable/rulebook/demonthief.md``): one module, two games.

Both games are played with two decks (104 cards). ``demonthief`` has no
redeal; ``demons-and-thieves`` may turn the waste over as a new stock twice.
Everything else is the same, so :class:`DemonsAndThieves` is
:class:`Demonthief` with a different redeal count.

**Position.** A :class:`DemonthiefState`: the stock, the waste and the
reserve (each bottom first, so the last card is the top: the next card
drawn, the playable waste card, the face-up reserve card; every reserve card
but the top is face down); the eight foundations as their top cards (``-1``
for an empty one; a foundation's cards are the base rank up to its top card,
in suit, so its top card says everything); the nine tableau piles (bottom
first; piles 1-4 are the left tableau, 5-9 the right; every tableau card is
face up); the base rank (1..13); and the number of redeals used.

**Notation** (lower case; upper case accepted):

========  ============================================================
``d``     draw: turn the stock's top card onto the waste
``r``     redeal: turn the waste over as the new stock
``wf``    waste top to a foundation
``xf``    reserve top to a foundation
``3f``    top card of tableau pile 3 to a foundation
``w5``    waste top to tableau pile 5
``x2``    reserve top to tableau pile 2
``35``    one card from tableau pile 3 onto pile 5
``35:3``  the top three cards of pile 3 onto pile 5, as a group
========  ============================================================

``f`` means the first foundation, in order 1..8, that takes the card. Every
foundation that takes a card holds the same cards (an empty one when the card
has the base rank, else one whose top is the card's predecessor in suit), so
which one is chosen never matters. When playing, ``35`` also means the only
legal move from pile 3 to pile 5 whatever its size, when there is exactly one
(see :meth:`Demonthief.resolve`).

**Move order** of :meth:`Demonthief.legal_moves`: to a foundation (waste,
reserve, then piles 1-9); tableau to tableau (by source pile, then target
pile, then fewer cards first); waste to tableau (by pile); reserve to
tableau (by pile); then draw or redeal.

>>> r = Demonthief()
>>> s = r.deal(0)
>>> [len(p) for p in s.tableau], len(s.reserve), len(s.stock)
([1, 1, 1, 1, 8, 8, 8, 8, 8], 13, 46)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

from ..core.cards import (
    RANK,
    RANK_WORDS,
    RANKS,
    RED,
    SUIT,
    FrenchCards,
    card_text,
    french_deck,
    make_card,
    parse_card,
)
from ..core.errors import LayoutError, MoveParseError
from ..core.inputs import quote, read_int
from ..core.layout import (
    DOWN_UNDER_UP,
    FACE_DOWN,
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
from ..core.spec import GameSpec, Place, TableSpec

# Pile codes used in moves.
TABLEAU = range(9)
LEFT = range(4)  # piles 1-4: down by alternate colour
RIGHT = range(4, 9)  # piles 5-9: down in suit
WASTE = 9
RESERVE = 10
STOCK = 11
FOUNDATION = 12  # as a target only: the first foundation that takes the card

DECK_SIZE = 104
STOCK_SIZE = 46
"""Cards the deal puts in the stock."""
RESERVE_SIZE = 13
"""Cards the deal puts in the reserve."""
RIGHT_DEALT = 8
"""Cards the deal puts on each pile of the right tableau (one on each left pile)."""
MAX_GROUP = DECK_SIZE - 1  # the first foundation always holds a card

# Card tables. PREV[c]: the card of c's suit one rank lower (a king below an
# ace): what a foundation needs on top to take c, and the only card that goes
# on c on the right side. LEFT_TAKES[a * 52 + b]: b goes on a on the left side.
PREV: tuple[int, ...] = tuple(make_card(RANK[c] - 1 if RANK[c] > 1 else 13, SUIT[c]) for c in range(52))
NEXT: tuple[int, ...] = tuple(make_card(RANK[c] + 1 if RANK[c] < 13 else 1, SUIT[c]) for c in range(52))
LEFT_TAKES: tuple[bool, ...] = tuple(
    RANK[b] == RANK[PREV[a]] and RED[a] != RED[b] for a in range(52) for b in range(52)
)
# LEFT_CHILDREN[a]: the two cards (one rank lower, other colour) that go on a on the left side.
LEFT_CHILDREN: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(52) if LEFT_TAKES[a * 52 + b]) for a in range(52)
)


class DemonthiefMove(NamedTuple):
    """A move: source, target and card count. ``str`` gives its notation.

    Sources are tableau piles ``0..8`` (shown 1-9), ``WASTE``, ``RESERVE``
    and ``STOCK``; targets are tableau piles, ``FOUNDATION`` and ``WASTE``.
    Draw is ``(STOCK, WASTE, 0)``, redeal ``(WASTE, STOCK, 0)``.

    >>> str(DemonthiefMove(2, 4, 3)), str(DemonthiefMove(RESERVE, FOUNDATION, 1)), str(DRAW)
    ('35:3', 'xf', 'd')
    """

    src: int
    dst: int
    n: int

    def __str__(self) -> str:
        src, dst, n = self
        if src == STOCK:
            return "d"
        if dst == STOCK:
            return "r"
        a = "w" if src == WASTE else "x" if src == RESERVE else str(src + 1)
        b = "f" if dst == FOUNDATION else str(dst + 1)
        return f"{a}{b}" + (f":{n}" if n > 1 else "")


# Every move there can be, made once: legal_moves hands out these objects.
DRAW = DemonthiefMove(STOCK, WASTE, 0)
REDEAL = DemonthiefMove(WASTE, STOCK, 0)
TO_FOUNDATION = tuple(DemonthiefMove(src, FOUNDATION, 1) for src in range(RESERVE + 1))
WASTE_TO_TAB = tuple(DemonthiefMove(WASTE, j, 1) for j in TABLEAU)
RESERVE_TO_TAB = tuple(DemonthiefMove(RESERVE, j, 1) for j in TABLEAU)
TAB_TO_TAB = tuple(
    tuple(tuple(DemonthiefMove(i, j, n) for n in range(MAX_GROUP + 1)) for j in TABLEAU) for i in TABLEAU
)
# The same moves by source and one number, target * GROUP_CODE + count: sorting those numbers
# sorts the moves by target, then count.
GROUP_CODE = MAX_GROUP + 1
TAB_TO_TAB_CODED = tuple(tuple(m for row in TAB_TO_TAB[i] for m in row) for i in TABLEAU)


class DemonthiefState(NamedTuple):
    """A position of either game (see the module docstring).

    >>> s = Demonthief().deal(0)
    >>> len(s.foundations), sum(1 for t in s.foundations if t >= 0), s.redeals_used
    (8, 1, 0)
    """

    stock: tuple[int, ...]
    waste: tuple[int, ...]
    reserve: tuple[int, ...]
    foundations: tuple[int, ...]
    tableau: tuple[tuple[int, ...], ...]
    base: int
    redeals_used: int


_MOVE_RE = re.compile(r"^(?:(d)|(r)|([wx1-9])(f|[1-9])(?::([1-9][0-9]*))?)$")
_PILE_NAMES: dict[int, str] = {WASTE: "w", RESERVE: "x", **{j: str(j + 1) for j in TABLEAU}}
"""The :meth:`Demonthief.display` name of each pile code a move leaves or reaches (foundations aside)."""
_PILE_CODES: dict[str, int] = {name: code for code, name in _PILE_NAMES.items()}
_NAMES = ("stock", "waste", "reserve", *(f"f{k + 1}" for k in range(8)), *(str(j + 1) for j in TABLEAU), "redeals used")


def foundation_size(top: int, base: int) -> int:
    """How many cards a foundation holds, given its top card (``-1``: empty) and the base rank.

    >>> foundation_size(parse_card("4H"), 5), foundation_size(parse_card("5H"), 5), foundation_size(-1, 5)
    (13, 1, 0)
    """
    return (RANK[top] - base) % 13 + 1 if top >= 0 else 0


def goes_home(card: int, found: tuple[int, ...], base: int) -> bool:
    """Whether ``card`` may go to a foundation (rule 4): a card of the base rank to an
    empty foundation, any other card onto its predecessor of the same suit.

    >>> found = (parse_card("5H"),) + (-1,) * 7
    >>> [goes_home(parse_card(c), found, 5) for c in ("6H", "7H", "5S")]
    [True, False, True]
    """
    return -1 in found if RANK[card] == base else PREV[card] in found


def is_safe_home(card: int, found: tuple[int, ...], base: int) -> bool:
    """Whether every card that could ever be built on ``card`` in the tableau (one rank
    lower, a king below an ace, in its own suit or of the other colour: six cards of
    the double deck) is already on a foundation, so that playing ``card`` home can
    never hurt (the rule of :meth:`Demonthief.auto_move`). ``found`` holds the
    foundations' top cards (``-1``: empty).

    >>> fives = tuple(parse_card(t) for t in ("5H", "5H", "5C", "5C", "5S", "5S")) + (-1, -1)
    >>> is_safe_home(parse_card("6H"), fives, 5), is_safe_home(parse_card("6H"), fives[1:] + (-1,), 5)
    (True, False)
    """
    need = foundation_size(PREV[card], base)  # a foundation holding the card below has at least this many
    for suit in (SUIT[card], 0, 3) if RED[card] else (SUIT[card], 1, 2):
        if sum(1 for t in found if t >= 0 and SUIT[t] == suit and foundation_size(t, base) >= need) != 2:
            return False
    return True


def foundation_cards(top: int, base: int) -> list[int]:
    """A foundation's cards, bottom first, given its top card (``-1``: empty) and the base rank.

    >>> [card_text(c) for c in foundation_cards(parse_card("2S"), 12)]
    ['QS', 'KS', 'AS', '2S']
    """
    if top < 0:
        return []
    return [make_card((base - 1 + k) % 13 + 1, SUIT[top]) for k in range(foundation_size(top, base))]


def _lies_on(under: int, card: int) -> bool:
    """Whether ``card`` may lie on ``under`` in a tableau pile above the dealt cards: one rank
    lower (an ace takes a king), of the other colour (a left pile's build, or a left run moved
    right) or of the same suit (a right pile's build, or a right run moved left)."""
    return RANK[card] == RANK[PREV[under]] and (RED[card] != RED[under] or SUIT[card] == SUIT[under])


_BUILD = "one rank lower in the other colour or the same suit"


def _fits(card: int, pile: tuple[int, ...], j: int) -> bool:
    """Whether ``card`` may go on tableau pile ``j`` (holding ``pile``) under that pile's rule."""
    if not pile:
        return True
    t = pile[-1]
    return LEFT_TAKES[t * 52 + card] if j < 4 else PREV[t] == card


def _read_foundations(texts: list[str]) -> tuple[tuple[int, ...], int]:
    """Foundation tops and the base rank from the eight foundation lines."""
    piles = [read_pile(t, parse_card, f"foundation f{k + 1}", FACE_UP)[0] for k, t in enumerate(texts)]
    if not piles[0]:
        raise LayoutError("foundation f1 must hold a card: its first card gives the base rank")
    base = RANK[piles[0][0]]
    tops: list[int] = []
    for k, pile in enumerate(piles):
        name = f"foundation f{k + 1}"
        cards = list(pile)
        if not cards:
            tops.append(-1)
            continue
        if tops[-1:] == [-1]:
            raise LayoutError(f"{name} holds cards but an earlier foundation is empty (they fill in order)")
        if len(cards) > 13:
            raise LayoutError(f"{name} holds {len(cards)} cards; a foundation holds at most 13")
        if cards != foundation_cards(cards[-1], base):
            raise LayoutError(
                f"{name} must run up in suit from the base rank {RANKS[base - 1]} (wrapping from K to A), "
                f"not {' '.join(card_text(c) for c in cards)}"
            )
        tops.append(cards[-1])
    return tuple(tops), base


class Demonthief(FrenchCards, Rules[DemonthiefState, DemonthiefMove]):
    """Demonthief: Demons and Thieves without redeals. Option ``autoplay`` (off).

    >>> r = Demonthief()
    >>> r.name, r.REDEALS, r.options
    ('demonthief', 0, {'autoplay': False})
    """

    name = "demonthief"
    title = "Demonthief"
    REDEALS: ClassVar[int] = 0
    """How many times the waste may be turned over as a new stock."""
    OPTIONS = (Option("autoplay", bool, False, help="after each move, play safe cards to the foundations"),)
    NOTATION = "d draw, r redeal, wf/xf/3f to a foundation, w5 waste->5, x2 reserve->2, 35 (35:3 three cards)"
    MOVE_TYPE = DemonthiefMove
    COUNT_OPTIONAL = True
    ONE_WAY_COMPLETE = False  # a card off a card it does not fit on (one_way)
    # Face down: the stock, and the reserve under its top; a draw, a redeal and a reserve move
    # are each progress or one-way, where the over search stops.
    OVER_SEES_HIDDEN = False

    # --- positions -------------------------------------------------------------

    def deck(self) -> list[int]:
        """The 104-card double deck in order: twice clubs, diamonds, hearts, spades, ace to king.

        >>> d = Demonthief().deck(); len(d), d[:2], d[52]
        (104, [0, 1], 0)
        """
        return french_deck(decks=2)

    def deal(self, deal: int) -> DemonthiefState:
        """Deal number ``deal``: the double deck shuffled by the cardtable shuffle,
        then dealt from its end (the last card is the top): one card to the first
        foundation (its rank is the base rank); 13 cards to the reserve (the last
        one dealt is its face-up top); one card to each of piles 1-4; eight rounds
        of one card to each of piles 5-9; the 46 cards left are the stock, its
        last card drawn first.

        >>> r = Demonthief(); s = r.deal(0)
        >>> s.base == RANK[s.foundations[0]], sorted(r.cards(s)) == sorted(r.deck())
        (True, True)
        """
        deck = shuffled(self.deck(), deal)
        first = deck.pop()
        reserve = tuple(deck.pop() for _ in range(RESERVE_SIZE))
        piles: list[list[int]] = [[deck.pop()] for _ in LEFT]
        piles += [[] for _ in RIGHT]
        for _ in range(RIGHT_DEALT):
            for j in RIGHT:
                piles[j].append(deck.pop())
        return DemonthiefState(
            tuple(deck), (), reserve, (first,) + (-1,) * 7, tuple(tuple(p) for p in piles), RANK[first], 0
        )

    def cards(self, state: DemonthiefState) -> list[int]:
        """Every card of the position: stock, waste, reserve, foundations, tableau.

        >>> r = Demonthief(); len(r.cards(r.deal(3)))
        104
        """
        found = [c for t in state.foundations for c in foundation_cards(t, state.base)]
        return [*state.stock, *state.waste, *state.reserve, *found, *(c for p in state.tableau for c in p)]

    def display(self, state: DemonthiefState) -> list[list[tuple[str, Pile]]]:
        """Rows of named piles: stock, waste ``w`` and reserve ``x``; foundations
        ``f1``-``f8``; then tableau piles ``1``-``9``, one a row.

        >>> rows = Demonthief().display(Demonthief().deal(0))
        >>> [name for name, _ in rows[0]], [name for name, _ in rows[1]][:2], rows[2][0][0]
        (['stock', 'w', 'x'], ['f1', 'f2'], '1')
        """
        reserve = state.reserve
        top: list[tuple[str, Pile]] = [
            ("stock", [(c, False) for c in state.stock]),
            ("w", [(c, True) for c in state.waste]),
            ("x", [(c, k == len(reserve) - 1) for k, c in enumerate(reserve)]),
        ]
        found: list[tuple[str, Pile]] = [
            (f"f{k + 1}", [(c, True) for c in foundation_cards(t, state.base)]) for k, t in enumerate(state.foundations)
        ]
        rows = [top, found]
        for j, pile in enumerate(state.tableau):
            rows.append([(str(j + 1), [(c, True) for c in pile])])
        return rows

    def status(self, state: DemonthiefState) -> list[str]:
        """Base rank, redeals left and cards on the foundations.

        >>> DemonsAndThieves().status(DemonsAndThieves().deal(0))
        ['base rank: T', 'redeals left: 2', 'on foundations: 1/104']
        """
        return [
            f"base rank: {RANKS[state.base - 1]}",
            f"redeals left: {self.REDEALS - state.redeals_used}",
            f"on foundations: {self.score(state)}/{DECK_SIZE}",
        ]

    def to_text(self, state: DemonthiefState, format: str = "cardtable") -> str:
        """The position as text: the game line, then ``stock``, ``waste``,
        ``reserve``, foundations ``f1``-``f8``, tableau piles ``1``-``9`` (all
        bottom first, face-down cards in ``<>``) and ``redeals used``.

        >>> print(Demonthief().to_text(Demonthief().deal(0)).splitlines()[4])
        f1: TH
        """
        if format != "cardtable":
            raise LayoutError(f"unknown {self.name} layout format {quote(format)} (only cardtable)")
        reserve = state.reserve
        lines = [
            ("stock", format_pile([(c, False) for c in state.stock], card_text)),
            ("waste", format_pile([(c, True) for c in state.waste], card_text)),
            ("reserve", format_pile([(c, k == len(reserve) - 1) for k, c in enumerate(reserve)], card_text)),
        ]
        for k, t in enumerate(state.foundations):
            lines.append((f"f{k + 1}", " ".join(card_text(c) for c in foundation_cards(t, state.base))))
        for j, pile in enumerate(state.tableau):
            lines.append((str(j + 1), " ".join(card_text(c) for c in pile)))
        lines.append(("redeals used", str(state.redeals_used)))
        return join_layout(self.name, lines)

    def from_text(self, text: str) -> DemonthiefState:
        """Read a position written by :meth:`to_text`.

        The first foundation must hold a card (it was dealt one and cards
        never leave); its bottom card gives the base rank. Every foundation
        runs up in suit from the base rank (at most 13 cards), and the
        foundations are filled in order (no empty one before a full one).
        Stock and reserve cards are face down except the reserve's top card;
        waste, foundation and tableau cards are face up. The cards must be
        the 104-card deck exactly. No pile holds more than the deal gives it and
        play can add: at most 46 cards in the stock and the waste together, 13 in
        the reserve; above the cards dealt to a tableau pile (one on the left,
        eight on the right), each card one rank lower than the card under it,
        in the other colour or the same suit.

        >>> r = DemonsAndThieves(); s = r.deal(5)
        >>> r.from_text(r.to_text(s)) == s
        True
        """
        return self._reachable(self._read(text))

    def _read(self, text: str) -> DemonthiefState:
        """The position ``text`` writes, holding the 104 cards once each, before the checks that
        some deal and play reach it (:meth:`_reachable`)."""
        if not isinstance(text, str):
            raise LayoutError("a layout must be text")
        parts = split_layout(text, self.name, _NAMES)
        stock, _ = read_pile(parts["stock"], parse_card, "stock", FACE_DOWN)
        waste, _ = read_pile(parts["waste"], parse_card, "waste", FACE_UP)
        reserve, down = read_pile(parts["reserve"], parse_card, "reserve", DOWN_UNDER_UP)
        if reserve and down != len(reserve) - 1:
            raise LayoutError("reserve cards are face down except the top (last) one: write them as <XX> ... XX")
        foundations, base = _read_foundations([parts[f"f{k + 1}"] for k in range(8)])
        tableau = [read_pile(parts[str(j + 1)], parse_card, f"tableau pile {j + 1}", FACE_UP)[0] for j in TABLEAU]
        used = read_int(parts["redeals used"], f"redeals used in {self.name}", LayoutError, 0, self.REDEALS)
        state = DemonthiefState(stock, waste, reserve, foundations, tuple(tableau), base, used)
        check_cards(self.cards(state), self.deck(), card_text)
        return state

    def _reachable(self, state: DemonthiefState) -> DemonthiefState:
        """``state`` if no rule forbids some deal and play to reach it (see :meth:`from_text`),
        else raise :class:`LayoutError`."""
        check_at_most(
            len(state.stock) + len(state.waste),
            STOCK_SIZE,
            "the stock and the waste",
            "the deal's stock, and no card goes back",
        )
        check_at_most(len(state.reserve), RESERVE_SIZE, "the reserve", "the deal's, and no card goes back")
        for j, pile in enumerate(state.tableau):
            dealt = 1 if j in LEFT else RIGHT_DEALT
            check_run(pile, dealt - 1, _lies_on, card_text, f"tableau pile {j + 1}", _BUILD)
        return state

    # --- moves ----------------------------------------------------------------

    def legal_moves(self, state: DemonthiefState) -> list[DemonthiefMove]:
        """The legal moves, in the order the module docstring gives.

        >>> r = Demonthief(); [str(m) for m in r.legal_moves(r.deal(0))]
        ['42', '81', '86', 'x5', 'd']
        """
        stock, waste, reserve, found, tab, base, used = state
        moves: list[DemonthiefMove] = []
        add = moves.append
        # To a foundation.
        if waste and goes_home(waste[-1], found, base):
            add(TO_FOUNDATION[WASTE])
        if reserve and goes_home(reserve[-1], found, base):
            add(TO_FOUNDATION[RESERVE])
        for i in TABLEAU:
            p = tab[i]
            if p and goes_home(p[-1], found, base):
                add(TO_FOUNDATION[i])
        # Targets: accept[c] lists the non-empty piles, in order, whose top card c may go on.
        accept: dict[int, tuple[int, ...]] = {}
        empties: tuple[int, ...] = ()
        for j in TABLEAU:
            q = tab[j]
            if not q:
                empties += (j,)
            elif j < 4:
                for c in LEFT_CHILDREN[q[-1]]:
                    accept[c] = accept.get(c, ()) + (j,)
            else:
                c = PREV[q[-1]]
                accept[c] = accept.get(c, ()) + (j,)
        # Tableau to tableau: any top part that is a run under its own pile's rule.
        for i in TABLEAU:
            p = tab[i]
            if not p:
                continue
            size = len(p)
            k = size - 1
            if i < 4:
                while k and LEFT_TAKES[p[k - 1] * 52 + p[k]]:
                    k -= 1
            else:
                while k and PREV[p[k - 1]] == p[k]:
                    k -= 1
            # Now p[k:] is the longest run on top. Collect target * GROUP_CODE + count.
            codes = [j * GROUP_CODE + n for j in empties for n in range(1, size - k + 1)]
            for n in range(1, size - k + 1):
                js = accept.get(p[size - n])
                if js:
                    codes += [j * GROUP_CODE + n for j in js if j != i]
            if codes:
                codes.sort()
                coded = TAB_TO_TAB_CODED[i]
                for code in codes:
                    add(coded[code])
        # Waste and reserve tops to the tableau.
        for top, targets in ((waste, WASTE_TO_TAB), (reserve, RESERVE_TO_TAB)):
            if top:
                js = accept.get(top[-1], ())
                for j in sorted(js + empties) if empties else js:
                    add(targets[j])
        # The stock.
        if stock:
            add(DRAW)
        elif waste and used < self.REDEALS:
            add(REDEAL)
        return moves

    def apply(self, state: DemonthiefState, move: DemonthiefMove) -> DemonthiefState:
        """The position after a legal move. A reserve card's removal turns the next one up.

        >>> r = Demonthief(); s = r.apply(r.deal(0), DRAW)
        >>> len(s.stock), len(s.waste)
        (45, 1)
        """
        stock, waste, reserve, found, tab, base, used = state
        src, dst, n = move
        if src == STOCK:
            return DemonthiefState(stock[:-1], waste + stock[-1:], reserve, found, tab, base, used)
        if dst == STOCK:
            return DemonthiefState(waste[::-1], (), reserve, found, tab, base, used + 1)
        if src == WASTE:
            cards = waste[-1:]
            waste = waste[:-1]
        elif src == RESERVE:
            cards = reserve[-1:]
            reserve = reserve[:-1]
        else:
            p = tab[src]
            cards = p[-n:]
            tab = replace_at(tab, src, p[:-n])
        if dst == FOUNDATION:
            c = cards[0]
            found = replace_at(found, found.index(-1 if RANK[c] == base else PREV[c]), c)
        else:
            tab = replace_at(tab, dst, tab[dst] + cards)
        return DemonthiefState(stock, waste, reserve, found, tab, base, used)

    def parse_move(self, text: str) -> DemonthiefMove:
        """Read a move in the notation of the module docstring (``35:1`` is ``35``).

        >>> Demonthief().parse_move("35:2") == DemonthiefMove(2, 4, 2), str(Demonthief().parse_move("XF"))
        (True, 'xf')
        """
        m = _MOVE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise MoveParseError(
                f"not a {self.name} move: {quote(text)} (moves look like d, r, wf, xf, 3f, w5, x2, 35, 35:3)"
            )
        draw, redeal, a, b, count = m.groups()
        if draw:
            return DRAW
        if redeal:
            return REDEAL
        src = WASTE if a == "w" else RESERVE if a == "x" else int(a) - 1
        if b == "f":
            if count is not None and count != "1":
                raise MoveParseError(f"not a {self.name} move: {quote(text)} (one card at a time goes to a foundation)")
            return TO_FOUNDATION[src]
        dst = int(b) - 1
        if src == dst:
            raise MoveParseError(f"not a {self.name} move: {quote(text)} (a move goes from one pile to another)")
        n = (
            read_int(count, f"not a {self.name} move: {quote(text)}: its count", MoveParseError, 1, MAX_GROUP)
            if count
            else 1
        )
        if src >= WASTE:
            if n != 1:
                raise MoveParseError(
                    f"not a {self.name} move: {quote(text)} (only tableau-to-tableau moves take a count)"
                )
            return (WASTE_TO_TAB if src == WASTE else RESERVE_TO_TAB)[dst]
        if n > MAX_GROUP:
            raise MoveParseError(f"not a {self.name} move: {quote(text)} (a group holds 1 to {MAX_GROUP} cards)")
        return TAB_TO_TAB[src][dst][n]

    def move_places(self, state: DemonthiefState, move: DemonthiefMove) -> MovePlaces:
        """Where a legal move happens on the table: the piles of :meth:`display` it joins
        (a card "to a foundation" names the foundation :meth:`apply` puts it on: the
        first that takes it) and the cards it moves.

        >>> r = Demonthief(); s = r.deal(0)
        >>> r.move_places(s, r.parse_move("42")), r.move_places(s, DRAW).n
        (MovePlaces(src='4', dst='2', n=1, card=None), 0)
        """
        src, dst, n = move
        if src == STOCK:
            return MovePlaces("stock", "w", 0)
        if dst == STOCK:
            return MovePlaces("w", "stock", 0)
        if dst == FOUNDATION:
            c = state.waste[-1] if src == WASTE else state.reserve[-1] if src == RESERVE else state.tableau[src][-1]
            home = state.foundations.index(-1 if RANK[c] == state.base else PREV[c])
            return MovePlaces(_PILE_NAMES[src], f"f{home + 1}", 1)
        return MovePlaces(_PILE_NAMES[src], _PILE_NAMES[dst], n)

    def _drop_move(self, state: DemonthiefState, src: str, count: int, dst: str) -> DemonthiefMove:
        """The move of a drop (see :meth:`Rules.drop_move`): nothing goes on the stock, the
        waste or the reserve, and nothing leaves a foundation; one card at a time leaves
        the waste, or reaches a foundation; a card dropped on a foundation goes to the
        first that takes it (the drop is refused when it was dropped on a foundation
        holding other cards).

        >>> r = Demonthief(); str(r.drop_move(r.deal(0), "8", 7, "1"))
        '81'
        """
        if src.startswith("f"):
            raise MoveParseError("a card on a foundation stays there")
        a = _PILE_CODES[src]
        if dst in ("stock", "w", "x"):
            raise MoveParseError(f"no card may be put on the {table_place(dst).label}")
        if count > 1 and a == WASTE:
            raise MoveParseError("only the top card of the waste moves")
        if not dst.startswith("f"):
            b = _PILE_CODES[dst]
            return TAB_TO_TAB[a][b][count] if a in TABLEAU else (WASTE_TO_TAB if a == WASTE else RESERVE_TO_TAB)[b]
        if count > 1:
            raise MoveParseError("one card at a time goes to a foundation")
        move = TO_FOUNDATION[a]
        self._check_chosen_pile(state, move, dst, lambda name: table_place(name).label)
        return move

    def explain_illegal(self, state: DemonthiefState, move: DemonthiefMove) -> str:
        """Which rule forbids ``move`` here (rule numbers of the rules file's "Moves").

        >>> r = Demonthief(); r.explain_illegal(r.deal(0), REDEAL)
        'rule 1: demonthief has no redeals'
        """
        stock, waste, reserve, found, tab, base, used = state
        src, dst, n = move
        if src == STOCK:
            if stock:
                return "this move is legal here"
            if waste and used < self.REDEALS:
                return "rule 1: the stock is empty (redeal with r)"
            return "rule 1: the stock is empty"
        if dst == STOCK:
            if not self.REDEALS:
                return f"rule 1: {self.name} has no redeals"
            if stock:
                return "rule 1: redeal only when the stock is empty (draw with d)"
            if not waste:
                return "rule 1: the waste is empty, nothing to redeal"
            if used >= self.REDEALS:
                return f"rule 1: no redeals left ({self.name} allows {self.REDEALS})"
            return "this move is legal here"
        rule = 2
        if src in (WASTE, RESERVE):
            top = waste if src == WASTE else reserve
            if not top:
                return f"rule 2: the {'waste' if src == WASTE else 'reserve'} is empty"
            cards: tuple[int, ...] = top[-1:]
        else:
            rule = 3 if dst == FOUNDATION else 4
            p = tab[src]
            if not p:
                return f"tableau pile {src + 1} is empty"
            if n > len(p):
                return f"rule 4: pile {src + 1} holds only {len(p)} card(s)"
            left = src < 4
            for k in range(len(p) - n, len(p) - 1):
                if not (LEFT_TAKES[p[k] * 52 + p[k + 1]] if left else PREV[p[k]] == p[k + 1]):
                    side = "an alternate-colour run on the left side" if left else "a same-suit run on the right side"
                    return (
                        f"rule 4: {card_text(p[k])}-{card_text(p[k + 1])} is not {side}; "
                        f"those {n} cards cannot move as a group (move fewer)"
                    )
            cards = p[-n:]
        c = cards[0]
        if dst == FOUNDATION:
            needs: list[str] = []
            for t in found:
                if foundation_size(t, base) == 13:
                    continue  # complete
                need = f"any {RANKS[base - 1]}" if t < 0 else card_text(NEXT[t])
                if need not in needs:
                    needs.append(need)
            return (
                f"rule {rule}: no foundation takes {card_text(c)} (they build up in suit from the base rank "
                f"{RANKS[base - 1]}; they need {', '.join(needs)})"
            )
        q = tab[dst]
        if _fits(c, q, dst):
            return "this move is legal here"
        how = "left side builds down by alternate colour" if dst < 4 else "right side builds down in suit"
        return f"rule {rule}: {card_text(c)} cannot go on {card_text(q[-1])} (the {how}; an ace takes a king)"

    def auto_move(self, state: DemonthiefState) -> DemonthiefMove | None:
        """The move ``autoplay`` makes now: a safe move to a foundation, if any, else None
        (the option itself is checked by :meth:`cardtable.core.game.Game.play`).

        A card is safe when every card that could ever be built on it in the
        tableau (one rank lower, a king below an ace, in its own suit or of the
        other colour: six cards of the double deck) is already on a
        foundation. Then nothing can ever lie on the card, so it is only ever
        in the way, and playing it home can never hurt.

        >>> Demonthief().auto_move(Demonthief().deal(0)) is None
        True
        """
        found = state.foundations
        base = state.base
        for move in self.legal_moves(state):
            if move.dst != FOUNDATION:
                break  # foundation moves come first
            src = move.src
            c = state.waste[-1] if src == WASTE else state.reserve[-1] if src == RESERVE else state.tableau[src][-1]
            if is_safe_home(c, found, base):
                return move
        return None

    # --- what a player sees -----------------------------------------------------

    def with_face_down(self, state: DemonthiefState, cards: Sequence[int]) -> DemonthiefState:
        """``state`` with ``cards`` face down (:meth:`~cardtable.core.rules.Rules.face_down`'s
        order: the stock bottom first, then the reserve under its top card).

        >>> r = Demonthief(); s = r.deal(0)
        >>> t = r.with_face_down(s, r.face_down(s)[::-1])
        >>> t.stock[0] == s.reserve[-2], t.reserve[-1] == s.reserve[-1]
        (True, True)
        """
        n = len(state.stock)
        reserve = state.reserve
        return state._replace(stock=tuple(cards[:n]), reserve=tuple(cards[n:]) + reserve[len(reserve) - 1 :])

    # --- the end ----------------------------------------------------------------

    def is_won(self, state: DemonthiefState) -> bool:
        """All 104 cards on the foundations.

        >>> Demonthief().is_won(Demonthief().deal(0))
        False
        """
        return self.score(state) == DECK_SIZE

    def progress(self, state: DemonthiefState) -> tuple[int, ...]:
        """Cards on the foundations, and reserve cards turned up (minus the cards left in the reserve).

        >>> Demonthief().progress(Demonthief().deal(0))
        (1, -13)
        """
        return (self.score(state), -len(state.reserve))

    def one_way(self, state: DemonthiefState) -> tuple[int, ...]:
        """Cards in the stock, cards in the stock and waste (both negated), and redeals
        used: a draw, a play from the waste and a redeal each change the position for
        good, and the rules end the game only when none is left. Some tableau moves cannot
        be taken back either (a card off a card it does not fit on), and no count says
        which: :attr:`ONE_WAY_COMPLETE` is False, so over detection looks for them.

        >>> Demonthief().one_way(Demonthief().deal(0))
        (-46, -46, 0)
        """
        return (-len(state.stock), -len(state.stock) - len(state.waste), state.redeals_used)

    def score(self, state: DemonthiefState) -> int:
        """Cards on the foundations (104 is a win).

        >>> Demonthief().score(Demonthief().deal(0))
        1
        """
        base = state.base
        return sum((RANK[t] - base) % 13 + 1 for t in state.foundations if t >= 0)

    # --- in words (issue 26) ------------------------------------------------------

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words (any foundation that takes a card is as good).

        >>> Demonthief().pile_name("x"), Demonthief().pile_name("f3"), Demonthief().pile_name("4")
        ('the reserve', 'a foundation', 'pile 4')
        """
        if name.startswith("f"):
            return "a foundation"
        return "the " + table_place(name).label if not name.isdigit() else table_place(name).label

    def names_target(self, name: str) -> bool:
        """A card goes *to* a foundation, *onto* a tableau card.

        >>> Demonthief().names_target("f1")
        True
        """
        return name.startswith("f")

    def pile_notes(self, state: DemonthiefState) -> dict[str, str]:
        """The base rank, written on every foundation.

        >>> Demonthief().pile_notes(Demonthief().deal(0))["f8"]
        'base 10'
        """
        return {f"f{k + 1}": f"base {RANK_WORDS[state.base - 1]}" for k in range(len(state.foundations))}


class DemonsAndThieves(Demonthief):
    """Demons and Thieves: Demonthief with two redeals (three passes through the stock).

    >>> r = DemonsAndThieves(); r.name, r.REDEALS
    ('demons-and-thieves', 2)
    """

    name = "demons-and-thieves"
    title = "Demons and Thieves"
    REDEALS = 2


def table_place(name: str) -> Place:
    """Where a pile of :meth:`Demonthief.display` lies on the browser's table.

    >>> table_place("x").label, table_place("f3").x, table_place("9").x
    ('reserve', 5, 9)
    """
    if name == "stock":
        return Place("stock", 0, 0, "none", "none", "stock")
    if name == "w":
        return Place("waste", 1, 0, "none", "top", "waste")  # one card drawn at a time: its top card
    if name == "x":
        return Place("reserve", 2, 0, "none", "top", "reserve")
    if name.startswith("f"):
        return Place("foundation", 2 + int(name[1:]), 0, "none", "none", f"foundation {name[1:]}")
    return Place("tableau", int(name), 1, "down", "group", f"pile {name}")


def action_moves(rules: Rules[Any, Any]) -> list[DemonthiefMove]:
    """Every Demonthief move, numbered once (the research action space): ``d``, ``r``,
    ``1f``..``9f``, ``wf``, ``xf``, ``w1``..``w9``, ``x1``..``x9``, then ``ij:n`` for piles
    i != j and n in 1..103 (runs wrap from ace to king: no shorter bound).

    >>> len(action_moves(Demonthief()))
    7447
    """
    moves: list[DemonthiefMove] = [DRAW, REDEAL, *TO_FOUNDATION, *WASTE_TO_TAB, *RESERVE_TO_TAB]
    moves += [TAB_TO_TAB[i][j][n] for i in TABLEAU for j in TABLEAU if i != j for n in range(1, MAX_GROUP + 1)]
    return moves


_TABLE = TableSpec(width=11, place=table_place, cards="french", back="#8e1f2f")

GAME = GameSpec(
    name="demonthief",
    rules=Demonthief,
    table=_TABLE,
    action_moves=action_moves,
    search_space="cardtable.solve.spaces:DemonthiefSpace",
    solver_space="cardtable.solve.spaces:DemonthiefSolverSpace",
    native="cardtable.solve.native.demonthief",
    reference_player="cardtable.levels.player_demonthief:DemonthiefPlayer",
    appeal="cardtable.levels.position_value_demonthief:demonthief_appeal",
    gymnasium_id="cardtable/Demonthief-v0",
    openspiel_name="cardtable_demonthief",
    scoring=(position_scoring("foundations", "Cards home", "cards", "cards on the foundations: 104 is the win"),),
)
"""Demonthief, as every layer knows it (see :mod:`cardtable.core.spec`)."""

DEMONS_AND_THIEVES = replace(
    GAME,
    name="demons-and-thieves",
    rules=DemonsAndThieves,
    gymnasium_id="cardtable/DemonsAndThieves-v0",
    openspiel_name="cardtable_demons_and_thieves",
)
"""Demons and Thieves: Demonthief's declaration, with its own rules and names."""

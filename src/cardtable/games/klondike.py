"""Klondike, draw three (``cardtable/rulebook/klondike.md``), with the javasol numbering.

**Position.** A :class:`KlondikeState`: the stock and the waste (bottom
first, so the last card is the top: the next card drawn, the playable waste
card), the four foundations as the number of cards on each (suit order
``C D H S``; a foundation holds ace up to that rank), the seven tableau piles
(bottom first) with the number of face-down cards at the bottom of each, and
the number of redeals used (always 0 when redeals are unlimited).

**Notation** (lower case; upper case accepted):

========  =====================================================
``d``     draw: turn up to ``draw`` cards from stock to waste
``r``     redeal: turn the waste over to form the stock again
``w3``    waste top to tableau pile 3
``wf``    waste top to its foundation
``3f``    top card of tableau pile 3 to its foundation
``35``    one card from tableau 3 onto tableau 5
``35:3``  three cards (the top three) from tableau 3 onto tableau 5
``fh5``   top card of the hearts foundation back to tableau 5
========  =====================================================

When playing, ``35`` also moves as many cards as the target needs when only
one such move exists (see :meth:`Klondike.resolve`).

**Move order** of :meth:`Klondike.legal_moves`: to a foundation (waste, then
piles 1-7); tableau to tableau (by source pile, then target pile); waste to
tableau (by pile); foundation to tableau (suits ``C D H S``, then pile); then
draw or redeal.

The four foundations are kept by suit: an ace always goes to its own suit's
foundation, which is empty when the ace arrives, so this is the rules' "an
empty foundation takes any ace" without four interchangeable copies of one
move.

>>> from cardtable.games.klondike import Klondike
>>> r = Klondike()
>>> s = r.deal(0)
>>> [len(p) for p in s.tableau], len(s.stock)
([1, 2, 3, 4, 5, 6, 7], 24)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..core.cards import (
    RANK,
    RED,
    SUIT,
    SUIT_NAMES,
    SUITS,
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
from ..core.scoring import Scoring, final_position
from ..core.shuffle import JavaRandom, shuffled
from ..core.spec import GameSpec, LevelKey, Place, TableSpec

# Pile codes used in moves.
WASTE = 7
STOCK = 8
FOUNDATION = 9  # as a target: "its foundation"; as a source: 9 + suit
TABLEAU = range(7)


class KlondikeMove(NamedTuple):
    """A Klondike move: source, target and card count. ``str`` gives its notation.

    Sources and targets are tableau piles ``0..6`` (shown 1-7), ``WASTE``,
    ``STOCK``, ``FOUNDATION`` (as a target) or ``FOUNDATION + suit`` (as a
    source). Draw is ``(STOCK, WASTE, 0)``, redeal ``(WASTE, STOCK, 0)``.

    >>> str(KlondikeMove(2, 4, 3)), str(KlondikeMove(WASTE, FOUNDATION, 1))
    ('35:3', 'wf')
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
        a = "w" if src == WASTE else f"f{SUITS[src - FOUNDATION].lower()}" if src >= FOUNDATION else str(src + 1)
        b = "f" if dst == FOUNDATION else str(dst + 1)
        return f"{a}{b}" + (f":{n}" if n > 1 else "")


# Every move there can be, made once: legal_moves hands out these objects
# instead of building new ones (a measurable share of random-play speed).
DRAW = KlondikeMove(STOCK, WASTE, 0)
REDEAL = KlondikeMove(WASTE, STOCK, 0)
WASTE_TO_FOUNDATION = KlondikeMove(WASTE, FOUNDATION, 1)
TAB_TO_FOUNDATION = tuple(KlondikeMove(i, FOUNDATION, 1) for i in TABLEAU)
WASTE_TO_TAB = tuple(KlondikeMove(WASTE, j, 1) for j in TABLEAU)
FOUNDATION_TO_TAB = tuple(tuple(KlondikeMove(FOUNDATION + s, j, 1) for j in TABLEAU) for s in range(4))
TAB_TO_TAB = tuple(tuple(tuple(KlondikeMove(i, j, n) for n in range(25)) for j in TABLEAU) for i in TABLEAU)

# GOES_ON[t]: the two cards that may be placed on card t (one rank lower, other colour).
GOES_ON: tuple[tuple[int, ...], ...] = tuple(
    tuple(make_card(RANK[t] - 1, s) for s in range(4) if RED[make_card(1, s)] != RED[t]) if RANK[t] > 1 else ()
    for t in range(52)
)
KINGS = tuple(make_card(13, s) for s in range(4))


def _builds_on(under: int, card: int) -> bool:
    """Whether ``card`` may lie on ``under`` in a tableau pile (rule 3: other colour, one rank lower)."""
    return RANK[card] == RANK[under] - 1 and RED[card] != RED[under]


class KlondikeState(NamedTuple):
    """A Klondike position (see the module docstring).

    >>> KlondikeState((), (), (13, 13, 13, 13), ((),) * 7, (0,) * 7, 0).stock
    ()
    """

    stock: tuple[int, ...]
    waste: tuple[int, ...]
    foundations: tuple[int, int, int, int]
    tableau: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    redeals_used: int


_MOVE_RE = re.compile(r"^(?:(d)|(r)|(w|[1-7]|f[cdhs])(f|[1-7])(?::([0-9]+))?)$")

_PILE_NAMES: dict[int, str] = {
    STOCK: "stock",
    WASTE: "w",
    **{FOUNDATION + s: f"f{SUITS[s].lower()}" for s in range(4)},
    **{i: str(i + 1) for i in TABLEAU},
}
"""The :meth:`Klondike.display` name of each pile code (a foundation's: ``FOUNDATION + suit``)."""
_PILE_CODES: dict[str, int] = {name: code for code, name in _PILE_NAMES.items()}


def javasol_deck(n: int) -> list[int]:
    """The Java program's deck for deal ``n``, in push order (the last card is the top).

    >>> [card_text(c) for c in javasol_deck(0)[:3]]
    ['8H', 'JS', '9S']
    """
    pile = [make_card(r, s) for s in (2, 3, 1, 0) for r in range(1, 14)]  # H S D C, ace to king
    cards = pile[::-1]  # popped off: club king first, heart ace last
    rng = JavaRandom(n)
    deck: list[int] = []
    while cards:
        deck.append(cards.pop(rng.next_int(len(cards))))
    return deck


class Klondike(FrenchCards, Rules[KlondikeState, KlondikeMove]):
    """Klondike with options ``draw`` (3), ``redeals`` (unlimited), ``foundation_return`` (on),
    ``numbering`` (cardtable or javasol) and ``autoplay`` (off).

    >>> Klondike(draw=1).options["draw"]
    1
    """

    name = "klondike"
    title = "Klondike (draw three)"
    OPTIONS = (
        Option("draw", int, 3, choices=(1, 3), help="cards turned from the stock per draw"),
        Option("redeals", int, None, minimum=0, none_text="unlimited", help="times the waste may be turned over"),
        Option("foundation_return", bool, True, help="a foundation's top card may go back to the tableau"),
        Option("numbering", str, "cardtable", choices=("cardtable", "javasol"), help="deal-number scheme"),
        Option("autoplay", bool, False, help="after each move, play safe cards to the foundations"),
    )
    NOTATION = "d draw, r redeal, w3 waste->3, wf waste->foundation, 3f, 35 (35:2 two cards), fh5 foundation->5"
    FORMATS = ("cardtable", "pysol")
    MOVE_TYPE = KlondikeMove
    COUNT_OPTIONAL = True

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._draw: int = self.options["draw"]
        self._redeals: int | None = self.options["redeals"]
        self._return: bool = self.options["foundation_return"]

    # --- positions -------------------------------------------------------------

    def deck(self) -> list[int]:
        """The 52-card deck in order (clubs, diamonds, hearts, spades; ace to king).

        >>> len(Klondike().deck())
        52
        """
        return french_deck()

    def deal(self, deal: int) -> KlondikeState:
        """Deal number ``deal``. The deck (top card last) comes from the cardtable
        shuffle, or with ``numbering="javasol"`` from the Java program; then
        for pile 1..7: one card face up on it, one face down on each later
        pile; the rest is the stock, its top card drawn first.

        >>> len(Klondike().deal(0).stock)
        24
        """
        javasol = self.options["numbering"] == "javasol"
        deck = javasol_deck(deal) if javasol else shuffled(self.deck(), deal)
        piles: list[list[int]] = [[] for _ in TABLEAU]
        for i in TABLEAU:
            piles[i].append(deck.pop())
            for j in range(i + 1, 7):
                piles[j].append(deck.pop())
        return KlondikeState(tuple(deck), (), (0, 0, 0, 0), tuple(tuple(p) for p in piles), tuple(range(7)), 0)

    def cards(self, state: KlondikeState) -> list[int]:
        """Every card of the position.

        >>> sorted(Klondike().cards(Klondike().deal(1))) == list(range(52))
        True
        """
        found = [make_card(r, s) for s in range(4) for r in range(1, state.foundations[s] + 1)]
        return [*state.stock, *state.waste, *found, *(c for p in state.tableau for c in p)]

    def display(self, state: KlondikeState) -> list[list[tuple[str, Pile]]]:
        """Rows of named piles: stock, waste and foundations, then piles 1-7.

        >>> [name for name, _ in Klondike().display(Klondike().deal(0))[0]]
        ['stock', 'w', 'fc', 'fd', 'fh', 'fs']
        """
        top: list[tuple[str, Pile]] = [
            ("stock", [(c, False) for c in state.stock]),
            ("w", [(c, True) for c in state.waste]),
        ]
        for s in range(4):
            top.append((f"f{SUITS[s].lower()}", [(make_card(r, s), True) for r in range(1, state.foundations[s] + 1)]))
        rows = [top]
        for i, pile in enumerate(state.tableau):
            d = state.down[i]
            rows.append([(str(i + 1), [(c, k >= d) for k, c in enumerate(pile)])])
        return rows

    def status(self, state: KlondikeState) -> list[str]:
        """Redeals left and cards on the foundations.

        >>> Klondike(redeals=2).status(Klondike(redeals=2).deal(0))
        ['redeals left: 2', 'on foundations: 0/52']
        """
        left = "unlimited" if self._redeals is None else str(self._redeals - state.redeals_used)
        return [f"redeals left: {left}", f"on foundations: {sum(state.foundations)}/52"]

    def to_text(self, state: KlondikeState, format: str = "cardtable") -> str:
        """The position as text: ``cardtable`` (every position) or ``pysol`` (the
        deal format of the pyksolve package; only for an empty waste and empty
        foundations with no redeal used, i.e. a fresh deal or one whose stock was cycled
        whole with unlimited redeals).

        >>> print(Klondike().to_text(Klondike().deal(0)).splitlines()[3])
        clubs:
        """
        if format == "pysol":
            return self._to_pysol(state)
        if format != "cardtable":
            raise LayoutError(f"unknown klondike layout format {quote(format)} (cardtable or pysol)")
        lines = [
            ("stock", format_pile([(c, False) for c in state.stock], card_text)),
            ("waste", format_pile([(c, True) for c in state.waste], card_text)),
        ]
        for s in range(4):
            lines.append(
                (SUIT_NAMES[s], " ".join(card_text(make_card(r, s)) for r in range(1, state.foundations[s] + 1)))
            )
        for i, pile in enumerate(state.tableau):
            lines.append((str(i + 1), format_pile([(c, k >= state.down[i]) for k, c in enumerate(pile)], card_text)))
        lines.append(("redeals used", str(state.redeals_used)))
        return join_layout(self.name, lines)

    def _to_pysol(self, state: KlondikeState) -> str:
        if state.waste or any(state.foundations):
            raise LayoutError("the PySol deal format holds only positions with an empty waste and foundations")
        if state.redeals_used:  # read back, it would give the redeals used back
            raise LayoutError("the PySol deal format holds only positions with no redeal used")
        out = ["Talon: " + " ".join(card_text(c) for c in reversed(state.stock))]
        for i, pile in enumerate(state.tableau):
            out.append(format_pile([(c, k >= state.down[i]) for k, c in enumerate(pile)], card_text))
        return "\n".join(out)

    def from_text(self, text: str) -> KlondikeState:
        """Read a position in either format (PySol text starts with ``Talon:``).

        Raises :class:`LayoutError` for text that is not a position some deal and play reach:
        the 52 cards once each, foundations from the ace up, face-down cards under face-up ones,
        at most 24 cards in the stock and the waste, at most ``i - 1`` face-down cards on pile
        ``i``, face-up cards built down in alternate colours, ``redeals used`` within the
        ``redeals`` option (the rulebook's "Position text" lists them).

        >>> r = Klondike(); s = r.deal(9)
        >>> r.from_text(r.to_text(s, "pysol")) == s
        True
        """
        return self._reachable(self._read(text))

    def _read(self, text: str) -> KlondikeState:
        """The position ``text`` writes (in either format), holding the 52 cards once each, before
        the checks that some deal and play reach it (:meth:`_reachable`)."""
        if not isinstance(text, str):
            raise LayoutError("a layout must be text")
        if text.lstrip().lower().startswith("talon:"):
            return self._from_pysol(text)
        names = ["stock", "waste", *SUIT_NAMES, *(str(i + 1) for i in TABLEAU), "redeals used"]
        parts = split_layout(text, self.name, names)
        stock, _ = read_pile(parts["stock"], parse_card, "stock", FACE_DOWN)
        waste, _ = read_pile(parts["waste"], parse_card, "waste", FACE_UP)
        foundations = []
        for s in range(4):
            pile, _ = read_pile(parts[SUIT_NAMES[s]], parse_card, f"the {SUIT_NAMES[s]} foundation", FACE_UP)
            if list(pile) != [make_card(r, s) for r in range(1, len(pile) + 1)]:
                raise LayoutError(f"the {SUIT_NAMES[s]} foundation must hold {SUIT_NAMES[s]} from the ace up")
            foundations.append(len(pile))
        tableau, down = self._read_tableau([parts[str(i + 1)] for i in TABLEAU])
        most = 0 if self._redeals is None else self._redeals
        used = read_int(
            parts["redeals used"],
            f"redeals used (redeals={'unlimited' if self._redeals is None else self._redeals})",
            LayoutError,
            0,
            most,
        )
        state = KlondikeState(
            stock,
            waste,
            (foundations[0], foundations[1], foundations[2], foundations[3]),
            tableau,
            down,
            used,
        )
        check_cards(self.cards(state), self.deck(), card_text)
        return state

    def _reachable(self, state: KlondikeState) -> KlondikeState:
        """``state`` if it can arise from a deal and play, else raise :class:`LayoutError` (see the
        rulebook's "Position text"): at most 24 cards in the stock and the waste together (the
        deal's stock; no card goes back); at most ``i - 1`` face-down cards on pile ``i`` (the
        deal's; none is added); each pile's face-up cards a build down in alternate colours (rule 3
        makes no other). The move generator relies on the last two."""
        check_at_most(
            len(state.stock) + len(state.waste),
            24,
            "the stock and the waste",
            "the deal puts 24 cards in the stock, and no card goes back",
        )
        for i, pile in enumerate(state.tableau):
            where = f"tableau pile {i + 1}"
            check_at_most(state.down[i], i, where, f"the deal puts {i} face down there", "face-down cards")
            check_run(pile, state.down[i], _builds_on, card_text, where, "a build down in alternate colours")
        return state

    def _read_tableau(self, texts: list[str]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        piles = [read_pile(text, parse_card, f"tableau pile {i + 1}", DOWN_UNDER_UP) for i, text in enumerate(texts)]
        return tuple(cards for cards, _ in piles), tuple(down for _, down in piles)

    def _from_pysol(self, text: str) -> KlondikeState:
        lines = [ln.strip() for ln in text.replace("\r", "").strip().split("\n") if ln.strip()]
        if len(lines) != 8:
            raise LayoutError(f"a PySol Klondike deal has a Talon line and 7 pile lines, not {len(lines)} lines")
        talon, _ = read_pile(lines[0].split(":", 1)[1], parse_card, "PySol talon", FACE_UP)
        tableau, down = self._read_tableau(lines[1:])
        state = KlondikeState(talon[::-1], (), (0, 0, 0, 0), tableau, down, 0)
        check_cards(self.cards(state), self.deck(), card_text)
        return state

    # --- moves ----------------------------------------------------------------

    def legal_moves(self, state: KlondikeState) -> list[KlondikeMove]:
        """The legal moves, in the order the module docstring gives.

        >>> [str(m) for m in Klondike().legal_moves(Klondike(numbering="javasol").deal(0))][-1]
        'd'
        """
        stock, waste, found, tab, down, used = state
        moves: list[KlondikeMove] = []
        add = moves.append
        # To a foundation.
        waste_moves = self.waste_moves(state)
        if waste_moves and waste_moves[0] is WASTE_TO_FOUNDATION:
            add(WASTE_TO_FOUNDATION)
        for i in TABLEAU:
            p = tab[i]
            if p:
                c = p[-1]
                if found[SUIT[c]] == RANK[c] - 1:
                    add(TAB_TO_FOUNDATION[i])
        # Tableau to tableau. Rather than try every pair of piles, note where each
        # face-up card lies, then look up the two cards that could go on each top.
        where: dict[int, int] = {}  # card -> source pile * 32 + cards from the top
        for i in TABLEAU:
            p = tab[i]
            size = len(p)
            for k in range(down[i], size):
                where[p[k]] = i * 32 + size - k
        found_moves: list[int] = []  # source * 1024 + target * 32 + count, sorted below
        for j in TABLEAU:
            q = tab[j]
            for c in GOES_ON[q[-1]] if q else KINGS:
                w = where.get(c)
                if w is not None and w >> 5 != j:
                    found_moves.append((w >> 5) * 1024 + j * 32 + (w & 31))
        if found_moves:
            found_moves.sort()  # by source pile, then target pile
            for code in found_moves:
                add(TAB_TO_TAB[code >> 10][(code >> 5) & 31][code & 31])
        # Waste to tableau.
        moves += [m for m in waste_moves if m is not WASTE_TO_FOUNDATION]
        # Foundation back to tableau.
        if self._return:
            for s in range(4):
                r = found[s]
                if not r:
                    continue
                red = s == 1 or s == 2
                for j in TABLEAU:
                    q = tab[j]
                    if q:
                        t = q[-1]
                        if RANK[t] == r + 1 and RED[t] != red:
                            add(FOUNDATION_TO_TAB[s][j])
                    elif r == 13:
                        add(FOUNDATION_TO_TAB[s][j])
        # The stock.
        if stock:
            add(DRAW)
        elif waste and (self._redeals is None or used < self._redeals):
            add(REDEAL)
        return moves

    def waste_moves(self, state: KlondikeState) -> list[KlondikeMove]:
        """The legal moves of the waste top: to its foundation, then to tableau piles 1-7.
        Part of :meth:`legal_moves` (which lists these in its own order); solvers call it
        alone for each stock arrangement they consider.

        >>> r = Klondike(numbering="javasol"); s = r.apply(r.deal(0), DRAW)
        >>> [str(m) for m in r.waste_moves(s)]  # 3C onto 4D
        ['w6']
        """
        waste = state.waste
        if not waste:
            return []
        moves: list[KlondikeMove] = []
        c = waste[-1]
        rc = RANK[c]
        if state.foundations[SUIT[c]] == rc - 1:
            moves.append(WASTE_TO_FOUNDATION)
        redc = RED[c]
        tab = state.tableau
        for j in TABLEAU:
            q = tab[j]
            if q:
                t = q[-1]
                if RANK[t] == rc + 1 and RED[t] != redc:
                    moves.append(WASTE_TO_TAB[j])
            elif rc == 13:
                moves.append(WASTE_TO_TAB[j])
        return moves

    def apply(self, state: KlondikeState, move: KlondikeMove) -> KlondikeState:
        """The position after a legal move; an exposed face-down card turns up (rule 6).

        >>> r = Klondike(); s = r.apply(r.deal(0), DRAW)
        >>> len(s.stock), len(s.waste)
        (21, 3)
        """
        stock, waste, found, tab, down, used = state
        src, dst, n = move
        if src == STOCK:
            k = min(self._draw, len(stock))
            return KlondikeState(stock[:-k], waste + stock[: -k - 1 : -1], found, tab, down, used)
        if dst == STOCK:
            return KlondikeState(waste[::-1], (), found, tab, down, used if self._redeals is None else used + 1)
        # Take the cards off the source.
        if src == WASTE:
            cards = waste[-1:]
            waste = waste[:-1]
        elif src >= FOUNDATION:
            s = src - FOUNDATION
            cards = (make_card(found[s], s),)
            found = replace_at(found, s, found[s] - 1)
        else:
            p = tab[src]
            cards = p[-n:]
            rest = p[:-n]
            tab = replace_at(tab, src, rest)
            if rest and len(rest) == down[src]:
                down = replace_at(down, src, down[src] - 1)
        # Put them on the target.
        if dst == FOUNDATION:
            s = SUIT[cards[0]]
            found = replace_at(found, s, found[s] + 1)
        else:
            tab = replace_at(tab, dst, tab[dst] + cards)
        return KlondikeState(stock, waste, found, tab, down, used)

    def parse_move(self, text: str) -> KlondikeMove:
        """Read a move in the notation of the module docstring.

        >>> Klondike().parse_move("35:2") == KlondikeMove(2, 4, 2)
        True
        """
        m = _MOVE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise MoveParseError(
                f"not a klondike move: {quote(text)} (moves look like d, r, w3, wf, 3f, 35, 35:2, fh5)"
            )
        draw, redeal, a, b, count = m.groups()
        if draw:
            return DRAW
        if redeal:
            return REDEAL
        n = read_int(count, f"not a klondike move: {quote(text)}: its count", MoveParseError, 1, 24) if count else 1
        if a == "w":
            src = WASTE
        elif a.startswith("f"):
            src = FOUNDATION + SUITS.index(a[1].upper())
        else:
            src = int(a) - 1
        dst = FOUNDATION if b == "f" else int(b) - 1
        if src == dst or (src >= FOUNDATION and dst == FOUNDATION):
            raise MoveParseError(f"not a klondike move: {quote(text)} (a move goes from one pile to another)")
        if n < 1 or n > 24 or (n > 1 and not src < 7):
            raise MoveParseError(f"not a klondike move: {quote(text)} (only tableau moves take a count, 1 to 24)")
        if n > 1 and dst == FOUNDATION:
            raise MoveParseError(f"not a klondike move: {quote(text)} (one card at a time goes to a foundation)")
        return KlondikeMove(src, dst, n)

    def move_places(self, state: KlondikeState, move: KlondikeMove) -> MovePlaces:
        """Where a legal move happens on the table: the piles of :meth:`display` it joins
        (a card "to its foundation" names its suit's foundation) and the cards it moves.

        >>> r = Klondike(); s = r.deal(0)
        >>> r.move_places(s, r.parse_move("3f")), r.move_places(s, DRAW).n
        (MovePlaces(src='3', dst='fs', n=1, card=None), 0)
        """
        src, dst, n = move
        if src == STOCK:
            return MovePlaces("stock", "w", 0)
        if dst == STOCK:
            return MovePlaces("w", "stock", 0)
        if dst == FOUNDATION:
            card = state.waste[-1] if src == WASTE else state.tableau[src][-1]
            return MovePlaces(_PILE_NAMES[src], _PILE_NAMES[FOUNDATION + SUIT[card]], 1)
        return MovePlaces(_PILE_NAMES[src], _PILE_NAMES[dst], n)

    def _drop_move(self, state: KlondikeState, src: str, count: int, dst: str) -> KlondikeMove:
        """The move of a drop (see :meth:`Rules.drop_move`): nothing goes on the stock or the
        waste; one card at a time leaves the waste or a foundation, or reaches a foundation;
        a card dropped on a foundation goes to its own suit's (the drop is refused when
        it was dropped on another suit's foundation that holds cards).

        >>> r = Klondike(); str(r.drop_move(r.deal(0), "3", 2, "fc"))  # the clubs foundation is empty
        '3f'
        """
        a, b = _PILE_CODES[src], _PILE_CODES[dst]
        if b in (STOCK, WASTE):
            raise MoveParseError(f"no card may be put on the {table_place(dst).label}")
        if count > 1 and a >= WASTE:
            raise MoveParseError(f"only the top card of the {table_place(src).label} moves")
        if b < FOUNDATION:
            return KlondikeMove(a, b, count)
        if a >= FOUNDATION:
            raise MoveParseError("a card on a foundation goes back to the tableau, not to another foundation")
        if count > 1:
            raise MoveParseError("one card at a time goes to a foundation")
        move = WASTE_TO_FOUNDATION if a == WASTE else TAB_TO_FOUNDATION[a]
        self._check_chosen_pile(state, move, dst, lambda name: f"the {table_place(name).label}")
        return move

    def explain_illegal(self, state: KlondikeState, move: KlondikeMove) -> str:
        """Which rule forbids ``move`` here.

        >>> r = Klondike(); r.explain_illegal(r.deal(0), REDEAL)
        'rule 2: redeal only when the stock is empty (draw with d)'
        """
        stock, waste, found, tab, down, _ = state
        src, dst, n = move
        if src == STOCK:
            return "rule 1: the stock is empty (redeal with r)" if not stock else "not allowed here"
        if dst == STOCK:
            if stock:
                return "rule 2: redeal only when the stock is empty (draw with d)"
            if not waste:
                return "rule 2: the waste is empty, nothing to redeal"
            return f"rule 2: no redeals left (redeals={self._redeals})"
        if src == WASTE:
            if not waste:
                return "the waste is empty"
            cards: tuple[int, ...] = waste[-1:]
        elif src >= FOUNDATION:
            s = src - FOUNDATION
            if not self._return:
                return "rule 5: foundation_return is off, cards stay on the foundations"
            if not found[s]:
                return f"the {SUIT_NAMES[s]} foundation is empty"
            cards = (make_card(found[s], s),)
        else:
            p = tab[src]
            if not p:
                return f"tableau pile {src + 1} is empty"
            if n > len(p) - down[src]:
                return (
                    f"rule 3: pile {src + 1} has only {len(p) - down[src]} face-up card(s); face-down cards cannot move"
                )
            cards = p[-n:]
        c = cards[0]
        if dst == FOUNDATION:
            need = found[SUIT[c]] + 1
            if need > 13:
                return f"rule 4: the {SUIT_NAMES[SUIT[c]]} foundation is complete"
            nxt = card_text(make_card(need, SUIT[c]))
            return f"rule 4: {card_text(c)} cannot go to its foundation, which needs {nxt} next"
        q = tab[dst]
        if not q:
            return f"rule 3: an empty tableau pile takes only a king, not {card_text(c)}"
        t = q[-1]
        return f"rule 3: {card_text(c)} cannot go on {card_text(t)} (needs the other colour and one rank lower)"

    def auto_move(self, state: KlondikeState) -> KlondikeMove | None:
        """The move ``autoplay`` makes now (the option itself is checked by
        :meth:`cardtable.core.game.Game.play`): a safe move to a foundation, if any.
        A card is safe when it is an ace or two, or both foundations of the other
        colour are up to one rank below it (so no tableau card could need it).

        >>> str(Klondike().auto_move(Klondike().deal(0)))  # the ace of spades on pile 3
        '3f'
        """
        found = state.foundations
        for move in self.legal_moves(state):
            if move.dst != FOUNDATION:
                break  # foundation moves come first
            c = state.waste[-1] if move.src == WASTE else state.tableau[move.src][-1]
            r = RANK[c]
            other = (0, 3) if RED[c] else (1, 2)
            if r <= 2 or (found[other[0]] >= r - 1 and found[other[1]] >= r - 1):
                return move
        return None

    # --- what a player sees -----------------------------------------------------

    def with_face_down(self, state: KlondikeState, cards: Sequence[int]) -> KlondikeState:
        """``state`` with ``cards`` face down (:meth:`~cardtable.core.rules.Rules.face_down`'s
        order: the stock bottom first, then the face-down part of piles 1-7).

        >>> r = Klondike(); s = r.deal(0)
        >>> t = r.with_face_down(s, r.face_down(s)[::-1])
        >>> t.stock[0] == s.tableau[6][5], t.tableau == s.tableau
        (True, False)
        """
        n = len(state.stock)
        tableau = []
        at = n
        for pile, d in zip(state.tableau, state.down, strict=True):
            tableau.append(tuple(cards[at : at + d]) + pile[d:])
            at += d
        return state._replace(stock=tuple(cards[:n]), tableau=tuple(tableau))

    def look_through(self, state: KlondikeState) -> list[KlondikeMove]:
        """With unlimited redeals, a stock that is not empty and a waste of whole draws: draw
        through the stock, redeal and draw back to the same waste (the position is then the
        same); else nothing.

        >>> r = Klondike(); s = r.deal(0)
        >>> moves = r.look_through(s); len(moves), str(moves[-1])
        (9, 'r')
        >>> for m in moves: s = r.apply(s, m)
        >>> s == r.deal(0)
        True
        """
        stock, waste = state.stock, state.waste
        if self._redeals is not None or not stock or len(waste) % self._draw:
            return []
        draws = -(-len(stock) // self._draw)
        return [DRAW] * draws + [REDEAL] + [DRAW] * (len(waste) // self._draw)

    def reversible(self, state: KlondikeState, move: KlondikeMove) -> bool:
        """Whether the legal ``move`` can be taken back (:meth:`Rules.reversible`): with
        unlimited redeals a draw or a redeal also can (the stock comes round to the same
        place again).

        >>> r = Klondike(); s = r.deal(0)
        >>> r.reversible(s, DRAW), Klondike(redeals=2).reversible(s, DRAW), r.reversible(s, r.parse_move("3f"))
        (True, False, False)
        """
        if move in (DRAW, REDEAL):
            return self._redeals is None
        return super().reversible(state, move)

    def takes_back(self, state: KlondikeState, move: KlondikeMove) -> bool:
        """Whether the legal ``move`` changes the foundations and one legal move of the
        position after it leads straight back (:meth:`Rules.takes_back`): with foundation
        returns, a foundation's top card back to the tableau (it can go home again at
        once), and a tableau card sent home that lay on a face-up card, or a king that lay
        alone in its pile (it can return there).

        >>> r = Klondike(); s = r.apply(r.apply(r.deal(5), r.parse_move("71")), r.parse_move("37"))
        >>> r.takes_back(s, r.parse_move("7f")), r.takes_back(r.apply(s, r.parse_move("7f")), r.parse_move("fh7"))
        (True, True)
        >>> r.takes_back(r.deal(0), r.parse_move("3f"))  # it turns up a card
        False
        """
        if not self._return:
            return False
        src, dst, _ = move
        if src >= FOUNDATION:  # to the tableau: it can go straight home again
            return True
        if dst != FOUNDATION or src == WASTE:  # draws and redeals too
            return False
        pile, down = state.tableau[src], state.down[src]
        return len(pile) - 1 > down or (len(pile) == 1 and RANK[pile[0]] == 13)

    # --- the end ----------------------------------------------------------------

    def is_won(self, state: KlondikeState) -> bool:
        """All 52 cards on the foundations.

        >>> Klondike().is_won(KlondikeState((), (), (13, 13, 13, 13), ((),) * 7, (0,) * 7, 0))
        True
        """
        return sum(state.foundations) == 52

    def progress(self, state: KlondikeState) -> tuple[int, ...]:
        """Cards on the foundations, and face-down cards turned (negated count).

        >>> Klondike().progress(Klondike().deal(0))
        (0, -21)
        """
        return (sum(state.foundations), -sum(state.down))

    def one_way(self, state: KlondikeState) -> tuple[int, ...]:
        """Cards in the stock and waste, and piles whose bottom card is not a king (both
        negated): a card played out of the waste never goes back, and a pile emptied of
        such a card takes only kings from then on. Every other move can be taken back
        (a run onto the card it left, a card home and back, a king between empty piles),
        or is the stock's cycling, which the rules do not count as a change.

        >>> r = Klondike(); r.one_way(r.deal(0))
        (-24, -6)
        """
        return (-len(state.stock) - len(state.waste), -sum(1 for p in state.tableau if p and RANK[p[0]] != 13))

    def score(self, state: KlondikeState) -> int:
        """Cards on the foundations (52 is a win).

        >>> Klondike().score(Klondike().deal(0))
        0
        """
        return sum(state.foundations)

    # --- in words (issue 26) ------------------------------------------------------

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words.

        >>> Klondike().pile_name("w"), Klondike().pile_name("fs"), Klondike().pile_name("4")
        ('the waste', 'the spades foundation', 'pile 4')
        """
        return "the " + table_place(name).label if not name.isdigit() else table_place(name).label

    def names_target(self, name: str) -> bool:
        """A card goes *to* a foundation, *onto* a tableau card.

        >>> Klondike().names_target("fc")
        True
        """
        return name.startswith("f")


# --- scoring as players know it (Windows Solitaire's Standard and Vegas) -----------------

STANDARD_POINTS = {"waste-tableau": 5, "to-foundation": 10, "turn-up": 5, "foundation-tableau": -15}
"""Standard scoring's points (Windows Solitaire, untimed): a card from the waste to the
tableau, a card to a foundation (from the waste or the tableau), a tableau card turned face
up, a card back from a foundation to the tableau."""
STANDARD_REDEAL = {3: (-20, 3), 1: (-100, 1)}
"""Standard scoring's pass penalty by ``draw``: (points, free passes): a redeal that starts a
pass after the free ones costs the points (draw three: -20 after three passes; draw one: -100
after one)."""
VEGAS_ANTE = 52
"""Vegas: the dollars a deal costs."""
VEGAS_CARD = 5
"""Vegas: the dollars a card on a foundation is worth."""


def standard_score(rules: Rules[Any, Any], start: Any, moves: Any) -> int:
    """Klondike's Standard score (Windows Solitaire, untimed; see ``docs/web.md``):
    +5 a card from the waste to the tableau, +10 a card to a foundation, +5 a tableau card
    turned face up, -15 a card back from a foundation, and -20 a redeal after three passes
    through the stock (draw three; -100 after one pass in draw one). The score never goes
    below 0.

    >>> r = Klondike(); s = r.deal(0)
    >>> standard_score(r, s, [r.parse_move(m) for m in ("d", "3f")])  # the ace home: +10; a card turned up: +5
    15
    """
    penalty, free = STANDARD_REDEAL[rules.options["draw"]]
    score = passes = 0
    state = start
    for move in moves:
        after = rules.apply(state, move)
        src, dst, _ = move
        if dst == STOCK:
            passes += 1
            points = penalty if passes >= free else 0
        elif dst == FOUNDATION:
            points = STANDARD_POINTS["to-foundation"]
        elif src >= FOUNDATION:
            points = STANDARD_POINTS["foundation-tableau"]
        elif src == WASTE:
            points = STANDARD_POINTS["waste-tableau"]
        else:
            points = 0
        points += STANDARD_POINTS["turn-up"] * (sum(state.down) - sum(after.down))
        score = max(0, score + points)
        state = after
    return score


def vegas_score(rules: Rules[Any, Any], start: Any, moves: Any) -> int:
    """Klondike's Vegas score of one deal, in dollars: -52 for the deal, +5 a card on the
    foundations at the end (a win: +$208). A player's Vegas bank adds these up.

    >>> r = Klondike(); s = r.deal(0)
    >>> vegas_score(r, s, [r.parse_move(m) for m in ("d", "3f")])
    -47
    """
    state: KlondikeState = final_position(rules, start, moves)
    return VEGAS_CARD * sum(state.foundations) - VEGAS_ANTE


STANDARD = Scoring(
    "standard",
    "Standard",
    "points",
    "+10 a card to a foundation, +5 waste to tableau, +5 a card turned up, -15 back from a foundation, "
    "-20 a pass after three (draw one: -100 a pass after one)",
    standard_score,
)
"""Klondike's Standard scoring (Windows Solitaire's, untimed)."""
VEGAS = Scoring(
    "vegas", "Vegas", "$", "-$52 a deal, +$5 a card on the foundations; the bank carries", vegas_score, bank=True
)
"""Klondike's Vegas scoring, with its cumulative bank."""


def table_place(name: str) -> Place:
    """Where a pile of :meth:`Klondike.display` lies on the browser's table.

    >>> table_place("fh").label, table_place("3").x
    ('hearts foundation', 2)
    """
    if name == "stock":
        return Place("stock", 0, 0, "none", "none", "stock")
    if name == "w":
        return Place("waste", 1, 0, "waste", "top", "waste")
    if name.startswith("f"):
        suit = "cdhs".index(name[1])
        return Place("foundation", 3 + suit, 0, "none", "top", f"{SUIT_NAMES[suit]} foundation")
    return Place("tableau", int(name) - 1, 1, "down", "group", f"pile {name}")


def action_moves(rules: Rules[Any, Any]) -> list[KlondikeMove]:
    """Every Klondike move, numbered once (the research action space): ``d``, ``r``,
    ``wf``, ``1f``..``7f``, ``w1``..``w7``, ``fc1``..``fs7``, then ``ij:n`` for piles
    i != j and n in 1..13.

    >>> len(action_moves(Klondike()))
    591
    """
    moves: list[KlondikeMove] = [DRAW, REDEAL, WASTE_TO_FOUNDATION, *TAB_TO_FOUNDATION, *WASTE_TO_TAB]
    moves += [m for row in FOUNDATION_TO_TAB for m in row]
    moves += [TAB_TO_TAB[i][j][n] for i in TABLEAU for j in TABLEAU if i != j for n in range(1, 14)]
    return moves


GAME = GameSpec(
    name="klondike",
    rules=Klondike,
    table=TableSpec(width=7, place=table_place, cards="french", back="#2a4d9b"),
    action_moves=action_moves,
    search_space="cardtable.solve.spaces:KlondikeSpace",
    solver_space="cardtable.solve.spaces:KlondikeClassSpace",
    native="cardtable.solve.native.klondike",
    lost="cardtable.solve.lost:klondike_lost",
    lost_options=("draw",),
    level_keys=(
        LevelKey("klondike-draw3", "klondike", "draw", 3),
        LevelKey("klondike-draw1", "klondike", "draw", 1),
    ),
    observation="cardtable.research.klondike_observation:KlondikeEncoder",
    gymnasium_id="cardtable/Klondike-v0",
    openspiel_name="cardtable_klondike",
    variants=({"draw": 3}, {"draw": 1}),
    scoring=(STANDARD, VEGAS),
)
"""Klondike, as every layer knows it (see :mod:`cardtable.core.spec`)."""

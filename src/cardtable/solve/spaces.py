"""Search spaces: how the solver walks each game's positions.

Every space uses the game's own rules (``legal_moves`` and ``apply``) for
every step, so a solution is a list of real moves. What a space adds, each a
reduction that can never lose a win:

- **Symmetry** (``key``): positions that differ only by the order of piles
  the rules treat alike share a key. Klondike's seven tableau piles, Desturado's
  columns and its hand spaces, Demonthief's four left piles, five right piles
  and eight foundations are interchangeable, so their contents are sorted in
  the key. So are Devil's Square's sixteen positions (:func:`devils_square_key`):
  a move may join any two piles wherever they lie, and when a move empties two
  positions at once the reading order only decides which of the two gets which
  card, so a position and its permutations stay permutations of each other
  move for move, and are equally winnable.
- **Desturado's key keeps only what the rules read**: a column as its
  face-down cards and its unit's bottom and top card, a hand stack as its
  bottom and top card. Units never split, a move only asks whether a unit's
  bottom card fits on a top card or whether a place is empty, and the game is
  won when the board is empty, so the cards between never matter.
- **Equivalent empty places**: a card or unit going into an empty pile goes
  only to the first empty pile of its kind (Demonthief: of its side;
  Desturado: the first empty column, the first empty hand space). The other
  empty piles of the kind give the same key.
- **Safe moves**: a move that can never hurt is made at once, with no
  alternative tried. Klondike: a tableau card to its foundation when it is an
  ace or a two, or when both foundations of the other colour reach one rank
  below it and the other foundation of its colour two ranks below (then no
  card still in play can ever need it as a base, and with foundation returns
  it could even come back). In draw 1 the waste top counts too; in draw 3 it
  does not, because taking a card out of the waste shifts which cards later
  draws turn up. Demonthief: its ``auto_move`` rule, a card on which nothing
  could ever be built again.
- **The stock model** (Klondike and Demonthief): draws and redeals never change
  the tableau, so any winning line can be rearranged so that draws come just
  before the waste play they serve. The space therefore has no draw moves;
  instead every card that cycling the stock can bring to the waste top is
  playable at once, the edge holding the draws (and redeals) it takes followed
  by the play. In Demons and Thieves an arrangement that only repeats an earlier
  one with more redeals used is left out (fewer redeals used never loses a win).
- **Klondike's class space** (:class:`KlondikeClassSpace`, what ``solve`` searches):
  positions that differ only in which of two twin cards each face-up card lies on
  share a key, and each is offered every move of its class (``docs/solver.md``
  proves it exact).
- **Move order** (no effect on the verdict, only on speed): moves that reach a
  foundation or turn a card up come first.

>>> from cardtable.games import rules_for
>>> space = space_for(rules_for("klondike"))
>>> moves, _ = next(iter(space.children(rules_for("klondike").deal(0))))
>>> [str(m) for m in moves]
['3f']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from ..core.cards import RANK, RED, SUIT
from ..core.progress import is_progress
from ..core.rules import Rules
from ..core.spec import resolve
from ..games import demonthief as dt
from ..games import spec_for
from ..games.demonthief import Demonthief, DemonthiefMove, DemonthiefState
from ..games.desturado import HAND, Desturado, DesturadoState
from ..games.devils_square import DevilsSquareState
from ..games.klondike import (
    DRAW,
    FOUNDATION,
    FOUNDATION_TO_TAB,
    REDEAL,
    TAB_TO_FOUNDATION,
    TAB_TO_TAB,
    WASTE,
    WASTE_TO_FOUNDATION,
    WASTE_TO_TAB,
    Klondike,
    KlondikeMove,
    KlondikeState,
)
from .lost import desturado_lost
from .types import Edge

_ScoredEdge = tuple[int, int, Sequence[Any], Any, Any]
"""An edge before sorting: score (lower first), order added, moves, last move, the
position the last move is played from."""


class RulesSpace:
    """The plain space of a game: one edge per legal move, ordered by progress gained.

    ``key`` and ``safe`` may be given (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square")
    >>> len(list(RulesSpace(r).children(r.deal(0)))) == len(r.legal_moves(r.deal(0)))
    True
    """

    def __init__(
        self,
        rules: Rules[Any, Any],
        key: Callable[[Any], Hashable] | None = None,
        safe: Callable[[Any], Any] | None = None,
    ) -> None:
        self.rules = rules
        self._key = key
        self._safe = safe

    def key(self, state: Any) -> Hashable:
        """The position's key (the position itself unless a symmetry key was given).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); RulesSpace(r).key(r.deal(0)) == r.deal(0)
        True
        """
        return state if self._key is None else self._key(state)

    def is_won(self, state: Any) -> bool:
        """Whether the position is won.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); RulesSpace(r).is_won(r.deal(0))
        False
        """
        return self.rules.is_won(state)

    def children(self, state: Any) -> Iterator[Edge]:
        """The safe move alone if there is one, else every legal move, most progress first.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado")
        >>> all(len(moves) == 1 for moves, _ in RulesSpace(r).children(r.deal(0)))
        True
        """
        rules = self.rules
        if self._safe is not None:
            move = self._safe(state)
            if move is not None:
                yield (move,), rules.apply(state, move)
                return
        progress = rules.progress
        scored = []
        for i, move in enumerate(rules.legal_moves(state)):
            after = rules.apply(state, move)
            scored.append((-sum(progress(after)), i, move, after))
        scored.sort()
        for _, _, move, after in scored:
            yield (move,), after


# --- Devil's Square -------------------------------------------------------------


def devils_square_key(s: DevilsSquareState) -> Hashable:
    """Devil's Square's symmetric key: the sixteen piles sorted (their positions forgotten,
    module docstring) and the cards left in the draw pile (within one search the draw pile
    is always the start's first cards, and the books follow from the cards still out).

    >>> from cardtable.games import rules_for
    >>> s = rules_for("devils-square").deal(0)
    >>> devils_square_key(s) == devils_square_key(s._replace(field=s.field[::-1]))
    True
    """
    return tuple(sorted(s.field)), len(s.draw)


# --- Klondike -------------------------------------------------------------------


def klondike_plain_key(s: KlondikeState) -> Hashable:
    """The plain form of :meth:`KlondikeSpace.key`: stock, waste, foundations, the sorted
    (pile, face-down count) pairs and the redeals used. The compact key is checked
    against it (tests) and timed against it (``bench/klondike_key.py``).

    >>> from cardtable.games.klondike import Klondike
    >>> s = Klondike().deal(0); klondike_plain_key(s)[2]
    (0, 0, 0, 0)
    """
    return (s.stock, s.waste, s.foundations, tuple(sorted(zip(s.tableau, s.down, strict=True))), s.redeals_used)


class KlondikeSpace:
    """Klondike with the stock model and safe foundation moves (module docstring).

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); s = r.deal(1)
    >>> all(moves[-1] not in (DRAW, REDEAL) for moves, _ in KlondikeSpace(r).children(s))
    True
    """

    POSITION_BYTES = 400
    """The most memory a remembered position takes in the Python search of this space, in
    bytes (:func:`cardtable.solve.memory.position_bytes`; measured: 130 at a cap of 100,000)."""

    def __init__(self, rules: Klondike) -> None:
        self.rules = rules
        self._draw1 = rules.options["draw"] == 1
        self._cycles: dict[tuple[Any, ...], list[tuple[tuple[KlondikeMove, ...], Any, Any, int]]] = {}

    @staticmethod
    def equivalent(rules: Klondike, state: KlondikeState) -> tuple[Klondike, KlondikeState]:
        """Rules and a position equally winnable as ``rules`` and ``state``, move for move,
        that are cheaper to search: only the redeals left matter, so the rules with that
        many redeals and none used, and with no limit at all when at least as many are left
        as there are cards in the stock and waste (``docs/solver.md``, "Redeals beyond what
        can matter": a line of this space never needs more); and ``autoplay`` off, which
        only :meth:`~cardtable.core.game.Game.play` reads (the space is the same, and the
        compiled core then takes it).

        >>> from cardtable.games.klondike import Klondike
        >>> r, s = KlondikeSpace.equivalent(Klondike(redeals=100_000), Klondike().deal(0))
        >>> r.options["redeals"], s == Klondike().deal(0)
        (None, True)
        >>> s = Klondike(redeals=30).deal(0)._replace(redeals_used=10)
        >>> r, t = KlondikeSpace.equivalent(Klondike(redeals=30), s)
        >>> r.options["redeals"], t.redeals_used
        (20, 0)
        >>> KlondikeSpace.equivalent(Klondike(autoplay=True), s)[0].options["autoplay"]
        False
        """
        redeals = rules.options["redeals"]
        autoplay = rules.options["autoplay"]
        if redeals is None:
            limit = None
        else:
            left = max(0, redeals - state.redeals_used)
            limit = None if left >= len(state.stock) + len(state.waste) else left
        if limit == redeals and not state.redeals_used and not autoplay:
            return rules, state
        return type(rules)(**dict(rules.options, redeals=limit, autoplay=False)), state._replace(redeals_used=0)

    def key(self, s: KlondikeState) -> Hashable:
        """The position with its tableau piles sorted (the piles are interchangeable).

        >>> from cardtable.games.klondike import Klondike
        >>> r = Klondike(); s = r.deal(0)
        >>> KlondikeSpace(r).key(s) == KlondikeSpace(r).key(s._replace(tableau=s.tableau[::-1], down=s.down[::-1]))
        True
        """
        # The plain form is klondike_plain_key. One bytes object holds the same in
        # about a fifth of the memory of its nested tuples, and the seen set holds a key
        # for every position explored. Cards (0..51), counts and the digits of the
        # redeals used never make the byte 255, so 255 between the eleven parts keeps
        # different positions' keys different.
        piles = sorted(zip(s.tableau, s.down, strict=True))
        parts = [bytes(s.stock), bytes(s.waste), bytes(s.foundations), b"%d" % s.redeals_used]
        parts += [bytes((down, *pile)) for pile, down in piles]
        return b"\xff".join(parts)

    def is_won(self, s: KlondikeState) -> bool:
        """All cards on the foundations.

        >>> from cardtable.games.klondike import Klondike
        >>> KlondikeSpace(Klondike()).is_won(Klondike().deal(0))
        False
        """
        return sum(s.foundations) == 52

    def safe_move(self, s: KlondikeState, legal: list[KlondikeMove]) -> KlondikeMove | None:
        """Among the legal moves ``legal`` of ``s``, a move to a foundation that can
        never lose a win, if there is one.

        >>> from cardtable.games.klondike import Klondike
        >>> s = Klondike().deal(0)
        >>> str(KlondikeSpace(Klondike()).safe_move(s, Klondike().legal_moves(s)))  # the ace of spades
        '3f'
        """
        for move in legal:
            if move.dst != FOUNDATION:
                return None  # foundation moves come first
            if move.src == WASTE and not self._draw1:
                continue
            if _safe(s.foundations, s.waste[-1] if move.src == WASTE else s.tableau[move.src][-1]):
                return move
        return None

    def _forced(self, s: KlondikeState, legal: list[KlondikeMove]) -> KlondikeMove | None:
        """The move :meth:`children` makes alone, if any: :meth:`safe_move`."""
        return self.safe_move(s, legal)

    def _stock_plays(self, s: KlondikeState) -> list[tuple[tuple[KlondikeMove, ...], KlondikeState]]:
        """Every stock/waste arrangement with a waste top reachable from ``s`` by draws
        and redeals alone, with the moves that reach it."""
        arrangements = self._cycles.get((s.stock, s.waste, s.redeals_used))
        if arrangements is None:
            # The arrangements depend on the stock, the waste and the redeals used only,
            # which change far less often than the tableau: work them out once.
            if len(self._cycles) > 200_000:
                self._cycles.clear()
            arrangements = []
            apply = self.rules.apply
            limit = self.rules.options["redeals"]
            prefix: tuple[KlondikeMove, ...] = ()
            here = s
            seen = set()
            while (here.stock, here.waste, here.redeals_used) not in seen:
                seen.add((here.stock, here.waste, here.redeals_used))
                if here.waste:
                    arrangements.append((prefix, here.stock, here.waste, here.redeals_used))
                if here.stock:
                    step = DRAW
                elif here.waste and (limit is None or here.redeals_used < limit):
                    step = REDEAL
                else:
                    break
                prefix = (*prefix, step)
                here = apply(here, step)
            self._cycles[(s.stock, s.waste, s.redeals_used)] = arrangements
        found, tab, down = s.foundations, s.tableau, s.down
        return [(p, KlondikeState(stock, waste, found, tab, down, used)) for p, stock, waste, used in arrangements]

    def children(self, s: KlondikeState) -> Iterator[Edge]:
        """The safe move alone if there is one; else tableau and foundation moves, and
        every play of a card the stock can bring to the waste top, best first.

        >>> from cardtable.games.klondike import Klondike
        >>> r = Klondike(numbering="javasol")
        >>> sorted(str(m[-1]) for m, _ in KlondikeSpace(r).children(r.deal(0)))[:3]
        ['25', '27', '43']
        """
        rules = self.rules
        legal = rules.legal_moves(s)
        forced = self._forced(s, legal)
        if forced is not None:
            yield (forced,), rules.apply(s, forced)
            return
        edges = self._edges(s, legal)
        edges.sort(key=lambda e: (e[0], e[1]))
        for _, _, moves, move, before in edges:
            yield moves, rules.apply(before, move)

    def _edges(self, s: KlondikeState, legal: list[KlondikeMove]) -> list[_ScoredEdge]:
        """The edges of :meth:`children` when no move is forced, unsorted."""
        edges: list[_ScoredEdge] = []
        self._add_edges(s, legal, (), -1, edges)
        return edges

    def _add_edges(
        self,
        s: KlondikeState,
        legal: list[KlondikeMove],
        switch: tuple[KlondikeMove, ...],
        pile: int,
        edges: list[_ScoredEdge],
    ) -> None:
        """Add to ``edges`` (score, order, moves, last move, position before it) the moves
        of ``legal`` that :meth:`_changes` keeps, and every play of a card the stock can
        bring to the waste top, each after ``switch``; with ``pile`` >= 0 only the moves
        of ``pile``'s top card alone and the moves onto it (the class space's switches)."""
        for move in legal:
            src, dst, n = move
            if src == WASTE or move is DRAW or move is REDEAL:
                continue  # the stock plays below make every waste play
            if (pile < 0 or dst == pile or (src == pile and n == 1)) and self._changes(s, move):
                self._add_edge(s, move, switch, edges)
        for prefix, here in self._stock_plays(s):
            for move in self.rules.waste_moves(here):
                if pile < 0 or move.dst == pile:
                    score = -60 + len(prefix) - 40 * (move.dst == FOUNDATION)
                    edges.append((score, len(edges), (*switch, *prefix, move), move, here))

    def _add_edge(
        self, s: KlondikeState, move: KlondikeMove, switch: tuple[KlondikeMove, ...], edges: list[_ScoredEdge]
    ) -> None:
        """Add to ``edges`` the edge of the legal move ``move`` of ``s`` (after ``switch``)."""
        edges.append((-self._score(s, move), len(edges), (*switch, move), move, s))

    def _changes(self, s: KlondikeState, move: KlondikeMove) -> bool:
        """Whether :meth:`children` offers the legal move ``move`` of ``s``: every one here."""
        return True

    @staticmethod
    def _score(s: KlondikeState, move: KlondikeMove) -> int:
        """How promising a move looks: foundations and turning cards up first."""
        src, dst, n = move
        if dst == FOUNDATION:
            return 100
        if src < 7:
            if n == len(s.tableau[src]) - s.down[src]:  # the whole face-up run leaves
                return 90 if s.down[src] else 20
            return 10
        if src == WASTE:
            return 60
        return 0  # from a foundation


class KlondikeClassSpace(KlondikeSpace):
    """Klondike with the face-up arrangement forgotten: positions that differ only in
    which of two twin cards (same rank and colour) each face-up card lies on share a key,
    and the moves of a position are those of every position of its class (``solve``'s
    complete Klondike search; ``docs/solver.md`` gives the proof that this is exact).

    A pile's *root* is its bottom face-up card. Every other face-up card *hangs* on a
    card one rank higher of the other colour, one of two twins. The class of a position
    is its stock, waste, redeals used, foundations and, for each pile, its face-down
    cards and root; the hanging cards are the rest. A card can be uncovered in some
    position of the class exactly when the hanging cards of the rank below and other
    colour fit on the other face-up cards of its rank and colour (at most two of each),
    and then it is uncovered here already or becomes so by moving what lies on it onto
    its twin, which is then uncovered: one legal move (a *switch*). So every move of
    the class is played from here, after a switch where one is needed, and moves that
    only rearrange hanging cards (a hanging card onto its other twin, a king alone in
    its pile into an empty pile) are left out: they do not change the class.

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); s = r.deal(0); space = KlondikeClassSpace(r)
    >>> space.key(s) == space.key(s._replace(tableau=s.tableau[::-1], down=s.down[::-1]))
    True
    >>> r = Klondike(numbering="javasol")
    >>> sorted(str(m[-1]) for m, _ in KlondikeClassSpace(r).children(r.deal(0)))[:3]
    ['25', '27', '43']
    """

    def key(self, s: KlondikeState) -> Hashable:
        """The class: stock, waste, foundations, redeals used and the sorted piles as
        face-down cards and root (the hanging cards are the cards left over).

        >>> from cardtable.games.klondike import Klondike
        >>> len(KlondikeClassSpace(Klondike()).key(Klondike().deal(0)))
        67
        """
        # A pile's first byte is its bottom card, which no other pile holds, so sorting
        # the parts sorts the piles; 255 between the parts keeps the keys apart.
        piles = sorted(bytes(p[: d + 1]) for p, d in zip(s.tableau, s.down, strict=True) if p)
        stock, waste = s.stock, s.waste
        if self._on_cycle(s):  # the waste sizes of the stock's cycle are one: kept as after a redeal
            stock, waste = stock + waste[::-1], ()
        return b"\xff".join([bytes(stock), bytes(waste), bytes(s.foundations), b"%d" % s.redeals_used, *piles])

    def _on_cycle(self, s: KlondikeState) -> bool:
        """Whether the waste size of ``s`` is one the stock's cycle passes through from an
        empty waste, with unlimited redeals (``docs/solver.md``, "The waste sizes of the
        stock's cycle"): in draw 3 0, 3, 6, ... or the whole talon, in draw 1 every size.
        From each of these, draws and redeals alone reach every other and change nothing
        else, and such positions have the same children here (the same stock plays, each to
        the same position; the other moves keep the waste size), but where draw 1's safe
        move plays the waste top: that move alone, which keeps a win. So :meth:`key` merges
        them. Not with limited redeals, which draws use up.

        >>> from cardtable.games.klondike import DRAW, Klondike
        >>> r = Klondike(); space = KlondikeClassSpace(r); s = r.deal(0)
        >>> space._on_cycle(s), space._on_cycle(r.apply(s, DRAW))
        (True, True)
        >>> space.key(s) == space.key(r.apply(s, DRAW))
        True
        >>> KlondikeClassSpace(Klondike(draw=1))._on_cycle(s), KlondikeClassSpace(Klondike(redeals=2))._on_cycle(s)
        (True, False)
        """
        draw = self.rules.options["draw"]
        if self.rules.options["redeals"] is not None:
            return False
        p = len(s.waste)
        return p % draw == 0 or not s.stock

    def forced_move(self, s: KlondikeState) -> KlondikeMove | None:
        """The safe move of the class, if there is one: of the safe cards that can go to
        their foundations (``KlondikeSpace.safe_move``'s rule) and are uncovered in every
        position of the class, the lowest card.

        >>> from cardtable.games.klondike import Klondike
        >>> str(KlondikeClassSpace(Klondike()).forced_move(Klondike().deal(0)))
        '3f'
        """
        hanging = _hanging_types(s)
        best: tuple[int, KlondikeMove] | None = None
        if self._draw1 and s.waste:
            c = s.waste[-1]
            if _safe(s.foundations, c):
                best = (c, WASTE_TO_FOUNDATION)
        for i, p in enumerate(s.tableau):
            if p:
                c = p[-1]
                # A safe card of rank 3 or more has both cards of the rank below and
                # other colour home, so nothing ever lies on it; a two may hold an ace.
                if _safe(s.foundations, c) and not hanging[_below(c)] and (best is None or c < best[0]):
                    best = (c, TAB_TO_FOUNDATION[i])
        return None if best is None else best[1]

    def _forced(self, s: KlondikeState, legal: list[KlondikeMove]) -> KlondikeMove | None:
        """The move :meth:`children` makes alone, if any: :meth:`forced_move`."""
        return self.forced_move(s)

    def _edges(self, s: KlondikeState, legal: list[KlondikeMove]) -> list[_ScoredEdge]:
        """Every move of the class: this position's own, then for each covered face-up
        card whose twin is a pile's top, the switch and each move of that card alone or
        onto it (the edge holds both)."""
        edges = super()._edges(s, legal)
        rules = self.rules
        tab, down = s.tableau, s.down
        tops = {p[-1]: i for i, p in enumerate(tab) if p}
        for i, p in enumerate(tab):
            for k in range(down[i], len(p) - 1):
                j = tops.get(_twin(p[k]))
                if j is not None:  # p[k] is covered and its twin is not: switch
                    switch = TAB_TO_TAB[i][j][len(p) - 1 - k]
                    after = rules.apply(s, switch)
                    self._add_edges(after, rules.legal_moves(after), (switch,), i, edges)
        return edges

    def _add_edge(
        self, s: KlondikeState, move: KlondikeMove, switch: tuple[KlondikeMove, ...], edges: list[_ScoredEdge]
    ) -> None:
        """Add the edge of ``move`` (after ``switch``), unless it brings back from its
        foundation a card that the class's safe move (:meth:`forced_move`) would send
        straight home; or, for a move that empties a pile
        (its whole face-up run, with no face-down card under it, onto another pile), the
        *emptying macros*: the move followed by each move of a king into the emptied pile,
        in this order: a king root above face-down cards (with its run), a king from a
        foundation, a king the stock can bring up. After a switch, an emptying move adds
        nothing: its class is that of the plain emptying move onto the switch's twin.

        Why leaving out such a return is exact (``docs/solver.md``, "A card back from its
        foundation"): the position it leads to has that safe move as its only child, and
        the safe move leads back to the class of ``s``, which the search has already
        taken. The player (:mod:`cardtable.bots.honest`) takes its candidates from these
        edges: it no longer goes round a card sent home and brought back.

        Why the emptying macros are exact (``docs/solver.md``, "Emptying a pile"): an empty pile takes only
        kings, and the run moved off it (its bottom not a king) lies on its new parent just
        as it lay alone, so every winning line can be rearranged to make each emptying move
        just before a king moves into that pile (or not at all).

        >>> from cardtable.games.klondike import Klondike, KlondikeState, TAB_TO_TAB
        >>> from cardtable.core.cards import parse_card as c
        >>> r = Klondike(); space = KlondikeClassSpace(r)
        >>> piles = ((c("9S"),), (c("5D"), c("10H")), (c("3D"), c("KC")), (), (), (), ())
        >>> rest = tuple(x for x in range(52) if x not in {y for p in piles for y in p})
        >>> s = KlondikeState(rest, (), (0, 0, 0, 0), piles, (0, 1, 1, 0, 0, 0, 0), 0)
        >>> [[str(m) for m in moves] for moves, _ in space.children(s) if moves[0] == TAB_TO_TAB[0][1][1]]
        [['12', '31']]
        """
        src, dst, n = move
        if src >= FOUNDATION and self.forced_move(self.rules.apply(s, move)) == TAB_TO_FOUNDATION[dst]:
            return  # a card back from its foundation that the safe move sends straight home
        if not (src < 7 and dst < 7 and n == len(s.tableau[src]) and not s.down[src]):
            super()._add_edge(s, move, switch, edges)
            return
        if switch:
            return
        score = -self._score(s, move)
        after = self.rules.apply(s, move)
        kings: list[tuple[tuple[KlondikeMove, ...], KlondikeMove, KlondikeState]] = []
        for m, (p, d) in enumerate(zip(after.tableau, after.down, strict=True)):
            if m != src and d and RANK[p[d]] == 13:
                kings.append(((), TAB_TO_TAB[m][src][len(p) - d], after))
        if self.rules.options["foundation_return"]:
            kings += [((), FOUNDATION_TO_TAB[su][src], after) for su in range(4) if after.foundations[su] == 13]
        kings += [
            (prefix, WASTE_TO_TAB[src], here) for prefix, here in self._stock_plays(after) if RANK[here.waste[-1]] == 13
        ]
        for prefix, king, before in kings:
            edges.append((score, len(edges), (move, *prefix, king), king, before))

    def _changes(self, s: KlondikeState, move: KlondikeMove) -> bool:
        """Whether the legal move ``move`` of ``s`` changes the class: all but a hanging
        card onto its twin and a king alone in its pile into an empty pile."""
        src, dst, n = move
        if src < 7 and dst < 7:
            base = len(s.tableau[src]) - n
            return not (base > s.down[src] or (base == 0 and not s.tableau[dst]))
        return True


def _twin(c: int) -> int:
    """The other card of ``c``'s rank and colour (clubs and spades, diamonds and hearts).

    >>> from cardtable.core.cards import card_text, parse_card
    >>> card_text(_twin(parse_card("8S")))
    '8C'
    """
    return c + (3 - 2 * SUIT[c]) * 13


def _below(c: int) -> int:
    """The type (rank times two plus colour) of the cards that can lie on ``c``.

    >>> from cardtable.core.cards import parse_card
    >>> _below(parse_card("8S")) == _below(parse_card("8C")) == 7 * 2 + 1
    True
    """
    return (RANK[c] - 1) * 2 + (not RED[c])


def _hanging_types(s: KlondikeState) -> list[int]:
    """How many hanging cards (face up, not a pile's root) there are of each type
    (rank times two plus colour, as :func:`_below` gives).

    >>> from cardtable.games.klondike import Klondike
    >>> sum(_hanging_types(Klondike().deal(0)))
    0
    """
    hanging = [0] * 28
    for p, d in zip(s.tableau, s.down, strict=True):
        for c in p[d + 1 :]:
            hanging[RANK[c] * 2 + RED[c]] += 1
    return hanging


def _safe(found: tuple[int, ...], c: int) -> bool:
    """Whether ``c`` can go to its foundation and no card still in play can ever need it
    (``KlondikeSpace.safe_move``'s rule).

    >>> from cardtable.core.cards import parse_card
    >>> _safe((0, 0, 0, 0), parse_card("AH")), _safe((0, 0, 0, 0), parse_card("2H"))
    (True, False)
    """
    r = RANK[c]
    if found[SUIT[c]] != r - 1:
        return False
    if r <= 2:
        return True
    other = (0, 3) if RED[c] else (1, 2)
    return found[other[0]] >= r - 1 and found[other[1]] >= r - 1 and found[3 - SUIT[c]] >= r - 2


# --- Demonthief ------------------------------------------------------------------


class DemonthiefSpace:
    """Demonthief and Demons and Thieves with the stock model, safe moves, symmetry and
    one target per set of equivalent empty piles (module docstring).

    >>> r = Demonthief(); s = r.deal(0)
    >>> [[str(m) for m in moves] for moves, _ in DemonthiefSpace(r).children(s)][:3]
    [['x5'], ['42'], ['81']]
    """

    # Move order (speed only): higher first; a stock play loses one point per move it takes.
    SCORE_RESERVE_HOME = 30
    SCORE_HOME = 20
    SCORE_STOCK_HOME = 1
    SCORE_RESERVE = 10
    SCORE_WASTE = 5
    SCORE_EMPTYING = 2
    SCORE_STOCK = -2
    SCORE_INTO_EMPTY = -1
    SCORE_EXPOSES_HOME = 0
    """A tableau move that uncovers a card which can go home at once (0 here: the grading's
    node counts are measured in this order; the solver's :class:`DemonthiefSolverSpace` sets it)."""

    POSITION_BYTES = 8192
    """The most memory a remembered position takes in the Python search of this space, in
    bytes (:func:`cardtable.solve.memory.position_bytes`; measured: 6,300 at a cap of
    100,000 when nearly every position lies on the path, each holding its children)."""

    def __init__(self, rules: Demonthief) -> None:
        self.rules = rules
        self._redeals = rules.REDEALS

    def key(self, s: DemonthiefState) -> Hashable:
        """Foundations, left piles and right piles each sorted (each set is interchangeable).

        >>> r = Demonthief(); s = r.deal(0); t = s.tableau
        >>> sp = DemonthiefSpace(r); sp.key(s) == sp.key(s._replace(tableau=t[3::-1] + t[:3:-1]))
        True
        """
        tab = s.tableau
        return (
            s.stock,
            s.waste,
            s.reserve,
            tuple(sorted(s.foundations)),
            tuple(sorted(tab[:4])),
            tuple(sorted(tab[4:])),
            s.base,
            s.redeals_used,
        )

    def is_won(self, s: DemonthiefState) -> bool:
        """No card left outside the foundations (all 104 are home).

        >>> DemonthiefSpace(Demonthief()).is_won(Demonthief().deal(0))
        False
        """
        return not (s.stock or s.waste or s.reserve or any(s.tableau))

    def safe_move(self, s: DemonthiefState) -> DemonthiefMove | None:
        """The first move to a foundation (in legal-move order) of a card on which nothing
        could ever be built again: the move ``Demonthief.auto_move`` gives, if any.

        >>> r = Demonthief(); s = r.deal(0); DemonthiefSpace(r).safe_move(s) == r.auto_move(s)
        True
        """
        waste, reserve, found, tab, base = s.waste, s.reserve, s.foundations, s.tableau, s.base
        tops = [(dt.WASTE, waste), (dt.RESERVE, reserve), *enumerate(tab)]
        for src, pile in tops:
            if pile:
                c = pile[-1]
                if dt.goes_home(c, found, base) and dt.is_safe_home(c, found, base):
                    return dt.TO_FOUNDATION[src]
        return None

    def _stock_tops(self, s: DemonthiefState) -> Iterator[tuple[int, int, int]]:
        """Every card that draws (and redeals) alone can bring to the waste top from ``s``,
        except the waste top itself, as ``(card, redeals, draws)``: the card is on top
        after ``draws`` draws when ``redeals`` is 0, else after drawing the whole stock,
        turning the waste over and drawing ``draws`` more. Arrangements that only repeat
        an earlier one with more redeals used are left out."""
        stock, waste = s.stock, s.waste
        n = len(stock)
        for k in range(1, n + 1):
            yield stock[n - k], 0, k
        if s.redeals_used < self._redeals and waste:
            # After the redeal the waste holds ``full[:m]`` after m draws. With m >= len(waste)
            # that repeats an arrangement above (or the position itself) with a redeal less
            # left, and every later pass repeats this one.
            for m in range(1, len(waste)):
                yield waste[m - 1], 1, m

    def _arrangement(self, s: DemonthiefState, redeals: int, draws: int) -> Edge:
        """The draws and redeals of a :meth:`_stock_tops` arrangement, and the position they reach.

        >>> r = dt.DemonsAndThieves(); s = r.deal(0); s = s._replace(stock=s.stock[:-3], waste=s.stock[:-4:-1])
        >>> moves, here = DemonthiefSpace(r)._arrangement(s, 1, 2)
        >>> "".join(map(str, moves)) == "d" * len(s.stock) + "rdd", here.waste == s.waste[:2]
        (True, True)
        """
        stock, waste, reserve, found, tab, base, used = s
        n = len(stock)
        if not redeals:
            return (dt.DRAW,) * draws, DemonthiefState(
                stock[: n - draws], waste + stock[n - draws :][::-1], reserve, found, tab, base, used
            )
        full = waste + stock[::-1]
        moves = (dt.DRAW,) * n + (dt.REDEAL,) + (dt.DRAW,) * draws
        return moves, DemonthiefState(full[draws:][::-1], full[:draws], reserve, found, tab, base, used + 1)

    def children(self, s: DemonthiefState) -> Iterator[Edge]:
        """The safe move alone if there is one; else every legal move but draws and
        redeals, and every play of a card the stock can bring to the waste top, best
        first, with moves into an empty pile only to the first empty pile of its side.

        >>> r = Demonthief(); s = r.deal(0)
        >>> all(moves[-1] not in (dt.DRAW, dt.REDEAL) for moves, _ in DemonthiefSpace(r).children(s))
        True
        """
        rules = self.rules
        safe = self.safe_move(s)
        if safe is not None:
            yield (safe,), rules.apply(s, safe)
            return
        found, tab, base = s.foundations, s.tableau, s.base
        # The first empty pile of each side: any other empty pile of the side is the same
        # target (the key sorts the piles of a side).
        first_left = next((j for j in dt.LEFT if not tab[j]), -1)
        first_right = next((j for j in dt.RIGHT if not tab[j]), -1)
        edges: list[tuple[int, int, tuple[DemonthiefMove, ...], DemonthiefMove, DemonthiefState]] = []
        for move in rules.legal_moves(s):
            src, dst, n = move
            if src == dt.STOCK or dst == dt.STOCK:
                continue  # the stock model below makes every draw and redeal
            if dst == dt.FOUNDATION:
                score = self.SCORE_RESERVE_HOME if src == dt.RESERVE else self.SCORE_HOME
            else:
                if not tab[dst] and dst != first_left and dst != first_right:
                    continue
                if src == dt.RESERVE:
                    score = self.SCORE_RESERVE
                elif src == dt.WASTE:
                    score = self.SCORE_WASTE
                elif not tab[dst]:
                    score = self.SCORE_INTO_EMPTY
                else:
                    score = self.SCORE_EMPTYING if n == len(tab[src]) else 0
                if src in dt.TABLEAU and n < len(tab[src]) and dt.goes_home(tab[src][-n - 1], found, base):
                    score += self.SCORE_EXPOSES_HOME  # the card it uncovers can go home
            edges.append((-score, len(edges), (move,), move, s))
        # Every card the stock can bring to the waste top, played where it goes.
        accept: dict[int, list[int]] = {}
        for j in dt.TABLEAU:
            q = tab[j]
            if q:
                for c in dt.LEFT_CHILDREN[q[-1]] if j < 4 else (dt.PREV[q[-1]],):
                    accept.setdefault(c, []).append(j)
        empties = [j for j in (first_left, first_right) if j >= 0]
        home = dt.TO_FOUNDATION[dt.WASTE]
        for c, redeals, draws in self._stock_tops(s):
            to_home = dt.goes_home(c, found, base)
            targets = accept.get(c)
            if not (to_home or targets or empties):
                continue
            prefix, here = self._arrangement(s, redeals, draws)
            k = len(prefix)
            if to_home:
                edges.append((k - self.SCORE_STOCK_HOME, len(edges), (*prefix, home), home, here))
            for j in sorted(targets + empties) if targets else empties:
                play = dt.WASTE_TO_TAB[j]
                edges.append((k - self.SCORE_STOCK, len(edges), (*prefix, play), play, here))
        edges.sort(key=lambda e: (e[0], e[1]))
        apply = rules.apply
        for _, _, moves, move, before in edges:
            yield moves, apply(before, move)


class DemonthiefSolverSpace(DemonthiefSpace):
    """:class:`DemonthiefSpace` in the solver's move order (:func:`cardtable.solve.solve`, the
    hints, the honest player's samples): a tableau move that uncovers a card which can go home
    at once comes before the other tableau moves. The same positions, keys and verdicts; only
    the order of the children differs, and with it which win the search finds first and how
    soon (``docs/solver.md``: on Demonthief deals 300-599 within 6 million positions each, 6
    left unknown instead of 16, in under a third of the time).

    >>> r = Demonthief(); s = r.deal(0)
    >>> def lines(space): return sorted(" ".join(map(str, moves)) for moves, _ in space.children(s))
    >>> lines(DemonthiefSolverSpace(r)) == lines(DemonthiefSpace(r))
    True
    """

    SCORE_EXPOSES_HOME = 3
    PRUNED_WIDTHS: tuple[int, ...] = (2, 3, 4, 5)
    """``solve``'s incomplete phases in this space (:func:`cardtable.solve.solver.pruned_widths`)."""
    PRUNED_RESTARTS: tuple[tuple[int, int], ...] = ((3, 2), (3, 3))
    """... and its restart phases (:func:`cardtable.solve.types.pruned_restarts`): width 3
    from every position 2, then 3, steps in (``docs/solver.md``, "Restarts")."""
    SAMPLE_PROGRESS = True
    """The honest player's undecided samples tell how far their search got
    (:func:`cardtable.solve.types.sample_progress`): a won game takes 250 moves or more, so at the
    start nearly every sample is undecided within a sample's positions (``docs/bots.md``)."""


# --- Desturado -----------------------------------------------------------------------


class DesturadoSpace:
    """Desturado with a key that keeps only what the rules read (module docstring) and
    one target per set of equivalent empty places.

    >>> r = Desturado(mode="hard")
    >>> [str(m[0]) for m, _ in DesturadoSpace(r).children(r.deal(0))]
    ['a4', 'ba', '24', '31']
    """

    # Move order (speed only): higher first. A unit into the hand gains its cards.
    SCORE_TURN_UP = 20
    SCORE_PER_CARD = 1
    SCORE_TO_HAND = 0
    SCORE_INTO_SPACE = 0
    SCORE_INTO_COLUMN = -3
    SCORE_MERGE = 0

    POSITION_BYTES = 1024
    """The most memory a remembered position takes in the Python search of this space, in
    bytes (:func:`cardtable.solve.memory.position_bytes`; measured: 820 at a cap of 100,000)."""

    def __init__(self, rules: Desturado) -> None:
        self.rules = rules

    def key(self, s: DesturadoState) -> Hashable:
        """Each column as its face-down cards and its unit's bottom and top card, each hand
        stack as its bottom and top card; columns sorted, hand stacks sorted.

        >>> r = Desturado(mode="hard"); s = r.deal(0); sp = DesturadoSpace(r)
        >>> sp.key(s) == sp.key(s._replace(columns=s.columns[::-1], down=s.down[::-1], hand=s.hand[::-1]))
        True
        """
        # The rules only ever read a unit's bottom card (does it fit?), a pile's top card
        # (what fits on it?) and whether a place is empty: the cards between never matter.
        columns = sorted((c[:d], c[d], c[-1]) if c else () for c, d in zip(s.columns, s.down, strict=True))
        hand = sorted((h[0], h[-1]) if h else () for h in s.hand)
        return tuple(columns), tuple(hand)

    def is_won(self, s: DesturadoState) -> bool:
        """Every board column is empty.

        >>> r = Desturado(); DesturadoSpace(r).is_won(r.deal(0))
        False
        """
        return not any(s.columns)

    def children(self, s: DesturadoState) -> Iterator[Edge]:
        """Every legal move but those into an empty column or hand space after the first
        empty one, most cards gained first (cards into the hand, then a card turned up).

        >>> r = Desturado(); s = r.deal(0)
        >>> len(list(DesturadoSpace(r).children(s))) <= len(r.legal_moves(s))
        True
        """
        columns, down, hand = s
        first_column = next((i for i, c in enumerate(columns) if not c), -1)
        first_space = next((HAND + k for k, h in enumerate(hand) if not h), -1)
        scored = []
        for i, move in enumerate(self.rules.legal_moves(s)):
            src, dst = move
            if dst < HAND:
                if columns[dst]:
                    gain = 0
                elif dst == first_column:
                    gain = self.SCORE_INTO_COLUMN
                else:
                    continue
            elif src >= HAND:
                gain = self.SCORE_MERGE
            else:
                if hand[dst - HAND]:
                    gain = self.SCORE_TO_HAND
                elif dst == first_space:
                    gain = self.SCORE_INTO_SPACE
                else:
                    continue
                gain += self.SCORE_PER_CARD * (len(columns[src]) - down[src])
            if src < HAND and down[src]:
                gain += self.SCORE_TURN_UP
            scored.append((-gain, i, move))
        scored.sort()
        apply = self.rules.apply
        for _, _, move in scored:
            yield (move,), apply(s, move)


class DesturadoProofSpace(DesturadoSpace):
    """:class:`DesturadoSpace` without the children that
    :func:`~cardtable.solve.lost.desturado_lost` proves lost: the space ``solve`` searches
    (Desturado's ``solver_space``). A lost position leads to no win, so a complete search
    of this space that finds none still proves the deal lost, and it ends far sooner on
    lost deals. The grading searches keep :class:`DesturadoSpace` (their node counts are
    the levels' measures).

    >>> r = Desturado(mode="hard"); s = r.deal(0)
    >>> [m for m, _ in DesturadoProofSpace(r).children(s)] == [m for m, _ in DesturadoSpace(r).children(s)]
    True
    """

    PRUNED_RESTARTS: tuple[tuple[int, int], ...] = ((3, 2), (3, 3))
    """``solve``'s restart phases in this space, as Demonthief's
    (:func:`cardtable.solve.types.pruned_restarts`; ``docs/solver.md``, "Restarts")."""

    def children(self, s: DesturadoState) -> Iterator[Edge]:
        """:meth:`DesturadoSpace.children`, in the same order, less those proved lost.

        >>> r = Desturado(); s = r.deal(0)
        >>> len(list(DesturadoProofSpace(r).children(s))) <= len(list(DesturadoSpace(r).children(s)))
        True
        """
        for moves, after in super().children(s):
            if not desturado_lost(after):
                yield moves, after


def devils_square_space(rules: Rules[Any, Any]) -> RulesSpace:
    """Devil's Square's space: the plain one, its sixteen positions sorted in the key
    (:func:`devils_square_key`: they are interchangeable).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square"); devils_square_space(r).key(r.deal(0)) == devils_square_key(r.deal(0))
    True
    """
    return RulesSpace(rules, key=devils_square_key)


def space_for(rules: Rules[Any, Any]) -> Any:
    """The search space for a one-player game's rules: the one its declaration names
    (:attr:`~cardtable.core.spec.GameSpec.search_space`, by default :class:`RulesSpace`),
    made from the rules.

    >>> from cardtable.games import rules_for
    >>> type(space_for(rules_for("klondike"))).__name__
    'KlondikeSpace'
    """
    return resolve(spec_for(rules.name).search_space)(rules)


def equivalent_start(rules: Rules[Any, Any], state: Any) -> tuple[Rules[Any, Any], Any]:
    """The rules and position a search of ``state`` under ``rules`` should start from: the
    ones the game's search space offers as equally winnable and cheaper to search (its
    ``equivalent``, a static method: :meth:`KlondikeSpace.equivalent`), else the same.
    A line found from them is a line of legal moves from ``state`` under ``rules``.

    >>> from cardtable.games import rules_for
    >>> r, s = equivalent_start(rules_for("klondike", redeals=5000), rules_for("klondike").deal(0))
    >>> r.options["redeals"], equivalent_start(rules_for("desturado"), None)[1]
    (None, None)
    """
    equivalent = getattr(resolve(spec_for(rules.name).search_space), "equivalent", None)
    if equivalent is None:
        return rules, state
    found: tuple[Rules[Any, Any], Any] = equivalent(rules, state)
    return found


class EagerSpace:
    """A search space in which a move making immediate progress, when there is one,
    must be taken: the *eager player* of the deal levels (:mod:`cardtable.levels`), who
    always makes a move that makes immediate progress when one is available.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> [str(m[0]) for m, _ in EagerSpace(r).children(r.deal(0))]
    ['3f']
    """

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self.inner = space_for(rules)

    def key(self, state: Any) -> Hashable:
        """The inner space's key.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); EagerSpace(r).key(r.deal(0)) == devils_square_key(r.deal(0))
        True
        """
        key: Hashable = self.inner.key(state)
        return key

    def is_won(self, state: Any) -> bool:
        """Whether the position is won.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); EagerSpace(r).is_won(r.deal(0))
        False
        """
        won: bool = self.inner.is_won(state)
        return won

    def children(self, state: Any) -> Iterator[tuple[Any, Any]]:
        """The progress-making single moves if there are any, else every edge.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado")
        >>> len(list(EagerSpace(r).children(r.deal(0)))) <= len(r.legal_moves(r.deal(0)))
        True
        """
        progress = self.rules.progress
        here = progress(state)
        edges = list(self.inner.children(state))
        eager = [(moves, after) for moves, after in edges if len(moves) == 1 and is_progress(progress(after), here)]
        return iter(eager or edges)

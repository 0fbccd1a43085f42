"""Search spaces: how the solver walks each game's positions.

Every space uses the game's own rules (``legal_moves`` and ``apply``) for
every step, so a solution is a list of real moves. What a space adds, each a
reduction that can never lose a win:

- **Symmetry** (``key``): positions that differ only by the order of piles
  the rules treat alike share a key. Klondike's seven tableau piles, Desturado's
  columns and its hand spaces, Demonthief's four left piles, five right piles
  and eight foundations are interchangeable, so their contents are sorted in
  the key. Devil's Square is not symmetric (empty positions fill in reading
  order), so its key is the position itself.
- **Safe moves**: a move that can never hurt is made at once, with no
  alternative tried. Klondike: a tableau card to its foundation when it is an
  ace or a two, or when both foundations of the other colour reach one rank
  below it and the other foundation of its colour two ranks below (then no
  card still in play can ever need it as a base, and with foundation returns
  it could even come back). In draw 1 the waste top counts too; in draw 3 it
  does not, because taking a card out of the waste shifts which cards later
  draws turn up. Demonthief: its ``autoplay`` rule, a card on which nothing
  could ever be built again.
- **Klondike's stock**: draws and redeals never change the tableau, so any
  winning line can be rearranged so that draws come just before the waste play
  they serve. The space therefore has no draw moves; instead every card that
  cycling the stock can bring to the waste top is playable at once, the edge
  holding the draws (and redeals) it takes followed by the play.
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
from ..core.rules import Rules
from ..games.demonthief import Demonthief, DemonthiefState
from ..games.desturado import Desturado, DesturadoState
from ..games.klondike import DRAW, FOUNDATION, REDEAL, WASTE, Klondike, KlondikeMove, KlondikeState

Edge = tuple[Sequence[Any], Any]


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


# --- Klondike -------------------------------------------------------------------


class KlondikeSpace:
    """Klondike with the stock model and safe foundation moves (module docstring).

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); s = r.deal(1)
    >>> all(moves[-1] not in (DRAW, REDEAL) for moves, _ in KlondikeSpace(r).children(s))
    True
    """

    def __init__(self, rules: Klondike) -> None:
        self.rules = rules
        self._draw1 = rules.options["draw"] == 1
        self._cycles: dict[tuple[Any, ...], list[tuple[tuple[KlondikeMove, ...], Any, Any, int]]] = {}

    def key(self, s: KlondikeState) -> Hashable:
        """The position with its tableau piles sorted (the piles are interchangeable).

        >>> from cardtable.games.klondike import Klondike
        >>> r = Klondike(); s = r.deal(0)
        >>> KlondikeSpace(r).key(s) == KlondikeSpace(r).key(s._replace(tableau=s.tableau[::-1], down=s.down[::-1]))
        True
        """
        return (s.stock, s.waste, s.foundations, tuple(sorted(zip(s.tableau, s.down, strict=True))), s.redeals_used)

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
        found = s.foundations
        for move in legal:
            if move.dst != FOUNDATION:
                return None  # foundation moves come first
            if move.src == WASTE:
                if not self._draw1:
                    continue
                c = s.waste[-1]
            else:
                c = s.tableau[move.src][-1]
            r = RANK[c]
            if r <= 2:
                return move
            other = (0, 3) if RED[c] else (1, 2)
            same = 3 - SUIT[c]  # the other suit of its colour (C-S, D-H)
            if found[other[0]] >= r - 1 and found[other[1]] >= r - 1 and found[same] >= r - 2:
                return move
        return None

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
        safe = self.safe_move(s, legal)
        if safe is not None:
            yield (safe,), rules.apply(s, safe)
            return
        edges: list[tuple[int, int, Sequence[KlondikeMove], KlondikeMove, KlondikeState]] = []
        for move in legal:
            if move.src == WASTE or move is DRAW or move is REDEAL:
                continue  # the stock model below makes every waste play
            edges.append((-self._score(s, move), len(edges), (move,), move, s))
        waste_moves = rules.waste_moves
        for prefix, here in self._stock_plays(s):
            for move in waste_moves(here):
                edges.append(
                    (-60 + len(prefix) - 40 * (move.dst == FOUNDATION), len(edges), [*prefix, move], move, here)
                )
        edges.sort(key=lambda e: (e[0], e[1]))
        for _, _, moves, move, before in edges:
            yield moves, rules.apply(before, move)

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


# --- the other games -----------------------------------------------------------------


def _desturado_key(s: DesturadoState) -> Hashable:
    """Columns (with their face-down counts) and hand spaces sorted: each set is interchangeable."""
    return tuple(sorted(zip(s.columns, s.down, strict=True))), tuple(sorted(s.hand))


def _demonthief_key(s: DemonthiefState) -> Hashable:
    """Foundations, left piles and right piles each sorted (each set is interchangeable)."""
    left = tuple(sorted(s.tableau[:4]))
    right = tuple(sorted(s.tableau[4:]))
    return s.stock, s.waste, s.reserve, tuple(sorted(s.foundations)), left, right, s.base, s.redeals_used


def space_for(rules: Rules[Any, Any]) -> Any:
    """The search space for a one-player game's rules.

    >>> from cardtable.games import rules_for
    >>> type(space_for(rules_for("klondike"))).__name__
    'KlondikeSpace'
    """
    if isinstance(rules, Klondike):
        return KlondikeSpace(rules)
    if isinstance(rules, Desturado):
        return RulesSpace(rules, key=_desturado_key)
    if isinstance(rules, Demonthief):
        return RulesSpace(rules, key=_demonthief_key, safe=rules.auto_move)
    return RulesSpace(rules)

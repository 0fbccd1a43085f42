"""Exact "over" along an episode, cheaply: what the research environments ask after every move.

A one-player game is over when no move can change the position any more
(:mod:`cardtable.core.progress`): exactly when ``can_progress(rules, state, limit)
is False``, that is when the positions reachable without progress (``R(state)``:
every position reachable by moves none of which reaches progress over ``state``'s
end measure, :func:`~cardtable.core.progress.end_measure`) number at most ``limit``,
none has a move that makes progress and (Demonthief) each can come back to ``state``.
That answer does not depend on the order of the search, and
:class:`EpisodeOver` gives exactly it for each position of an episode, played
one after another, spending far less than a search from scratch each time:

1. **Remembered**: a position seen before in the episode has its answer.
2. **Compiled**: the search runs in the game's compiled core where it has one
   (:func:`cardtable.solve.native.can_progress`: Klondike, Demonthief, Demons and
   Thieves; else in Python), first with a small bound (``probe`` positions): most
   positions reach progress within a few, and a search that ends within the
   bound without progress is already the exact "over" (at most ``probe <= limit``
   positions).
3. **The same component**: the positions played since the end measure last
   changed all have the same measure ``b``, and each was not over (the episode
   went on). When the new position has measure ``b`` too and one of its moves
   leads back to one of them, each reaches the other without progress over
   ``b``, so both have the same ``R`` and the same answer: not over. Klondike's
   tableau moves are mostly reversible, so a long stretch of play where progress
   is far (a search of a hundred thousand positions) costs one search, not one
   a move.
4. Only then the whole search with the bound ``limit``.

>>> from cardtable.games import rules_for
>>> from cardtable.core.progress import can_progress
>>> r = rules_for("klondike"); over = EpisodeOver(r)
>>> s = r.deal(0)
>>> over.over(s, r.legal_moves(s)), can_progress(r, s) is False
(False, False)
"""

from __future__ import annotations

from typing import Any

from ..core.progress import DEFAULT_LIMIT, end_measure
from ..core.rules import Rules
from ..solve.native import can_progress

PROBE = 1_000
"""The bound of the first, small search (positions)."""


class EpisodeOver:
    """Whether each position of one episode is over, exactly as
    ``can_progress(rules, state, limit) is False`` (module docstring). Give it the
    positions in the order they are played, starting with the deal's (a new episode, or
    a position not reached by a move from the last one given: a new object).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("demonthief"); over = EpisodeOver(r, limit=50_000)
    >>> s = r.deal(3); answers = []
    >>> for _ in range(30):
    ...     legal = r.legal_moves(s)
    ...     answers.append(over.over(s, legal))
    ...     s = r.apply(s, legal[-1])
    >>> answers.count(False)
    30
    """

    def __init__(self, rules: Rules[Any, Any], limit: int = DEFAULT_LIMIT, probe: int = PROBE) -> None:
        self.rules = rules
        self.limit = limit
        self.probe = probe
        self._known: dict[Any, bool] = {}
        self._base: tuple[int, ...] | None = None
        self._stretch: set[Any] = set()

    def over(self, state: Any, legal: list[Any], base: tuple[int, ...] | None = None) -> bool:
        """Whether ``state``, the position after the last one given (or the first), is over:
        no sequence of moves from it can make progress. ``legal`` is its legal moves, ``base``
        its end measure (:func:`~cardtable.core.progress.end_measure`; computed when not given).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); s = r.deal(1)
        >>> EpisodeOver(r).over(s, r.legal_moves(s))
        False
        """
        if base is None:
            base = end_measure(self.rules, state)
        over = self._known.get(state)
        if over is None:
            over = self._search(state, legal, base)
            self._known[state] = over
        if base != self._base:  # a new stretch of positions of one end measure
            self._base = base
            self._stretch = set()
        if not over:
            self._stretch.add(state)
        return over

    def _search(self, state: Any, legal: list[Any], base: tuple[int, ...]) -> bool:
        rules, limit = self.rules, self.limit
        targets: set[Any] = set()
        if self.probe < limit:
            found = can_progress(rules, state, self.probe)
            if found is not None:
                return not found
            if base == self._base:
                targets = self._stretch
                apply = rules.apply
                if any(apply(state, move) in targets for move in legal):
                    return False
        return can_progress(rules, state, limit, targets) is False

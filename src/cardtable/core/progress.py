"""Exact "over" detection: can any sequence of moves still make progress?

The rules end a game when it is won or when no move can change the position
any more (cards moved back and forth, or the stock cycled, change nothing). Each
game defines its progress measure (:meth:`Rules.progress`: a card reaches a
foundation, a face-down card turns up, a book is made...) and its one-way counts
(:meth:`Rules.one_way`: a card leaves the stock or waste, a pile empties for
good...); together they are the *end measure* (:func:`end_measure`), and a
position is *progress* over the current one when any of its numbers is larger. A
game is **over** when it is won, or when no position reachable from here is
progress. The positions reachable *without* progress (stock cycling, cards moved
back and forth) are finitely many, so a search over them decides it exactly.
Where the counts do not see every move that cannot be taken back
(:attr:`Rules.ONE_WAY_COMPLETE` False: Demonthief's tableau), a search that finds
no progress also asks whether every position it reached can come back to the one
asked about; one that cannot is progress too. It looks depth first for
:data:`PROBE` positions (progress is usually found at once that way), then
breadth first: a depth-first search can wander through the positions that
rearrange the table while progress is a few moves away (a Klondike position of
random play: 2.3 s to give up at the size limit depth first, 2 ms to find the
draw and play breadth first).

The search has a size limit as a guard; if it is reached the answer is
"unknown", and the game is then **not** called over (we never say "over"
while progress might still be possible).

>>> from cardtable.games import rules_for
>>> r = rules_for("klondike")
>>> can_progress(r, r.deal(0))
True
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .rules import Rules

DEFAULT_LIMIT = 200_000


def end_measure(rules: Rules[Any, Any], state: Any) -> tuple[int, ...]:
    """What over detection compares: the progress measure, then the one-way counts.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); end_measure(r, r.deal(0))
    (0, -21, -24, -6)
    """
    return rules.progress(state) + rules.one_way(state)


def is_progress(after: tuple[int, ...], before: tuple[int, ...]) -> bool:
    """Whether measure ``after`` (an end measure, or a progress measure) is progress over ``before``: any number larger.

    >>> is_progress((3, -20), (2, -20)), is_progress((2, -21), (2, -20))
    (True, False)
    """
    return any(a > b for a, b in zip(after, before, strict=True))


def can_progress(rules: Rules[Any, Any], state: Any, limit: int = DEFAULT_LIMIT) -> bool | None:
    """True if some sequence of legal moves from ``state`` reaches progress,
    False if none does (the search was complete), None if the search reached
    ``limit`` positions first.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> can_progress(r, r.deal(3), limit=1) in (True, None)
    True
    """
    probe = _search(rules, state, min(limit, PROBE), depth_first=True)
    if probe is not None or limit <= PROBE:
        return probe
    return _search(rules, state, limit, depth_first=False)


PROBE = 1_000
"""How many positions :func:`can_progress` looks at depth first before it starts again
breadth first (module docstring)."""


def _search(rules: Rules[Any, Any], state: Any, limit: int, depth_first: bool) -> bool | None:
    """:func:`can_progress`'s search in one order: depth first or breadth first.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square"); s = r.deal(2)
    >>> _search(r, s, 10_000, depth_first=True) == _search(r, s, 10_000, depth_first=False)
    True
    """
    base = end_measure(rules, state)
    seen = {state}
    waiting = deque([state])
    take = waiting.pop if depth_first else waiting.popleft
    legal_moves = rules.legal_moves
    apply = rules.apply
    while waiting:
        here = take()
        for move in legal_moves(here):
            there = apply(here, move)
            if is_progress(end_measure(rules, there), base):
                return True
            if there not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(there)
                waiting.append(there)
    return not comes_back(rules, state, seen)


def comes_back(rules: Rules[Any, Any], state: Any, reached: set[Any] | dict[Any, Any]) -> bool:
    """Whether every position of ``reached`` (the positions reachable from ``state``
    without progress: a search ended there) can come back to ``state``; True at once for
    a game whose one-way counts see every move that cannot be taken back
    (:attr:`Rules.ONE_WAY_COMPLETE`). A position that cannot come back is one a move
    changed for good: progress, for the rules' end.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("demonthief"); s = r.deal(0)
    >>> comes_back(r, s, {s})
    True
    """
    if rules.ONE_WAY_COMPLETE:
        return True
    before: dict[Any, list[Any]] = {here: [] for here in reached}
    for here in reached:
        for move in rules.legal_moves(here):
            there = rules.apply(here, move)
            if there in before:
                before[there].append(here)
    back = {state}
    waiting = [state]
    while waiting:
        for earlier in before[waiting.pop()]:
            if earlier not in back:
                back.add(earlier)
                waiting.append(earlier)
    return len(back) == len(before)


class ProgressMemo:
    """:func:`can_progress` with a memory, for asking about many positions of one game
    in a row.

    The answer for a position depends only on the position and its end
    measure (the *base*), so it is remembered by both: every position on a path
    found to reach progress over a base reaches it too, and when a search over a
    base ends without progress, none of the positions it saw can make progress
    over that base. A later search stops at a remembered position instead of
    exploring past it, and searches breadth first, so that a position a move or
    two away from a remembered one (the one before a move, often) is found
    first. True and False are exactly :func:`can_progress`'s answers; a position
    seen by a search that reached the size limit answers None (not known)
    without a new search, where a search of its own might decide (None never
    calls a game over, so this errs only towards playing on).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); memo = ProgressMemo(r)
    >>> s = r.deal(0)
    >>> memo.can_progress(s) == can_progress(r, s), memo.can_progress(s)
    (True, True)
    """

    def __init__(self, rules: Rules[Any, Any], limit: int = DEFAULT_LIMIT) -> None:
        self.rules = rules
        self.limit = limit
        self._yes: dict[tuple[int, ...], set[Any]] = {}
        self._no: dict[tuple[int, ...], set[Any]] = {}
        self._unknown: dict[tuple[int, ...], set[Any]] = {}

    def can_progress(self, state: Any, legal: list[Any] | None = None) -> bool | None:
        """As :func:`can_progress` (True, False, or None at the size limit). ``legal``, when
        given, is the legal moves of ``state`` (a caller that has them saves their making).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); s = r.deal(2)
        >>> ProgressMemo(r).can_progress(s, r.legal_moves(s)) == can_progress(r, s)
        True
        """
        rules = self.rules
        base = end_measure(rules, state)
        yes = self._yes.setdefault(base, set())
        no = self._no.setdefault(base, set())
        if state in yes:
            return True
        if state in no:
            return False
        legal_moves = rules.legal_moves
        unknown = self._unknown.setdefault(base, set())
        if legal is None:
            legal = legal_moves(state)
        if state in unknown and legal:  # a dead end is always decided: no move, no progress
            return None
        apply = rules.apply
        parent: dict[Any, Any] = {state: None}  # every position seen, and the one it was reached from
        queue = deque([state])
        while queue:
            here = queue.popleft()
            for move in legal if here is state else legal_moves(here):
                there = apply(here, move)
                # A position over that does not hold state (its search would have put state
                # in no) cannot come back to it: where the one-way counts miss such moves,
                # reaching it is progress.
                if (
                    there in yes
                    or is_progress(end_measure(rules, there), base)
                    or (there in no and not rules.ONE_WAY_COMPLETE)
                ):
                    at: Any = here
                    while at is not None:  # the path to here reaches progress over base
                        yes.add(at)
                        at = parent[at]
                    return True
                if there not in parent and there not in no:
                    if len(parent) >= self.limit:
                        unknown.update(parent)
                        return None
                    parent[there] = here
                    queue.append(there)
        if not comes_back(rules, state, parent):
            yes.add(state)
            return True
        no.update(parent)
        return False

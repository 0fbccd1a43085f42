"""Exact "over" detection: can any sequence of moves still make progress?

Each game defines a progress measure (:meth:`Rules.progress`), a tuple of
numbers such that a position is *progress* over the current one when any
number is larger: a card reaches a foundation, a face-down card turns up, a
book is made... A game is **over** when it is won, or when no position
reachable from here is progress. The positions reachable *without* progress
(stock cycling, cards moved back and forth) are finitely many, so a
depth-first search over them decides it exactly.

The search has a size limit as a guard; if it is reached the answer is
"unknown", and the game is then **not** called over (we never say "over"
while progress might still be possible).

>>> from cardtable.games import rules_for
>>> r = rules_for("klondike")
>>> can_progress(r, r.deal(0))
True
"""

from __future__ import annotations

from typing import Any

from .rules import Rules

DEFAULT_LIMIT = 200_000


def is_progress(after: tuple[int, ...], before: tuple[int, ...]) -> bool:
    """Whether progress measure ``after`` is progress over ``before``: any number larger.

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
    base = rules.progress(state)
    seen = {state}
    stack = [state]
    legal_moves = rules.legal_moves
    apply = rules.apply
    progress = rules.progress
    while stack:
        here = stack.pop()
        for move in legal_moves(here):
            there = apply(here, move)
            if is_progress(progress(there), base):
                return True
            if there not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(there)
                stack.append(there)
    return False

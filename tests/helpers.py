"""Helpers shared by the tests: move-count checks ("perft") and random play."""

from __future__ import annotations

import random
from typing import Any

from cardtable.core.rules import Rules


def perft(rules: Rules[Any, Any], state: Any, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state`` (leaf count).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> perft(r, r.deal(0), 1) == len(r.legal_moves(r.deal(0)))
    True
    """
    if depth == 0:
        return 1
    return sum(perft(rules, rules.apply(state, m), depth - 1) for m in rules.legal_moves(state))


def distinct_positions(rules: Rules[Any, Any], state: Any, depth: int) -> int:
    """The number of different positions reached by exactly ``depth`` moves from ``state``.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> distinct_positions(r, r.deal(0), 0)
    1
    """
    layer = {state}
    for _ in range(depth):
        layer = {rules.apply(s, m) for s in layer for m in rules.legal_moves(s)}
    return len(layer)


def random_line(rules: Rules[Any, Any], state: Any, seed: int, length: int) -> list[Any]:
    """Up to ``length`` positions of seeded random play from ``state`` (``state`` first).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> len(random_line(r, r.deal(0), seed=1, length=5))
    6
    """
    rng = random.Random(seed)
    line = [state]
    for _ in range(length):
        moves = rules.legal_moves(state)
        if not moves:
            break
        state = rules.apply(state, rng.choice(moves))
        line.append(state)
    return line


def reachable(rules: Rules[Any, Any], start: Any) -> set[Any]:
    """Every position reachable from ``start`` by the rules' legal moves (a small space: a toy
    game's deal, a test's end game)."""
    seen = {start}
    waiting = [start]
    while waiting:
        here = waiting.pop()
        for move in rules.legal_moves(here):
            there = rules.apply(here, move)
            if there not in seen:
                seen.add(there)
                waiting.append(there)
    return seen

"""The search engine shared by every solver: depth-first search with a transposition table.

A *search space* says, for a position, which positions follow and by which
moves (an edge may stand for several real moves, e.g. draws then a play), when
a position is won, and what key identifies positions that are equivalent for
winning (e.g. the same piles in another order). The engine explores every
position reachable from the start, each key once, in the space's move order,
and stops at the first win, at the end of the space (a proof that no win
exists), or at the budget.

Why it is exact: a position's winnability depends only on its key's class, and
every position whose key was seen was (or is being) explored, so a complete
search without a win proves that no sequence of moves wins.

The types a search shares with the compiled cores (:class:`SearchSpace`,
:class:`Budget`, :class:`Found`, :class:`Pruned`) live in :mod:`cardtable.solve.types`
and are importable from here too.

>>> from cardtable.solve.spaces import space_for
>>> from cardtable.games import rules_for
>>> r = rules_for("desturado", mode="hard")
>>> found = depth_first(space_for(r), r.deal(3), Budget(nodes=10_000))
>>> found.verdict in ("solved", "unsolvable", "unknown")
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from . import native
from .types import Budget, Found, Pruned, SearchSpace


def depth_first(space: SearchSpace, start: Any, budget: Budget) -> Found:
    """Search ``space`` from ``start`` until a win, a complete search, or the budget.

    ``verdict`` is ``"solved"`` (``moves`` wins), ``"unsolvable"`` (the search
    was complete) or ``"unknown"`` (the budget ran out first).

    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square")
    >>> depth_first(space_for(r), r.deal(0), Budget(nodes=1)).verdict
    'unknown'
    """
    began = time.perf_counter()
    deadline = None if budget.seconds is None else began + budget.seconds
    max_nodes = budget.nodes
    max_seen = budget.memory
    every = budget.clock_every if type(budget.clock_every) is int and budget.clock_every > 0 else 256
    if space.is_won(start):
        return Found("solved", [], 0, time.perf_counter() - began)
    key = space.key
    is_won = space.is_won
    children = space.children
    seen = {key(start)}
    # The path: one iterator of untried children per position on it, and the
    # moves that led to each position after the first.
    stack = [iter(children(start))]
    path: list[Sequence[Any]] = []
    nodes = 1
    while stack:
        for moves, state in stack[-1]:
            k = key(state)
            if k in seen:
                continue
            if is_won(state):
                path.append(moves)
                return Found("solved", [m for step in path for m in step], nodes, time.perf_counter() - began)
            if (
                (max_nodes is not None and nodes >= max_nodes)
                or (max_seen is not None and len(seen) >= max_seen)
                or (deadline is not None and nodes % every == 0 and time.perf_counter() > deadline)
            ):
                return Found("unknown", [], nodes, time.perf_counter() - began)
            seen.add(k)
            nodes += 1
            path.append(moves)
            stack.append(iter(children(state)))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return Found("unsolvable", [], nodes, time.perf_counter() - began)


def search(space: SearchSpace, start: Any, budget: Budget) -> Found:
    """:func:`depth_first`, by the game's compiled core when one applies (the same result:
    see :mod:`cardtable.solve.native`), else by :func:`depth_first` itself. Every solver
    search goes through here; :func:`depth_first` stays the reference.

    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> found = search(space_for(r), r.deal(7), Budget(nodes=5_000))
    >>> ref = depth_first(space_for(r), r.deal(7), Budget(nodes=5_000))
    >>> (found.verdict, found.nodes, found.moves) == (ref.verdict, ref.nodes, ref.moves)
    True
    """
    found = native.search(space, start, budget)
    return depth_first(space, start, budget) if found is None else found


__all__ = ["Budget", "Found", "Pruned", "SearchSpace", "depth_first", "search"]

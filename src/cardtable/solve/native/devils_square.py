"""The compiled core of the Devil's Square solver (``_devils_square.c``), used when it is built.

:func:`search` runs the search of :func:`~cardtable.solve.search.depth_first` in C for
the space of Devil's Square (:class:`~cardtable.solve.spaces.RulesSpace` of
:class:`~cardtable.games.devils_square.DevilsSquare` with the symmetric key
:func:`~cardtable.solve.spaces.devils_square_key`, what :func:`~cardtable.solve.spaces.space_for`
gives, or with no key function; no safe move), :class:`~cardtable.solve.search.Pruned`
of it (the first ``k`` children), and :class:`~cardtable.solve.spaces.EagerSpace` of it
(also pruned). It explores exactly the positions the Python search explores, in the same
order: the same legal moves in the same order, the same progress and stable sort, the
same key (the pile numbers sorted, or in reading order, kept exactly, never as a lossy
hash, so "unsolvable" is still a proof), the same node counting and budget checks. So the verdict, the nodes and
the moves are the Python search's; only ``seconds`` differs. The pure Python code stays
the reference: with the environment variable ``CARDTABLE_PURE=1``, or when the core is
not built, :func:`search` gives ``None`` and the caller searches in Python.

>>> from cardtable.games.devils_square import DevilsSquare
>>> from cardtable.solve.search import depth_first
>>> r = DevilsSquare()
>>> found = search(RulesSpace(r), r.deal(0), Budget(nodes=1_000))
>>> reference = depth_first(RulesSpace(r), r.deal(0), Budget(nodes=1_000))
>>> found is None or (found.verdict, found.nodes, found.moves) == (reference.verdict, reference.nodes, reference.moves)
True
"""

from __future__ import annotations

import time
from typing import Any

from ...games.devils_square import _PILES, DECK_SIZE, MOVES, SIZE, DevilsSquare, DevilsSquareState
from ..spaces import RulesSpace, devils_square_key
from ..types import Budget, Found
from . import load, pure, run, unwrap

CORE = load("devils_square")
"""The compiled module (None: not built)."""

BYTES_PER_POSITION = 64
"""The most memory a remembered position takes in this core, in bytes, with room to spare:
three-word keys; measured under 30.
:func:`cardtable.solve.memory.position_bytes` sizes ``solve``'s default memory limit by it."""

_MOST_CHILDREN = 240  # more than a position ever has (one move per source and target), so a larger k keeps them all


def _plan(space: Any) -> tuple[bool, bool, int] | None:
    """Whether the Devil's Square space under ``space`` has the symmetric key, whether it is
    eager, and ``k`` (-1: every child); None for any other space (another game, a subclass,
    options, another key or a safe move)."""
    plan = unwrap(space, RulesSpace)
    if plan is None:
        return None
    rules_space, eager, k = plan
    rules = rules_space.rules
    key = rules_space._key
    if type(rules) is not DevilsSquare or rules.options or key not in (None, devils_square_key):
        return None
    if rules_space._safe is not None:
        return None
    return key is devils_square_key, eager, -1 if k > _MOST_CHILDREN else k


def _cards(pile: Any) -> bool:
    """Whether ``pile`` is a tuple of cards (ints 0..63)."""
    return type(pile) is tuple and all(type(c) is int and 0 <= c < DECK_SIZE for c in pile)


def _position(start: Any) -> DevilsSquareState | None:
    """The start, if it is a position the core takes: 16 field piles (tuples, each one of
    :func:`~cardtable.games.devils_square.field_piles` or empty), a draw pile of at most 64
    cards (a tuple) and 0 to 64 books."""
    if not isinstance(start, DevilsSquareState):
        return None
    field, draw, books = start
    if type(field) is not tuple or len(field) != SIZE:
        return None
    if not all(_cards(pile) and pile in _PILES for pile in field):
        return None
    if not _cards(draw) or len(draw) > DECK_SIZE or type(books) is not int or not 0 <= books <= DECK_SIZE:
        return None
    return start


def _moves(path: bytes) -> list[Any]:
    """The rules' moves of a path the core gives (source, target and count a move)."""
    return [MOVES[path[i]][path[i + 1]][path[i + 2] - 1] for i in range(0, len(path), 3)]


def search(space: Any, start: Any, budget: Budget) -> Found | None:
    """:func:`~cardtable.solve.search.depth_first` in C, with the same result but ``seconds``,
    for a Devil's Square space (module docstring); None when the core does not take ``space``
    or ``start``, is not built, or ``CARDTABLE_PURE=1``.

    >>> from cardtable.games.devils_square import DevilsSquare
    >>> from cardtable.solve.spaces import EagerSpace
    >>> from cardtable.solve.search import Pruned
    >>> r = DevilsSquare()
    >>> found = search(Pruned(EagerSpace(r), 3), r.deal(0), Budget(nodes=500))
    >>> found is None or (found.verdict, found.nodes) == ("unknown", 500)
    True
    >>> search(RulesSpace(r, key=str), r.deal(1), Budget()) is None
    True
    """
    began = time.perf_counter()
    args = _arguments(space, start)
    return None if args is None else run(CORE, args, budget, began, _moves)


def _arguments(space: Any, start: Any) -> tuple[Any, ...] | None:
    """The core's arguments for a space and position but the budget (None: the core does
    not take them)."""
    plan = _plan(space)
    if plan is None:
        return None
    symmetric, eager, k = plan
    position = _position(start)
    if position is None:
        return None
    return (*position, symmetric, eager, k)


def takes(space: Any, start: Any) -> bool:
    """Whether :func:`search` searches ``space`` from ``start`` in C (else: Python).

    >>> from cardtable.games.devils_square import DevilsSquare
    >>> takes(RulesSpace(DevilsSquare()), DevilsSquare().deal(0)) == (CORE is not None and not pure())
    True
    """
    return CORE is not None and not pure() and _arguments(space, start) is not None

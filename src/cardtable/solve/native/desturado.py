"""The compiled core of the Desturado solver (``_desturado.c``), used when it is built.

:func:`search` runs the search of :func:`~cardtable.solve.search.depth_first` in C for
the Desturado spaces: :class:`~cardtable.solve.spaces.DesturadoSpace`,
:class:`~cardtable.solve.spaces.DesturadoProofSpace` (the solver's: the children proved
lost by :func:`~cardtable.solve.lost.desturado_lost` left out, the bound computed in C),
:class:`~cardtable.solve.search.Pruned` of either (the first ``k`` children), and
:class:`~cardtable.solve.spaces.EagerSpace` of it (also pruned). It explores exactly the
positions the Python search explores, in the same order: the same legal moves in the
same order, the same empty targets left out, the same scores and sort, the same key (kept
exactly, never as a lossy hash, so "unsolvable" is still a proof), the same node counting
and budget checks. So the verdict, the nodes and the moves are the Python search's; only
``seconds`` differs. The pure Python code stays the reference: with the environment
variable ``CARDTABLE_PURE=1``, or when the core is not built, :func:`search` gives
``None`` and the caller searches in Python.

>>> from cardtable.games import rules_for
>>> from cardtable.solve.search import depth_first
>>> from cardtable.solve.spaces import DesturadoSpace
>>> r = rules_for("desturado", mode="medium")
>>> found = search(DesturadoSpace(r), r.deal(0), Budget(nodes=1_000))
>>> reference = depth_first(DesturadoSpace(r), r.deal(0), Budget(nodes=1_000))
>>> found is None or (found.verdict, found.nodes, found.moves) == (reference.verdict, reference.nodes, reference.moves)
True
"""

from __future__ import annotations

import time
from typing import Any

from ...games.desturado import MOVES, Desturado, fits
from ..spaces import DesturadoProofSpace, DesturadoSpace
from ..types import Budget, Found
from . import load, pure, run, unwrap

CORE = load("desturado")
"""The compiled module (None: not built)."""

BYTES_PER_POSITION = 64
"""The most memory a remembered position takes in this core, in bytes, with room to spare:
measured 41 at a cap of a million positions.
:func:`cardtable.solve.memory.position_bytes` sizes ``solve``'s default memory limit by it."""

# fit[bottom * 52 + top]: whether a unit with that bottom card fits on that top card.
_FIT = bytes(fits(b, t) for b in range(52) for t in range(52))

_SCORES = ("SCORE_TURN_UP", "SCORE_PER_CARD", "SCORE_TO_HAND", "SCORE_INTO_SPACE", "SCORE_INTO_COLUMN", "SCORE_MERGE")
_SCORE_LIMIT = 2**40
_MOST_CHILDREN = 100  # more than a position ever has (65), so a larger k keeps them all


def _plan(space: Any) -> tuple[DesturadoSpace, bool, bool, int] | None:
    """The Desturado space under ``space``, whether it is eager, whether it leaves out the
    children proved lost (:class:`~cardtable.solve.spaces.DesturadoProofSpace`), and ``k``
    (-1: every child); None for any other space."""
    plan = unwrap(space, DesturadoSpace) or unwrap(space, DesturadoProofSpace)
    if plan is None or type(plan[0].rules) is not Desturado:
        return None
    desturado, eager, k = plan
    return desturado, eager, type(desturado) is DesturadoProofSpace, -1 if k > _MOST_CHILDREN else k


def _position(rules: Desturado, start: Any) -> tuple[Any, Any, Any] | None:
    """The start's columns, face-down counts and hand as tuples, if it is a position the
    core takes: the mode's places, distinct cards, face-down cards under a top card."""
    if not isinstance(start, tuple) or len(start) != 3:
        return None
    columns, down, hand = start
    if not (isinstance(columns, tuple) and isinstance(down, tuple) and isinstance(hand, tuple)):
        return None
    if len(columns) != rules.columns or len(down) != rules.columns or len(hand) != rules.hand_spaces:
        return None
    cards: list[Any] = []
    for pile in (*columns, *hand):
        if not isinstance(pile, tuple):
            return None
        cards.extend(pile)
    if not all(type(c) is int and 0 <= c < 52 for c in cards) or len(set(cards)) != len(cards):
        return None
    for column, d in zip(columns, down, strict=True):
        if type(d) is not int or not (0 <= d < len(column) or d == len(column) == 0):
            return None
    return columns, down, hand


def _moves(path: bytes) -> list[Any]:
    """The rules' moves of a path the core gives (source and target a move)."""
    return [MOVES[path[i], path[i + 1]] for i in range(0, len(path), 2)]


def search(space: Any, start: Any, budget: Budget) -> Found | None:
    """:func:`~cardtable.solve.search.depth_first` in C, with the same result but ``seconds``,
    for a Desturado space (module docstring); None when the core does not take ``space``
    or ``start``, is not built, or ``CARDTABLE_PURE=1``.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.search import Pruned
    >>> from cardtable.solve.spaces import DesturadoSpace, RulesSpace
    >>> r = rules_for("desturado", mode="hard")
    >>> found = search(Pruned(DesturadoSpace(r), 3), r.deal(1), Budget(nodes=500))
    >>> found is None or (found.verdict, found.nodes) == ("unknown", 500)
    True
    >>> search(Pruned(RulesSpace(r), 3), r.deal(1), Budget()) is None
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
    desturado, eager, prune, k = plan
    position = _position(desturado.rules, start)
    scores = tuple(getattr(desturado, name) for name in _SCORES)
    if position is None or not all(type(s) is int and abs(s) <= _SCORE_LIMIT for s in scores):
        return None
    return (*position, _FIT, scores, eager, prune, k)


def takes(space: Any, start: Any) -> bool:
    """Whether :func:`search` searches ``space`` from ``start`` in C (else: Python).

    >>> r = Desturado()
    >>> takes(DesturadoSpace(r), r.deal(0)) == (CORE is not None and not pure()), takes(DesturadoSpace(r), None)
    (True, False)
    """
    return CORE is not None and not pure() and _arguments(space, start) is not None

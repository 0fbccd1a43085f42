"""The compiled core of the Demonthief solver (``_demonthief.c``), used when it is built.

:func:`search` runs the search of :func:`~cardtable.solve.search.depth_first` in C for
the spaces of both games (Demonthief and Demons and Thieves):
:class:`~cardtable.solve.spaces.DemonthiefSpace`, :class:`~cardtable.solve.search.Pruned`
of it (the first ``k`` children), and :class:`~cardtable.solve.spaces.EagerSpace` of it
(also pruned). It explores exactly the positions the Python search explores, in the same
order: the same safe move, the same legal moves in the same order, the same empty
targets left out, the same stock plays (draws and redeals) in the same order, the same
scores and stable sort, the same key (kept exactly, never as a lossy hash, so
"unsolvable" is still a proof), the same node counting and budget checks. So the
verdict, the nodes and the moves (draws and redeals included) are the Python search's;
only ``seconds`` differs. The pure Python code stays the reference: with the
environment variable ``CARDTABLE_PURE=1``, or when the core is not built, :func:`search`
gives ``None`` and the caller searches in Python.

>>> from cardtable.games.demonthief import DemonsAndThieves
>>> from cardtable.solve.search import depth_first
>>> r = DemonsAndThieves()
>>> found = search(DemonthiefSpace(r), r.deal(0), Budget(nodes=1_000))
>>> reference = depth_first(DemonthiefSpace(r), r.deal(0), Budget(nodes=1_000))
>>> found is None or (found.verdict, found.nodes, found.moves) == (reference.verdict, reference.nodes, reference.moves)
True
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

from ...games import demonthief as dt
from ...games.demonthief import DemonsAndThieves, Demonthief, DemonthiefMove, DemonthiefState
from ..spaces import DemonthiefSolverSpace, DemonthiefSpace
from ..types import Budget, Found, SampleBatch, pruned_widths, sample_progress
from . import load, pure, run, sample_with, unwrap

CORE = load("demonthief")
"""The compiled module (None: not built)."""

BYTES_PER_POSITION = 512
"""The most memory a remembered position takes in this core, in bytes, with room to spare:
a 128-byte key and its slots, and on a deep path each position's edges;
measured 150 on a shallow search and 400 when nearly every position lies on the path (deal
438, a million positions).
:func:`cardtable.solve.memory.position_bytes` sizes ``solve``'s default memory limit by it."""

_GAMES = (Demonthief, DemonsAndThieves)
_SCORES = (
    "SCORE_RESERVE_HOME",
    "SCORE_HOME",
    "SCORE_STOCK_HOME",
    "SCORE_RESERVE",
    "SCORE_WASTE",
    "SCORE_EMPTYING",
    "SCORE_STOCK",
    "SCORE_INTO_EMPTY",
    "SCORE_EXPOSES_HOME",
)
_SCORE_LIMIT = 1_000_000
_MAX_REDEALS = 255  # the core keeps the redeals used in one byte


def _plan(space: Any) -> tuple[DemonthiefSpace, bool, int] | None:
    """The Demonthief space under ``space``, whether it is eager, and ``k`` (-1: every
    child); None for any other space."""
    plan = unwrap(space, DemonthiefSpace) or unwrap(space, DemonthiefSolverSpace)
    if plan is None or type(plan[0].rules) not in _GAMES:
        return None
    return plan


def _cards(pile: Any) -> bool:
    """Whether ``pile`` is a tuple of cards."""
    return type(pile) is tuple and all(type(c) is int and 0 <= c < 52 for c in pile)


def _position(start: Any) -> bool:
    """Whether the core takes ``start``: a position of the game's shape with at most the
    104 cards outside the foundations."""
    if type(start) is not DemonthiefState:
        return False
    stock, waste, reserve, found, tab, base, used = start
    if not (_cards(stock) and _cards(waste) and _cards(reserve) and type(tab) is tuple and len(tab) == 9):
        return False
    if not all(_cards(pile) for pile in tab):
        return False
    if type(found) is not tuple or len(found) != 8 or not all(type(t) is int and -1 <= t < 52 for t in found):
        return False
    if type(base) is not int or not 1 <= base <= 13 or type(used) is not int or not 0 <= used <= _MAX_REDEALS:
        return False
    return len(stock) + len(waste) + len(reserve) + sum(len(p) for p in tab) <= dt.DECK_SIZE


def _move(src: int, dst: int, n: int) -> DemonthiefMove:
    """The rules' own move object for a move the core names."""
    if src == dt.STOCK:
        return dt.DRAW
    if dst == dt.STOCK:
        return dt.REDEAL
    if dst == dt.FOUNDATION:
        return dt.TO_FOUNDATION[src]
    if src == dt.WASTE:
        return dt.WASTE_TO_TAB[dst]
    if src == dt.RESERVE:
        return dt.RESERVE_TO_TAB[dst]
    return dt.TAB_TO_TAB[src][dst][n]


def search(space: Any, start: Any, budget: Budget, *, exact: bool = True) -> Found | None:
    """:func:`~cardtable.solve.search.depth_first` in C, with the same result but ``seconds``,
    for a Demonthief space (module docstring); None when the core does not take ``space``
    or ``start``, is not built, or ``CARDTABLE_PURE=1``.

    ``exact=False`` is a search for wins only, for deals the exact search cannot finish in
    the memory there is: positions are remembered by 63-bit fingerprints of their keys,
    about 24 bytes a position instead of about 150 (``budget.memory`` counts positions
    either way). Two positions with one fingerprint would leave the second unexplored, so it
    may miss a win but never make one (every line is the rules' moves; its caller,
    ``bench/demonthief_deep.py``, replays each through the rules), and a complete search
    that finds none says "unknown", not "unsolvable". ``solve`` never uses it
    (``docs/analysis.md``).

    >>> from cardtable.solve.search import Pruned
    >>> r = Demonthief()
    >>> found = search(Pruned(DemonthiefSpace(r), 3), r.deal(1), Budget(nodes=500))
    >>> found is None or (found.verdict, found.nodes) == ("unknown", 500)
    True
    >>> from cardtable.games.klondike import Klondike
    >>> from cardtable.solve.spaces import space_for
    >>> search(Pruned(space_for(Klondike()), 3), Klondike().deal(1), Budget()) is None
    True
    >>> lossy = search(DemonthiefSpace(r), r.deal(1), Budget(nodes=500), exact=False)
    >>> lossy is None or (lossy.verdict, lossy.nodes) == (found.verdict, 500)
    True
    """
    began = time.perf_counter()
    args = _arguments(space, start)
    return None if args is None else run(CORE, args, budget, began, lambda path: [_move(*m) for m in path], exact)


def _arguments(space: Any, start: Any) -> tuple[Any, ...] | None:
    """The core's arguments for a space and position but the budget (None: the core does
    not take them)."""
    plan = _plan(space)
    if plan is None or not _position(start):
        return None
    demonthief, eager, k = plan
    redeals = demonthief._redeals
    scores = tuple(getattr(demonthief, name) for name in _SCORES)
    if type(redeals) is not int or not 0 <= redeals <= _MAX_REDEALS:
        return None
    if not all(type(s) is int and abs(s) <= _SCORE_LIMIT for s in scores):
        return None
    return (*start, redeals, scores, eager, k)


def takes(space: Any, start: Any) -> bool:
    """Whether :func:`search` searches ``space`` from ``start`` in C (else: Python).

    >>> r = Demonthief()
    >>> takes(DemonthiefSpace(r), r.deal(0)) == (CORE is not None and not pure()), takes(DemonthiefSpace(r), None)
    (True, False)
    """
    return CORE is not None and not pure() and _arguments(space, start) is not None


def can_progress(rules: Any, state: Any, limit: int, targets: Collection[Any] = ()) -> int | None:
    """:func:`cardtable.core.progress.can_progress` of a Demonthief or Demons and Thieves
    position by the compiled core (``can_progress`` of ``_demonthief.c``): 1, 0 or -1 where that
    function answers True, False or None (more than ``limit`` positions reachable without
    progress), or None when the core does not apply (not built, ``CARDTABLE_PURE``, other
    rules, a position it does not take). 0, "no progress possible", is exactly the Python
    function's; where both 1 and -1 are possible (progress is reachable past the
    limit's first position), the order of the search decides, as in Python: neither calls
    the game over. ``targets`` (see :func:`cardtable.solve.native.klondike.can_progress`) are not used by this core.

    >>> from cardtable.core.progress import can_progress as python
    >>> r = DemonsAndThieves(); s = r.deal(0)
    >>> can_progress(r, s, 1000) in ({True: 1, False: 0, None: -1}[python(r, s, 1000)], None)
    True
    """
    if CORE is None or pure() or type(rules) not in _GAMES or type(state) is not DemonthiefState:
        return None
    redeals = rules.REDEALS
    if type(redeals) is not int or not 0 <= redeals <= _MAX_REDEALS:
        return None
    try:
        found = CORE.can_progress(*state, redeals, limit)
    except (ValueError, TypeError, OverflowError):  # a position or limit the core does not take
        return None
    return int(found)


def sample_outcomes(rules: Any, state: Any, batch: SampleBatch) -> list[bytes] | None:
    """:func:`cardtable.bots.honest.sample_outcomes` of a Demonthief or Demons and Thieves
    position by the compiled core (``sample_outcomes`` of ``_demonthief.c``): the same samples,
    each solved as :func:`cardtable.solve.solve` solves it within the batch's ``nodes`` positions
    (its narrow phases of :func:`~cardtable.solve.types.pruned_widths`, then the complete search
    of :class:`~cardtable.solve.spaces.DemonthiefSolverSpace`; an undecided sample tells the most
    cards home in a position its search took where :func:`~cardtable.solve.types.sample_progress` says so),
    or None when the core does not apply (not built, ``CARDTABLE_PURE``, other rules, a
    position or line it does not take).

    >>> r = Demonthief(); s = r.deal(0); unseen = [True] * len(r.face_down(s))
    >>> got = sample_outcomes(r, s, SampleBatch(unseen, [[], [dt.DRAW]], first=0, count=3, seed=1, nodes=500))
    >>> got is None or ([len(b) for b in got] == [3, 3] and all(b in (1, 2) or b >= 3 for b in b"".join(got)))
    True
    """
    if type(rules) not in _GAMES or CORE is None or pure():
        return None
    space = DemonthiefSolverSpace(rules)
    args = _arguments(space, state)
    if args is None:
        return None
    *position, redeals, scores, _, _ = args
    return sample_with(
        CORE.sample_outcomes, (*position, redeals, scores, pruned_widths(space), sample_progress(space)), batch
    )

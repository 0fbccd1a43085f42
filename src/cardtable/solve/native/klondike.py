"""The compiled Klondike core: an optional accelerator of the Klondike searches.

``_klondike`` (C, ``_klondike.c``, built by ``pip install`` when a C
compiler is at hand) runs :func:`~cardtable.solve.search.depth_first` over
:class:`~cardtable.solve.spaces.KlondikeSpace` or
:class:`~cardtable.solve.spaces.KlondikeClassSpace` (``solve``'s), over
``Pruned(space, k)``, and over :class:`~cardtable.solve.spaces.EagerSpace` of
``KlondikeSpace``, exploring exactly the
positions the Python code explores, in the same order, and so giving the same verdict,
node count and winning moves (``tests/solve/native/test_klondike.py`` checks this). The Python
code stays the reference: :func:`search` returns None whenever the core does not apply
(another game or space, ``autoplay`` on, a position it does not take, the core not
built, or the environment variable ``CARDTABLE_PURE`` set to anything but ``0``), and
the caller then searches in Python.

>>> from cardtable.games.klondike import Klondike
>>> from cardtable.solve.search import Budget, depth_first
>>> from cardtable.solve.spaces import KlondikeSpace
>>> r = Klondike(); found = search(KlondikeSpace(r), r.deal(7), Budget(nodes=3_000))
>>> ref = depth_first(KlondikeSpace(r), r.deal(7), Budget(nodes=3_000))
>>> found is None or (found.verdict, found.nodes, found.moves) == (ref.verdict, ref.nodes, ref.moves)
True
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

from ...games.klondike import (
    DRAW,
    FOUNDATION_TO_TAB,
    REDEAL,
    TAB_TO_FOUNDATION,
    TAB_TO_TAB,
    WASTE_TO_FOUNDATION,
    WASTE_TO_TAB,
    Klondike,
    KlondikeMove,
    KlondikeState,
)
from ..spaces import KlondikeClassSpace, KlondikeSpace
from ..types import Budget, Found, SampleBatch, pruned_widths
from . import load, pure, run, sample_with, unwrap

FULL, PRUNED, EAGER = 0, 1, 2
"""The core's modes: the whole space, its first ``k`` children, the eager space."""

MAX_REDEALS = 4095
"""The largest ``redeals`` option the core takes (larger: the Python search)."""


CORE = load("klondike")
"""The compiled module (None: not built)."""

BYTES_PER_POSITION = 64
"""The most memory a remembered position takes in this core, in bytes, with room to spare:
the seen table's 16-byte slots (at most half full) and packed keys, and the path; measured
34 to 47 at the cap of proofs of 1 and 4 million positions.
:func:`cardtable.solve.memory.position_bytes` sizes ``solve``'s default memory limit by it."""

# Every move the core can name, as the rules' own move objects.
_MOVES: dict[tuple[int, int, int], KlondikeMove] = {
    tuple(m): m  # type: ignore[misc]
    for m in (
        DRAW,
        REDEAL,
        WASTE_TO_FOUNDATION,
        *TAB_TO_FOUNDATION,
        *WASTE_TO_TAB,
        *(m for row in FOUNDATION_TO_TAB for m in row),
        *(m for row in TAB_TO_TAB for col in row for m in col),
    )
}


def _mode(space: Any) -> tuple[int, int, Klondike, bool] | None:
    """The core's mode, ``k``, rules and whether the space is the class space, or None
    when the core does not apply."""
    plan = unwrap(space, KlondikeSpace)
    classes = plan is None
    if plan is None:
        plan = unwrap(space, KlondikeClassSpace)
    if plan is None:
        return None
    inner, eager, k = plan
    if eager and (k >= 0 or classes):
        return None  # the core has no pruned eager mode, and no eager class space
    mode = EAGER if eager else FULL if k < 0 else PRUNED
    k = max(k, 0)  # the core reads k in its pruned mode only
    rules = inner.rules
    if type(rules) is not Klondike:
        return None
    options = rules.options
    redeals = options["redeals"]
    if (
        options["draw"] not in (1, 3)
        or options["autoplay"]
        or type(options["foundation_return"]) is not bool
        or not (redeals is None or (type(redeals) is int and 0 <= redeals <= MAX_REDEALS))
    ):
        return None
    return mode, k, rules, classes


def _arguments(space: Any, state: Any) -> tuple[Any, ...] | None:
    """The core's arguments for a space and position (None: the core does not apply)."""
    if CORE is None or pure() or type(state) is not KlondikeState:
        return None
    how = _mode(space)
    if how is None:
        return None
    mode, k, rules, classes = how
    options = rules.options
    return (*state, options["draw"], options["redeals"], options["foundation_return"], classes, mode, k)


def takes(space: Any, start: Any) -> bool:
    """Whether :func:`search` searches ``space`` from ``start`` in C (else: Python).

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); takes(KlondikeSpace(r), r.deal(0)) == (CORE is not None and not pure())
    True
    >>> takes(KlondikeSpace(Klondike(autoplay=True)), r.deal(0))
    False
    """
    return _arguments(space, start) is not None


def search(space: Any, start: Any, budget: Budget) -> Found | None:
    """:func:`~cardtable.solve.search.depth_first` by the compiled core: the same
    :class:`~cardtable.solve.search.Found` (``seconds`` apart), or None when the core
    does not apply (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.spaces import space_for
    >>> r = rules_for("desturado"); search(space_for(r), r.deal(0), Budget(nodes=10)) is None
    True
    """
    began = time.perf_counter()
    args = _arguments(space, start)
    if args is None:
        return None
    return run(CORE, args, budget, began, lambda path: [_MOVES[m] for m in path])


def children(space: Any, state: Any) -> list[tuple[list[KlondikeMove], KlondikeState]] | None:
    """The children of ``state`` as the compiled core sees them (for tests: they must be the
    space's own), or None when the core does not apply.

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); got = children(KlondikeSpace(r), r.deal(0))
    >>> got is None or got == [(list(m), s) for m, s in KlondikeSpace(r).children(r.deal(0))]
    True
    """
    args = _arguments(space, state)
    if args is None:
        return None
    assert CORE is not None
    try:
        edges = CORE.children(*args)
    except ValueError:
        return None
    return [([_MOVES[m] for m in moves], KlondikeState(*after)) for moves, after, _ in edges]


def numbered_children(rules: Klondike, state: KlondikeState) -> list[tuple[KlondikeState, int]] | None:
    """The children of ``state`` in the class space with the class numbers the core gives them
    by adding each move's change to ``state``'s number (for tests: they must be
    :func:`class_numbers`'s), or None when the core does not number them.

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); got = numbered_children(r, r.deal(0))
    >>> got is None or [n for _, n in got] == class_numbers(r, r.deal(0), [s for s, _ in got])
    True
    """
    args = _arguments(KlondikeClassSpace(rules), state)
    if args is None:
        return None
    assert CORE is not None
    edges = CORE.children(*args)
    if edges and edges[0][2] is None:
        return None
    return [(KlondikeState(*after), number) for _, after, number in edges if number is not None]


def class_numbers(rules: Klondike, start: KlondikeState, positions: list[KlondikeState]) -> list[int] | None:
    """The numbers the core gives the classes of ``positions`` (reached from ``start``) in a
    class-space search from ``start``: equal exactly when their classes are (for tests), or
    None when the core does not number that search's classes.

    >>> from cardtable.games.klondike import Klondike
    >>> r = Klondike(); got = class_numbers(r, r.deal(0), [r.deal(0)])
    >>> got is None or len(got) == 1
    True
    """
    args = _arguments(KlondikeClassSpace(rules), start)
    if args is None:
        return None
    assert CORE is not None
    numbers: list[int] | None = CORE.class_numbers(*args[:9], positions)
    return numbers


def _core_rules(rules: Any, state: Any) -> tuple[int, int | None, bool] | None:
    """The draw, redeals and foundation return the core's ``can_progress`` and
    ``sample_outcomes`` take, or None when the core does not apply (not built,
    ``CARDTABLE_PURE``, other rules, options or positions than it takes)."""
    if CORE is None or pure() or type(rules) is not Klondike or type(state) is not KlondikeState:
        return None
    options = rules.options
    draw, redeals, freturn = options["draw"], options["redeals"], options["foundation_return"]
    if draw not in (1, 3) or type(freturn) is not bool:
        return None
    if not (redeals is None or (type(redeals) is int and 0 <= redeals <= MAX_REDEALS)):
        return None
    return draw, redeals, freturn


def can_progress(rules: Any, state: Any, limit: int, targets: Collection[Any] = ()) -> int | None:
    """:func:`cardtable.core.progress.can_progress` of a Klondike position by the compiled core
    (``can_progress`` of ``_klondike.c``): 1, 0 or -1 where that function answers True, False
    or None (more than ``limit`` positions reachable without progress), or None when the core
    does not apply (not built, ``CARDTABLE_PURE``, other rules or options, a position it does
    not take). 0, "no progress possible", is exactly the Python function's; where both
    1 and -1 are possible (progress is reachable past the limit's first position), the
    order of the search decides, as in Python: neither calls the game over. Reaching one of
    ``targets`` ends the search with 1, "not over": give positions known to reach progress,
    or known not over and to reach ``state`` back without progress (then both reach the
    same positions: :class:`cardtable.research.over.EpisodeOver`'s stretch). The core first
    searches without foundation returns: progress found so is progress; else the whole search.

    >>> from cardtable.core.progress import can_progress as python
    >>> r = Klondike(); s = r.deal(0)
    >>> can_progress(r, s, 1000) in ({True: 1, False: 0, None: -1}[python(r, s, 1000)], None)
    True
    """
    rule = _core_rules(rules, state)
    if rule is None or CORE is None:  # (CORE: checked by _core_rules, said again for mypy)
        return None
    try:
        found = CORE.can_progress(*state, *rule, limit, tuple(targets))
    except (ValueError, TypeError, OverflowError):  # a position or limit the core does not take
        return None
    return int(found)


def sample_outcomes(rules: Any, state: Any, batch: SampleBatch) -> list[bytes] | None:
    """:func:`cardtable.bots.honest.sample_outcomes` by the compiled core (``sample_outcomes`` of
    ``_klondike.c``): the same samples, each solved as :func:`cardtable.solve.solve` solves
    it within ``nodes`` positions (its narrow phases of
    :func:`~cardtable.solve.types.pruned_widths`, then the complete search of the class
    space), or None when the core does not apply (not built, ``CARDTABLE_PURE``, other
    rules or options, a position or line it does not take).

    >>> r = Klondike(); s = r.deal(8); unseen = [False] * 24 + [True] * 21
    >>> got = sample_outcomes(r, s, SampleBatch(unseen, [[]], first=0, count=4, seed=1, nodes=1_000))
    >>> got is None or (len(got) == 1 and len(got[0]) == 4 and set(got[0]) <= {0, 1, 2})
    True
    """
    rule = _core_rules(rules, state)
    if rule is None or CORE is None:  # (CORE: checked by _core_rules, said again for mypy)
        return None
    widths = pruned_widths(KlondikeClassSpace(rules))
    return sample_with(CORE.sample_outcomes, (*state, *rule, widths), batch)

"""The compiled cores: optional C accelerators of the solver's searches.

Four C extensions, built by ``pip install`` when a C compiler is at hand
(``setup.py``; if one does not compile, the install goes on without it), run
:func:`~cardtable.solve.search.depth_first` over a game's search space in C:

- ``_klondike`` (:mod:`.klondike`): :class:`~cardtable.solve.spaces.KlondikeSpace`;
- ``_demonthief`` (:mod:`.demonthief`): :class:`~cardtable.solve.spaces.DemonthiefSpace`
  and the solver's :class:`~cardtable.solve.spaces.DemonthiefSolverSpace`, for Demonthief
  and Demons and Thieves;
- ``_desturado`` (:mod:`.desturado`): :class:`~cardtable.solve.spaces.DesturadoSpace`, every mode;
- ``_devils_square`` (:mod:`.devils_square`): the plain
  :class:`~cardtable.solve.spaces.RulesSpace` of Devil's Square;

each also under :class:`~cardtable.solve.search.Pruned` (the solver's first phase) and
:class:`~cardtable.solve.spaces.EagerSpace` (the grading's eager search), and the Klondike
core also over :class:`~cardtable.solve.spaces.KlondikeClassSpace` (the solver's). A core
explores exactly the positions the Python code explores, in the same order, so it
gives the same verdict, node count and winning moves (only ``seconds`` differs);
``tests/solve/native/`` checks this position by position. Which core a search goes to
is the game's own declaration: the ``native`` field of its
:class:`~cardtable.core.spec.GameSpec` names the module (:func:`core_for`). The Python
code stays the reference: :func:`search` returns None whenever no core applies (a game
that declares none, a space or option its core does not take, such as the game's plain
``RulesSpace``, the core not built, or the environment variable ``CARDTABLE_PURE`` set
to anything but ``0``), and the caller then searches in Python.

>>> from cardtable.games import rules_for
>>> from cardtable.solve.search import Budget, depth_first
>>> from cardtable.solve.spaces import space_for
>>> r = rules_for("demonthief"); found = search(space_for(r), r.deal(2), Budget(nodes=2_000))
>>> ref = depth_first(space_for(r), r.deal(2), Budget(nodes=2_000))
>>> found is None or (found.verdict, found.nodes, found.moves) == (ref.verdict, ref.nodes, ref.moves)
True
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any

from ...core.errors import UnknownGameError
from ...core.progress import DEFAULT_LIMIT
from ...core.progress import can_progress as python_can_progress
from ...games import spec_for, specs
from ..spaces import EagerSpace
from ..types import Budget, Found, Pruned, SampleBatch


def load(name: str) -> ModuleType | None:
    """The compiled core ``_<name>`` of this package (``_klondike.c`` and so on), or None
    when it is not built.

    >>> load("klondike") is None or load("klondike").__name__ == "cardtable.solve.native._klondike"
    True
    >>> load("no_such_game") is None
    True
    """
    try:
        return importlib.import_module(f"._{name}", __name__)
    except ImportError:
        return None


def pure() -> bool:
    """Whether the environment variable ``CARDTABLE_PURE`` asks for the Python search only
    (set, and not ``0``).

    >>> import os; pure() == (os.environ.get("CARDTABLE_PURE", "0") not in ("", "0"))
    True
    """
    return os.environ.get("CARDTABLE_PURE", "0") not in ("", "0")


def built() -> dict[str, bool]:
    """Which cores are built, by the name of their module (whatever ``CARDTABLE_PURE``
    says): the cores the games declare (their spec's ``native``), each once.

    >>> sorted(built())
    ['demonthief', 'desturado', 'devils_square', 'klondike']
    """
    modules = dict.fromkeys(spec.native for spec in specs() if spec.native is not None)
    return {path.rsplit(".", 1)[1]: importlib.import_module(path).CORE is not None for path in modules}


def available() -> bool:
    """Whether every core is built and none is turned off by ``CARDTABLE_PURE``.

    >>> available() == (all(built().values()) and not pure())
    True
    """
    return all(built().values()) and not pure()


def limit(value: object) -> tuple[bool, int | None]:
    """A node or memory limit of a :class:`~cardtable.solve.search.Budget` as the cores
    take it, comparing the same with the counts (integers) as the Python search does:
    ``(supported, limit)``, limit None for none.

    >>> limit(None), limit(5), limit(2.5), limit(float("inf")), limit("5")
    ((True, None), (True, 5), (True, 3), (True, None), (False, None))
    """
    if value is None or type(value) is int:
        return True, value
    if type(value) is float:
        if math.isnan(value) or value == math.inf:
            return True, None
        return True, -1 if value == -math.inf else math.ceil(value)
    return False, None


def limits(budget: Budget) -> tuple[int | None, int | None, float | None] | None:
    """A budget's node, memory and seconds limits as the cores take them, or None when a
    core cannot take it (then the Python search runs).

    >>> from cardtable.solve.search import Budget
    >>> limits(Budget(nodes=10, seconds=1)), limits(Budget(nodes="ten"))  # type: ignore[arg-type]
    ((10, 2000000, 1.0), None)
    """
    ok_nodes, max_nodes = limit(budget.nodes)
    ok_seen, max_seen = limit(budget.memory)
    seconds = budget.seconds
    if not (ok_nodes and ok_seen and (seconds is None or type(seconds) in (int, float))):
        return None
    return max_nodes, max_seen, None if seconds is None else float(seconds)


def unwrap(space: Any, inner_type: type) -> tuple[Any, bool, int] | None:
    """The space of ``inner_type`` under ``space``, whether it is under an
    :class:`~cardtable.solve.spaces.EagerSpace`, and ``k``, the children kept by
    :class:`~cardtable.solve.search.Pruned` (-1: every child); None when ``space`` is
    not such a space (or a ``k`` the Python search would reject).

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.search import Pruned
    >>> from cardtable.solve.spaces import KlondikeSpace, space_for
    >>> space = space_for(rules_for("klondike"))
    >>> unwrap(Pruned(Pruned(space, 3), 2), KlondikeSpace) == (space, False, 2)
    True
    """
    k = -1
    while type(space) is Pruned:
        if space.k is not None:
            if type(space.k) is not int or space.k < 0:
                return None
            k = space.k if k < 0 else min(k, space.k)
        space = space.space
    eager = False
    if type(space) is EagerSpace:
        if space.rules is not space.inner.rules:
            return None
        space, eager = space.inner, True
    if type(space) is not inner_type:
        return None
    return space, eager, k


def run(
    core: ModuleType | None,
    args: tuple[Any, ...],
    budget: Budget,
    began: float,
    moves: Callable[[Any], list[Any]],
    exact: bool = True,
) -> Found | None:
    """A core's ``search(*args, max_nodes, max_seen, seconds)`` under ``budget`` (the seconds
    left since ``began``, a :func:`time.perf_counter` time; ``exact`` False adds ``False``, a
    core's lossy search, to the arguments) as a
    :class:`~cardtable.solve.search.Found`, its path turned into the rules' moves by
    ``moves``; None when the core is not built (``core`` None) or turned off
    (:func:`pure`), or cannot take the budget (:func:`limits`) or the position (a
    ``ValueError``): then the Python search runs.

    >>> from types import SimpleNamespace
    >>> from cardtable.solve.search import Budget
    >>> fake = SimpleNamespace(search=lambda *args: ("unknown", args[-3], b""))
    >>> found = run(fake, (), Budget(nodes=5), time.perf_counter(), list)  # type: ignore[arg-type]
    >>> (found.verdict, found.nodes, found.moves), run(fake, (), Budget(nodes="5"), 0.0, list)  # type: ignore[arg-type]
    (('unknown', 5, []), None)
    >>> run(None, (), Budget(nodes=5), 0.0, list) is None
    True
    """
    if core is None or pure():
        return None
    budget_limits = limits(budget)
    if budget_limits is None:
        return None
    max_nodes, max_seen, seconds = budget_limits
    remaining = None if seconds is None else seconds - (time.perf_counter() - began)
    try:
        verdict, nodes, path = core.search(*args, max_nodes, max_seen, remaining, *(() if exact else (False,)))
    except ValueError:  # a position the core does not take (e.g. not one whole deck)
        return None
    return Found(verdict, moves(path), nodes, time.perf_counter() - began)


def game_of(space: Any) -> str | None:
    """The name of the game whose rules the space searches, found under any
    :class:`~cardtable.solve.search.Pruned` and :class:`~cardtable.solve.spaces.EagerSpace`
    around it (None: a space without rules).

    >>> from cardtable.games import rules_for
    >>> game_of(Pruned(EagerSpace(rules_for("demons-and-thieves")), 2)), game_of(object())
    ('demons-and-thieves', None)
    """
    while type(space) is Pruned:
        space = space.space
    if type(space) is EagerSpace:
        space = space.inner
    name = getattr(getattr(space, "rules", None), "name", None)
    return name if isinstance(name, str) else None


def core_for(space: Any) -> ModuleType | None:
    """The module of the compiled core of the space's game (:func:`game_of`), the one its
    declaration names (``native``), or None when the game declares none (or the space has
    no game).

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.spaces import space_for
    >>> core_for(space_for(rules_for("klondike"))).__name__, core_for(object())
    ('cardtable.solve.native.klondike', None)
    """
    name = game_of(space)
    if name is None:
        return None
    try:
        path = spec_for(name).native
    except UnknownGameError:
        return None
    return None if path is None else importlib.import_module(path)


def search(space: Any, start: Any, budget: Budget) -> Found | None:
    """:func:`~cardtable.solve.search.depth_first` by the core of the space's game
    (:func:`core_for`): the same :class:`~cardtable.solve.search.Found` (``seconds``
    apart), or None when no core applies (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.search import Budget
    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.solve.spaces import RulesSpace
    >>> r = rules_for("desturado"); search(RulesSpace(r), r.deal(0), Budget(nodes=10)) is None
    True
    """
    core = core_for(space)
    if core is None:
        return None
    found: Found | None = core.search(space, start, budget)
    return found


def position_bytes(space: Any, start: Any) -> int | None:
    """The most memory a remembered position takes, in bytes, in the compiled core that
    :func:`search` would run on ``space`` from ``start`` (its module's
    ``BYTES_PER_POSITION``), or None when the Python search would run.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.spaces import space_for
    >>> r = rules_for("demonthief")
    >>> position_bytes(space_for(r), r.deal(0)) in (None, 512), position_bytes(object(), None)
    (True, None)
    """
    core = core_for(space)
    if core is None or not core.takes(space, start):
        return None
    found: int = core.BYTES_PER_POSITION
    return found


def sample_with(
    function: Callable[..., list[bytes]], position: tuple[Any, ...], batch: SampleBatch
) -> list[bytes] | None:
    """A core's ``sample_outcomes`` (``function``) called with the position and the game's
    options (``position``: the arguments before the batch's) and the honest player's
    ``batch`` of samples as the cores take it (the lines as lists of ``(src, dst, n)``
    moves, the seed as 64 bits); None when the core does not take them.

    >>> batch = SampleBatch([True], [[]], first=0, count=1, seed=2**70, nodes=10)
    >>> sample_with(lambda *args: [bytes(args[:2] + args[4:6])], (1, 2), batch)
    [b'\\x01\\x02\\x00\\x01']
    >>> def refuses(*args: Any) -> list[bytes]:
    ...     raise ValueError("not a move")
    >>> sample_with(refuses, (), batch) is None
    True
    """
    try:
        moves = [list(line) for line in batch.lines]
        seed = batch.seed & (2**64 - 1)
        return function(*position, tuple(batch.unseen), moves, batch.first, batch.count, seed, batch.nodes)
    except (ValueError, TypeError, OverflowError):  # a position, line or budget the core does not take
        return None


def native_function(rules: Any, name: str) -> Any | None:
    """The function ``name`` of the game's compiled-core module (its declaration's
    ``native``: Klondike's ``can_progress`` and ``sample_outcomes``, ...), or None when the
    game declares no such module (or is not a registered game) or the module has no such
    function. The function itself may still answer None where its core does not apply.

    >>> from cardtable.games import rules_for
    >>> native_function(rules_for("klondike"), "sample_outcomes").__module__
    'cardtable.solve.native.klondike'
    >>> native_function(rules_for("deserto"), "can_progress") is None
    True
    """
    try:
        path = spec_for(rules.name).native
    except UnknownGameError:
        return None
    return None if path is None else getattr(importlib.import_module(path), name, None)


def can_progress(rules: Any, state: Any, limit: int = DEFAULT_LIMIT, targets: Collection[Any] = ()) -> bool | None:
    """:func:`cardtable.core.progress.can_progress`, by the compiled core of the game when it
    has one that takes the position (its declaration's ``native`` module has a
    ``can_progress``: Klondike's, Demonthief's), else by the Python function. ``is False``
    ("no sequence of moves makes progress": the game is over) is the same answer either way;
    True and None ("not known within ``limit`` positions") never call a game over, and where
    both are possible the order of the search decides. ``targets``: positions whose reaching
    settles "not over" (:func:`cardtable.solve.native.klondike.can_progress`), used by the
    cores that take them (Klondike's; the Python search ignores them).

    >>> from cardtable.games import rules_for
    >>> from cardtable.core.progress import can_progress as python
    >>> r = rules_for("klondike"); s = r.deal(0)
    >>> can_progress(r, s) == python(r, s)
    True
    """
    core = native_function(rules, "can_progress")
    if core is not None:
        found: int | None = core(rules, state, limit, targets)
        # A core counts progress by the end measure only: where that misses moves that
        # cannot be taken back (Rules.ONE_WAY_COMPLETE), its "no progress" is asked
        # again in Python, which also looks for a position that cannot come back.
        if found is not None and (found != 0 or rules.ONE_WAY_COMPLETE):
            return None if found < 0 else found > 0
    return python_can_progress(rules, state, limit)

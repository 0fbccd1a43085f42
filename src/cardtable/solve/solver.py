"""The solver's entry point: :func:`solve` and its :class:`SolveResult` (see the package docstring).

>>> import cardtable
>>> solve(cardtable.new_game("devils-square", deal=1)).verdict
'unsolvable'
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CardtableError
from ..core.game import Game
from ..core.inputs import quote
from ..core.rules import Rules
from ..core.spec import resolve
from ..games import spec_for
from .lost import proved_lost
from .memory import default_memory, peak_mb, position_bytes, reset_peak
from .search import search
from .spaces import equivalent_start
from .types import Budget, Found, Pruned, Watched, pruned_restarts, pruned_widths, starts

VERDICTS = ("solved", "unsolvable", "unknown")

PRUNED_NODES = 2_000_000
"""The most positions each incomplete phase explores when ``solve`` has neither a time
nor a node limit. With a limit, a phase explores up to its share of it (:func:`pruned_widths`)."""

RESTART_SECONDS = 1.0
"""The least time limit with which ``solve`` runs a space's restart phases
(:func:`~cardtable.solve.types.pruned_restarts`). Below it, a phase's share split among its
starts is too short to win anything, and the other phases keep their larger shares: on 40
random Demonthief positions, hints at 40 ms found a winning line in 27 without restarts and
in 22 with them, twice each (``docs/solver.md``, "Restarts")."""

RESTART_NODES = 1_000_000
"""... and the least node limit (the honest player's exact solves, 200,000 positions, stay
without them)."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver found: ``verdict`` (``"solved"``, ``"unsolvable"``: proved, the
    search was complete; ``"unknown"``: the budget ran out), the winning ``moves``
    from the position solved (empty unless solved), and the work: ``nodes``
    (positions explored), ``seconds`` and ``peak_mb``, the process's largest
    resident size during the solve in MB (:mod:`cardtable.solve.memory`; 0 when
    not measured).

    >>> SolveResult("unknown", [], 10, 0.5).solved
    False
    """

    verdict: str
    moves: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    peak_mb: float = 0.0

    @property
    def solved(self) -> bool:
        """Whether a win was found.

        >>> SolveResult("solved", [], 1, 0.0).solved
        True
        """
        return self.verdict == "solved"

    @property
    def decided(self) -> bool:
        """Solved, or proved unsolvable.

        >>> SolveResult("unsolvable", [], 1, 0.0).decided
        True
        """
        return self.verdict != "unknown"


def solve(
    game: Game[Any, Any],
    seconds: float | None = 30.0,
    nodes: int | None = None,
    memory: int | str | None = "auto",
    *,
    restarts: bool = True,
    watch: Callable[[Any], object] | None = None,
) -> SolveResult:
    """Solve the current position of a one-player game within a budget.

    ``seconds`` and ``nodes`` limit the search (None: no limit; ``seconds`` is a real
    number, ``nodes`` a whole number); ``memory`` limits the positions remembered (None:
    no limit). The default, ``"auto"``, fits the machine: a quarter of its available
    memory at the bytes a position takes in the search that runs
    (:func:`~cardtable.solve.memory.default_memory`, :func:`~cardtable.solve.memory.position_bytes`;
    at least 2 million positions), so that a long time limit is not cut short by a
    small table. The space's restart phases (:func:`~cardtable.solve.types.pruned_restarts`)
    run only with at least :data:`RESTART_SECONDS` and :data:`RESTART_NODES` (or no limit);
    ``restarts=False`` leaves them out always, as the compiled samplers of the honest player
    do. ``watch``, when given, is told of every position the search takes (each phase's
    start, and each position a phase goes on from: :class:`~cardtable.solve.types.Watched`),
    and the search then runs in Python (the honest player's reference sampler counts the
    cards its samples' searches bring home with it). The game itself is not changed. A position that
    :func:`cardtable.solve.lost.proved_lost` shows lost is "unsolvable" at once,
    after no search (``nodes`` 0).

    The limits are honoured (``docs/solver.md``, "Limits"): with ``seconds``, ``solve``
    returns within ``seconds`` plus :func:`slack`, the replay that checks a winning line
    included (a line that cannot be checked in time is not returned: "unknown"); with
    ``seconds`` of 0 or less it returns at once, "unknown" after no search. A ``seconds``
    that is not a number (``nan``), or a limit of the wrong type, is refused before
    anything starts: :class:`~cardtable.core.errors.CardtableError` or ``TypeError``.

    >>> import cardtable
    >>> solve(cardtable.new_game("devils-square", deal=1), nodes=5).verdict
    'unknown'
    >>> solve(cardtable.new_game("klondike", deal=8), seconds=0)
    SolveResult(verdict='unknown', moves=[], nodes=0, seconds=0.0, peak_mb=0.0)
    """
    began = time.perf_counter()
    check_game(game)
    seconds = check_seconds(seconds)
    nodes = check_nodes(nodes)
    memory = check_memory(memory)
    if watch is not None and not callable(watch):
        raise TypeError(f"watch is a function of a position, or None, not {type(watch).__name__}")
    rules = game.rules
    if not spec_for(rules.name).one_player:
        raise CardtableError(f"{rules.name} is a multi-player game; the solver is for one-player games")
    if seconds is not None and seconds <= 0:
        return SolveResult("unknown", [], 0, 0.0, 0.0)
    deadline = None if seconds is None else began + seconds
    reset_peak()
    if not rules.is_won(game.state) and proved_lost(rules, game.state):
        return SolveResult("unsolvable", [], 0, time.perf_counter() - began, peak_mb())
    # The search may run under equivalent rules that are cheaper to search (Klondike's
    # redeals beyond what can matter: spaces.equivalent_start); its line is replayed
    # below through the game's own rules.
    search_rules, start = equivalent_start(rules, game.state)
    space = solver_space(search_rules)
    if watch is not None:
        space = Watched(space, watch)
    limit = default_memory(position_bytes=position_bytes(space, start)) if isinstance(memory, str) else memory
    # The first phases look for a win among the two, then the three, most promising
    # moves of every position (iterative broadening): fast when the obvious moves
    # nearly work, but they prove nothing when they fail. The last phase, the complete
    # search, gets the rest of the budget and decides.
    # A phase's share of a limit, not a fixed count: the narrow phases find wins the
    # complete search misses in its time (Desturado medium deal 16: width 2 wins after
    # 2.3 million positions; the complete search had not after 100 million).
    # Then the restart phases (Demonthief's, Desturado's): a narrow search from each position a few
    # steps in, in turn, so that the first choices do not take all the budget.
    roomy = (seconds is None or seconds >= RESTART_SECONDS) and (nodes is None or nodes >= RESTART_NODES)
    restart_phases = pruned_restarts(space) if restarts and roomy else ()
    # Each phase as (width, depth): depth 0 searches from the position itself.
    phases = [(width, 0) for width in pruned_widths(space)] + list(restart_phases)
    parts = len(phases) + 1
    quick_seconds = None if seconds is None else seconds / parts
    quick_nodes: int | None
    if nodes is not None:
        quick_nodes = nodes // parts
    elif seconds is not None:
        quick_nodes = None  # the phase's share of the time limits it
    else:
        quick_nodes = PRUNED_NODES
    found = Found("unknown")  # the work of every phase so far, and the win if one was found
    if quick_nodes is None or quick_nodes > 1:
        for width, depth in phases:
            left = _left(deadline)
            if left is not None and left <= 0:
                break
            share = quick_seconds if left is None or quick_seconds is None else min(quick_seconds, left)
            narrow, budget = Pruned(space, width), Budget(quick_nodes, share, limit, 1)
            found = _then(found, restart(narrow, start, depth, budget) if depth else search(narrow, start, budget))
            if found.verdict == "solved":
                break
    left = _left(deadline)
    if found.verdict != "solved" and (left is None or left > 0):
        rest = Budget(None if nodes is None else nodes - found.nodes, left, limit, 1)
        found = _then(found, search(space, start, rest), decides=True)
    verdict, moves = found.verdict, found.moves
    if verdict == "solved" and not replay(rules, game.state, moves, _check_deadline(deadline, seconds)):
        verdict, moves = "unknown", []  # the line could not be checked in time: not returned
    return SolveResult(verdict, moves, found.nodes, time.perf_counter() - began, peak_mb())


def restart(space: Any, start: Any, depth: int, budget: Budget) -> Found:
    """Search ``space`` from each position ``depth`` steps in from ``start``
    (:func:`~cardtable.solve.types.starts`) in turn, each with an equal share of what is
    left of ``budget``'s nodes and seconds, until a win: the win's whole line from
    ``start``; else "unknown" (a search from some of the positions proves nothing).

    >>> import cardtable
    >>> g = cardtable.new_game("demonthief", deal=1145)
    >>> found = restart(Pruned(solver_space(g.rules), 3), g.state, 2, Budget(nodes=2_000_000))
    >>> found.verdict, replay(g.rules, g.state, found.moves)
    ('solved', True)
    """
    began = time.perf_counter()
    found = Found("unknown")
    begins = starts(space, start, depth)
    for i, (prefix, here) in enumerate(begins):
        to_come = len(begins) - i  # this start and the ones after it share what is left
        left = None if budget.seconds is None else budget.seconds - (time.perf_counter() - began)
        if left is not None and left <= 0:
            break
        nodes = None if budget.nodes is None else (budget.nodes - found.nodes) // to_come
        seconds = None if left is None else left / to_come
        if nodes is not None and nodes < 1:
            continue
        if space.is_won(here):
            return Found("solved", prefix, found.nodes, time.perf_counter() - began)
        one = search(space, here, Budget(nodes, seconds, budget.memory, budget.clock_every))
        found = _then(found, Found(one.verdict, [*prefix, *one.moves], one.nodes, one.seconds))
        if found.verdict == "solved":
            break
    return Found(found.verdict, found.moves, found.nodes, time.perf_counter() - began)


SLACK_SECONDS = 0.1
"""The fixed part of :func:`slack`."""
SLACK_SHARE = 0.05
"""The part of :func:`slack` that grows with the limit."""
REPLAY_SHARE = 0.5
"""The share of the slack the replay of a winning line may use after the time limit."""
REPLAY_CHECK_EVERY = 256
"""Moves replayed between two looks at the clock."""


def slack(seconds: float) -> float:
    """How long past a time limit of ``seconds`` :func:`solve` may return: 0.1 s plus 5% of
    the limit (of none when the limit is 0 or less; ``docs/solver.md``, "Limits", gives what
    it covers and how it is checked).

    >>> round(slack(1.0), 3), slack(20.0), slack(-float("inf"))
    (0.15, 1.1, 0.1)
    """
    return SLACK_SECONDS + SLACK_SHARE * max(0.0, seconds)


MEMORY_ALLOWANCE_MB = 64
"""What :func:`memory_budget_mb` allows a solve beyond its positions, in MB: the compiled
cores' buffers, the winning line and its replay."""


def memory_budget_mb(game: Game[Any, Any], memory: int | str | None = "auto") -> float | None:
    """The most a :func:`solve` of ``game`` with ``memory`` may add to the process's resident
    size, in MB (None: no limit, ``memory`` None): the positions it may remember (``"auto"``:
    the default for the search it runs) times the bytes one takes there
    (:func:`~cardtable.solve.memory.position_bytes`), plus :data:`MEMORY_ALLOWANCE_MB`.

    >>> import cardtable
    >>> memory_budget_mb(cardtable.new_game("klondike", deal=1), 1_000_000) in (64 + 61.03515625, 64 + 381.4697265625)
    True
    >>> memory_budget_mb(cardtable.new_game("klondike", deal=1), None) is None
    True
    """
    memory = check_memory(memory)
    if memory is None:
        return None
    search_rules, start = equivalent_start(game.rules, game.state)
    size = position_bytes(solver_space(search_rules), start)
    positions = default_memory(position_bytes=size) if isinstance(memory, str) else max(0, memory)
    return positions * size / 2**20 + MEMORY_ALLOWANCE_MB


def check_game(game: object) -> None:
    """``TypeError`` unless ``game`` is a game (:func:`cardtable.new_game`), the one thing
    :func:`solve` and the hints take (a name or None used to fail deep inside as an
    ``AttributeError``).

    >>> check_game("klondike")
    Traceback (most recent call last):
    ...
    TypeError: a game is asked for (cardtable.new_game(...)), not str
    """
    if not isinstance(game, Game):
        raise TypeError(f"a game is asked for (cardtable.new_game(...)), not {type(game).__name__}")


def check_seconds(seconds: object) -> float | None:
    """A time limit as :func:`solve` takes it: None (no limit) or a real number of seconds
    (infinity: no limit); ``TypeError`` for anything else, and
    :class:`~cardtable.core.errors.CardtableError` for ``nan``.

    >>> check_seconds(2), check_seconds(float("inf")), check_seconds(-1.5)
    (2.0, None, -1.5)
    >>> check_seconds("1")
    Traceback (most recent call last):
    ...
    TypeError: seconds must be a number of seconds or None, not str
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"seconds must be a number of seconds or None, not {type(seconds).__name__}")
    try:
        value = float(seconds)
    except OverflowError:  # an int beyond float's range
        value = -math.inf if seconds < 0 else math.inf
    if math.isnan(value):
        raise CardtableError("seconds must be a number of seconds or None, not nan")
    return None if value == math.inf else value


def check_nodes(nodes: object) -> int | None:
    """A node limit as :func:`solve` takes it: None (no limit) or a whole number;
    ``TypeError`` for anything else.

    >>> check_nodes(5), check_nodes(None)
    (5, None)
    >>> check_nodes(2.5)
    Traceback (most recent call last):
    ...
    TypeError: nodes must be a whole number of positions or None, not float
    >>> check_nodes(-1)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.CardtableError: nodes must be at least 0 (0: no search), not -1
    """
    if nodes is None:
        return None
    if isinstance(nodes, bool) or not isinstance(nodes, numbers.Integral):
        raise TypeError(f"nodes must be a whole number of positions or None, not {type(nodes).__name__}")
    if nodes < 0:
        raise CardtableError(f"nodes must be at least 0 (0: no search), not {quote(nodes)}")
    return int(nodes)


def check_memory(memory: object) -> int | str | None:
    """A memory limit as :func:`solve` takes it: None (no limit), ``"auto"`` or a whole
    number of positions; ``TypeError`` for another type,
    :class:`~cardtable.core.errors.CardtableError` for another text.

    >>> check_memory("auto"), check_memory(10_000)
    ('auto', 10000)
    >>> check_memory("lots")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.CardtableError: memory must be a number of positions, None or 'auto', not 'lots'
    """
    if memory is None:
        return None
    if isinstance(memory, str):
        if memory == "auto":
            return memory
        raise CardtableError(f"memory must be a number of positions, None or 'auto', not {quote(memory)}")
    if isinstance(memory, bool) or not isinstance(memory, numbers.Integral):
        raise TypeError(f"memory must be a whole number of positions, None or 'auto', not {type(memory).__name__}")
    if memory < 0:
        raise CardtableError(f"memory must be at least 0 positions, not {quote(memory)}")
    return int(memory)


def _left(deadline: float | None) -> float | None:
    """The seconds left before ``deadline`` (a :func:`time.perf_counter` time; None: none)."""
    return None if deadline is None else deadline - time.perf_counter()


def _check_deadline(deadline: float | None, seconds: float | None) -> float | None:
    """When the replay of a winning line must be done: the time limit plus its share of
    the slack (None: no limit)."""
    if deadline is None or seconds is None:
        return None
    return deadline + REPLAY_SHARE * slack(seconds)


def replay(rules: Rules[Any, Any], start: Any, moves: Sequence[Any], deadline: float | None = None) -> bool:
    """Replay ``moves`` from ``start`` through the rules, each checked against the legal
    moves, and check that they win: True when they do; False when ``deadline`` (a
    :func:`time.perf_counter` time) passed first. A line that does not replay or win is
    a solver bug: ``AssertionError``.

    >>> import cardtable
    >>> game = cardtable.new_game("klondike", deal=8)
    >>> replay(game.rules, game.state, solve(game).moves)
    True
    >>> replay(game.rules, game.state, solve(game).moves, deadline=0.0)
    False
    """
    check = start
    legal_moves, apply = rules.legal_moves, rules.apply
    for i, move in enumerate(moves):
        if deadline is not None and i % REPLAY_CHECK_EVERY == 0 and time.perf_counter() > deadline:
            return False
        # Through the rules themselves: a game's autoplay would make moves of its own.
        if move not in legal_moves(check):
            raise AssertionError(f"the solver's line plays an illegal move: {move}")
        check = apply(check, move)
    if not rules.is_won(check):
        raise AssertionError("the solver's line does not win")
    return True


def solver_space(rules: Any) -> Any:
    """The space ``solve`` searches: the one the game's declaration names for the solver
    (:attr:`~cardtable.core.spec.GameSpec.solver_space`: Klondike's class space,
    :class:`~cardtable.solve.spaces.KlondikeClassSpace`; Desturado's proving space,
    :class:`~cardtable.solve.spaces.DesturadoProofSpace`; Demonthief's solver order,
    :class:`~cardtable.solve.spaces.DemonthiefSolverSpace`), else the game's search space
    (:attr:`~cardtable.core.spec.GameSpec.search_space`, what
    :func:`~cardtable.solve.spaces.space_for` gives).

    >>> from cardtable.games import rules_for
    >>> type(solver_space(rules_for("klondike", draw=1))).__name__, type(solver_space(rules_for("desturado"))).__name__
    ('KlondikeClassSpace', 'DesturadoProofSpace')
    >>> [type(solver_space(rules_for(name))).__name__ for name in ("demons-and-thieves", "devils-square")]
    ['DemonthiefSolverSpace', 'RulesSpace']
    """
    spec = spec_for(rules.name)
    return resolve(spec.solver_space or spec.search_space)(rules)


def _then(before: Found, found: Found, decides: bool = False) -> Found:
    """A search's result after the work of the phases ``before`` it: its moves, the nodes
    and seconds of all, and its verdict if it is a win or the search ``decides`` (an
    incomplete phase that ends without a win proves nothing: "unknown").

    >>> _then(Found("unknown", [], 5, 1.0), Found("unsolvable", [], 3, 0.5))
    Found(verdict='unknown', moves=[], nodes=8, seconds=1.5)
    """
    verdict = found.verdict if decides or found.verdict == "solved" else "unknown"
    return Found(verdict, found.moves, before.nodes + found.nodes, before.seconds + found.seconds)

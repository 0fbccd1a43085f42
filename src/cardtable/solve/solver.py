"""The solver's entry point: :func:`solve` and its :class:`SolveResult` (see the package docstring).

>>> import cardtable
>>> solve(cardtable.new_game("devils-square", deal=1)).verdict
'unsolvable'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CardtableError
from ..core.game import Game
from ..core.spec import resolve
from ..games import spec_for
from .lost import proved_lost
from .memory import default_memory, peak_mb, reset_peak
from .search import search
from .types import Budget, Found, Pruned

VERDICTS = ("solved", "unsolvable", "unknown")

PRUNED_WIDTHS = (2, 3)
"""Children kept per position in the solver's first, incomplete phases, one phase per
width in turn (iterative broadening)."""
PRUNED_NODES = 2_000_000
"""The most positions each incomplete phase explores when ``solve`` has neither a time
nor a node limit. With a limit, a phase explores up to its share of it (PRUNED_SHARE)."""
PRUNED_SHARE = 3
"""Each incomplete phase gets at most 1/PRUNED_SHARE of the seconds and nodes; the
complete search gets the rest (at least a third; in Klondike the phases end in under
a second on the slowest deals, so its proofs keep nearly all the time)."""


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
    game: Game[Any, Any], seconds: float | None = 30.0, nodes: int | None = None, memory: int | str | None = "auto"
) -> SolveResult:
    """Solve the current position of a one-player game within a budget.

    ``seconds`` and ``nodes`` limit the search (None: no limit); ``memory``
    limits the positions remembered (None: no limit). The default, ``"auto"``,
    fits the machine: a quarter of its available memory
    (:func:`~cardtable.solve.memory.default_memory`: at most 64 bytes a position
    with a compiled core, 400 in Python; at least 2 million positions), so that a
    long time limit is not cut short by a small table. The game itself is not changed. A position that
    :func:`cardtable.solve.lost.proved_lost` shows lost is "unsolvable" at once,
    after no search (``nodes`` 0).

    >>> import cardtable
    >>> solve(cardtable.new_game("devils-square", deal=1), nodes=5).verdict
    'unknown'
    """
    rules = game.rules
    if not spec_for(rules.name).one_player:
        raise CardtableError(f"{rules.name} is a multi-player game; the solver is for one-player games")
    began = time.perf_counter()
    limit: int | None
    if memory == "auto":
        limit = default_memory()
    elif isinstance(memory, str):
        raise CardtableError(f"memory must be a number of positions, None or 'auto', not {memory!r}")
    else:
        limit = memory
    reset_peak()
    if not rules.is_won(game.state) and proved_lost(rules, game.state):
        return SolveResult("unsolvable", [], 0, time.perf_counter() - began, peak_mb())
    space = solver_space(rules)
    # The first phases look for a win among the two, then the three, most promising
    # moves of every position (iterative broadening): fast when the obvious moves
    # nearly work, but they prove nothing when they fail. The last phase, the complete
    # search, gets the rest of the budget and decides.
    # A phase's share of a limit, not a fixed count: the narrow phases find wins the
    # complete search misses in its time (Desturado medium deal 16: width 2 wins after
    # 2.3 million positions; the complete search had not after 100 million).
    quick_seconds = None if seconds is None else seconds / PRUNED_SHARE
    quick_nodes: int | None
    if nodes is not None:
        quick_nodes = nodes // PRUNED_SHARE
    elif seconds is not None:
        quick_nodes = None  # the phase's share of the time limits it
    else:
        quick_nodes = PRUNED_NODES
    found = Found("unknown")  # the work of every phase so far, and the win if one was found
    if quick_nodes is None or quick_nodes > 1:
        for width in PRUNED_WIDTHS:
            found = _then(found, search(Pruned(space, width), game.state, Budget(quick_nodes, quick_seconds, limit)))
            if found.verdict == "solved":
                break
    if found.verdict != "solved":
        rest = Budget(
            nodes=None if nodes is None else nodes - found.nodes,
            seconds=None if seconds is None else max(0.0, seconds - found.seconds),
            memory=limit,
        )
        found = _then(found, search(space, game.state, rest), decides=True)
    if found.verdict == "solved":
        # Replayed through the rules themselves: a game's autoplay would make moves of its own.
        check = game.state
        for move in found.moves:
            if move not in rules.legal_moves(check):  # pragma: no cover - would be a solver bug
                raise AssertionError(f"the solver's line plays an illegal move: {move}")
            check = rules.apply(check, move)
        if not rules.is_won(check):  # pragma: no cover - would be a solver bug
            raise AssertionError("the solver's line does not win")
    return SolveResult(found.verdict, found.moves, found.nodes, found.seconds, peak_mb())


def solver_space(rules: Any) -> Any:
    """The space ``solve`` searches: the one the game's declaration names for the solver
    (:attr:`~cardtable.core.spec.GameSpec.solver_space`: Klondike's class space,
    :class:`~cardtable.solve.spaces.KlondikeClassSpace`), else the game's search space
    (:attr:`~cardtable.core.spec.GameSpec.search_space`, what
    :func:`~cardtable.solve.spaces.space_for` gives).

    >>> from cardtable.games import rules_for
    >>> type(solver_space(rules_for("klondike", draw=1))).__name__, type(solver_space(rules_for("desturado"))).__name__
    ('KlondikeClassSpace', 'DesturadoSpace')
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

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
from ..core.multiplayer import MultiplayerRules
from .lost import proved_lost
from .search import Budget, Discrepancy, Found, Pruned, search
from .spaces import space_for

VERDICTS = ("solved", "unsolvable", "unknown")

PRUNED_WIDTHS = (2, 3)
"""Children kept per position in the solver's first, incomplete phases, one phase per
width in turn (iterative broadening)."""
PRUNED_NODES = 2_000_000
"""The most positions each incomplete phase explores (a quarter of the node budget when
one is given)."""
PRUNED_SHARE = 4
"""Each incomplete phase gets at most 1/PRUNED_SHARE of the seconds and nodes; the
complete search gets the rest (at least half, a quarter in Klondike)."""
DISCREPANCY_GAMES = ("klondike",)
"""The games whose solver has a third incomplete phase, limited discrepancy search
(:class:`~cardtable.solve.search.Discrepancy`): Klondike, where it was measured (it wins
benchmark deal 68, which the other phases miss within 200 million positions)."""
MAX_DISCREPANCIES = 12
"""The most discrepancies the limited discrepancy phase allows (its last round)."""
DISCREPANCY_NODES = 1_000_000
"""The most positions the limited discrepancy phase explores in all its rounds (it also
has at most 1/PRUNED_SHARE of the nodes and seconds). Each position it spends delays the
proof of an unsolvable deal: with 2,000,000 the 95th percentile of the 200-deal benchmark
went from 1.8 to 4.6 s. Deal 68 takes 464,815."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver found: ``verdict`` (``"solved"``, ``"unsolvable"``: proved, the
    search was complete; ``"unknown"``: the budget ran out), the winning ``moves``
    from the position solved (empty unless solved), and the work: ``nodes``
    (positions explored) and ``seconds``.

    >>> SolveResult("unknown", [], 10, 0.5).solved
    False
    """

    verdict: str
    moves: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

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
    game: Game[Any, Any], seconds: float | None = 30.0, nodes: int | None = None, memory: int | None = 2_000_000
) -> SolveResult:
    """Solve the current position of a one-player game within a budget.

    ``seconds`` and ``nodes`` limit the search (None: no limit); ``memory``
    limits the positions remembered (about 80 bytes each with a compiled core, a
    few hundred in Python). The game itself is not changed. A position that
    :func:`cardtable.solve.lost.proved_lost` shows lost is "unsolvable" at once,
    after no search (``nodes`` 0).

    >>> import cardtable
    >>> solve(cardtable.new_game("devils-square", deal=1), nodes=5).verdict
    'unknown'
    """
    rules = game.rules
    if isinstance(rules, MultiplayerRules):
        raise CardtableError(f"{rules.name} is a multi-player game; the solver is for one-player games")
    began = time.perf_counter()
    if not rules.is_won(game.state) and proved_lost(rules, game.state):
        return SolveResult("unsolvable", [], 0, time.perf_counter() - began)
    space = space_for(rules)
    # The first phases look for a win among the two, then the three, most promising
    # moves of every position (iterative broadening), then, in Klondike, among the lines
    # that leave the first choice at most 0, 1, 2, ... times: fast when the obvious
    # moves nearly work, but they prove nothing when they fail. The last phase, the
    # complete search, gets the rest of the budget and decides.
    quick_nodes = PRUNED_NODES if nodes is None else min(PRUNED_NODES, nodes // PRUNED_SHARE)
    quick_seconds = None if seconds is None else seconds / PRUNED_SHARE
    found = Found("unknown")  # the work of every phase so far, and the win if one was found
    if quick_nodes > 1:
        for width in PRUNED_WIDTHS:
            found = _then(found, search(Pruned(space, width), game.state, Budget(quick_nodes, quick_seconds, memory)))
            if found.verdict == "solved":
                break
        if found.verdict != "solved" and rules.name in DISCREPANCY_GAMES:
            limited = Budget(min(quick_nodes, DISCREPANCY_NODES), quick_seconds, memory)
            found = _discrepancy_phase(space, game.state, found, limited)
    if found.verdict != "solved":
        rest = Budget(
            nodes=None if nodes is None else nodes - found.nodes,
            seconds=None if seconds is None else max(0.0, seconds - found.seconds),
            memory=memory,
        )
        found = _then(found, search(space, game.state, rest), decides=True)
    if found.verdict == "solved":
        check = Game(rules, game.state)
        for move in found.moves:
            check.play(move)
        if not rules.is_won(check.state):  # pragma: no cover - would be a solver bug
            raise AssertionError("the solver's line does not win")
    return SolveResult(found.verdict, found.moves, found.nodes, found.seconds)


def _then(before: Found, found: Found, decides: bool = False) -> Found:
    """A search's result after the work of the phases ``before`` it: its moves, the nodes
    and seconds of all, and its verdict if it is a win or the search ``decides`` (an
    incomplete phase that ends without a win proves nothing: "unknown").

    >>> _then(Found("unknown", [], 5, 1.0), Found("unsolvable", [], 3, 0.5))
    Found(verdict='unknown', moves=[], nodes=8, seconds=1.5)
    """
    verdict = found.verdict if decides or found.verdict == "solved" else "unknown"
    return Found(verdict, found.moves, before.nodes + found.nodes, before.seconds + found.seconds)


def _discrepancy_phase(space: Any, state: Any, before: Found, budget: Budget) -> Found:
    """Limited discrepancy rounds, 0, 1, 2, ... up to :data:`MAX_DISCREPANCIES`, within
    ``budget`` in all, after the work of the phases ``before`` (:func:`_then`): the win
    found, or "unknown". A round that explores no more positions than the round before cut
    nothing new, and ends the phase.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.spaces import space_for
    >>> r = rules_for("klondike")
    >>> found = _discrepancy_phase(space_for(r), r.deal(0), Found("unknown", [], 7), Budget(nodes=50_000))
    >>> found.verdict, 7 < found.nodes <= 50_007
    ('solved', True)
    """
    found = before
    nodes_left, seconds_left = budget.nodes, budget.seconds
    explored = -1
    for d in range(MAX_DISCREPANCIES + 1):
        if (nodes_left is not None and nodes_left < 2) or (seconds_left is not None and seconds_left <= 0):
            break
        limited = Discrepancy(space, d)
        round_ = search(limited, limited.start(state), Budget(nodes_left, seconds_left, budget.memory))
        found = _then(found, round_)
        if round_.verdict != "unsolvable" or round_.nodes <= explored:
            break
        explored = round_.nodes
        nodes_left = None if nodes_left is None else nodes_left - round_.nodes
        seconds_left = None if seconds_left is None else seconds_left - round_.seconds
    return found

"""The solver's entry point: :func:`solve` and its :class:`SolveResult` (see the package docstring).

>>> import cardtable
>>> solve(cardtable.new_game("devils-square", deal=1)).verdict
'unsolvable'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CardtableError
from ..core.game import Game
from ..core.multiplayer import MultiplayerRules
from .search import Budget, depth_first
from .spaces import space_for

VERDICTS = ("solved", "unsolvable", "unknown")


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
    limits the positions remembered (about 300 bytes each). The game itself is
    not changed.

    >>> import cardtable
    >>> solve(cardtable.new_game("devils-square", deal=1), nodes=5).verdict
    'unknown'
    """
    rules = game.rules
    if isinstance(rules, MultiplayerRules):
        raise CardtableError(f"{rules.name} is a multi-player game; the solver is for one-player games")
    found = depth_first(space_for(rules), game.state, Budget(nodes=nodes, seconds=seconds, memory=memory))
    if found.verdict == "solved":
        check = Game(rules, game.state)
        for move in found.moves:
            check.play(move)
        if not rules.is_won(check.state):  # pragma: no cover - would be a solver bug
            raise AssertionError("the solver's line does not win")
    return SolveResult(found.verdict, found.moves, found.nodes, found.seconds)

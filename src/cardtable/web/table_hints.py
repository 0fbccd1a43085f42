"""The solver at a one-player table: the hint, and the check that autocomplete really finishes.

One :class:`TableHints` goes with each table the server holds in memory: it
remembers the winning line of the last hint (while the player follows it,
each further hint is its next move, with no new search) and the checked
finish of the current position (computed once per position).

>>> import cardtable
>>> hints = TableHints()
>>> hints.hint(cardtable.new_game("klondike", deal=8), seconds=0.5)["source"]
'solver'
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..hints import hint
from ..solve.solver import solve

HINT_SECONDS = 0.04
"""The solver's time for a hint, in seconds: an answer within 50 ms (after it, the
labelled heuristic move); a winning line found is remembered, so the hints that
follow it cost nothing."""

FINISH_NODES = 20_000
"""The solver's budget (positions) for checking that autocomplete really finishes."""

FINISH_SECONDS = 0.03
"""... and its time: the check runs once per position, inside the move's answer."""


class TableHints:
    """The solver's answers at one table, with what they remember (see the module docstring).

    >>> TableHints().finish(__import__("cardtable").new_game("klondike", deal=0)) is None
    True
    """

    def __init__(self) -> None:
        self._finish: list[str] | None = None  # the checked autocomplete line of the current position
        self._finish_at = -1
        self._line: list[str] | None = None  # the last hint's winning line, from move _line_at on
        self._line_at = 0

    def hint(self, game: Game[Any, Any], seconds: float = HINT_SECONDS) -> dict[str, str | None]:
        """The solver's next move (``move``, ``source``, ``status``, ``text``): along the
        winning line of an earlier hint (the player has played its moves so far), its next
        move, with no new search; else a search of ``seconds``.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=8); hints = TableHints()
        >>> first = hints.hint(g, seconds=0.5); _ = g.play(first["move"])
        >>> "goes on with a winning line" in hints.hint(g)["text"]
        True
        """
        played = [str(m) for m in game.moves[self._line_at :]] if len(game.moves) >= self._line_at else None
        line = self._line
        if line is not None and played is not None and line[: len(played)] == played and len(played) < len(line):
            move, left = line[len(played)], len(line) - len(played)
            text = f"Play {move}: it goes on with a winning line ({left} moves)."
            return {"move": move, "source": "solver", "status": "winnable", "text": text}
        found = hint(game, seconds=seconds)
        self._line = [str(m) for m in found.line] or None
        self._line_at = len(game.moves)
        move_text = None if found.move is None else str(found.move)
        return {"move": move_text, "source": found.source, "status": found.status, "text": found.text}

    def finish(self, game: Game[Any, Any]) -> list[str] | None:
        """The winning line from here, when no card but the stock's is face down (the
        player has been through the stock) and the solver finds it within
        :data:`FINISH_NODES` positions (cached per position).

        >>> import cardtable
        >>> TableHints().finish(cardtable.new_game("devils-square", deal=0)) is None
        True
        """
        at = len(game.moves)
        if self._finish_at == at:
            return self._finish
        line = None
        if not game.outcome.over:
            hidden = any(
                not up
                for row in game.rules.display(game.state)
                for name, pile in row
                for _, up in pile
                if name != "stock"
            )
            if not hidden:
                result = solve(game, seconds=FINISH_SECONDS, nodes=FINISH_NODES)
                if result.solved:
                    line = [str(m) for m in result.moves]
        self._finish, self._finish_at = line, at
        return line


__all__ = ["FINISH_NODES", "FINISH_SECONDS", "HINT_SECONDS", "TableHints"]

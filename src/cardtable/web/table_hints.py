"""The hints at a one-player table, and the check that autocomplete really finishes.

Two hints, each saying what it knows:

* the plain hint (:meth:`TableHints.plain`) is the honest player's move
  (:func:`cardtable.hints.honest_hint`): what a strong player who cannot see the
  face-down cards would play here. It looks only at what the player sees and has
  seen in this game (the face-up cards, the cards turned up before), imagines deals
  of the unseen cards and solves them, within :data:`PLAIN_SECONDS`: the face-down
  cards never change it;
* the solver's hint (:meth:`TableHints.hint`) searches the whole position, face-down
  cards included, and says so.

Autocomplete is offered only when the finish follows from cards the player has
seen: no card lies face down that the player has not seen face up earlier in this
game (:func:`unseen`; in Klondike, every tableau card turned up and the stock gone
through once), and the solver finds the finish.

One :class:`TableHints` goes with each table the server holds in memory: it
remembers the winning line of the last solver hint (while the player follows it,
each further hint is its next move, with no new search) and the checked
finish of the current position (computed once per position).

>>> import cardtable
>>> hints = TableHints()
>>> hints.hint(cardtable.new_game("klondike", deal=8), seconds=0.5)["source"]
'solver'
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.game import Game
from ..hints import HONEST_SAMPLES, HONEST_SECONDS, SEES_FACE_DOWN, hint, honest_hint, solver_words
from ..solve.solver import solve

HINT_SECONDS = 0.04
"""The solver's time for a hint, in seconds: an answer within 50 ms (after it, the
labelled heuristic move); a winning line found is remembered, so the hints that
follow it cost nothing."""

PLAIN_SECONDS: float | None = HONEST_SECONDS
"""The honest player's time for a plain hint, in seconds (it solves no new imagined deal
after it: the wait is about this plus one solve; docs/benchmarks.md, "The honest hint").
None: no time limit (each imagined deal solved within the player's node budget: the
hint then depends on nothing but what the player has seen, on any machine)."""

FINISH_NODES = 20_000
"""The solver's budget (positions) for checking that autocomplete really finishes."""

FINISH_SECONDS = 0.03
"""... and its time: the check runs once per position, inside the move's answer."""


def start_state(game: Game[Any, Any]) -> Any:
    """The game's first position: its deal, or its layout.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=3); _ = g.play("d")
    >>> start_state(g) == g.rules.deal(3)
    True
    """
    rules = game.rules
    return rules.deal(game.deal) if game.deal is not None else rules.from_text(game.layout or "")


def _face_down(game: Game[Any, Any], state: Any) -> Counter[int]:
    return Counter(c for row in game.rules.display(state) for _, pile in row for c, up in pile if not up)


def unseen(game: Game[Any, Any], memo: SeenCards | None = None) -> Counter[int]:
    """The face-down cards the player has never seen face up in this game, as a count by
    card: replayed from the first position, a card is seen once it has been face up (a
    card turned face down again, as a Klondike redeal turns the waste, stays seen). With
    two copies of a card (Demonthief's two decks) the count errs on the side of unseen.
    ``memo`` (a :class:`SeenCards`) keeps the replay, so a table's next position costs one move.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=3); sum(unseen(g).values())
    45
    >>> for _ in range(8): _ = g.play("d")
    >>> _ = g.play("r"); sum(unseen(g).values())  # the stock was gone through: only the tableau's are unseen
    21
    """
    return (memo or SeenCards()).unseen(game)


class SeenCards:
    """The replay behind :func:`unseen`, kept for one table: the unseen cards after each move
    played so far, extended by the moves played since, cut back where the game went back.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=3); memo = SeenCards()
    >>> sum(unseen(g, memo).values()), sum(unseen(g, memo).values())
    (45, 45)
    """

    def __init__(self) -> None:
        self._moves: list[Any] = []
        self._states: list[Any] = []
        self._left: list[Counter[int]] = []

    def unseen(self, game: Game[Any, Any]) -> Counter[int]:
        """The unseen cards of ``game``'s current position (see :func:`unseen`)."""
        moves = game.moves
        if not self._left or self._states[0] != start_state(game):
            state = start_state(game)
            self._moves, self._states, self._left = [], [state], [_face_down(game, state)]
        same = 0
        while same < min(len(moves), len(self._moves)) and moves[same] == self._moves[same]:
            same += 1
        del self._moves[same:], self._states[same + 1 :], self._left[same + 1 :]
        for move in moves[same:]:
            state = game.rules.apply(self._states[-1], move)
            down = _face_down(game, state)
            self._moves.append(move)
            self._states.append(state)
            self._left.append(Counter({c: min(n, down[c]) for c, n in self._left[-1].items() if down[c]}))
        return Counter(self._left[-1])


class TableHints:
    """The solver's answers at one table, with what they remember (see the module docstring).

    >>> TableHints().finish(__import__("cardtable").new_game("klondike", deal=0)) is None
    True
    """

    def __init__(self) -> None:
        self._seen = SeenCards()
        self._finish: list[str] | None = None  # the checked autocomplete line of the current position
        self._finish_key: tuple[Any, ...] | None = None
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
            words = game.rules.describe_move(game.state, game.parse_move(move))
            text = f"{SEES_FACE_DOWN}{words}: it goes on with a winning line ({left} moves)."
            return {"move": move, "source": "solver", "status": "winnable", "text": text}
        found = hint(game, seconds=seconds)
        self._line = [str(m) for m in found.line] or None
        self._line_at = len(game.moves)
        return {
            "move": None if found.move is None else str(found.move),
            "source": found.source,
            "status": found.status,
            "text": SEES_FACE_DOWN + solver_words(game, found),
        }

    def verdict(self, game: Game[Any, Any], seconds: float = HINT_SECONDS) -> dict[str, str]:
        """Whether the position can no longer be won, for a player who turned the warning
        on: the library's exact end (:attr:`~cardtable.core.game.Game.outcome`: no move can
        make progress), else the solver's proof within ``seconds``. Both look at the
        face-down cards, and the ``text`` says so. ``status``: ``lost``, ``won`` or
        ``unknown`` (no proof either way, or a winning line found: nothing is told).

        >>> import cardtable
        >>> TableHints().verdict(cardtable.new_game("devils-square", deal=1), seconds=5)["status"]
        'lost'
        """
        if game.rules.is_won(game.state):
            return {"status": "won", "text": "The game is won."}
        lost = game.outcome.lost or solve(game, seconds=seconds).verdict == "unsolvable"
        if not lost:
            return {"status": "unknown", "text": ""}
        return {
            "status": "lost",
            "text": "This deal can no longer be won from here (found by looking at the face-down cards). "
            "Undo, restart or deal again, or play on.",
        }

    def plain(
        self, game: Game[Any, Any], seconds: float | None = PLAIN_SECONDS, samples: int = HONEST_SAMPLES
    ) -> dict[str, str | None]:
        """The plain hint: the honest player's move (:func:`cardtable.hints.honest_hint`,
        with up to ``samples`` imagined deals a candidate move), chosen from what the player
        sees and has seen in this game only, in words.

        >>> import cardtable
        >>> TableHints().plain(cardtable.new_game("klondike", deal=0))["text"].split(":")[0]
        'Draw three cards'
        """
        found = honest_hint(game, seconds=seconds, samples=samples)
        return {
            "move": None if found.move is None else str(found.move),
            "source": "plain",
            "status": found.status,
            "text": found.text,
        }

    def finish(self, game: Game[Any, Any]) -> list[str] | None:
        """The winning line from here, when every face-down card has been seen face up
        earlier in this game (:func:`unseen` is empty: the finish follows from what the
        player has seen) and the solver finds it within :data:`FINISH_NODES` positions
        (cached per position).

        >>> import cardtable
        >>> TableHints().finish(cardtable.new_game("devils-square", deal=0)) is None
        True
        """
        key = tuple(game.moves)  # the position: the same count after an undo may be another one
        if self._finish_key == key:
            return self._finish
        line = None
        if game.legal_moves() and not unseen(game, self._seen):
            result = solve(game, seconds=FINISH_SECONDS, nodes=FINISH_NODES)
            if result.solved:
                line = [str(m) for m in result.moves]
        self._finish, self._finish_key = line, key
        return line


__all__ = [
    "FINISH_NODES",
    "FINISH_SECONDS",
    "HINT_SECONDS",
    "PLAIN_SECONDS",
    "SEES_FACE_DOWN",
    "SeenCards",
    "TableHints",
    "start_state",
    "unseen",
]

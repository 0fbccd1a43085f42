"""Multi-player play at the terminal: ``cardtable play GAME --players you,ismcts,greedy``.

One seat may be the human's (``you``); the others are bots. The human sees
only their own seat's view (``game.view(seat)``: their hand, the visible
table, counts) and the public history as their seat saw it, one line per
move as it happens; never another seat's hand or the deck. With no ``you``
the bots play the game out and every move is shown as its mover saw it.

>>> import io
>>> from rich.console import Console
>>> from cardtable import new_game
>>> out = io.StringIO()
>>> TableSession(new_game("deserto", deal=0), ["greedy", "greedy"], Console(file=out)).run()
>>> "game over" in out.getvalue()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ..bots import make
from ..bots.tournament import bot_seed
from ..core.errors import CardtableError, OptionError
from ..core.multiplayer import MultiplayerGame, Result
from .play import PromptSession, prompt_loop
from .render import error_line, title_line

HUMAN = "you"
"""The ``--players`` entry of the human's seat."""

COMMANDS: dict[str, str] = {
    "MOVE": "play a move in the game's notation (see below)",
    "moves": "list your legal moves",
    "history": "show the moves so far, as your seat saw them",
    "help": "show this help",
    "quit": "stop playing (so does the end of input)",
}
"""The commands of the multi-player prompt. There is no undo, redo, save or load."""


def parse_players(text: str) -> list[str]:
    """The entries of ``--players``: bot names and at most one ``you``, comma separated.

    >>> parse_players("you, ismcts,greedy")
    ['you', 'ismcts', 'greedy']
    >>> parse_players("you,you")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: --players names 'you' 2 times: at most one seat is yours
    """
    names = [word.strip().lower() for word in text.split(",")]
    if any(not name for name in names):
        raise OptionError(f"--players must be names separated by commas, not {text!r}")
    if names.count(HUMAN) > 1:
        raise OptionError(f"--players names {HUMAN!r} {names.count(HUMAN)} times: at most one seat is yours")
    return names


def result_lines(result: Result, names: Sequence[str]) -> list[str]:
    """The end of a game: each seat's score and rank, then the winner or winners.

    >>> result_lines(Result.from_scores((20, 20, 5)), ["you", "greedy", "random"])[-1]
    'shared win: seat 0 (you), seat 1 (greedy)'
    """
    lines = [
        f"{seat_name(s, names)}: {score} won, rank {rank}"
        for s, (score, rank) in enumerate(zip(result.scores, result.ranks, strict=True))
    ]
    winners = ", ".join(seat_name(s, names) for s in result.winners)
    lines.append(f"{'winner' if len(result.winners) == 1 else 'shared win'}: {winners}")
    return lines


def seat_name(seat: int, names: Sequence[str]) -> str:
    """A seat and who plays it.

    >>> seat_name(1, ["you", "greedy"])
    'seat 1 (greedy)'
    """
    return f"seat {seat} ({names[seat]})"


def view_lines(data: dict[str, Any], names: Sequence[str]) -> list[str]:
    """A seat's view (``view.to_json()``) as screen lines: the area (two positions a
    line), the deck size, every seat's hand size and cards won, and the seat's own hand.

    >>> from cardtable import new_game
    >>> view_lines(new_game("deserto", deal=0).view(0).to_json(), ["you", "greedy"])[-1]
    'your hand: T G G'
    """
    lines: list[str] = []
    area = data.get("area", [])
    cells = [f"{i + 1}: " + ("--" if p["top"] is None else f"{p['top']} ({p['size']})") for i, p in enumerate(area)]
    lines += ["   ".join(c.ljust(9) for c in cells[i : i + 2]).rstrip() for i in range(0, len(cells), 2)]
    if "deck" in data:
        lines.append(f"deck: {data['deck']} card{'' if data['deck'] == 1 else 's'}")
    for s, (size, won) in enumerate(zip(data.get("hand_sizes", []), data.get("won", []), strict=True)):
        mark = "  <- to move" if data.get("to_move") == s else ""
        lines.append(f"{seat_name(s, names)}: {size} in hand, {won} won{mark}")
    lines.append("your hand: " + " ".join(data.get("hand", [])))
    return lines


class TableSession(PromptSession):
    """A multi-player game at the prompt: ``names[seat]`` is ``you`` or a bot name.

    Bots are seeded from the deal number and their seat, so a session is reproducible.

    >>> import io
    >>> from cardtable import new_game
    >>> TableSession(new_game("deserto", deal=0), ["you", "greedy"], Console(file=io.StringIO())).human
    0
    """

    def __init__(self, game: MultiplayerGame[Any, Any], names: Sequence[str], console: Console) -> None:
        if len(names) != game.players:
            raise OptionError(f"--players names {len(names)} players but the game has {game.players}")
        super().__init__(game, console)
        self.game: MultiplayerGame[Any, Any] = game
        self.names = list(names)
        self.human = self.names.index(HUMAN) if HUMAN in self.names else None
        seed = game.deal or 0
        self.bots = [None if n == HUMAN else make(n, seed=bot_seed(seed, 0, s)) for s, n in enumerate(self.names)]

    def run(self, read: Callable[[str], str] | None = None, echo: bool | None = None) -> None:
        """Introduce the seats, let the bots move until it is the human's turn, then read
        lines (see :func:`~cardtable.cli.play.prompt_loop`) until the game ends or ``quit``.

        >>> import io
        >>> from cardtable import new_game
        >>> out = io.StringIO()
        >>> TableSession(new_game("deserto", deal=0), ["you", "greedy"], Console(file=out)).run(lambda p: "quit")
        >>> "your hand: T G G" in out.getvalue()
        True
        """
        self._say(title_line(self.game))
        self._say("seats: " + ", ".join(seat_name(s, self.names) for s in range(self.game.players)))
        if self.advance():
            prompt_loop(lambda: self.prompt, self.handle, self.console, read, echo)

    def advance(self) -> bool:
        """Let the bots play until the human is to move (show the screen; True) or the game ends (show the result).

        >>> import io
        >>> from cardtable import new_game
        >>> TableSession(new_game("deserto", deal=0), ["greedy", "you"], Console(file=io.StringIO())).advance()
        True
        """
        while (seat := self.game.to_move) is not None and seat != self.human:
            bot = self.bots[seat]
            assert bot is not None
            self.game.play(bot.choose(self.game, seat), seat=seat)
            self._played(seat)
        if seat is None:
            result = self.game.outcome.result
            assert result is not None
            self._say()
            self._say(Text("game over", style="bold"))
            for line in result_lines(result, self.names):
                self._say(line)
            return False
        self.show()
        return True

    def _played(self, seat: int) -> None:
        """Show the move just played, as the human's seat (or, watching, its mover) saw it."""
        self._say(str(self.game.history(seat if self.human is None else self.human)[-1]))

    def show(self) -> None:
        """Show the human's view of the table.

        >>> import io
        >>> from cardtable import new_game
        >>> s = TableSession(new_game("deserto", deal=0), ["you", "greedy"], Console(file=io.StringIO()))
        >>> s.show(); "deck: 45 cards" in s.console.file.getvalue()
        True
        """
        assert self.human is not None
        self._say()
        for line in view_lines(self.game.view(self.human).to_json(), self.names):  # type: ignore[attr-defined]
            self._say(line)

    def handle(self, line: str) -> bool:
        """Do what one line says; False when the session ends (``quit`` or the end of the game).

        >>> import io
        >>> from cardtable import new_game
        >>> s = TableSession(new_game("deserto", deal=0), ["you", "greedy"], Console(file=io.StringIO()))
        >>> s.handle("undo"), s.console.file.getvalue()
        (True, 'error: undo is not available in multi-player play (see help)\\n')
        """
        words = line.split()
        if not words:
            return True
        command = words[0].lower()
        try:
            if command == "quit":
                return False
            if command in COMMANDS and len(words) > 1:
                raise OptionError(f"{command} takes no argument")
            if command in ("undo", "redo", "restart", "save", "load"):
                raise OptionError(f"{command} is not available in multi-player play (see help)")
            if command == "help":
                self.help()
            elif command == "moves":
                self._say(" ".join(str(m) for m in self.game.legal_moves()))
            elif command == "history":
                assert self.human is not None
                for entry in self.game.history(self.human) or ("no moves yet",):
                    self._say(str(entry))
            else:
                assert self.human is not None
                self.game.play(line.strip(), seat=self.human)
                self._played(self.human)
                return self.advance()
        except CardtableError as err:
            self._say(error_line(str(err)))
        return True

    def help(self) -> None:
        """Show the commands and the move notation.

        >>> import io
        >>> from cardtable import new_game
        >>> s = TableSession(new_game("deserto", deal=0), ["you", "greedy"], Console(file=io.StringIO()))
        >>> s.help(); "no undo" in s.console.file.getvalue()
        True
        """
        width = max(len(name) for name in COMMANDS)
        for name, text in COMMANDS.items():
            self._say(Text.assemble((f"  {name.ljust(width)}", "cyan"), f"  {text}"))
        self._say("There is no undo, redo, save or load in multi-player play.")
        self._say(Text(f"Notation: {self.game.rules.NOTATION or '(see cardtable rules)'}"))

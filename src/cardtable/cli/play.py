"""The play loop of ``cardtable play``: show the position, read a command, repeat.

A line at the prompt is one of the commands in :data:`COMMANDS` or else a
move in the game's notation. Bad input (an illegal or unreadable move, a file
that cannot be read) prints one line and leaves the game as it was. The loop
ends on ``quit`` or at the end of input, so it runs the same on a terminal and
on a script fed to standard input.

>>> import io
>>> from cardtable import new_game
>>> session = Session(new_game("klondike", deal=0), Console(file=io.StringIO()))
>>> session.handle("d"), len(session.game.moves)
(True, 1)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import load
from ..core.errors import CardtableError, SaveFileError
from ..core.game import MAX_SAVE_SIZE, Game
from ..core.inputs import QUOTE_LENGTH, quote
from ..core.multiplayer import MultiplayerGame
from ..hints import SEES_FACE_DOWN, hint, honest_hint, solver_words
from .common import write_whole
from .render import error_line, outcome_message, position_lines

COMMANDS: dict[str, str] = {
    "MOVE": "play a move in the game's notation (see below)",
    "moves": "list the legal moves",
    "undo": "take back the last move",
    "redo": "play again the last move taken back",
    "restart": "go back to the start of the deal",
    "hint": "show a move a strong player would play here, from the cards you see, without playing it",
    "solver": "ask the solver, which sees the face-down cards: a winning move, or whether the deal is lost",
    "save FILE": "write the game to a save file",
    "load FILE": "continue a game from a save file",
    "help": "show this help",
    "quit": "stop playing (so does the end of input)",
}
"""The commands of the prompt, as shown by ``help``."""

HINT_SECONDS = 2.0
"""The time the solver may take for a ``solver`` hint at the prompt, in seconds (a ``hint``,
the honest player's, takes :data:`cardtable.hints.HONEST_SECONDS`)."""

RANDOM_LEVEL = "random"
"""The level shown for a deal not chosen by level (a deal number, a random deal, a save file)."""


def read_save(path: str) -> Game[Any, Any]:
    """The game in save file ``path``, of which no more than
    :data:`~cardtable.core.game.MAX_SAVE_SIZE` bytes are read (a save is ASCII text).

    Raises :class:`~cardtable.core.errors.SaveFileError` when the file cannot
    be read (a path the system refuses, with a NUL byte say, included), is
    longer, or is not a good save file.

    >>> read_save("/nonexistent/x.json")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: cannot read /nonexistent/x.json: No such file or directory
    >>> read_save("/dev/zero")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: cannot read /dev/zero: a save file is at most 16777216 bytes
    """
    shown = _shown(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_SAVE_SIZE + 1)
    except OSError as err:
        raise SaveFileError(f"cannot read {shown}: {err.strerror or err}") from None
    except ValueError:  # a NUL byte, or a path the system cannot name
        raise SaveFileError(f"cannot read {shown}: not a possible file name") from None
    if len(data) > MAX_SAVE_SIZE:
        raise SaveFileError(f"cannot read {shown}: a save file is at most {MAX_SAVE_SIZE} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError(f"cannot read {shown}: not a text file") from None
    try:
        return load(text)
    except SaveFileError as err:
        raise SaveFileError(f"{shown}: {err}") from None


def _shown(path: str) -> str:
    """A path for a message: as written, or a short excerpt of a long or odd one."""
    return path if len(path) <= QUOTE_LENGTH and path.isprintable() else quote(path)


def write_save(game: Game[Any, Any], path: str) -> None:
    """Write ``game`` to save file ``path``.

    Raises :class:`~cardtable.core.errors.SaveFileError` when the file cannot be written.

    >>> import io
    >>> from cardtable import new_game
    >>> write_save(new_game("klondike", deal=0), "/nonexistent/x.json")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: cannot write /nonexistent/x.json: No such file or directory
    """
    try:
        write_whole(path, game.save() + "\n")  # a save already there is never left half written
    except OSError as err:
        raise SaveFileError(f"cannot write {_shown(path)}: {err.strerror or err}") from None
    except ValueError:  # a NUL byte, or a path the system cannot name
        raise SaveFileError(f"cannot write {_shown(path)}: not a possible file name") from None


class PromptSession:
    """What every session at the prompt has: the game, the console, the prompt.

    >>> import io
    >>> from cardtable import new_game
    >>> PromptSession(new_game("klondike", deal=0), Console(file=io.StringIO())).prompt
    'klondike> '
    """

    def __init__(self, game: Game[Any, Any], console: Console) -> None:
        self.game = game
        self.console = console

    def _say(self, text: Text | str = "") -> None:
        """Print one line; the terminal, not rich, wraps it, so a message stays one line."""
        self.console.print(text, soft_wrap=True)

    @property
    def prompt(self) -> str:
        """The prompt: the game's name.

        >>> import io
        >>> from cardtable import new_game
        >>> PromptSession(new_game("deserto", deal=0), Console(file=io.StringIO())).prompt
        'deserto> '
        """
        return f"{self.game.name}> "


class Session(PromptSession):
    """A one-player game played at the prompt: :meth:`run` the loop, or :meth:`handle` one line.

    ``level`` is the deal level the deal was chosen at (``random``, the
    default, for a deal chosen by number); the screen shows it with the deal
    number, as ``Easy (N)``. It belongs to the session, not the save file.

    >>> import io
    >>> from cardtable import new_game
    >>> Session(new_game("klondike", deal=0), Console(file=io.StringIO())).handle("quit")
    False
    """

    def __init__(self, game: Game[Any, Any], console: Console, level: str = RANDOM_LEVEL) -> None:
        super().__init__(game, console)
        self.level = level

    def run(self, read: Callable[[str], str] | None = None, echo: bool | None = None) -> None:
        """Show the position, then read and handle lines until ``quit`` or the end of input.

        ``read(prompt)`` returns the next line and raises :class:`EOFError` at
        the end (default: :func:`input`). With ``echo`` (default: when standard
        input is not a terminal) each line read is printed after the prompt, so
        the output of a scripted session reads like a terminal session.

        >>> import io
        >>> from cardtable import new_game
        >>> lines, out = iter(["d", "undo", "quit"]), io.StringIO()
        >>> Session(new_game("klondike", deal=0), Console(file=out)).run(lambda prompt: next(lines), echo=True)
        >>> out.getvalue().count("moves played: 1"), "took back d" in out.getvalue()
        (1, True)
        """
        self.show()
        prompt_loop(lambda: self.prompt, self.handle, self.console, read, echo)

    def handle(self, line: str) -> bool:
        """Do what one line of input says; False when it says to quit.

        Errors print one line and leave the game unchanged.

        >>> import io
        >>> from cardtable import new_game
        >>> s = Session(new_game("klondike", deal=0), Console(file=io.StringIO()))
        >>> s.handle("  "), s.handle("x"), s.game.moves
        (True, True, [])
        >>> s.console.file.getvalue()
        "error: not a klondike move: 'x' (moves look like d, r, w3, wf, 3f, 35, 35:2, fh5)\\n"
        """
        words = line.split(maxsplit=1)
        if not words:
            return True
        command = words[0].lower()
        argument = words[1].strip() if len(words) > 1 else ""
        try:
            if command == "quit":
                return False
            if command in ("help", "moves", "undo", "redo", "restart", "hint", "solver") and argument:
                raise _InputError(f"{command} takes no argument")
            if command in ("save", "load") and not argument:
                raise _InputError(f"usage: {command} FILE")
            if command == "help":
                self.help()
            elif command == "moves":
                moves = " ".join(str(m) for m in self.game.legal_moves())
                self._say(Text(moves or "no legal moves"))
            elif command == "undo":
                self.note(f"took back {self.game.undo()}")
            elif command == "redo":
                self.note(f"played again {self.game.redo()}")
            elif command == "restart":
                self.game.restart()
                self.note("back to the start")
            elif command == "hint":  # from what the player sees and has seen only
                self._say(Text(honest_hint(self.game).text))
            elif command == "solver":  # the player asked the all-seeing solver, and it says so
                self._say(Text(SEES_FACE_DOWN + solver_words(self.game, hint(self.game, seconds=HINT_SECONDS))))
            elif command == "save":
                write_save(self.game, argument)
                self._say(Text(f"saved to {argument}"))
            elif command == "load":
                loaded = read_save(argument)
                if loaded.name != self.game.name:  # this prompt plays one game: its own
                    raise SaveFileError(f"{argument} is a save file of {loaded.name}, not {self.game.name}")
                if not same_deal(loaded, self.game):
                    self.level = RANDOM_LEVEL  # the level is known only for the deal chosen by level
                self.game = loaded
                self.note(f"loaded {argument}")
            else:
                self.game.play(line.strip())
                self.show()
        except (CardtableError, _InputError) as err:
            self._say(error_line(str(err)))
        return True

    def note(self, message: str) -> None:
        """Say what happened, then show the position.

        >>> import io
        >>> from cardtable import new_game
        >>> s = Session(new_game("klondike", deal=0), Console(file=io.StringIO()))
        >>> s.note("hello"); s.console.file.getvalue().startswith("hello")
        True
        """
        self._say(Text(message, style="italic"))
        self.show()

    def show(self) -> None:
        """Show the position and, when the game is won or over, say so.

        >>> import io
        >>> from cardtable import new_game
        >>> s = Session(new_game("klondike", deal=0), Console(file=io.StringIO()))
        >>> s.show(); "stock: ##x24" in s.console.file.getvalue()
        True
        >>> "Random (0)" in s.console.file.getvalue()
        True
        """
        self._say()
        level = None if isinstance(self.game, MultiplayerGame) else self.level  # levels: one-player games
        for line in position_lines(self.game, self.console.width, level):
            self._say(line)
        # Told over only from what the player sees (seen_outcome): Klondike's exact "over"
        # turns the stock round, whose order the player may not know.
        message = outcome_message(self.game.seen_outcome)
        if message is not None:
            self._say(message)

    def help(self) -> None:
        """Show the commands and the game's move notation.

        >>> import io
        >>> from cardtable import new_game
        >>> s = Session(new_game("klondike", deal=0), Console(file=io.StringIO()))
        >>> s.help(); "undo" in s.console.file.getvalue()
        True
        """
        width = max(len(name) for name in COMMANDS)
        for name, text in COMMANDS.items():
            self._say(Text.assemble((f"  {name.ljust(width)}", "cyan"), f"  {text}"))
        notation = self.game.rules.NOTATION or "(see cardtable rules)"
        self._say(Text(f"Notation: {notation}"))


def same_deal(one: Game[Any, Any], other: Game[Any, Any]) -> bool:
    """Whether two games play the same deal: same game, options and deal number (not from a layout).

    >>> from cardtable import new_game
    >>> same_deal(new_game("klondike", deal=3), new_game("klondike", deal=3))
    True
    >>> same_deal(new_game("klondike", deal=3), new_game("klondike", deal=3, draw=1))
    False
    """
    return one.deal is not None and (one.name, one.options, one.deal) == (other.name, other.options, other.deal)


class _InputError(Exception):
    """A prompt command written wrongly."""


def prompt_loop(
    prompt: Callable[[], str],
    handle: Callable[[str], bool],
    console: Console,
    read: Callable[[str], str] | None = None,
    echo: bool | None = None,
) -> None:
    """Read lines and ``handle`` them until it returns False or the input ends.

    ``read(prompt)`` returns the next line and raises :class:`EOFError` at the
    end (default: :func:`input`); with ``echo`` (default: when standard input
    is not a terminal) each line read is printed after the prompt.

    >>> import io
    >>> lines, out = iter(["a", "quit", "b"]), io.StringIO()
    >>> prompt_loop(lambda: "> ", lambda line: line != "quit", Console(file=out), lambda p: next(lines), echo=True)
    >>> out.getvalue()
    'a\\nquit\\n'
    """
    if read is None:
        if sys.stdin is None:  # standard input closed: no line to read, as at its end
            console.print(soft_wrap=True)
            return
        read = _line_reader()
    if echo is None:
        echo = sys.stdin is None or not sys.stdin.isatty()
    while True:
        try:
            line = read(prompt())
        except (EOFError, KeyboardInterrupt):
            console.print(soft_wrap=True)
            return
        if echo:
            console.print(Text(line), soft_wrap=True)
        if not handle(line):
            return


def _line_reader() -> Callable[[str], str]:
    """:func:`input`, with line editing when standard input is a terminal."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (imported for its effect on input())
    return input

"""What every ``cardtable`` command shares: one-line errors and game options on the command line.

>>> CommandError("unknown game 'x'").exit_code
2
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import click

from ..core.errors import CardtableError, OptionError
from ..core.inputs import QUOTE_LENGTH, check_int, is_decimal, quote, read_int, short
from .render import one_line

EXIT_ERROR = 2
"""The exit status of every error."""

MAX_WORKERS = 64
"""The most local processes a command starts (``--workers``): more only thrash a machine."""

GAME_OPTIONS = {"ignore_unknown_options": True, "allow_extra_args": True}
"""Click settings of the commands that take game options (``--name value``)."""


class CommandError(click.ClickException):
    """An error shown as one line, ``cardtable: error: ...``, with exit status 2.

    >>> CommandError("unknown game 'x'").format_message()
    "unknown game 'x'"
    """

    exit_code = EXIT_ERROR

    def __init__(self, message: str) -> None:
        super().__init__(short_line(message))

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the error line on standard error (or ``file``).

        >>> import io; out = io.StringIO(); CommandError("x").show(out); out.getvalue()
        'cardtable: error: x\\n'
        """
        click.echo(f"cardtable: error: {self.format_message()}", file=file, err=file is None)


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to the file ``path`` whole or not at all: into a new file beside it,
    then put in its place, so that a file already there is never left half written (a full
    disk, an interruption). A symbolic link is followed (the file it names is written); a
    path that is there but is no regular file (a device such as ``/dev/full``, a directory, a
    pipe) is refused, since putting a file in its place would remove it (found by the
    bad-input audit: run as root, ``save /dev/full`` replaced the device). ``OSError`` (and
    ``ValueError`` for a path the system cannot name) when it cannot be written; then
    nothing has changed.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.json"); write_whole(path, "{}"); open(path).read()
    '{}'
    >>> folder = tempfile.mkdtemp(); write_whole(folder, "{}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    IsADirectoryError: [Errno 21] not a regular file: '...'
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        raise IsADirectoryError(errno.EISDIR, "not a regular file", str(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            shutil.copymode(target, temporary)
        else:  # as a plain open() would make it (mkstemp's file is its owner's only)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class OnceCommand(click.Command):
    """A click command whose options may each be given once (click keeps the last of two,
    so ``--players you,greedy --players 3`` quietly became a game of three at one
    screen; found by the bad-input audit). Options that take several values
    (``multiple``) may repeat; the game options have their own check (:func:`game_options`).

    >>> from click.testing import CliRunner
    >>> from cardtable.cli.main import cli
    >>> CliRunner().invoke(cli, ["deal", "klondike", "--deal", "1", "--deal", "2"]).output.split(" (")[0]
    'cardtable: error: option --deal is given twice'
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse an option given twice, then parse as click does."""
        once = {
            name: param.name
            for param in self.params
            if isinstance(param, click.Option) and not param.multiple and not param.count
            for name in (*param.opts, *param.secondary_opts)
        }
        seen: set[str | None] = set()
        for arg in args:
            if arg == "--":
                break
            name = arg.split("=", 1)[0] if arg.startswith("--") else arg
            if name in once:
                if once[name] in seen:
                    raise click.UsageError(f"option {name} is given twice", ctx)
                seen.add(once[name])
        return super().parse_args(ctx, args)


class CardtableGroup(click.Group):
    """A click group whose errors are all one line (see :class:`CommandError`), and whose
    commands take each option once (:class:`OnceCommand`).

    Library errors (:class:`~cardtable.core.errors.CardtableError`) and click's
    usage errors are turned into :class:`CommandError`; ``--help`` works as usual.

    >>> from cardtable.cli.main import cli
    >>> isinstance(cli, CardtableGroup)
    True
    """

    command_class = OnceCommand

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """Parse the group's own arguments, with one-line usage errors.

        >>> from cardtable.cli.main import cli
        >>> cli.make_context("cardtable", ["--bogus"])
        Traceback (most recent call last):
        ...
        cardtable.cli.common.CommandError: No such option '--bogus' (see 'cardtable --help')
        """
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as err:
            raise _usage_error(err) from None

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, with one-line errors.

        >>> from click.testing import CliRunner
        >>> from cardtable.cli.main import cli
        >>> CliRunner().invoke(cli, ["rules"]).exit_code
        2
        """
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as err:
            raise _usage_error(err) from None
        except CardtableError as err:
            raise CommandError(str(err)) from None


_LONG_WORD = re.compile(rf"\S{{{2 * QUOTE_LENGTH},}}")


def short_line(message: str) -> str:
    """``message`` as one short line: lines joined, every very long word (a quoted argument)
    cut to an excerpt, and the whole at most :data:`~cardtable.core.inputs.MAX_MESSAGE` characters.

    >>> short_line("No such command '" + "x" * 10**6 + "'.")
    "No such command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (1000003 characters)"
    """
    cut = _LONG_WORD.sub(lambda m: f"{m.group()[: QUOTE_LENGTH - 8]}... ({len(m.group())} characters)", message)
    return short(one_line(cut))


def _usage_error(err: click.UsageError) -> CommandError:
    hint = f" (see '{err.ctx.command_path} --help')" if err.ctx is not None else ""
    return CommandError(err.format_message().rstrip(".") + hint)


def parse_game_options(args: Sequence[str]) -> dict[str, str]:
    """Game options from the words left on the command line: ``--name value`` or ``--name=value``.

    The values stay text; the library checks names and values.

    >>> parse_game_options(["--draw", "1", "--foundation-return=off"])
    {'draw': '1', 'foundation-return': 'off'}
    >>> parse_game_options(["--draw"])
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: game option --draw needs a value (--draw VALUE)
    >>> parse_game_options(["--draw", "1", "--draw", "3"])
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: game option --draw is given twice
    """
    options: dict[str, str] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise OptionError(f"unexpected argument {quote(word)} (game options are written --name value)")
        name, equals, value = word[2:].partition("=")
        if not equals:
            if not words or words[0].startswith("--"):
                flag = name if len(name) <= QUOTE_LENGTH else quote(name)
                raise OptionError(f"game option --{flag} needs a value (--{flag} VALUE)")
            value = words.pop(0)
        if any(given.replace("-", "_") == name.replace("-", "_") for given in options):
            flag = name if len(name) <= QUOTE_LENGTH else quote(name)
            raise OptionError(f"game option --{flag} is given twice")
        options[name] = value
    return options


class WholeNumber(click.ParamType[int, Any]):
    """A command-line option's whole number: ASCII decimal digits, from ``low`` to ``high``
    (None: no bound), read by :func:`~cardtable.core.inputs.read_int` like every number
    cardtable reads from text (click's own ``int`` takes other digits, and any length).

    >>> WholeNumber(0).convert("12", None, None)
    12
    >>> WholeNumber(0).convert("\\u0661", None, None)  # an Arabic-Indic 1  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: the value must be a whole number, at least 0, not '...'
    """

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        """The metavar click shows in help: ``INTEGER``.

        >>> WholeNumber().get_metavar(click.Option(["--n"]))
        'INTEGER'
        """
        return "INTEGER"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """``value`` (text, or an int default) as an int in range, else a one-line usage error.

        >>> WholeNumber(1).convert(3, None, None)
        3
        """
        what = "the value"
        try:
            if isinstance(value, str):
                return read_int(value.strip(), what, OptionError, self.low, self.high)
            return check_int(value, what, OptionError, self.low, self.high)
        except OptionError as err:
            self.fail(str(err), param, ctx)


_DECIMAL_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


class Number(click.ParamType[float, Any]):
    """A command-line option's number (seconds): ASCII decimal notation (``1``, ``0.5``,
    ``2e-3``), finite and at least ``low``.

    >>> Number(0).convert("0.5", None, None)
    0.5
    >>> Number(0).convert("nan", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: the value must be a number of at least 0 (like 0.5), not 'nan'
    """

    name = "float"

    def __init__(self, low: float = 0.0) -> None:
        self.low = low

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        """The metavar click shows in help: ``FLOAT``.

        >>> Number().get_metavar(click.Option(["--n"]))
        'FLOAT'
        """
        return "FLOAT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """``value`` (text, or a number default) as a float, else a one-line usage error.

        >>> Number().convert(30.0, None, None)
        30.0
        """
        number = read_number(value) if isinstance(value, str) else value
        if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
            number = None
        if number is None or number < self.low:
            low = int(self.low) if self.low == int(self.low) else self.low
            self.fail(f"the value must be a number of at least {low} (like 0.5), not {quote(value)}", param, ctx)
        return float(number)


def read_number(text: str) -> float | None:
    """The number written ``text`` in ASCII decimal notation, or None (``nan``, ``inf``,
    ``1_000``, other digits, too large).

    >>> read_number(" 2.5 "), read_number("1e400"), read_number("inf")
    (2.5, None, None)
    """
    text = text.strip()
    if not _DECIMAL_NUMBER.fullmatch(text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def budget_value(key: str, text: str) -> int | float:
    """One ``--budget`` value: a whole number (ASCII digits, a sign allowed: the bot then
    says the range it takes) or a decimal number.

    >>> budget_value("iterations", "200"), budget_value("seconds", "0.5"), budget_value("iterations", "-5")
    (200, 0.5, -5)
    """
    text = text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if is_decimal(digits):
        whole = read_int(digits, f"--budget {quote(key)[1:-1]}", OptionError, 0)
        return -whole if text.startswith("-") else whole
    number = read_number(text)
    if number is None:
        raise OptionError(f"--budget {quote(key)[1:-1]} must be a number, not {quote(text)}")
    return number

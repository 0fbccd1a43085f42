"""What every ``cardtable`` command shares: one-line errors and game options on the command line.

>>> CommandError("unknown game 'x'").exit_code
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

import click

from ..core.errors import CardtableError, OptionError
from .render import one_line

EXIT_ERROR = 2
"""The exit status of every error."""

GAME_OPTIONS = {"ignore_unknown_options": True, "allow_extra_args": True}
"""Click settings of the commands that take game options (``--name value``)."""


class CommandError(click.ClickException):
    """An error shown as one line, ``cardtable: error: ...``, with exit status 2.

    >>> CommandError("unknown game 'x'").format_message()
    "unknown game 'x'"
    """

    exit_code = EXIT_ERROR

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the error line on standard error (or ``file``).

        >>> import io; out = io.StringIO(); CommandError("x").show(out); out.getvalue()
        'cardtable: error: x\\n'
        """
        click.echo(f"cardtable: error: {self.format_message()}", file=file, err=file is None)


class CardtableGroup(click.Group):
    """A click group whose errors are all one line (see :class:`CommandError`).

    Library errors (:class:`~cardtable.core.errors.CardtableError`) and click's
    usage errors are turned into :class:`CommandError`; ``--help`` works as usual.

    >>> from cardtable.cli.main import cli
    >>> isinstance(cli, CardtableGroup)
    True
    """

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
    """
    options: dict[str, str] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise OptionError(f"unexpected argument {word!r} (game options are written --name value)")
        name, equals, value = word[2:].partition("=")
        if not equals:
            if not words or words[0].startswith("--"):
                raise OptionError(f"game option --{name} needs a value (--{name} VALUE)")
            value = words.pop(0)
        options[name] = value
    return options

"""Helpers for the CLI tests: run the command in-process and check its errors."""

from __future__ import annotations

from collections.abc import Sequence

from click.testing import CliRunner, Result

from cardtable.cli.main import cli


def run(args: Sequence[str], input: str | None = None) -> Result:
    """Run ``cardtable ARGS`` in-process, with ``input`` as standard input; unexpected exceptions propagate.

    >>> run(["deal", "klondike", "--deal", "1"]).exit_code
    0
    """
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def assert_one_line_error(result: Result, *words: str) -> str:
    """Check the result of a failed command: status 2, one error line on stderr holding ``words``, no traceback.

    >>> assert_one_line_error(run(["deal", "nope"]), "unknown game").startswith("cardtable: error: unknown game 'nope'")
    True
    """
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cardtable: error: "), lines[0]
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]

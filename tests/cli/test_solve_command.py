"""The `solve` command."""

from __future__ import annotations

import pytest

import cardtable

from .runner import assert_one_line_error, run


def test_solve_prints_a_winning_line_in_the_notation() -> None:
    result = run(["solve", "klondike", "--deal", "8"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "verdict: solved"
    assert lines[1].startswith("work: ")
    moves = lines[2].split(": ", 1)[1].split()
    game = cardtable.new_game("klondike", deal=8)
    for move in moves:
        game.play(move)
    assert game.outcome.won


def test_solve_proves_unsolvable() -> None:
    result = run(["solve", "devils-square", "--deal", "1"])
    assert result.stdout.splitlines()[0] == "verdict: unsolvable"


def test_solve_reports_unknown_when_the_budget_runs_out() -> None:
    result = run(["solve", "desturado", "--deal", "5", "--nodes", "50"])
    assert result.stdout.splitlines()[0] == "verdict: unknown"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "chess", "--deal", "1"], ["unknown game"]),
        (["solve", "klondike", "--deal", "x"], ["deal number"]),
        (["solve", "klondike", "--deal", "1", "--draw", "2"], ["draw"]),
    ],
)
def test_solve_errors_are_one_line(args: list[str], words: list[str]) -> None:
    assert_one_line_error(run(args), *words)

"""The commands `games`, `rules` and `deal`, game options, errors, and the installed entry point."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable.games import rules_class

from .runner import assert_one_line_error, run


def test_help_works_for_every_command() -> None:
    for args in (["--help"], *([c, "--help"] for c in ("games", "rules", "deal", "play", "solve"))):
        result = run(args)
        assert result.exit_code == 0, args
        assert "Usage: cardtable" in result.stdout


def test_version() -> None:
    result = run(["--version"])
    assert result.exit_code == 0
    assert cardtable.__version__ in result.stdout


def test_games_lists_every_game_with_its_options() -> None:
    result = run(["games"])
    assert result.exit_code == 0
    out = result.stdout
    for name in cardtable.GAMES:
        cls = rules_class(name)
        assert f"{name}  {cls.title}" in out
        for option in cls.OPTIONS:
            assert option.describe() in out


@pytest.mark.parametrize("game", cardtable.GAMES)
def test_rules_for_every_game(game: str) -> None:
    result = run(["rules", game])
    assert result.exit_code == 0, result.output
    cls = rules_class(game)
    assert cls.title in result.stdout
    assert "Options" in result.stdout
    for option in cls.OPTIONS:
        assert option.name in result.stdout
    assert "Notation" in result.stdout or "notation" in result.stdout


@pytest.mark.parametrize("game", cardtable.GAMES)
def test_deal_prints_a_layout_that_reads_back(game: str) -> None:
    result = run(["deal", game, "--deal", "7"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    expected = cardtable.new_game(game, deal=7)
    assert result.stdout == expected.to_text() + "\n"
    assert cardtable.new_game(game, layout=result.stdout).state == expected.state


def test_deal_without_a_number_picks_one_and_tells_it_on_stderr() -> None:
    result = run(["deal", "klondike"])
    assert result.exit_code == 0
    word, number = result.stderr.split()
    assert word == "deal"
    assert 0 <= int(number) < 2**32
    assert result.stdout == cardtable.new_game("klondike", deal=int(number)).to_text() + "\n"


def test_deal_in_pysol_format() -> None:
    result = run(["deal", "klondike", "--deal", "11", "--format", "pysol"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Talon: ")
    game = cardtable.new_game("klondike", deal=11)
    assert result.stdout == game.to_text("pysol") + "\n"
    assert cardtable.new_game("klondike", layout=result.stdout).state == game.state


@pytest.mark.parametrize(
    "args",
    [
        ["--numbering", "javasol"],
        ["--numbering=javasol"],
        ["--numbering", "JAVASOL", "--draw", "1"],
        ["--draw=1", "--foundation-return", "off", "--numbering", "javasol", "--redeals", "2"],
    ],
)
def test_game_options_pass_through(args: list[str]) -> None:
    result = run(["deal", "klondike", "--deal", "5", *args])
    assert result.exit_code == 0, result.output
    assert result.stdout == cardtable.new_game("klondike", deal=5, numbering="javasol").to_text() + "\n"


def test_game_options_reach_the_game() -> None:
    result = run(["play", "klondike", "--deal", "5", "--draw", "1", "--foundation_return=off", "--redeals", "2"])
    assert result.exit_code == 0, result.output
    assert "draw=1 redeals=2 foundation_return=off" in result.stdout
    assert "redeals left: 2" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["deal", "nosuchgame"], ["unknown game 'nosuchgame'", "klondike"]),
        (["play", "nosuchgame"], ["unknown game"]),
        (["rules", "nosuchgame"], ["unknown game"]),
        (["deal", "klondike", "--colour", "red"], ["no option 'colour'"]),
        (["deal", "klondike", "--draw", "2"], ["draw", "1, 3"]),
        (["deal", "klondike", "--draw"], ["--draw needs a value"]),
        (["deal", "klondike", "--draw", "--redeals", "1"], ["--draw needs a value"]),
        (["deal", "klondike", "stray"], ["unexpected argument 'stray'"]),
        (["deal", "klondike", "-x", "1"], ["unexpected argument '-x'"]),
        (["deal", "klondike", "--deal", "seven"], ["deal number", "'seven'"]),
        (["deal", "klondike", "--deal", "-1"], ["deal number"]),
        (["deal", "klondike", "--deal", str(2**64)], ["deal number"]),
        (["deal", "klondike", "--format", "xml"], ["--format"]),
        (["deal", "desturado", "--format", "pysol"], ["pysol"]),
        (["play", "klondike", "--deal", "0", "--moves", "d zz"], ["--moves, move 2", "zz"]),
        (["play", "klondike", "--deal", "0", "--moves", "r"], ["--moves, move 1", "illegal move r"]),
        (["play", "klondike", "--load", "/nonexistent/save.json"], ["cannot read /nonexistent/save.json"]),
        (["play"], ["Missing argument 'GAME'"]),
        (["deal"], ["Missing argument"]),
        (["nosuchcommand"], ["No such command"]),
        (["--bogus"], ["No such option"]),
    ],
)
def test_errors_are_one_line_with_status_2(args: list[str], words: list[str]) -> None:
    result = run(args, input="")
    assert_one_line_error(result, *words)
    assert result.stdout == ""


def test_bad_save_files_are_one_line_errors(tmp_path: Path) -> None:
    not_json = tmp_path / "not.json"
    not_json.write_text("hello")
    assert_one_line_error(run(["play", "klondike", "--load", str(not_json)]), "not JSON")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_one_line_error(run(["play", "klondike", "--load", str(binary)]), "cannot read")
    assert_one_line_error(run(["play", "klondike", "--load", str(tmp_path)]), "cannot read")
    other = tmp_path / "desturado.json"
    other.write_text(cardtable.new_game("desturado", deal=1).save())
    assert_one_line_error(run(["play", "klondike", "--load", str(other)]), "save file of desturado")
    good = tmp_path / "klondike.json"
    good.write_text(cardtable.new_game("klondike", deal=1).save())
    assert_one_line_error(run(["play", "klondike", "--load", str(good), "--deal", "3"]), "--load")
    assert_one_line_error(run(["play", "klondike", "--load", str(good), "--draw", "1"]), "--load")


def test_installed_entry_point() -> None:
    exe = Path(sys.executable).with_name("cardtable")
    done = subprocess.run([exe, "deal", "klondike", "--deal", "3"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == cardtable.new_game("klondike", deal=3).to_text() + "\n"
    failed = subprocess.run([exe, "deal", "klondike", "--deal", "x"], capture_output=True, text=True, timeout=60)
    assert failed.returncode == 2
    assert failed.stderr.count("\n") == 1 and failed.stderr.startswith("cardtable: error: ")
    assert "Traceback" not in failed.stderr

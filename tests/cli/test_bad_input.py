"""Issue 27, the command line: every bad input of the issue is one short error line and exit
status 2 (or, at the play prompt, one ``error:`` line with the game unchanged), never a traceback."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable.cli.play import read_save, write_save
from cardtable.core.errors import SaveFileError

from .runner import assert_one_line_error, run
from .test_play import replies

HUGE = "9" * 4301


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["deal", "klondike", "--deal", "1", "--self", "1"], ["has no option 'self'"]),
        (["deal", "klondike", "--deal", "1", "--name", "x"], ["has no option 'name'"]),
        (["deal", "klondike", "--deal", "1", "--layout", "x"], ["has no option 'layout'"]),
        (["deal", "klondike", "--deal", "\u0661"], ["deal number must be a whole number"]),
        (["deal", "klondike", "--deal", "\u00b2"], ["deal number must be a whole number"]),
        (["deal", "klondike", "--deal", HUGE], ["deal number", "(4301 characters)"]),
        (["deal", "klondike", "--deal", "1_0"], ["deal number"]),
        (["deal", "klondike", "--deal", "-1"], ["deal number"]),
        (["deal", "klondike", "--deal", "1", "--draw", "\u0661"], ["'draw' must be a whole number from 1 to 3"]),
        (["deal", "klondike", "--deal", "1", "--redeals", HUGE], ["'redeals'", "(4301 characters)"]),
        (["deal", "deserto", "--deal", "1", "--players", "\u00b2"], ["'players'"]),
        (["deal", "klondike", "--level", "easy", "--seed", "\u0661"], ["--seed", "whole number"]),
        (["deal", "klondike", "--level", "easy", "--seed", HUGE], ["--seed", "(4301 characters)"]),
        (["solve", "klondike", "--deal", "1", "--nodes", "\u0665"], ["--nodes", "whole number"]),
        (["solve", "klondike", "--deal", "1", "--seconds", "nan"], ["--seconds", "a number of at least 0"]),
        (["solve", "klondike", "--deal", "1", "--seconds", "inf"], ["--seconds"]),
        (["solve", "klondike", "--deal", "1", "--seconds", "\u0661"], ["--seconds"]),
        (["tournament", "deserto", "--players", "random,random", "--games", "\u0662"], ["--games"]),
        (["tournament", "deserto", "--players", "random,random", "--budget", "iterations=\u0662"], ["--budget"]),
        (["tournament", "deserto", "--players", "random,random", "--workers", "100000"], ["--workers", "1 to 64"]),
        (["deal", "klondike", "--deal", "5", "--draw", "1", "--draw", "3"], ["--draw is given twice"]),
        (["deal", "klondike", "--deal", "5", "--foundation-return", "on", "--foundation_return=off"], ["given twice"]),
        (["play", "klondike", "--deal", "1", "--moves", "35:" + HUGE], ["--moves, move 1", "not a klondike move"]),
        (["deal", "x" * 10**6], ["unknown game", "(1000000 characters)"]),
        (["deal", "klondike", "--deal", "1", "--" + "x" * 10**5, "1"], ["has no option"]),
        (["x" * 10**6], ["No such command"]),
    ],
)
def test_bad_command_lines_are_one_short_line(args: list[str], words: list[str]) -> None:
    line = assert_one_line_error(run(args), *words)
    assert len(line) < 300 + len("cardtable: error: "), line[:400]


def test_load_refuses_a_file_too_long_to_be_a_save() -> None:
    assert_one_line_error(run(["play", "klondike", "--load", "/dev/zero"]), "at most 16777216 bytes")
    with pytest.raises(SaveFileError, match="at most"):
        read_save("/dev/urandom")


def test_load_and_save_of_paths_the_system_cannot_name(tmp_path: Path) -> None:
    for path in ["a\x00b", "\udcff\ud800", str(tmp_path / ("x" * 5000))]:
        with pytest.raises(SaveFileError) as caught:
            read_save(path)
        assert len(str(caught.value)) < 300
        with pytest.raises(SaveFileError) as caught:
            write_save(cardtable.new_game("klondike", deal=1), path)
        assert len(str(caught.value)) < 300


def test_the_prompt_s_load_and_save_of_bad_paths_leave_the_game_unchanged(tmp_path: Path) -> None:
    script = ["d", "load a\x00b", "save a\x00b", "load /dev/zero", f"load {tmp_path}", f"save {tmp_path}", "moves"]
    result = run(["play", "klondike", "--deal", "0"], input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    answers = dict(replies(result.stdout)[1:])
    for command in script[1:-1]:
        (line,) = answers[command]
        assert line.startswith("error: cannot "), line
        assert len(line) < 300
    assert "moves played: 1" in result.stdout


def test_a_save_with_an_option_the_game_does_not_declare(tmp_path: Path) -> None:
    data = json.loads(cardtable.new_game("klondike", deal=1).save())
    data["options"]["self"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert_one_line_error(run(["play", "klondike", "--load", str(path)]), "has no option 'self'")


def test_a_save_is_played_as_it_was_saved(tmp_path: Path) -> None:
    klondike, deserto = tmp_path / "k.json", tmp_path / "d.json"
    write_save(cardtable.new_game("klondike", deal=0), str(klondike))
    write_save(cardtable.new_game("deserto", deal=0, players=2), str(deserto))
    # No game option beside --load: --players N is one (it was let through and not used).
    for game, path in (("klondike", klondike), ("deserto", deserto)):
        assert_one_line_error(run(["play", game, "--load", str(path), "--players", "3"]), "--players N")
    assert_one_line_error(
        run(["play", "deserto", "--load", str(deserto), "--players", "me,greedy,random"]),
        "a game of 2 players, and --players names 3",
    )
    # The prompt's load keeps to the prompt's game, as --load does.
    result = run(["play", "klondike", "--deal", "0"], input=f"d\nload {deserto}\nmoves\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    answers = dict(replies(result.stdout)[1:])
    assert answers[f"load {deserto}"] == [f"error: {deserto} is a save file of deserto, not klondike"]
    assert "moves played: 1" in result.stdout


def test_the_prompt_refuses_wrong_moves_in_one_line() -> None:
    result = run(["play", "klondike", "--deal", "0"], input="35:" + HUGE + "\n" + "x" * 10**5 + "\nmoves\n")
    assert result.exit_code == 0
    for _, reply in replies(result.stdout)[1:3]:
        (line,) = reply
        assert line.startswith("error: not a klondike move") and len(line) < 300


def test_output_that_cannot_be_written_is_one_line_too() -> None:
    # /dev/full: Linux's device that is always full (this project runs on Debian).
    command = [sys.executable, "-m", "cardtable.cli.main", "deal", "klondike", "--deal", "1"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == "cardtable: error: cannot write the output: No space left on device\n"


def _closing(fd: int) -> None:
    os.close(fd)


def test_a_closed_standard_output_or_input_is_one_line_too() -> None:
    # Found by the bad-input audit: both were tracebacks (sys.stdout or sys.stdin is None).
    command = [sys.executable, "-m", "cardtable.cli.main"]
    done = subprocess.run(
        [*command, "deal", "klondike", "--deal", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: _closing(1),
    )
    assert done.returncode == 2
    assert done.stderr == "cardtable: error: cannot write the output: standard output is closed\n"
    played = subprocess.run(
        [*command, "play", "klondike", "--deal", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: _closing(0),
    )
    # No line to read, as at the end of the input: the position is shown, and that is all.
    assert played.returncode == 0 and played.stderr == "" and "moves played: 0" in played.stdout


def test_a_save_that_fails_halfway_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk while writing: the file already there stays as it was (it was cut short).
    path = tmp_path / "game.json"
    write_save(cardtable.new_game("klondike", deal=1), str(path))
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full)
    with pytest.raises(SaveFileError, match="No space left on device"):
        write_save(cardtable.new_game("klondike", deal=2), str(path))
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_serve_refuses_in_one_line_what_it_cannot_use(tmp_path: Path) -> None:
    with socket.socket() as taken:  # a port in use: before, "cardtable is at ..." and then uvicorn's error
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert_one_line_error(
            run(["serve", "--port", port, "--data", str(tmp_path / "d1")]), f"cannot listen on 127.0.0.1 port {port}"
        )
    assert_one_line_error(run(["serve", "--host", "", "--data", str(tmp_path / "d2")]), "--host is the address")
    folder = tmp_path / "d3"
    folder.mkdir()
    with sqlite3.connect(folder / "cardtable.sqlite") as db:
        db.execute("CREATE TABLE users (id INTEGER)")
    assert_one_line_error(run(["serve", "--data", str(folder)]), "not a cardtable data file")
    (tmp_path / "a-file").write_text("")
    assert_one_line_error(run(["serve", "--data", str(tmp_path / "a-file")]), "--data is a folder", "is a file")


def test_a_save_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    # Found by the bad-input audit: run as root, "save /dev/full" put a file in the
    # device's place (the new file is renamed over the path). A link is followed.
    # (A pipe stands for the device: a test that broke must not remove a real one.)
    game = cardtable.new_game("klondike", deal=1)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for place in (tmp_path, pipe):
        with pytest.raises(SaveFileError, match="not a regular file"):
            write_save(game, str(place))
    assert pipe.is_fifo() and tmp_path.is_dir()
    target, link = tmp_path / "game.json", tmp_path / "link.json"
    link.symlink_to(target)
    write_save(game, str(link))
    assert link.is_symlink() and cardtable.load(target.read_text()).state == game.state


@pytest.mark.parametrize(
    "args",
    [
        ["play", "deserto", "--players", "you,greedy", "--players", "3"],  # was a game of three
        ["deal", "klondike", "--deal", "1", "--deal=2"],
        ["solve", "klondike", "--deal", "1", "--seconds", "1", "--seconds", "2"],
        ["analyze", "report", "x.sqlite", "--json", "--json"],
    ],
)
def test_an_option_given_twice_is_refused(args: list[str]) -> None:
    # click keeps the last of two (found by the bad-input audit); game options had their own check.
    assert_one_line_error(run(args), "is given twice")

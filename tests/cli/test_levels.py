"""Deal levels on the command line: `deal`/`play` with `--level LEVEL [--seed S]`, and the level on the screen.

Only the easy, normal and random levels are used: hard and tricky deals take seconds to find.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import cardtable
from cardtable.levels import deal_tables as levels
from cardtable.levels.deal_tables import candidate_deals, deal_for_level

from .runner import assert_one_line_error, run
from .test_play import replies, screen

TOLD = re.compile(r"^(\w+) deal (\d+) \(seed (\d+)\)$")


def told(stderr: str) -> tuple[str, int, int]:
    """The level, deal and seed of the one line ``LEVEL deal N (seed S)`` on standard error."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    match = TOLD.match(lines[0])
    assert match is not None, lines[0]
    return match[1], int(match[2]), int(match[3])


def status_lines(output: str, prompt: str = "klondike> ") -> list[str]:
    """The lines of the first screen between the piles and ``moves played``."""
    lines = screen(output, prompt).splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("moves played: "))
    start = max(i for i in range(end) if not lines[i].strip())
    return lines[start + 1 : end]


@pytest.mark.parametrize(
    ("game", "level", "seed"),
    [("klondike", "easy", 3), ("klondike", "normal", 12), ("desturado", "normal", 1), ("devils-square", "easy", 1)],
)
def test_deal_by_level_is_the_library_deal_and_reproducible(game: str, level: str, seed: int) -> None:
    args = ["deal", game, "--level", level, "--seed", str(seed)]
    result = run(args)
    assert result.exit_code == 0, result.output
    deal = deal_for_level(game, level, seed=seed)
    assert result.stderr == f"{level} deal {deal} (seed {seed})\n"
    assert result.stdout == cardtable.new_game(game, deal=deal).to_text() + "\n"
    again = run(args)
    assert (again.stdout, again.stderr) == (result.stdout, result.stderr)


def test_deal_by_level_with_game_options() -> None:
    result = run(["deal", "klondike", "--draw", "1", "--level", "easy", "--seed", "2"])
    assert result.exit_code == 0, result.output
    deal = deal_for_level("klondike", "easy", seed=2, draw=1)
    assert told(result.stderr) == ("easy", deal, 2)
    assert result.stdout == cardtable.new_game("klondike", deal=deal, draw=1).to_text() + "\n"


def test_level_names_are_case_insensitive() -> None:
    result = run(["deal", "klondike", "--level", "EASY", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert told(result.stderr) == ("easy", deal_for_level("klondike", "easy", seed=3), 3)


def test_random_level_is_the_seeds_first_candidate() -> None:
    result = run(["deal", "klondike", "--level", "random", "--seed", "5"])
    assert result.exit_code == 0, result.output
    first = next(iter(candidate_deals(5)))
    assert told(result.stderr) == ("random", first, 5)
    assert result.stdout == cardtable.new_game("klondike", deal=first).to_text() + "\n"


def test_without_a_seed_a_random_one_is_chosen_and_told() -> None:
    seeds = set()
    for _ in range(3):
        result = run(["deal", "klondike", "--level", "random"])
        assert result.exit_code == 0, result.output
        level, deal, seed = told(result.stderr)
        assert level == "random" and deal == next(candidate_deals(seed))
        assert result.stdout == cardtable.new_game("klondike", deal=deal).to_text() + "\n"
        seeds.add(seed)
    assert len(seeds) > 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["deal", "klondike", "--level", "easy", "--deal", "3"], ["--deal", "--level", "not both"]),
        (["play", "klondike", "--deal", "3", "--level", "easy"], ["not both"]),
        (["deal", "klondike", "--level", "expert"], ["--level", "'expert'", "easy"]),
        (["play", "klondike", "--level", "expert"], ["--level", "'expert'"]),
        (["deal", "klondike", "--seed", "3"], ["--seed", "--level"]),
        (["deal", "klondike", "--deal", "3", "--seed", "3"], ["--seed", "--level"]),
        (["deal", "klondike", "--level", "easy", "--seed", "x"], ["--seed", "'x'"]),
        (["deal", "klondike", "--level", "easy", "--seed", "-1"], ["--seed", "-1"]),
        (["deal", "klondike", "--level"], ["--level"]),
        (["deal", "deserto", "--level", "easy"], ["deserto has no deal levels"]),
        (["play", "deserto", "--players", "you,greedy", "--level", "easy"], ["deserto has no deal levels"]),
        (["deal", "nosuchgame", "--level", "easy"], ["unknown game 'nosuchgame'"]),
        (["deal", "klondike", "--level", "easy", "--draw", "2"], ["draw", "1, 3"]),
        (["deal", "desturado", "--level", "easy", "--seed", "1", "--format", "pysol"], ["pysol"]),
        (["play", "klondike", "--level", "easy", "--seed", "1", "--moves", "zz"], ["--moves, move 1"]),
    ],
)
def test_level_errors_are_one_line_with_status_2(args: list[str], words: list[str]) -> None:
    result = run(args, input="")
    assert_one_line_error(result, *words)
    assert result.stdout == ""


def test_a_graded_level_without_deals_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = levels.level_tables()
    empty = {**tables, "desturado-easy": replace(tables["desturado-easy"], levels={"tricky": ()})}
    monkeypatch.setattr(levels, "level_tables", lambda: empty)
    for args in (["deal", "desturado", "--level", "tricky", "--seed", "1"], ["play", "desturado", "--level", "tricky"]):
        result = run(args, input="")
        assert_one_line_error(result, "no tricky deal of desturado-easy", "graded")
        assert result.stdout == ""


@pytest.mark.parametrize("key", levels.KEYS, ids=lambda key: key.label)
def test_every_game_and_mode_has_tricky_deals(key: levels.LevelKey) -> None:
    flags = [text for name, value in key.options().items() for text in (f"--{name}", str(value))]
    result = run(["deal", key.game, *flags, "--level", "tricky", "--seed", "1"])
    assert result.exit_code == 0, result.output
    level, deal, _ = told(result.stderr)
    assert level == "tricky" and deal in levels.level_tables()[key.label].levels["tricky"]


def test_load_takes_no_level(tmp_path: Path) -> None:
    save = tmp_path / "klondike.json"
    save.write_text(cardtable.new_game("klondike", deal=1).save())
    for extra in (["--level", "easy"], ["--seed", "1"]):
        assert_one_line_error(run(["play", "klondike", "--load", str(save), *extra]), "--load", "--level")


def test_play_by_level_shows_the_level_and_deal_number() -> None:
    result = run(["play", "klondike", "--level", "easy", "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    deal = deal_for_level("klondike", "easy", seed=1)
    assert told(result.stderr) == ("easy", deal, 1)
    first = screen(result.stdout, "klondike> ")
    assert f"klondike deal {deal} " in first
    assert status_lines(result.stdout)[-1] == f"Easy ({deal})"
    assert "Random (" not in first


def test_play_by_level_with_options_and_moves() -> None:
    deal = deal_for_level("desturado", "normal", seed=1, mode="easy")
    result = run(["play", "desturado", "--mode", "easy", "--level", "normal", "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    assert status_lines(result.stdout, "desturado> ")[-1] == f"Normal ({deal})"


def test_play_by_number_shows_random() -> None:
    result = run(["play", "klondike", "--deal", "5"], input="")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert status_lines(result.stdout)[-1] == "Random (5)"


def test_play_of_a_random_deal_shows_random_and_its_number() -> None:
    result = run(["play", "klondike"], input="")
    title = result.stdout.splitlines()[1]
    deal = int(title.split("klondike deal ")[1].split()[0])
    assert status_lines(result.stdout)[-1] == f"Random ({deal})"


def test_loaded_save_file_shows_random(tmp_path: Path) -> None:
    deal = deal_for_level("klondike", "easy", seed=1)
    save = tmp_path / "klondike.json"
    save.write_text(cardtable.new_game("klondike", deal=deal).save())
    result = run(["play", "klondike", "--load", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert status_lines(result.stdout)[-1] == f"Random ({deal})"  # the level is not in the save file


def test_a_layout_has_no_level_line(tmp_path: Path) -> None:
    rules = cardtable.rules_for("klondike")
    save = tmp_path / "layout.json"
    save.write_text(cardtable.new_game("klondike", layout=rules.to_text(rules.deal(4))).save())
    result = run(["play", "klondike", "--load", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert not any(re.fullmatch(r"\w+ \(\d+\)", line) for line in status_lines(result.stdout))


def test_the_level_stays_for_its_deal_at_the_prompt(tmp_path: Path) -> None:
    deal = deal_for_level("klondike", "easy", seed=1)
    same, other = tmp_path / "same.json", tmp_path / "other.json"
    other.write_text(cardtable.new_game("klondike", deal=7).save())
    script = ["d", f"save {same}", "restart", f"load {same}", f"load {other}"]
    result = run(["play", "klondike", "--level", "easy", "--seed", "1"], input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    pairs = dict(replies(result.stdout))
    for command in ("d", "restart", f"load {same}"):
        assert f"Easy ({deal})" in pairs[command], command
    assert "Random (7)" in pairs[f"load {other}"]
    assert not any(line.startswith("Easy (") for line in pairs[f"load {other}"])


def test_multiplayer_hot_seat_shows_no_level() -> None:
    result = run(["play", "deserto", "--players", "2", "--deal", "3"], input="")
    assert result.exit_code == 0, result.output
    assert "Random (" not in result.stdout

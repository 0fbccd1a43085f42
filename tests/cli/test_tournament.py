"""`cardtable tournament`: results, JSON shape, determinism by seed, errors."""

from __future__ import annotations

import json

import pytest

from .runner import assert_one_line_error, run

BASE = ["tournament", "deserto", "--seed", "5"]


def test_json_shape_one_entry_per_player_in_order() -> None:
    result = run([*BASE, "--players", "greedy,random,greedy", "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress bar with --json
    data = json.loads(result.stdout)
    assert list(data) == ["players"]
    assert [p["name"] for p in data["players"]] == ["greedy", "random", "greedy"]
    for entry in data["players"]:
        assert list(entry) == ["name", "win_share", "mean_score", "ci95"]
        low, high = entry["ci95"]
        assert 0 <= low <= entry["win_share"] <= high <= 1
    assert sum(p["win_share"] for p in data["players"]) == pytest.approx(1)


def test_results_are_deterministic_by_seed_with_and_without_json_and_workers() -> None:
    args = [*BASE, "--players", "ismcts,random", "--games", "2", "--budget", "iterations=10"]
    first = run([*args, "--json"]).stdout
    assert run([*args, "--json"]).stdout == first
    assert run([*args, "--json", "--workers", "2"]).stdout == first
    data = json.loads(first)["players"]
    table = run(args)
    assert table.exit_code == 0, table.output
    for i, entry in enumerate(data):
        row = next(line for line in table.stdout.splitlines() if line.split()[:2] == [str(i), entry["name"]])
        assert f"{entry['win_share']:.3f}" in row and f"{entry['mean_score']:.2f}" in row


def test_the_table_names_every_entry() -> None:
    result = run([*BASE, "--players", "greedy,random", "--games", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "deserto: 2 players, 2 games, seed 5"
    assert "win share" in lines[1] and "95% CI" in lines[1] and "mean score" in lines[1]
    assert lines[2].split()[:2] == ["0", "greedy"] and lines[3].split()[:2] == ["1", "random"]


def test_seats_rotate() -> None:
    from cardtable.bots.tournament import GameSpec

    specs = [GameSpec("deserto", ("a", "b", "c"), (), {}, 0, i) for i in range(3)]
    seats = [spec.seating() for spec in specs]
    for entry in range(3):
        assert sorted(seating.index(entry) for seating in seats) == [0, 1, 2]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_n_factorial_games_balance_seats_and_neighbours(n: int) -> None:
    import math
    from collections import Counter

    from cardtable.bots.tournament import GameSpec

    games = math.factorial(n)
    seats = [GameSpec("deserto", ("x",) * n, (), {}, 0, i).seating() for i in range(games)]
    in_seat = Counter((seating[s], s) for seating in seats for s in range(n))
    assert set(in_seat.values()) == {games // n} and len(in_seat) == n * n
    after = Counter((seating[s - 1], seating[s]) for seating in seats for s in range(n))
    assert set(after.values()) == {games // (n - 1)} and len(after) == n * (n - 1)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["tournament", "nope", "--players", "greedy,random"], "unknown game 'nope'"),
        (["tournament", "klondike", "--players", "greedy,random"], "one-player game"),
        (["tournament", "deserto", "--players", "greedy,nobody"], "unknown bot 'nobody'"),
        (["tournament", "deserto", "--players", "greedy"], "players"),
        (["tournament", "deserto", "--players", "greedy,random,random,random,random"], "players"),
        (["tournament", "deserto", "--players", "greedy,random", "--games", "0"], "--games"),
        (["tournament", "deserto", "--players", "greedy,random", "--games", "x"], "--games"),
        (["tournament", "deserto", "--players", "greedy,random", "--budget", "iterations=5"], "budget keyword"),
        (["tournament", "deserto", "--players", "ismcts,random", "--budget", "iterations"], "KEY=VALUE"),
        (["tournament", "deserto", "--players", "ismcts,random", "--budget", "iterations=0"], "at least 1"),
        # Found by the bad-input audit: "must be a whole number, not -5.0", and "players ... not 1".
        (["tournament", "deserto", "--players", "ismcts,random", "--budget", "iterations=-5"], "at least 1, not -5"),
        (["tournament", "deserto", "--players", "3"], "unknown bot '3'"),
        (["tournament", "deserto"], "--players"),
    ],
)
def test_errors_are_one_line(args: list[str], words: str) -> None:
    assert_one_line_error(run(args), words)

"""``cardtable analyze``: solve and grade into a store, resume, report with plots, and
one-line errors that change nothing."""

from __future__ import annotations

import json
from pathlib import Path

from cardtable.analysis import ResultStore

from .runner import assert_one_line_error, run


def test_solve_resume_and_report(tmp_path: Path) -> None:
    store = str(tmp_path / "r.sqlite")
    args = ["analyze", "solve", "klondike", "--draw", "1", "--deals", "0:6", "--seconds", "5", "--store", store]
    first = run([*args, "--workers", "1"])
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert lines[0] == f"6 deals: 0 already in the store, 6 answered now (6 new rows) -> {store}"
    assert lines[1].startswith("solve") and lines[2].startswith("klondike draw=1 [memory=auto,seconds=5.0]")
    second = run([*args[:6], "0:8", *args[7:], "--workers", "2", "--quiet"])
    assert second.stdout == f"8 deals: 6 already in the store, 2 answered now (2 new rows) -> {store}\n"
    report = run(["analyze", "report", store, "--json", "--plots", str(tmp_path / "plots")])
    assert report.exit_code == 0
    (summary,) = json.loads(report.stdout)
    assert summary["deals"] == 8 and summary["solved"] + summary["unsolvable"] + summary["unknown"] == 8
    assert summary["options"]["draw"] == 1 and summary["budget"]["seconds"] == 5.0
    low, high = summary["ci95"]
    assert 0 <= low <= summary["winnable"][0] <= summary["winnable"][1] <= high <= 1
    for name in ("winnable.png", "solve_times.png"):
        assert (tmp_path / "plots" / name).read_bytes()[:4] == b"\x89PNG"
    text = run(["analyze", "report", store])
    assert "klondike draw=1" in text.stdout and "95% CI" in text.stdout
    markdown = run(["analyze", "report", store, "--markdown"]).stdout.splitlines()
    assert markdown[0].startswith("| game, options [budget] | deals |") and markdown[2].startswith("| klondike draw=1 ")
    assert_one_line_error(run(["analyze", "report", store, "--json", "--markdown"]), "not both")
    # A plots folder that cannot be written: one line, and no report printed before it.
    (tmp_path / "a-file").write_text("")
    for folder in (str(tmp_path / "a-file"), "/proc/no-such-folder"):
        refused = run(["analyze", "report", store, "--plots", folder])
        assert_one_line_error(refused, "cannot write the plots")
        assert refused.stdout == ""


def test_grade_and_its_report(tmp_path: Path) -> None:
    store = str(tmp_path / "g.sqlite")
    result = run(
        ["analyze", "grade", "desturado", "--mode", "hard", "--deals", "0:4", "--store", store, "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    with ResultStore(store) as opened:
        ((key, n),) = opened.run_keys()
    assert (key.task, key.game, key.options["mode"], n) == ("grade", "desturado", "hard", 4)
    report = run(["analyze", "report", store, "--plots", str(tmp_path)])
    assert "reference player's wins by level" in report.stdout
    assert (tmp_path / "levels.png").exists()


def test_errors_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    store = tmp_path / "e.sqlite"
    base = ["analyze", "solve", "klondike", "--store", str(store)]
    assert_one_line_error(run([*base, "--deals", "5:2", "--seconds", "1"]), "empty")
    assert_one_line_error(run([*base, "--deals", "x", "--seconds", "1"]), "deals are written")
    assert_one_line_error(run([*base, "--deals", "0:2"]), "give a budget")
    assert_one_line_error(run([*base, "--deals", "0:2", "--seconds", "1", "--draw", "2"]), "draw")
    assert_one_line_error(
        run([*base, "--deals", "0:2", "--seconds", "1", "--workers", "2", "--scheduler", "tcp://x:1"]), "not both"
    )
    assert_one_line_error(
        run([*base, "--deals", "0:2", "--seconds", "1", "--scheduler", "nowhere"]), "scheduler address"
    )
    assert_one_line_error(run(["analyze", "solve", "deserto", "--deals", "0:2", "--seconds", "1"]), "several players")
    assert_one_line_error(
        run(["analyze", "grade", "klondike", "--deals", "0:2", "--seconds", "1"]), "no option 'seconds'"
    )
    for flag, value in (
        ("--nodes", "\u0661\u0660"),
        ("--nodes", "9" * 26),
        ("--memory", "\u0661"),
        ("--workers", "\u0661"),
        ("--workers", "100000"),
        ("--seconds", "inf"),
        ("--batch", "0"),
    ):
        budget = [] if flag in ("--nodes", "--seconds") else ["--seconds", "1"]
        assert_one_line_error(run([*base, "--deals", "0:2", *budget, flag, value]), flag)
    assert_one_line_error(run([*base, "--deals", "\u0661:\u0663", "--seconds", "1"]), "digits 0-9")
    assert_one_line_error(run([*base, "--deals", f"0:{2**32}", "--seconds", "1"]), "at most 1,000,000 deals")
    assert_one_line_error(run(["analyze", "report", str(tmp_path / "none.sqlite")]), "no results store")
    (tmp_path / "junk").write_text("junk " * 1000)
    assert_one_line_error(run(["analyze", "report", str(tmp_path / "junk")]), "not a cardtable results store")
    if store.exists():  # opened by a failing run after its checks: still empty
        with ResultStore(store) as opened:
            assert opened.run_keys() == []

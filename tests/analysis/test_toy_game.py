"""``cardtable analyze`` for a game declared only by its spec: the toy patience of
``tests/toys.py`` (``toy_games`` fixture), graded and solved into a store through the
command line in this process, reported, and turned into level tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable.analysis import ResultStore, make_job
from cardtable.core.errors import OptionError
from cardtable.games import rules_for
from cardtable.levels import grade
from tests.cli.runner import run

pytestmark = pytest.mark.usefixtures("toy_games")

DEALS = range(20)


def test_grade_report_and_tables_of_the_toy_patience(tmp_path: Path) -> None:
    store = str(tmp_path / "toy.sqlite")
    graded = run(["analyze", "grade", "toy-patience", "--deals", "0:20", "--store", store, "--workers", "1"])
    assert graded.exit_code == 0, graded.output
    assert (
        graded.stdout.splitlines()[0] == f"20 deals: 0 already in the store, 20 answered now (20 new rows) -> {store}"
    )
    rules = rules_for("toy-patience")
    with ResultStore(store) as opened:
        ((key, n),) = opened.run_keys()
        rows = list(opened.rows(key))
    assert (key.task, key.game, n) == ("grade", "toy-patience", 20)
    assert [row.deal for row in rows] == list(DEALS)
    for row in rows:
        assert row.measures is not None
        expected = grade(rules, row.deal)
        assert (row.verdict == "solved", row.measures["level"]) == (expected.solvable, expected.level), row.deal
    report = run(["analyze", "report", store, "--json"])
    assert report.exit_code == 0, report.output
    (summary,) = json.loads(report.stdout)
    assert (summary["task"], summary["game"], summary["deals"]) == ("grade", "toy-patience", 20)
    assert summary["solvable"] == sum(row.verdict == "solved" for row in rows) > 0
    levels = {
        level: sum(row.measures is not None and row.measures["level"] == level for row in rows)
        for level in summary["levels"]
    }
    assert {level: entry["deals"] for level, entry in summary["levels"].items()} == levels
    assert "toy-patience" in run(["analyze", "report", store]).stdout
    out = tmp_path / "tables.json"
    tables = run(["analyze", "tables", store, "--min-deals", "5", "--out", str(out)])
    assert tables.exit_code == 0, tables.output
    entry = json.loads(out.read_text())["keys"]["toy-patience"]
    assert entry["game"] == "toy-patience" and entry["graded"] == 20


def test_solve_the_toy_patience_into_a_store(tmp_path: Path) -> None:
    store = str(tmp_path / "solve.sqlite")
    args = ["analyze", "solve", "toy-patience", "--deals", "0:20", "--nodes", "10000", "--store", store]
    solved = run([*args, "--workers", "1", "--quiet"])
    assert solved.exit_code == 0, solved.output
    with ResultStore(store) as opened:
        ((key, _),) = opened.run_keys()
        verdicts = {row.deal: row.verdict for row in opened.rows(key)}
    expected = {deal: cardtable.solve(cardtable.new_game("toy-patience", deal=deal)).verdict for deal in DEALS}
    assert verdicts == expected and "unknown" not in verdicts.values()
    (summary,) = json.loads(run(["analyze", "report", store, "--json"]).stdout)
    assert summary["solved"] + summary["unsolvable"] == 20 and summary["solved"] == list(expected.values()).count(
        "solved"
    )


def test_analyze_refuses_the_toy_duel_by_its_declaration() -> None:
    with pytest.raises(OptionError, match="toy-duel is a game for several players"):
        make_job("grade", "toy-duel", {})

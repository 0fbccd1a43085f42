"""Level tables from a store: ``analyze grade`` reproduces the recorded grades of the
shipped tables, and ``analyze tables`` builds the tables from them as the shipped pipeline does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardtable.analysis import ResultStore, make_job, run
from cardtable.analysis.levels import grade_rows, level_entries
from cardtable.levels.build import key_entry
from cardtable.levels.tables import KEYS

from ..cli.runner import run as cli_run

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"
KEY = next(k for k in KEYS if k.label == "desturado-hard")
DEALS = list(range(12))


def recorded(kind: str) -> dict[int, dict[str, Any]]:
    """The grades (or eases) the shipped tables were built from, by deal."""
    lines = (RESULTS / kind / f"{KEY.label}.jsonl").read_text().splitlines()
    return {row["deal"]: row for row in map(json.loads, lines)}


def test_analyze_grade_matches_the_recorded_grades_and_builds_the_same_entry(tmp_path: Path) -> None:
    grades, eases = recorded("grades"), recorded("ease")
    with ResultStore(tmp_path / "g.sqlite") as store:
        run(make_job("grade", KEY.game, KEY.options()), DEALS, store, workers=2)
        rows = grade_rows(store, KEY)
        assert [r.deal for r in rows] == DEALS
        for row in rows:
            m, old = row.measures, grades[row.deal]
            assert m is not None
            assert (row.verdict, m["effort"], m["eager_verdict"], m["tricky"]) == (
                old["verdict"],
                old["effort"],
                old["eager_verdict"],
                old["tricky"],
            )
            if row.deal in eases and not m["tricky"]:  # a tricky deal gets no ease (it has no scale score)
                assert m["ease"] == eases[row.deal]["ease"]
        entries = level_entries(store, min_deals=2)
    graded = [grades[d] for d in DEALS]
    ease = {d: int(eases[d]["ease"]) for d in DEALS if d in eases}
    assert entries[KEY.label] == key_entry(KEY, graded, ease, min_deals=2)  # the bench pipeline's entry
    assert list(entries) == [KEY.label]


def test_the_tables_command_writes_a_tables_file(tmp_path: Path) -> None:
    store = str(tmp_path / "g.sqlite")
    job = make_job("grade", KEY.game, KEY.options())
    with ResultStore(store) as opened:
        run(job, DEALS, opened)
    out = tmp_path / "tables.json"
    result = cli_run(["analyze", "tables", store, "--out", str(out), "--min-deals", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("desturado-hard: 12 graded")
    data = json.loads(out.read_text())
    assert list(data["keys"]) == ["desturado-hard"] and data["grade_nodes"] == 100_000
    empty = cli_run(["analyze", "tables", store, "--out", str(out)])  # 30 deals needed by default
    assert empty.exit_code == 2 and "too few graded deals" in empty.stderr

"""Level tables from a store: ``analyze grade`` puts each deal at the level the shipped
tables (built by ``analyze tables`` from such a store) list it at, and ``analyze tables``
builds an entry whose levels hold every solvable deal once."""

from __future__ import annotations

import json
from pathlib import Path

from cardtable.analysis import ResultStore, make_job, run
from cardtable.analysis.level_tables import grade_rows, level_entries
from cardtable.analysis.report import level_now
from cardtable.levels.deal_tables import GRADED_LEVELS, KEYS, level_tables

from ..cli.runner import run as cli_run

KEY = next(k for k in KEYS if k.label == "desturado-hard")
DEALS = list(range(12))


def test_analyze_grade_gives_the_levels_of_the_shipped_tables(tmp_path: Path) -> None:
    shipped = level_tables()[KEY.label]
    job = make_job("grade", KEY.game, KEY.options())
    with ResultStore(tmp_path / "g.sqlite") as store:
        run(job, DEALS, store, workers=2)
        rows = grade_rows(store, KEY)
        entries = level_entries(store, min_deals=2)
    assert [r.deal for r in rows] == DEALS
    levels = {row.deal: level_now(job.key, row) for row in rows}
    for row in rows:
        assert row.measures is not None and row.measures["level"] == levels[row.deal]
        tabled = [level for level in GRADED_LEVELS if row.deal in shipped.levels[level]]
        assert tabled == ([] if levels[row.deal] is None else [levels[row.deal]]), row
    assert None in levels.values() and len(set(levels.values())) >= 4  # a mixed sample: unsolvable and three levels
    # The entry from these 12 deals alone (its own scale): every solvable deal at one level,
    # the tricky ones at tricky, the others nowhere.
    entry = entries[KEY.label]
    assert list(entries) == [KEY.label]
    placed = sorted(deal for deals in entry["levels"].values() for deal in deals)
    assert placed == [row.deal for row in rows if row.verdict == "solved"]
    assert entry["levels"]["tricky"] == [row.deal for row in rows if row.measures and row.measures["tricky"]]


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

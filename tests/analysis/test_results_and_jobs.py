"""The results store (one row per deal, never twice, resumable reads) and the jobs
(checked questions, deal ranges, rows equal to the library's own answers)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import cardtable
from cardtable.analysis import ResultStore, Row, RunKey, StoreError, make_job, parse_deals, run_batch
from cardtable.analysis.report import summaries
from cardtable.core.errors import OptionError
from cardtable.levels.measures import measure


def test_a_deal_is_stored_once_and_a_retry_is_ignored(tmp_path: Path) -> None:
    key = RunKey("solve", "klondike", {"draw": 3}, {"seconds": 1.0})
    other = RunKey("solve", "klondike", {"draw": 3}, {"seconds": 2.0})
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.add(key, [Row(1, "solved", 90, 10, 0.1, 30.0), Row(2, "unknown", 0, 99, 1.0, 31.0)]) == 2
        assert store.add(key, [Row(2, "solved", 5, 5, 0.5, 5.0), Row(3, "unsolvable", 0, 7, 0.2, 32.0)]) == 1
        assert store.add(other, [Row(1, "unknown", 0, 1, 2.0, 1.0)]) == 1
        assert store.done(key) == {1, 2, 3} and store.done(other) == {1}
        assert [r.verdict for r in store.rows(key)] == ["solved", "unknown", "unsolvable"]  # the first answer kept
        assert [(k.budget, n) for k, n in store.run_keys()] == [({"seconds": 1.0}, 3), ({"seconds": 2.0}, 1)]
    with ResultStore(tmp_path / "r.sqlite", create=False) as again:  # the rows outlive the connection
        assert again.done(key) == {1, 2, 3}


def test_a_failed_batch_writes_nothing(tmp_path: Path) -> None:
    key = RunKey("solve", "klondike", {}, {})
    with ResultStore(tmp_path / "r.sqlite") as store:
        # The second row breaks a NOT NULL column inside the transaction: the first is rolled back too.
        bad = [Row(1, "solved", 1, 1, 0.1, 1.0), Row(2, None, 1, 1, 0.1, 1.0)]  # type: ignore[arg-type]
        with pytest.raises(sqlite3.IntegrityError):
            store.add(key, bad)
        assert store.done(key) == set()


def test_a_file_that_is_no_store_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a cardtable results store"):
        ResultStore(junk)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE results (a, b)")
    with pytest.raises(StoreError, match="results table differs"):
        ResultStore(other)
    with pytest.raises(StoreError, match="no results store"):
        ResultStore(tmp_path / "missing.sqlite", create=False)


def test_deal_ranges() -> None:
    assert parse_deals("0:5") == [0, 1, 2, 3, 4]
    assert parse_deals("7, 3:5, 4") == [3, 4, 7]
    for bad in ("", "a:b", "5:5", "-1:3", f"0:{2**32 + 1}", "1:2:3", "\u0661:\u0663", "1_000", " -0:2", "0:1000001"):
        with pytest.raises(OptionError):
            parse_deals(bad)


def test_a_run_too_big_is_refused_before_its_deals_are_listed() -> None:
    assert len(parse_deals("0:1000000")) == 1_000_000
    with pytest.raises(OptionError, match="at most 1,000,000 deals, not 4,294,967,296"):
        parse_deals(f"0:{2**32}")  # counted, not listed: no memory is spent on it


def test_jobs_are_checked() -> None:
    with pytest.raises(OptionError, match="unknown analysis"):
        make_job("count", "klondike", {}, seconds=1)
    with pytest.raises(OptionError, match="several players"):
        make_job("solve", "deserto", {}, seconds=1)
    with pytest.raises(OptionError, match="budget"):
        make_job("solve", "klondike", {})
    with pytest.raises(OptionError, match="more than 0"):
        make_job("solve", "klondike", {}, seconds=0)
    with pytest.raises(OptionError, match="--nodes"):
        make_job("grade", "klondike", {}, seconds=5)
    with pytest.raises(OptionError):
        make_job("solve", "klondike", {"draw": "2"}, seconds=1)
    job = make_job("solve", "klondike", {"draw": "1"}, nodes=10)
    assert dict(job.options)["draw"] == 1 and job.key.budget == {"seconds": None, "nodes": 10, "memory": "auto"}


def test_solve_rows_are_the_solver_answers() -> None:
    job = make_job("solve", "desturado", {"mode": "hard"}, nodes=3000, memory=100_000)
    rows = run_batch(job, [0, 1, 2])
    for row in rows:
        result = cardtable.solve(cardtable.new_game("desturado", deal=row.deal, mode="hard"), None, 3000, 100_000)
        assert (row.verdict, row.moves, row.nodes) == (result.verdict, len(result.moves), result.nodes)
        assert row.peak_mb > 0 and row.measures is None and row.worker


def test_grade_rows_are_the_level_measures() -> None:
    job = make_job("grade", "devils-square", {}, nodes=5000)
    (row,) = run_batch(job, [3])
    m = measure(cardtable.new_game("devils-square", deal=3).rules, 3, 5000)
    assert row.verdict == m.verdict and row.measures is not None
    assert (row.measures["effort"], row.measures["tricky"], row.measures["ease"]) == (m.effort, m.tricky, m.ease)
    assert (row.measures["level"] is None) == (not m.solvable)


def test_a_sqlite_file_of_another_program_is_left_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE users (id INTEGER)")
    before = other.read_bytes()
    for create in (True, False):  # before: a results table added and the journal made WAL
        with pytest.raises(StoreError, match="holds other tables: users"):
            ResultStore(other, create=create)
    assert other.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE results SET measures = '{bad'",
        "UPDATE results SET measures = '[1]'",
        'UPDATE results SET measures = \'{"effort": "abc"}\'',
        "UPDATE results SET options = 'garbage'",
        "UPDATE results SET moves = 'abc'",
        "UPDATE results SET task = 'other'",  # was read as a grade row (found by the bad-input audit)
    ],
)
def test_a_damaged_row_is_a_store_error(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "s.sqlite"
    key = RunKey("grade", "klondike", {}, {})
    with ResultStore(path) as store:
        store.add(key, [Row(1, "solved", 1, 1, 0.1, 1.0, {"effort": 5})])
    with sqlite3.connect(path) as db:
        db.execute(damage)
    with ResultStore(path, create=False) as store, pytest.raises(StoreError, match="damaged row"):
        for found, _ in store.run_keys():
            list(store.rows(found))


def test_grade_measures_no_grading_writes_are_a_store_error_in_the_report(tmp_path: Path) -> None:
    # A solved deal graded without its noisy games (no ease) is what no grading writes: the
    # report said so with a ValueError's traceback (found by the bad-input audit).
    path = tmp_path / "s.sqlite"
    key = RunKey("grade", "klondike", dict(cardtable.rules_for("klondike").options), {})
    with ResultStore(path) as store:
        store.add(key, [Row(1, "solved", 1, 1, 0.1, 1.0, {"effort": 5, "eager_verdict": "solved"})])
    with ResultStore(path, create=False) as store, pytest.raises(StoreError, match=r"damaged row \(deal 1 .*measures"):
        summaries(store)


def test_a_store_missing_a_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    ResultStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE results DROP COLUMN measures")
    with pytest.raises(StoreError, match="its results table differs"):
        ResultStore(path, create=False)


def test_a_locked_store_is_a_store_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.sqlite"
    with ResultStore(path) as store:
        store._db.execute("PRAGMA busy_timeout = 100")  # not the minute a run waits
        with sqlite3.connect(path, isolation_level=None) as other:
            other.execute("BEGIN EXCLUSIVE")
            with pytest.raises(StoreError, match=r"cannot write to the results store .*locked"):
                store.add(RunKey("solve", "klondike", {}, {}), [Row(1, "solved", 1, 1, 0.1, 1.0)])
            other.execute("ROLLBACK")

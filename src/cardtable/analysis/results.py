"""The results store: one SQLite file, one row per deal analysed.

Why SQLite (and not a Parquet dataset): it is in Python's standard library; a
batch of rows is written in one transaction, so an interrupted run (Ctrl+C, a
killed worker or client) leaves every committed row whole and no row half
written; the primary key (task, game, options, budget, deal) makes a deal
impossible to count twice (a row already there is kept, a retried batch's
copy ignored), and "which deals are done" is one indexed query, so a rerun
resumes where the last one stopped. Analysis reads it with any SQLite tool,
or ``pandas.read_sql``. Rows are small (about 100 bytes): a million deals are
about 100 MB.

Columns: ``task`` (``solve`` or ``grade``), ``game``, ``options`` (the game's
resolved options as sorted JSON), ``budget`` (the task's budget as sorted JSON),
``deal``, ``verdict``, ``moves`` (length of the winning line, 0 if none),
``nodes``, ``seconds``, ``peak_mb`` (the solving process's largest resident
size during that deal), ``measures`` (JSON: the level measures of a grade,
null for a solve), ``worker`` (which process answered).

>>> import tempfile, os
>>> store = ResultStore(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> key = RunKey("solve", "klondike", {"draw": 3}, {"seconds": 1})
>>> store.add(key, [Row(5, "solved", 80, 300, 0.1, 40.0)]), store.add(key, [Row(5, "solved", 80, 300, 0.1, 40.0)])
(1, 0)
>>> store.done(key)
{5}
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import CardtableError

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    task TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    budget TEXT NOT NULL,
    deal INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    moves INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    peak_mb REAL NOT NULL,
    measures TEXT,
    worker TEXT,
    PRIMARY KEY (task, game, options, budget, deal)
) WITHOUT ROWID
"""


class StoreError(CardtableError):
    """A results store that cannot be opened or read (not a cardtable store, or damaged).

    >>> issubclass(StoreError, CardtableError)
    True
    """


def canonical(values: Mapping[str, Any]) -> str:
    """Options or a budget as the text the store keys on: JSON with sorted keys.

    >>> canonical({"mode": "hard", "a": None})
    '{"a": null, "mode": "hard"}'
    """
    return json.dumps(dict(values), sort_keys=True, separators=(", ", ": "))


@dataclass(frozen=True)
class RunKey:
    """What a run asks, apart from the deals: the task, the game, its resolved options and
    the budget. Rows of one key answer the same question for different deals.

    >>> RunKey("solve", "desturado", {"mode": "hard"}, {"seconds": 10}).label
    'solve desturado mode=hard (seconds=10)'
    """

    task: str
    game: str
    options: Mapping[str, Any]
    budget: Mapping[str, Any]

    @property
    def label(self) -> str:
        """A short human name: task, game, options that are set, budget."""
        opts = " ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        budget = ", ".join(f"{k}={v}" for k, v in sorted(self.budget.items()) if v is not None)
        return " ".join(w for w in (self.task, self.game, opts, f"({budget})") if w)

    def columns(self) -> tuple[str, str, str, str]:
        """The key as the store's first four columns.

        >>> RunKey("grade", "devils-square", {}, {"nodes": 5}).columns()
        ('grade', 'devils-square', '{}', '{"nodes": 5}')
        """
        return (self.task, self.game, canonical(self.options), canonical(self.budget))


@dataclass(frozen=True)
class Row:
    """One deal's answer (the store's columns after the key).

    >>> Row(3, "unknown", 0, 10, 1.5, 30.0).measures is None
    True
    """

    deal: int
    verdict: str
    moves: int
    nodes: int
    seconds: float
    peak_mb: float
    measures: Mapping[str, Any] | None = None
    worker: str = ""


class ResultStore:
    """A results file (created if missing): :meth:`add` rows, ask what is :meth:`done`,
    read :meth:`rows` and :meth:`run_keys`. Safe to open from several processes at once
    (SQLite's write-ahead log; each :meth:`add` is one transaction)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"no results store at {self.path}")
        try:
            self._db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)
            columns = [r[1] for r in self._db.execute("PRAGMA table_info(results)")]
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path} is not a cardtable results store ({error})") from None
        if columns[:5] != ["task", "game", "options", "budget", "deal"]:
            raise StoreError(f"{self.path} is not a cardtable results store (its results table differs)")

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, key: RunKey, rows: Iterable[Row]) -> int:
        """Write rows in one transaction; a deal already stored is kept as it is (never
        counted twice). Returns how many rows were new."""
        head = key.columns()
        values = [
            (
                *head,
                r.deal,
                r.verdict,
                r.moves,
                r.nodes,
                r.seconds,
                r.peak_mb,
                None if r.measures is None else json.dumps(dict(r.measures), sort_keys=True),
                r.worker,
            )
            for r in rows
        ]
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            before = db.total_changes
            # Only a deal already stored is skipped (ON CONFLICT of the key); any other broken
            # constraint fails the whole batch (INSERT OR IGNORE would drop such a row silently).
            db.executemany(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (task, game, options, budget, deal) DO NOTHING",
                values,
            )
            added = db.total_changes - before
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return added

    def done(self, key: RunKey) -> set[int]:
        """The deals of ``key`` already stored."""
        query = "SELECT deal FROM results WHERE task=? AND game=? AND options=? AND budget=?"
        return {d for (d,) in self._db.execute(query, key.columns())}

    def run_keys(self) -> list[tuple[RunKey, int]]:
        """Every key stored, with its number of deals, in a stable order."""
        query = "SELECT task, game, options, budget, COUNT(*) FROM results GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"
        return [
            (RunKey(task, game, json.loads(options), json.loads(budget)), n)
            for task, game, options, budget, n in self._db.execute(query)
        ]

    def rows(self, key: RunKey) -> Iterator[Row]:
        """The rows of ``key``, by deal number."""
        query = (
            "SELECT deal, verdict, moves, nodes, seconds, peak_mb, measures, worker FROM results "
            "WHERE task=? AND game=? AND options=? AND budget=? ORDER BY deal"
        )
        for deal, verdict, moves, nodes, seconds, peak, measures, worker in self._db.execute(query, key.columns()):
            yield Row(
                deal, verdict, moves, nodes, seconds, peak, None if measures is None else json.loads(measures), worker
            )

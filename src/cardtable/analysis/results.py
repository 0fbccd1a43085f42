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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import CardtableError

TASKS = ("solve", "grade")
"""The analyses: solve each deal, or grade it for the levels."""

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


COLUMNS = (
    "task",
    "game",
    "options",
    "budget",
    "deal",
    "verdict",
    "moves",
    "nodes",
    "seconds",
    "peak_mb",
    "measures",
    "worker",
)
"""The columns of a store's ``results`` table, in order (:data:`SCHEMA`)."""


WHOLE_MEASURES = ("effort", "eager_effort", "ease")
"""The measures of a graded row that are whole numbers (the reports count with them)."""


def _read_only(path: Path) -> sqlite3.Connection:
    """The store at ``path`` opened read only, checked to be a cardtable store or an empty
    SQLite file: else :class:`StoreError`, and nothing was written to it.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp(); other = os.path.join(folder, "other.sqlite")
    >>> with sqlite3.connect(other) as db: _ = db.execute("CREATE TABLE users (id INTEGER)")
    >>> _read_only(Path(other))
    Traceback (most recent call last):
    ...
    cardtable.analysis.results.StoreError: ... is not a cardtable results store (it holds other tables: users)
    """
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
    problem = None
    try:
        tables = sorted(name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        columns = tuple(r[1] for r in db.execute("PRAGMA table_info(results)"))
        others = [t for t in tables if t != "results"]
        if others:
            problem = f"{path} is not a cardtable results store (it holds other tables: {', '.join(others[:5])})"
        elif tables and columns != COLUMNS:
            problem = f"{path} is not a cardtable results store (its results table differs)"
    except sqlite3.DatabaseError as error:
        problem = f"{path} is not a cardtable results store ({error})"
    except sqlite3.Error as error:  # locked, unreadable: the file may well be a store
        problem = f"cannot read the results store {path}: {error}"
    if problem is not None:
        db.close()
        raise StoreError(problem)
    return db


class ResultStore:
    """A results file (created if missing): :meth:`add` rows, ask what is :meth:`done`,
    read :meth:`rows` and :meth:`run_keys`. Safe to open from several processes at once
    (SQLite's write-ahead log; each :meth:`add` is one transaction)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """Open the store at ``path``; with ``create``, make it if missing and open it for
        writing, else read only. A file that is not a cardtable store is refused
        (:class:`StoreError`) before anything is written to it: not SQLite, or a SQLite file
        holding other tables, or a ``results`` table of other columns.

        >>> ResultStore("/nonexistent/x.sqlite", create=False)
        Traceback (most recent call last):
        ...
        cardtable.analysis.results.StoreError: no results store at /nonexistent/x.sqlite
        """
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"no results store at {self.path}")
        if self.path.is_file():
            self._db = _read_only(self.path)  # checked read only: a file of another program is never touched
            if not create:
                return
            self._db.close()
        try:
            self._db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the results store {self.path}: {error}") from None

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
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:  # locked past the timeout, read only, disk full
            raise StoreError(f"cannot write to the results store {self.path}: {error}") from None
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
        except sqlite3.OperationalError as error:  # the file, not the rows: locked, read only, disk full
            db.execute("ROLLBACK")
            raise StoreError(f"cannot write to the results store {self.path}: {error}") from None
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
        found = []
        for task, game, options, budget, n in self._read(query):
            if task not in TASKS:
                raise StoreError(
                    f"{self.path} holds a damaged row (its task {str(task)[:20]!r} is not {' or '.join(TASKS)})"
                )
            opened = _json_object(options, "options", self.path), _json_object(budget, "budget", self.path)
            found.append((RunKey(task, game, *opened), n))
        return found

    def rows(self, key: RunKey) -> Iterator[Row]:
        """The rows of ``key``, by deal number."""
        query = (
            "SELECT deal, verdict, moves, nodes, seconds, peak_mb, measures, worker FROM results "
            "WHERE task=? AND game=? AND options=? AND budget=? ORDER BY deal"
        )
        for deal, verdict, moves, nodes, seconds, peak, measures, worker in self._read(query, key.columns()):
            if not (
                all(type(v) is int for v in (deal, moves, nodes))
                and all(type(v) in (int, float) for v in (seconds, peak))
                and isinstance(verdict, str)
            ):
                raise StoreError(f"{self.path} holds a damaged row (deal {deal!r} of {key.label})")
            measured = None if measures is None else _json_object(measures, "measures", self.path)
            if measured is not None and any(type(measured.get(n, 0)) not in (int, type(None)) for n in WHOLE_MEASURES):
                raise StoreError(f"{self.path} holds a damaged row (deal {deal} of {key.label}: its measures)")
            yield Row(deal, verdict, moves, nodes, seconds, peak, measured, worker)

    def _read(self, query: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of a query, a damaged store being a :class:`StoreError`."""
        try:
            return self._db.execute(query, args).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read the results store {self.path}: {error}") from None


def _json_object(text: object, what: str, path: Path) -> dict[str, Any]:
    """A stored JSON object (a row's options, budget or measures); :class:`StoreError` for
    anything else (a store damaged by hand).

    >>> _json_object('{"draw": 3}', "options", Path("s.sqlite"))
    {'draw': 3}
    >>> _json_object("{bad", "options", Path("s.sqlite"))
    Traceback (most recent call last):
    ...
    cardtable.analysis.results.StoreError: s.sqlite holds a damaged row (its options are not a JSON object)
    """
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise StoreError(f"{path} holds a damaged row (its {what} are not a JSON object)")
    return value

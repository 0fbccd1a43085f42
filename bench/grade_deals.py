"""Grade deals for the level tables: the solver's raw measurements of each deal, one JSON
line per deal, for ``bench/level_tables.py`` to calibrate the thresholds and write
``src/cardtable/levels/level_tables.json`` (``docs/levels.md``, "Calibration").

Keys: the labels of :data:`cardtable.levels.KEYS` (``klondike-draw3``,
``klondike-draw1``, ``desturado-easy``, ``desturado-medium``, ``desturado-hard``,
``demonthief``, ``demons-and-thieves``, ``devils-square``), or ``all``; every other
option of the game at its default. Deals: the deal numbers 0, 1, ..., N-1 of the
key's game and mode (``--deals N``), the same on every run and the same numbers
``bench/solve_all.py`` uses. Each deal is measured by
:func:`cardtable.levels.measure` (full search, then, if it won, the eager
search, each within ``GRADE_NODES`` positions, then, if the eager search did not win,
the reference player's game), which is deterministic: positions counted, not seconds.

Each deal adds one line to ``bench/results/grades/<key>.jsonl``::

    {"deal": 7, "solvable": true, "tricky": true, "verdict": "solved", "effort": 1141,
     "eager_verdict": "unsolvable", "eager_effort": 207, "obvious": false, "nodes": 100000,
     "seconds": 0.08}

(``verdict``/``effort``: the full search's verdict and positions explored;
``eager_verdict`` null when the eager search was not run; ``obvious``: whether the
reference player won, null when not played; ``nodes``: the budget; ``seconds``: wall
clock, for information only.) Lines graded with a larger budget than today's
``GRADE_NODES`` are read as if graded with it (:func:`rebudget`, exact). Lines that
lack a reference player's game trickiness turns on (written before 2026-11-22, or made
so by :func:`rebudget`) get it played and the file rewritten (:func:`complete_grades`)
before any deal is graded.
Resumable: deals already in the file are skipped, so ``--deals 600`` after
``--deals 300`` grades deals 300..599 only, and an interrupted run loses only the deals in
progress (a line cut short is dropped and its deal graded again). ``--workers W``
grades W deals at a time in separate processes; lines are appended as deals finish, in
any order.

Example: ``nice -n 10 .venv/bin/python bench/grade_deals.py --key devils-square --deals 40 --workers 1``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cardtable.games import rules_for
from cardtable.levels.measures import GRADE_NODES, is_tricky, measure, needs_obvious
from cardtable.levels.reference import obvious_player_wins
from cardtable.levels.tables import KEYS, LevelKey

RESULTS = Path(__file__).resolve().parent / "results" / "grades"
"""Where the grades files are: ``<key>.jsonl`` each."""

FIELDS = (
    "deal",
    "solvable",
    "tricky",
    "verdict",
    "effort",
    "eager_verdict",
    "eager_effort",
    "obvious",
    "nodes",
    "seconds",
)
"""The fields of a grades line, in the order written."""

OPTIONAL = {"obvious": None}
"""Fields older lines may lack, with the value they read as."""


def key_named(label: str) -> LevelKey:
    """The level key with this label.

    >>> key_named("klondike-draw1").options()
    {'draw': 1}
    """
    for key in KEYS:
        if key.label == label:
            return key
    raise SystemExit(f"unknown key {label!r} (keys: {', '.join(k.label for k in KEYS)}, all)")


def grades_file(label: str, results: Path = RESULTS) -> Path:
    """The grades file of a key.

    >>> grades_file("demonthief").name
    'demonthief.jsonl'
    """
    return results / f"{label}.jsonl"


def parse_line(line: str) -> dict[str, Any] | None:
    """A grades line as a dict, or None if it is not a complete one (a line cut short).

    >>> parse_line('{"deal": 3, "solvable": false}') is None
    True
    >>> parse_line(json.dumps(dict.fromkeys(FIELDS, 0)))["deal"]
    0
    >>> parse_line(json.dumps(dict.fromkeys(set(FIELDS) - {"obvious"}, 0)))["obvious"] is None
    True
    """
    try:
        row = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(row, dict) or any(name not in row and name not in OPTIONAL for name in FIELDS):
        return None
    return {**OPTIONAL, **row}


def read_grades(path: Path, raw: bool = False) -> tuple[dict[int, dict[str, Any]], int]:
    """The graded deals of a grades file by deal number (the first line of a deal counts),
    each as if graded with ``GRADE_NODES`` positions (:func:`rebudget`; ``raw``: as
    written), and how many lines were not complete grades lines. A missing file has none.

    >>> read_grades(Path("/nonexistent.jsonl"))
    ({}, 0)
    """
    if not path.exists():
        return {}, 0
    rows: dict[int, dict[str, Any]] = {}
    bad = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = parse_line(line)
        if row is None:
            bad += 1
        elif row["nodes"] < GRADE_NODES:
            raise SystemExit(f"{path}: deal {row['deal']} graded with {row['nodes']} nodes, fewer than {GRADE_NODES}")
        else:
            rows.setdefault(int(row["deal"]), row if raw else rebudget(row, GRADE_NODES))
    return rows, bad


def _within(verdict: str, spent: int, nodes: int) -> tuple[str, int]:
    """A search's verdict and positions as a search stopped at ``nodes`` positions would
    report them (see :func:`rebudget`)."""
    if (verdict == "solved" and spent < nodes) or (verdict == "unsolvable" and spent <= nodes):
        return verdict, spent
    return "unknown", nodes


def rebudget(row: dict[str, Any], nodes: int) -> dict[str, Any]:
    """A grades line measured with a budget of at least ``nodes`` positions, as if measured
    with ``nodes``. Exact: the searches are deterministic depth-first searches, and one
    stopped at ``nodes`` positions explores exactly the first ``nodes`` positions of a
    longer one. A win found at fewer positions stands; a complete search of at most
    ``nodes`` positions stands; anything else becomes unknown. (A win found at exactly
    ``nodes`` positions is counted unknown: the shorter search may stop just before it.)

    >>> row = {"deal": 1, "solvable": True, "tricky": True, "verdict": "solved", "effort": 500,
    ...        "eager_verdict": "unsolvable", "eager_effort": 150, "obvious": False, "nodes": 300, "seconds": 0.1}
    >>> r = rebudget(row, 200); r["verdict"], r["solvable"], r["tricky"], r["eager_verdict"], r["nodes"]
    ('unknown', False, False, None, 200)
    >>> r = rebudget({**row, "effort": 100}, 200); r["verdict"], r["tricky"], r["eager_effort"]
    ('solved', True, 150)
    >>> r = rebudget({**row, "effort": 100, "eager_effort": 250}, 200); r["eager_verdict"], r["tricky"]
    ('unknown', True)
    >>> r = rebudget({**row, "effort": 100, "eager_verdict": "solved", "eager_effort": 250, "obvious": None}, 200)
    >>> r["eager_verdict"], r["obvious"], r["tricky"]  # the player's game is still to be played
    ('unknown', None, False)
    """
    if row["nodes"] == nodes:
        return row
    verdict, effort = _within(str(row["verdict"]), int(row["effort"]), nodes)
    eager_verdict: str | None = None
    eager_effort = 0
    if verdict == "solved" and row["eager_verdict"] is not None:
        eager_verdict, eager_effort = _within(str(row["eager_verdict"]), int(row["eager_effort"]), nodes)
    solvable = verdict == "solved"
    obvious = row["obvious"] if needs_obvious(verdict, eager_verdict) else None
    return {
        **row,
        "solvable": solvable,
        "tricky": is_tricky(verdict, eager_verdict, obvious),
        "obvious": obvious,
        "verdict": verdict,
        "effort": effort,
        "eager_verdict": eager_verdict,
        "eager_effort": eager_effort,
        "nodes": nodes,
    }


def grade_one(label: str, deal: int) -> dict[str, Any]:
    """Measure one deal of a key: its grades line as a dict.

    >>> row = grade_one("klondike-draw3", 7)
    >>> row["solvable"], row["tricky"], row["effort"], row["eager_effort"]
    (True, True, 1141, 207)
    """
    key = key_named(label)
    rules = rules_for(key.game, **key.options())
    start = time.perf_counter()
    m = measure(rules, deal, GRADE_NODES, noisy=False)
    seconds = time.perf_counter() - start
    row = {
        "deal": deal,
        "solvable": m.solvable,
        "tricky": m.tricky,
        "verdict": m.verdict,
        "effort": m.effort,
        "eager_verdict": m.eager_verdict,
        "eager_effort": m.eager_effort,
        "obvious": m.obvious,
        "nodes": GRADE_NODES,
        "seconds": round(seconds, 3),
    }
    return {name: row[name] for name in FIELDS}


def _graded(label: str, todo: Sequence[int], workers: int) -> Iterator[dict[str, Any]]:
    """Grade the deals, yielding each line as it is ready (in any order with workers > 1)."""
    if workers <= 1:
        for deal in todo:
            yield grade_one(label, deal)
        return
    executor = ProcessPoolExecutor(max_workers=workers)
    try:
        futures: list[Future[dict[str, Any]]] = [executor.submit(grade_one, label, deal) for deal in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def progress_bar(quiet: bool) -> Progress:
    """The progress bar of the grading scripts, on standard error (``quiet``: none).

    >>> progress_bar(True).disable
    True
    """
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=Console(stderr=True), disable=quiet)


def append_lines(path: Path, rows: Iterable[dict[str, Any]], label: str, total: int, quiet: bool) -> None:
    """Append each row to ``path`` as a JSON line as soon as it comes (so an interrupted
    run keeps what it did), advancing a progress bar of ``total`` rows."""
    with progress_bar(quiet) as progress, path.open("a", encoding="utf-8") as out:
        task = progress.add_task(label, total=total)
        for row in rows:
            out.write(json.dumps(row) + "\n")
            out.flush()
            progress.advance(task)


def play_one(label: str, deal: int) -> bool:
    """Whether the reference player wins a deal of a key.

    >>> play_one("klondike-draw3", 5), play_one("klondike-draw3", 7)
    (True, False)
    """
    key = key_named(label)
    return obvious_player_wins(rules_for(key.game, **key.options()), deal)


def complete_grades(label: str, workers: int = 1, quiet: bool = False, results: Path = RESULTS) -> int:
    """Play the reference player's game on the graded deals whose trickiness turns on it
    but whose line lacks it, and rewrite the grades file with every line as graded
    with ``GRADE_NODES`` (:func:`rebudget`) and those games in; return how many were
    played (0: the file is left as it is).
    """
    path = grades_file(label, results)
    rows, _ = read_grades(path)
    todo = [
        deal
        for deal, row in sorted(rows.items())
        if needs_obvious(row["verdict"], row["eager_verdict"]) and row["obvious"] is None
    ]
    if not todo:
        return 0
    with progress_bar(quiet) as progress, ProcessPoolExecutor(max_workers=max(workers, 1)) as pool:
        task = progress.add_task(f"{label} (reference games)", total=len(todo))
        for deal, won in zip(todo, pool.map(play_one, [label] * len(todo), todo, chunksize=4), strict=True):
            row = rows[deal]
            rows[deal] = {**row, "obvious": won, "tricky": is_tricky(row["verdict"], row["eager_verdict"], won)}
            progress.advance(task)
    rewrite(path, ({name: rows[deal][name] for name in FIELDS} for deal in sorted(rows)))
    return len(todo)


def rewrite(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Replace the grades file ``path`` by ``rows``, a line each, all at once (a file
    beside it, then renamed), so an interrupted rewrite leaves the old file whole."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    tmp.replace(path)


def grade_key(label: str, deals: int, workers: int = 1, quiet: bool = False, results: Path = RESULTS) -> int:
    """Grade deals 0..deals-1 of a key that its grades file lacks, appending a line for
    each; return how many were graded now.
    """
    key_named(label)
    path = grades_file(label, results)
    path.parent.mkdir(parents=True, exist_ok=True)
    done, bad = read_grades(path, raw=True)
    if bad:  # drop the lines cut short by an interrupted run; their deals are graded again
        rewrite(path, sorted(done.values(), key=lambda row: int(row["deal"])))
    complete_grades(label, workers, quiet, results)  # the same deals, rewritten
    todo = [deal for deal in range(deals) if deal not in done]
    if not todo:
        if not quiet:
            print(f"{label}: deals 0..{deals - 1} already graded", file=sys.stderr)
        return 0
    append_lines(path, _graded(label, todo, workers), label, len(todo), quiet)
    return len(todo)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--key", action="append", required=True, help="a key label, or all (may be given more than once)"
    )
    parser.add_argument("--deals", type=int, required=True, help="grade deals 0..N-1 (those not graded yet)")
    parser.add_argument("--workers", type=int, default=1, help="deals graded at a time (processes)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the grades directory")
    args = parser.parse_args(argv)
    labels = [k.label for k in KEYS] if "all" in args.key else args.key
    for label in labels:
        key_named(label)
    for label in labels:
        grade_key(label, args.deals, args.workers, args.quiet, args.results)


if __name__ == "__main__":
    main()

"""Do the levels really differ? The reference heuristic player's win share per level.

The player is :func:`cardtable.levels.reference.obvious_player_wins` (its module
docstring): one move at a time, judged only by the position it leads to, never undoing,
no search. It plays the deals of the shipped level tables
(``src/cardtable/levels/level_tables.json``): for each key and level, the table's first
``--per-level N`` deals by number (default 300; fewer when the table has fewer). It
cannot win a tricky deal: a deal is tricky only if this player lost it
(:func:`cardtable.levels.is_tricky`), so the tricky rows check that the tables
agree with the player, and the easy, normal and hard rows are the measurement.

It prints a Markdown table: key, level, deals played, wins, win share and its 95%
Wilson score interval (:func:`cardtable.analysis.report.wilson`).

Run: ``nice -n 10 .venv/bin/python bench/levels_reference.py --per-level 300``
(``--keys`` to choose keys, ``--workers W`` for parallel processes).

``--by-effort N`` instead plays every graded solvable, non-tricky deal of each key's
grades file (``bench/results/grades/<key>.jsonl``), orders them by effort, and prints
the player's wins in each of N equal parts (the data behind the thresholds' split,
docs/levels.md, "Why fifths").
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from grade_deals import grades_file, play_one, read_grades

from cardtable.analysis.report import wilson
from cardtable.levels.tables import GRADED_LEVELS, KEYS, level_tables

PER_LEVEL = 300
"""Deals played per key and level, at most."""


def play_all(pairs: Sequence[tuple[str, int]], workers: int = 1) -> list[bool]:
    """Whether the reference player wins each (key label, deal), in order.

    >>> play_all([("klondike-draw3", 7)])
    [False]
    """
    if workers <= 1:
        return [play_one(label, deal) for label, deal in pairs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(play_one, [p[0] for p in pairs], [p[1] for p in pairs], chunksize=8))


def reference_rows(labels: Sequence[str], per_level: int = PER_LEVEL, workers: int = 1) -> list[dict[str, Any]]:
    """For each key and level with table deals: the deals played, the wins, the win share
    and its 95% interval.
    """
    tables = level_tables()
    jobs = [
        (label, level, list(tables[label].levels[level][:per_level]))
        for label in labels
        for level in GRADED_LEVELS
        if tables[label].levels[level]
    ]
    wins = play_all([(label, deal) for label, _, deals in jobs for deal in deals], workers)
    rows = []
    at = 0
    for label, level, deals in jobs:
        won = sum(wins[at : at + len(deals)])
        at += len(deals)
        low, high = wilson(won, len(deals))
        rows.append({"key": label, "level": level, "deals": len(deals), "wins": won, "ci95": (low, high)})
    return rows


def effort_rows(label: str, parts: int = 10, workers: int = 1) -> list[dict[str, Any]]:
    """The key's graded solvable, non-tricky deals ordered by effort (then deal number),
    cut into ``parts`` equal parts: each part's effort range, deals and reference wins.
    """
    grades, _ = read_grades(grades_file(label))
    rows = sorted((int(r["effort"]), deal) for deal, r in grades.items() if r["solvable"] and not r["tricky"])
    wins = play_all([(label, deal) for _, deal in rows], workers)
    out = []
    for part in range(parts):
        low, high = part * len(rows) // parts, (part + 1) * len(rows) // parts
        if low == high:
            continue
        won = sum(wins[low:high])
        out.append(
            {
                "key": label,
                "part": part + 1,
                "efforts": (rows[low][0], rows[high - 1][0]),
                "deals": high - low,
                "wins": won,
                "ci95": wilson(won, high - low),
            }
        )
    return out


def effort_markdown(rows: Sequence[dict[str, Any]]) -> str:
    """:func:`effort_rows` as a Markdown table.

    >>> print(effort_markdown([{"key": "k", "part": 1, "efforts": (5, 9), "deals": 4, "wins": 3, "ci95": (0.3, 0.95)}]))
    | key | part | effort | deals | wins | win share | 95% interval |
    |---|---:|---|---:|---:|---:|---|
    | k | 1 | 5-9 | 4 | 3 | 75% | 30%-95% |
    """
    lines = ["| key | part | effort | deals | wins | win share | 95% interval |", "|---|---:|---|---:|---:|---:|---|"]
    for row in rows:
        first, last = row["efforts"]
        lines.append(f"| {row['key']} | {row['part']} | {first}-{last} | {_outcome_cells(row)} |")
    return "\n".join(lines)


def _outcome_cells(row: dict[str, Any]) -> str:
    """The deals, wins, win share and interval cells of a row, as both tables show them."""
    low, high = row["ci95"]
    return f"{row['deals']} | {row['wins']} | {row['wins'] / row['deals']:.0%} | {low:.0%}-{high:.0%}"


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a Markdown table.

    >>> print(markdown([{"key": "k", "level": "easy", "deals": 20, "wins": 16, "ci95": (0.584, 0.9193)}]))
    | key | level | deals | wins | win share | 95% interval |
    |---|---|---:|---:|---:|---|
    | k | easy | 20 | 16 | 80% | 58%-92% |
    """
    lines = ["| key | level | deals | wins | win share | 95% interval |", "|---|---|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['key']} | {row['level']} | {_outcome_cells(row)} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--keys", nargs="*", default=[k.label for k in KEYS], help="key labels (default: all)")
    parser.add_argument("--per-level", type=int, default=PER_LEVEL, help="deals played per key and level, at most")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--by-effort", type=int, metavar="N", help="wins in N effort parts of all graded deals")
    args = parser.parse_args(argv)
    known = [k.label for k in KEYS]
    for label in args.keys:
        if label not in known:
            raise SystemExit(f"unknown key {label!r} (keys: {', '.join(known)})")
    if args.by_effort is not None:
        if args.by_effort < 1:
            raise SystemExit(f"--by-effort must be at least 1, not {args.by_effort}")
        labels = [label for label in args.keys if grades_file(label).exists()]
        print(effort_markdown([row for label in labels for row in effort_rows(label, args.by_effort, args.workers)]))
        return
    print(markdown(reference_rows(args.keys, args.per_level, args.workers)))


if __name__ == "__main__":
    main()

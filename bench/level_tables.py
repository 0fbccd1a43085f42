"""Calibrate the level thresholds and write the shipped deal tables
``src/cardtable/solve/level_tables.json`` from the grades of ``bench/grade_deals.py``
(``docs/levels.md``, "Calibration").

For each key of :data:`cardtable.solve.levels.KEYS`, from its grades file
``bench/results/grades/<key>.jsonl``:

- **thresholds**: the effort values that cut the graded solvable, non-tricky deals
  at :data:`cardtable.solve.levels.SPLIT`
  (:func:`~cardtable.solve.levels.split_thresholds`): easy the least-effort fifth,
  normal the next two fifths, hard the top two fifths; with fewer than ``--min-deals``
  such deals (default 30) the key keeps its provisional thresholds (:data:`cardtable.solve.levels.PROVISIONAL`) and is
  marked ``"calibrated": false``;
- **levels**: the graded solvable deals at each level with those thresholds
  (:func:`cardtable.solve.levels.level_of`), each level's deal numbers sorted, the
  first ``--table-size`` of them (default :data:`TABLE_SIZE`) kept;
- **graded** and **counts**: how many deals were graded, how many the full search
  proved unsolvable or left unknown within the budget, and how many are at each level.

A key without a grades file keeps its provisional thresholds and empty tables (then
``deal_for_level`` searches live). It prints each key's level counts and shares (of
the solvable deals). Run: ``.venv/bin/python bench/level_tables.py`` (instant).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from grade_deals import RESULTS, grades_file, read_grades

from cardtable.solve.levels import (
    GRADE_NODES,
    GRADED_LEVELS,
    KEYS,
    PROVISIONAL,
    LevelKey,
    level_of,
    split_thresholds,
)

TABLES = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "solve" / "level_tables.json"
"""The shipped tables."""

MIN_DEALS = 30
"""The fewest solvable non-tricky deals the thresholds are calibrated from (else provisional)."""

TABLE_SIZE = 1000
"""The most deals a level's table keeps (the lowest deal numbers): enough for any seed to
reach a thousand different deals, while the shipped file stays small."""


def key_entry(
    key: LevelKey, rows: Sequence[dict[str, Any]], min_deals: int = MIN_DEALS, table_size: int = TABLE_SIZE
) -> dict[str, Any]:
    """The tables entry of a key from its graded deals (see the module docstring).

    >>> from cardtable.solve.levels import KEYS
    >>> rows = [{"deal": d, "solvable": d > 0, "tricky": d == 1, "verdict": "solved" if d else "unknown",
    ...          "effort": 10 * d} for d in range(8)]
    >>> e = key_entry(KEYS[-1], rows, min_deals=3)
    >>> e["thresholds"], e["levels"]
    ([20, 50], {'easy': [2], 'normal': [3, 4, 5], 'hard': [6, 7], 'tricky': [1]})
    >>> key_entry(KEYS[-1], rows, min_deals=3, table_size=2)["levels"]["normal"]
    [3, 4]
    """
    solvable = [row for row in rows if row["solvable"]]
    plain = [int(row["effort"]) for row in solvable if not row["tricky"]]
    calibrated = len(plain) >= min_deals
    thresholds = split_thresholds(plain) if calibrated else PROVISIONAL[key.label]
    levels: dict[str, list[int]] = {level: [] for level in GRADED_LEVELS}
    for row in solvable:
        levels[level_of(int(row["effort"]), bool(row["tricky"]), thresholds)].append(int(row["deal"]))
    counts = {
        "unsolvable": sum(row["verdict"] == "unsolvable" for row in rows),
        "unknown": sum(row["verdict"] == "unknown" for row in rows),
        **{level: len(deals) for level, deals in levels.items()},
    }
    return {
        "game": key.game,
        "options": key.options(),
        "thresholds": list(thresholds),
        "calibrated": calibrated,
        "graded": len(rows),
        "counts": counts,
        "levels": {level: sorted(deals)[:table_size] for level, deals in levels.items()},
    }


def tables_text(entries: dict[str, dict[str, Any]]) -> str:
    """The JSON text of the tables: indented, each list of numbers on one line.

    >>> json.loads(tables_text({}))["grade_nodes"]
    100000
    >>> '"easy": [1, 2]' in tables_text({"x": {"easy": [1, 2]}})
    True
    """
    data = {
        "about": "Deal level thresholds and tables: written by bench/level_tables.py from bench/results/grades/"
        " (docs/levels.md).",
        "grade_nodes": GRADE_NODES,
        "keys": entries,
    }
    text = json.dumps(data, indent=2)
    return re.sub(r"\[[\d,\s]*\]", lambda m: "[" + ", ".join(m[0][1:-1].split()).replace(",,", ",") + "]", text) + "\n"


def shares_report(label: str, entry: dict[str, Any]) -> str:
    """One line of a key's level counts and shares of its solvable deals.

    >>> e = {"graded": 4, "calibrated": True, "thresholds": [1, 2],
    ...      "counts": {"unsolvable": 1, "unknown": 0, "easy": 1, "normal": 1, "hard": 1, "tricky": 0}}
    >>> for part in shares_report("x", e).split("; "):
    ...     print(part)
    x: 4 graded, 3 solvable (1 unsolvable, 0 unknown)
    thresholds 1, 2 (calibrated): easy 1 (33%), normal 1 (33%), hard 1 (33%), tricky 0 (0%)
    """
    counts = entry["counts"]
    solvable = sum(counts[level] for level in GRADED_LEVELS)
    shares = ", ".join(
        f"{level} {counts[level]} ({counts[level] / solvable:.0%})" if solvable else f"{level} 0"
        for level in GRADED_LEVELS
    )
    low, high = entry["thresholds"]
    state = "calibrated" if entry["calibrated"] else "provisional"
    return (
        f"{label}: {entry['graded']} graded, {solvable} solvable ({counts['unsolvable']} unsolvable, "
        f"{counts['unknown']} unknown); thresholds {low}, {high} ({state}): {shares}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="the grades directory")
    parser.add_argument("--out", type=Path, default=TABLES, help="the tables file to write")
    parser.add_argument("--min-deals", type=int, default=MIN_DEALS, help="fewest deals to calibrate from")
    parser.add_argument("--table-size", type=int, default=TABLE_SIZE, help="most deals kept in a level's table")
    args = parser.parse_args(argv)
    entries = {}
    for key in KEYS:
        rows, _ = read_grades(grades_file(key.label, args.results))
        entries[key.label] = key_entry(key, [rows[deal] for deal in sorted(rows)], args.min_deals, args.table_size)
        print(shares_report(key.label, entries[key.label]))
    args.out.write_text(tables_text(entries), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

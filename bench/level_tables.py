"""Calibrate the level scales and write the shipped deal tables
``src/cardtable/levels/level_tables.json`` from the grades of ``bench/grade_deals.py`` and
the noisy games of ``bench/grade_ease.py`` (``docs/levels.md``, "Calibration").

For each key of :data:`cardtable.levels.KEYS`, from its grades file
``bench/results/grades/<key>.jsonl`` and its ease file ``bench/results/ease/<key>.jsonl``:

- **population**: the graded solvable, non-tricky deals that have an ease; their
  efforts and misses (noisy games lost), sorted, are the key's
  :class:`~cardtable.levels.Scale`;
- **thresholds**: the scores that cut the population at
  :data:`cardtable.levels.SPLIT` (:func:`~cardtable.levels.scale_of`):
  easy the easiest fifth, normal the next two fifths, hard the top two fifths;
- **levels**: the population's deals at each level, and the tricky deals among all
  the graded deals (trickiness needs no ease), each level's deal numbers sorted, the
  first ``--table-size`` of them (default :data:`TABLE_SIZE`) kept;
- **graded** and **counts**: how many deals were graded, how many the full search
  proved unsolvable or left unknown within the budget, how many solvable non-tricky
  deals have no ease yet (``unplayed``), and how many are at each level.

A key with fewer than ``--min-deals`` deals in its population (default 30) gets no
entry: ``deal_for_level`` then measures a scale live. It prints each key's level counts
and shares. Run: ``.venv/bin/python bench/level_tables.py`` (a few seconds).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from grade_deals import RESULTS, grades_file, read_grades
from grade_ease import ease_file, read_ease

from cardtable.levels.measures import GRADE_NODES
from cardtable.levels.reference import NOISY_GAMES
from cardtable.levels.tables import GRADED_LEVELS, KEYS, LevelKey, level_of, scale_of

TABLES = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "levels" / "level_tables.json"
"""The shipped tables."""

MIN_DEALS = 30
"""The fewest deals a key's population may have (else the key gets no entry)."""

TABLE_SIZE = 1000
"""The most deals a level's table keeps (the lowest deal numbers): enough for any seed to
reach a thousand different deals, while the shipped file stays small."""


def key_entry(
    key: LevelKey,
    rows: Sequence[dict[str, Any]],
    eases: dict[int, int],
    min_deals: int = MIN_DEALS,
    table_size: int = TABLE_SIZE,
) -> dict[str, Any] | None:
    """The tables entry of a key from its graded deals and their eases (see the module
    docstring), or None when its population is smaller than ``min_deals``.

    >>> from cardtable.levels.tables import KEYS
    >>> rows = [{"deal": d, "solvable": d > 0, "tricky": d == 1, "verdict": "solved" if d else "unknown",
    ...          "effort": 10 * d} for d in range(8)]
    >>> eases = {2: 8, 3: 8, 4: 6, 5: 7, 6: 1, 7: 0}
    >>> e = key_entry(KEYS[-1], rows, eases, min_deals=3)
    >>> e["thresholds"], e["levels"]
    ([3, 12], {'easy': [2], 'normal': [3, 4, 5], 'hard': [6, 7], 'tricky': [1]})
    >>> key_entry(KEYS[-1], rows, eases, min_deals=3, table_size=2)["levels"]["normal"]
    [3, 4]
    >>> key_entry(KEYS[-1], rows, {}, min_deals=3) is None
    True
    """
    plain = [row for row in rows if row["solvable"] and not row["tricky"]]
    population = [row for row in plain if int(row["deal"]) in eases]
    if len(population) < min_deals:
        return None
    scale = scale_of([(int(row["effort"]), eases[int(row["deal"])]) for row in population])
    levels: dict[str, list[int]] = {level: [] for level in GRADED_LEVELS}
    for row in population:
        score = scale.score(int(row["effort"]), eases[int(row["deal"])])
        levels[level_of(score, False, scale.thresholds)].append(int(row["deal"]))
    levels["tricky"] = [int(row["deal"]) for row in rows if row["solvable"] and row["tricky"]]
    counts = {
        "unsolvable": sum(row["verdict"] == "unsolvable" for row in rows),
        "unknown": sum(row["verdict"] == "unknown" for row in rows),
        "unplayed": len(plain) - len(population),
        **{level: len(deals) for level, deals in levels.items()},
    }
    return {
        "game": key.game,
        "options": key.options(),
        "thresholds": list(scale.thresholds),
        "graded": len(rows),
        "counts": counts,
        "efforts": list(scale.efforts),
        "misses": list(scale.misses),
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
        "about": "Deal level scales and tables: written by bench/level_tables.py from bench/results/grades/"
        " and bench/results/ease/ (docs/levels.md).",
        "grade_nodes": GRADE_NODES,
        "noisy_games": NOISY_GAMES,
        "keys": entries,
    }
    text = json.dumps(data, indent=2)
    return re.sub(r"\[[\d,\s]*\]", lambda m: "[" + ", ".join(m[0][1:-1].split()).replace(",,", ",") + "]", text) + "\n"


def shares_report(label: str, entry: dict[str, Any]) -> str:
    """One line of a key's level counts and shares of its leveled deals.

    >>> e = {"graded": 5, "thresholds": [1, 2],
    ...      "counts": {"unsolvable": 1, "unknown": 0, "unplayed": 1, "easy": 1, "normal": 1, "hard": 1, "tricky": 0}}
    >>> for part in shares_report("x", e).split("; "):
    ...     print(part)
    x: 5 graded (1 unsolvable, 0 unknown, 1 not played)
    thresholds 1, 2: easy 1 (33%), normal 1 (33%), hard 1 (33%), tricky 0 (0%)
    """
    counts = entry["counts"]
    leveled = sum(counts[level] for level in GRADED_LEVELS)
    shares = ", ".join(
        f"{level} {counts[level]} ({counts[level] / leveled:.0%})" if leveled else f"{level} 0"
        for level in GRADED_LEVELS
    )
    low, high = entry["thresholds"]
    return (
        f"{label}: {entry['graded']} graded ({counts['unsolvable']} unsolvable, {counts['unknown']} unknown, "
        f"{counts['unplayed']} not played); thresholds {low}, {high}: {shares}"
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
        eases = read_ease(ease_file(key.label))
        entry = key_entry(key, [rows[deal] for deal in sorted(rows)], eases, args.min_deals, args.table_size)
        if entry is None:
            print(f"{key.label}: too few deals with an ease, no entry")
            continue
        entries[key.label] = entry
        print(shares_report(key.label, entry))
    args.out.write_text(tables_text(entries), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

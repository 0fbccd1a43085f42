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
from collections.abc import Sequence
from pathlib import Path

from grade_deals import RESULTS, grades_file, read_grades
from grade_ease import ease_file, read_ease

from cardtable.levels.build import MIN_DEALS, TABLE_SIZE, key_entry, shares_report, tables_text
from cardtable.levels.tables import KEYS

ABOUT = (
    "Deal level scales and tables: written by bench/level_tables.py from bench/results/grades/"
    " and bench/results/ease/ (docs/levels.md)."
)
"""The ``about`` line of the tables this script writes."""

TABLES = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "levels" / "level_tables.json"
"""The shipped tables."""


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
    args.out.write_text(tables_text(entries, ABOUT), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

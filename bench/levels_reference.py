"""Do the levels really differ? The reference heuristic player's win share per level.

The player is :func:`cardtable.solve.reference.obvious_player_wins`: at each position
the first move of the solver's move order that makes immediate progress, else the
first that leads to a position not seen before, never undoing, no search. It plays
the deals of the shipped level tables (``src/cardtable/solve/level_tables.json``):
for each key and level, the table's first ``--per-level N`` deals by number
(default 300; fewer when the table has fewer). By construction it cannot win a
tricky deal (it only ever plays eager moves, and a tricky deal is one the eager
search proved unwinnable), so tricky's share is 0 for every key.

It prints a Markdown table: key, level, deals played, wins, win share and its 95%
Wilson score interval (``bench/solve_all.py``'s :func:`wilson`).

Run: ``nice -n 10 .venv/bin/python bench/levels_reference.py --per-level 300``
(``--keys`` to choose keys, ``--workers W`` for parallel processes).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from solve_all import wilson

from cardtable.games import rules_for
from cardtable.solve.levels import GRADED_LEVELS, KEYS, level_tables
from cardtable.solve.reference import obvious_player_wins

PER_LEVEL = 300
"""Deals played per key and level, at most."""


def play_one(label: str, deal: int) -> bool:
    """Whether the reference player wins a deal of a key.

    >>> play_one("klondike-draw3", 7)  # tricky
    False
    """
    key = next(k for k in KEYS if k.label == label)
    return obvious_player_wins(rules_for(key.game, **key.options()), deal)


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
    flat = [(label, deal) for label, _, deals in jobs for deal in deals]
    if workers <= 1:
        wins = [play_one(label, deal) for label, deal in flat]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            wins = list(pool.map(play_one, [f[0] for f in flat], [f[1] for f in flat], chunksize=8))
    rows = []
    at = 0
    for label, level, deals in jobs:
        won = sum(wins[at : at + len(deals)])
        at += len(deals)
        low, high = wilson(won, len(deals))
        rows.append({"key": label, "level": level, "deals": len(deals), "wins": won, "ci95": (low, high)})
    return rows


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a Markdown table.

    >>> print(markdown([{"key": "k", "level": "easy", "deals": 20, "wins": 16, "ci95": (0.584, 0.9193)}]))
    | key | level | deals | wins | win share | 95% interval |
    |---|---|---:|---:|---:|---|
    | k | easy | 20 | 16 | 80% | 58%-92% |
    """
    lines = ["| key | level | deals | wins | win share | 95% interval |", "|---|---|---:|---:|---:|---|"]
    for row in rows:
        low, high = row["ci95"]
        share = row["wins"] / row["deals"]
        lines.append(
            f"| {row['key']} | {row['level']} | {row['deals']} | {row['wins']} | {share:.0%} | {low:.0%}-{high:.0%} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--keys", nargs="*", default=[k.label for k in KEYS], help="key labels (default: all)")
    parser.add_argument("--per-level", type=int, default=PER_LEVEL, help="deals played per key and level, at most")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    known = [k.label for k in KEYS]
    for label in args.keys:
        if label not in known:
            raise SystemExit(f"unknown key {label!r} (keys: {', '.join(known)})")
    print(markdown(reference_rows(args.keys, args.per_level, args.workers)))


if __name__ == "__main__":
    main()

"""How long ``deal_for_level`` takes, for every key and level: from the shipped tables (the
key's options, every other at its default) and by the live search (an option that is
not the key's own changed, so no table applies).

The live search is timed on Klondike draw 3 with ``redeals`` 2 instead of unlimited
(:data:`LIVE`): the other keys answer from their tables in the same way, and a live
search for a level as rare as Klondike draw 1's tricky deals (1 deal in 460) tries
hundreds of candidates at up to 0.1 s each. Prints, per key and level, the median and
largest seconds over ``--seeds`` seeds (0..S-1), and which answered with
``NoLevelDealError`` (no such deal); for a live key, first the time its live scale
takes (:func:`~cardtable.levels.scale_for`).

Run: ``nice .venv/bin/python bench/deal_levels.py --seeds 20``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from cardtable.core.errors import NoLevelDealError
from cardtable.games import rules_for
from cardtable.levels.deal_tables import GRADED_LEVELS, KEYS, deal_for_level, scale_for

LIVE: dict[str, dict[str, Any]] = {"klondike-draw3": {"redeals": 2}}
"""The keys whose live search is timed, with the option (not the key's own) that makes it live."""


def timings(game: str, level: str, seeds: int, options: dict[str, Any]) -> tuple[list[float], int]:
    """Seconds per seed, and how many seeds gave ``NoLevelDealError``."""
    seconds = []
    missing = 0
    for seed in range(seeds):
        began = time.perf_counter()
        try:
            deal_for_level(game, level, seed=seed, **options)
        except NoLevelDealError:
            missing += 1
        seconds.append(time.perf_counter() - began)
    return seconds, missing


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    print("| key | how | level | median s | max s | no such deal |")
    print("|---|---|---|---:|---:|---:|")
    for key in KEYS:
        runs = [("table", key.options())]
        if key.label in LIVE:
            changed = LIVE[key.label]
            runs.append(("live " + ",".join(f"{k}={v}" for k, v in changed.items()), {**key.options(), **changed}))
        for how, options in runs:
            if how != "table":
                # Live levels first measure their scale on deals 0..49 under the options
                # (once per process, so once per CLI call): timed apart from the picks.
                began = time.perf_counter()
                cut = scale_for(rules_for(key.game, **options)).thresholds
                print(f"| {key.label} | {how} | scale, thresholds {cut} | {time.perf_counter() - began:.3f} | | |")
            for level in GRADED_LEVELS:
                seconds, missing = timings(key.game, level, args.seeds, options)
                print(
                    f"| {key.label} | {how} | {level} | {statistics.median(seconds):.3f} | {max(seconds):.3f} |"
                    f" {missing} of {args.seeds} |"
                )


if __name__ == "__main__":
    main()

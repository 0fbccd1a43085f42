"""The honest player's win share per level, beside the reference player's, for every level key.

Run: ``.venv/bin/python bench/honest_levels.py [DEALS] [--skip S] [--samples K] [--nodes N] [--workers W]
[--keys K1,K2]`` (default: the first 5 deals of each level's shipped table, after the first S).
A level that means something should fall for both players from easy to hard (tricky: the
deals the reference player loses by definition).

>>> where, honest, reference = one("devils-square", {}, "easy", 0, 2, 1000)
>>> where, honest in (True, False), reference in (True, False)
(('devils-square', 'easy', 0), True, True)
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable.analysis.report import wilson
from cardtable.bots.honest import NODES, SAMPLES, play
from cardtable.games import rules_for
from cardtable.levels import GRADED_LEVELS, level_keys, obvious_player_wins
from cardtable.levels.deal_tables import table_deals


def one(
    game: str, options: dict[str, Any], level: str, deal: int, samples: int, nodes: int
) -> tuple[tuple[str, str, int], bool, bool]:
    """Whether the honest player and the reference player win ``deal``: ((game, level, deal), honest, reference)."""
    rules = rules_for(game, **options)
    honest = play(rules, deal, samples=samples, nodes=nodes).won
    return (game, level, deal), honest, obvious_player_wins(rules, deal)


def _share(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins}/{n} ({100 * low:.0f}-{100 * high:.0f}%)"


def main(argv: list[str] | None = None) -> None:
    """Play the first deals of every level of every key and print the shares."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=5)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keys", default=None, help="comma-separated level keys (default: all)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first SKIP deals of each table")
    args = parser.parse_args(argv)
    jobs = []
    wanted = None if args.keys is None else set(args.keys.split(","))
    for key in level_keys():
        if wanted is not None and key.label not in wanted:
            continue
        rules = rules_for(key.game, **key.options())
        for level in GRADED_LEVELS:
            for deal in table_deals(rules, level)[args.skip : args.skip + args.deals]:
                jobs.append((key.label, key.game, key.options(), level, deal))
    results: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [
            (label, level, pool.submit(one, game, options, level, deal, args.samples, args.nodes))
            for label, game, options, level, deal in jobs
        ]
        for label, level, future in futures:
            (_, _, deal), honest, reference = future.result()
            results.setdefault((label, level), []).append((honest, reference))
            print(f"{label} {level} deal {deal}: honest {honest}, reference {reference}", file=sys.stderr, flush=True)
    budget = f"honest player: {args.samples} samples x {args.nodes} nodes"
    print(f"deals {args.skip}-{args.skip + args.deals - 1} of each level's table (sorted); {budget}")
    print(f"{'key':<20} {'level':<7} {'honest':>16} {'reference':>16}")
    for (label, level), rows in results.items():
        n = len(rows)
        honest_wins = sum(1 for h, _ in rows if h)
        reference_wins = sum(1 for _, r in rows if r)
        print(f"{label:<20} {level:<7} {_share(honest_wins, n):>16} {_share(reference_wins, n):>16}")


if __name__ == "__main__":
    main()

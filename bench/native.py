"""The compiled solver cores against the Python reference: positions per second on the
same searches, and a check that both explore the same positions (same verdict, node count
and moves; the run stops at the first difference).

Run: ``.venv/bin/python bench/native.py [--nodes N] [--deals D] [--space full|pruned|eager]
[--keys K ...]`` (default: 30,000 positions on each of deals 0-9 of every key the cores
serve, the whole space, as ``solve``'s second phase and ``measure`` search it).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from cardtable.games import rules_for
from cardtable.levels.deal_tables import KEYS
from cardtable.solve import native
from cardtable.solve.search import Budget, Pruned, depth_first
from cardtable.solve.spaces import EagerSpace, space_for

NATIVE_KEYS = tuple(key.label for key in KEYS)
"""The level keys whose games have a compiled core (every one)."""


def space_of(rules: Any, kind: str) -> Any:
    """The space searched: the game's space, its pruned form (``solve``'s first phase) or the
    eager space (grading)."""
    if kind == "eager":
        return EagerSpace(rules)
    space = space_for(rules)
    return Pruned(space, 3) if kind == "pruned" else space


def main() -> None:
    """Run both searches on each deal of each key and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=30_000)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--space", choices=("full", "pruned", "eager"), default="full")
    parser.add_argument("--keys", nargs="+", choices=NATIVE_KEYS, default=list(NATIVE_KEYS))
    args = parser.parse_args()
    if not native.available():
        sys.exit("the compiled cores are not available (not built, or CARDTABLE_PURE is set)")
    budget = Budget(nodes=args.nodes)
    print(f"{args.space} space, deals 0-{args.deals - 1}, at most {args.nodes:,} positions each; same results checked")
    print(
        f"{'key':<20} {'positions':>10} {'python s':>9} {'native s':>9} {'python/s':>10} {'native/s':>11} {'times':>6}"
    )
    by_label = {key.label: key for key in KEYS}
    for label in args.keys:
        key = by_label[label]
        rules = rules_for(key.game, **key.options())
        python = compiled = 0.0
        nodes = 0
        for deal in range(args.deals):
            start = rules.deal(deal)
            began = time.perf_counter()
            ref = depth_first(space_of(rules, args.space), start, budget)
            python += time.perf_counter() - began
            began = time.perf_counter()
            got = native.search(space_of(rules, args.space), start, budget)
            compiled += time.perf_counter() - began
            if got is None or (got.verdict, got.nodes, got.moves) != (ref.verdict, ref.nodes, ref.moves):
                sys.exit(f"{label} deal {deal}: the core differs from the reference")
            nodes += ref.nodes
        print(
            f"{label:<20} {nodes:>10,} {python:>9.2f} {compiled:>9.3f} {nodes / python:>10,.0f}"
            f" {nodes / compiled:>11,.0f} {python / compiled:>6.1f}"
        )


if __name__ == "__main__":
    main()

"""Positions a second of a compiled solver core alone, on long searches: the solver's
pruned phase (width 2) and its complete search, each from the deal, within a node budget.

Long searches are where the seen table grows and misses the cache, which the short
searches of ``bench/native.py`` (checked against Python) do not reach. The default deals
are Demonthief deals the solver, in its own move order, leaves unknown at 10 s
(``docs/analysis.md``), so every search runs to its limit.

Run: ``.venv/bin/python bench/core_speed.py [--game G] [--deals D ...] [--nodes N]``
(default: Demonthief deals 188, 243 and 285, 3,000,000 positions each). Prints, per
phase, the positions, the CPU seconds and the positions per CPU second.

>>> rate(3_000_000, 2.5)
1200000
"""

from __future__ import annotations

import argparse
import sys
import time

from cardtable.games import rules_for
from cardtable.solve import native
from cardtable.solve.search import search
from cardtable.solve.solver import solver_space
from cardtable.solve.types import Budget, Pruned

MEMORY = 40_000_000
"""Positions the seen table may hold: more than any default run remembers."""


def rate(nodes: int, seconds: float) -> int:
    """Positions a second, rounded down (0 for no time).

    >>> rate(10, 0.0)
    0
    """
    return int(nodes / seconds) if seconds > 0 else 0


def main() -> None:
    """Search each deal in each phase and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="demonthief")
    parser.add_argument("--deals", type=int, nargs="+", default=[188, 243, 285])
    parser.add_argument("--nodes", type=int, default=3_000_000)
    args = parser.parse_args()
    if not native.available():
        sys.exit("the compiled cores are not available (not built, or CARDTABLE_PURE is set)")
    rules = rules_for(args.game)
    print(f"{args.game}, deals {', '.join(map(str, args.deals))}, at most {args.nodes:,} positions each")
    print(f"{'phase':<10} {'positions':>11} {'cpu s':>7} {'positions/s':>12}")
    for name, width in (("width 2", 2), ("complete", None)):
        nodes, seconds = 0, 0.0
        for deal in args.deals:
            space = solver_space(rules)
            began = time.process_time()
            found = search(
                space if width is None else Pruned(space, width), rules.deal(deal), Budget(args.nodes, None, MEMORY, 1)
            )
            seconds += time.process_time() - began
            nodes += found.nodes
        print(f"{name:<10} {nodes:>11,} {seconds:>7.2f} {rate(nodes, seconds):>12,}")


if __name__ == "__main__":
    main()

"""What each phase of ``solve`` costs on Klondike deals, each phase run alone.

For each draw-3 deal (cardtable deal numbers ``--start``..``--stop``-1): whether
``proved_lost`` proves it lost, then ``Pruned(KlondikeClassSpace, 2)``,
``Pruned(KlondikeClassSpace, 3)`` (at most ``--pruned-nodes`` positions each) and the
complete search of ``KlondikeClassSpace`` (no limit), each with its verdict,
positions and seconds. Then a summary: how many deals each pruned width wins, how many
the complete search wins or proves lost, and the slowest complete searches.

Run: ``.venv/bin/python bench/klondike_phases.py --start 0 --stop 400 --log
/tmp/klondike-phases-0-399.jsonl`` (``--log`` keeps each deal as a JSON
line; a rerun resumes from it).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from cardtable.games.klondike import Klondike
from cardtable.solve.lost import proved_lost
from cardtable.solve.search import Budget, Pruned, search
from cardtable.solve.spaces import KlondikeClassSpace


def measure(rules: Klondike, deal: int, pruned_nodes: int) -> dict[str, Any]:
    """One deal's row: proved lost, and (verdict, positions, seconds) of each phase alone."""
    space = KlondikeClassSpace(rules)
    state = rules.deal(deal)
    row: dict[str, Any] = {"deal": deal, "lost": proved_lost(rules, state)}
    for name, searched, budget in (
        ("width2", Pruned(space, 2), Budget(pruned_nodes, None, None)),
        ("width3", Pruned(space, 3), Budget(pruned_nodes, None, None)),
        ("complete", space, Budget(None, None, None)),
    ):
        began = time.perf_counter()
        found = search(searched, state, budget)
        row[name] = [found.verdict, found.nodes, round(time.perf_counter() - began, 4)]
    return row


def summary(rows: list[dict[str, Any]]) -> str:
    """What each phase wins, and the slowest complete searches."""
    width2 = [r for r in rows if r["width2"][0] == "solved"]
    width3 = [r for r in rows if r["width2"][0] != "solved" and r["width3"][0] == "solved"]
    solved = [r for r in rows if r["complete"][0] == "solved"]
    lost = [r for r in rows if r["complete"][0] == "unsolvable"]
    slowest = [
        f"{r['deal']} {r['complete'][0]} {r['complete'][1]:,} positions {r['complete'][2]:.1f} s"
        for r in sorted(rows, key=lambda r: -r["complete"][2])[:5]
    ]
    lines = [
        f"{len(rows)} deals: width 2 wins {len(width2)}, width 3 wins {len(width3)} more; "
        f"the complete search: {len(solved)} solved, {len(lost)} unsolvable "
        f"({sum(r['lost'] for r in lost)} of them proved lost without search)",
        "slowest complete searches: " + ", ".join(slowest),
    ]
    return "\n".join(lines)


def main() -> None:
    """Measure the deals (resuming from ``--log``) and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=0, help="first deal (default 0)")
    parser.add_argument("--stop", type=int, default=200, help="deal after the last (default 200)")
    parser.add_argument("--pruned-nodes", type=int, default=2_000_000, help="positions per pruned phase")
    parser.add_argument("--log", metavar="FILE", help="append each deal as a JSON line; resume from it")
    args = parser.parse_args()
    rules = Klondike()
    done: dict[int, dict[str, Any]] = {}
    if args.log and os.path.exists(args.log):
        with open(args.log) as log:
            for line in log:
                row = json.loads(line)
                done[row["deal"]] = row
    rows = []
    for deal in range(args.start, args.stop):
        row = done.get(deal)
        if row is None:
            row = measure(rules, deal, args.pruned_nodes)
            if args.log:
                with open(args.log, "a") as log:
                    log.write(json.dumps(row) + "\n")
        rows.append(row)
    print(summary(rows))


if __name__ == "__main__":
    main()

"""The Klondike solver at its defaults on a range of deals: how many it decides, how fast.

Each deal (cardtable deal numbers ``--start``..``--stop``-1, draw 3, the game's
default options) is solved by ``cardtable.solve`` with its default limits except
the time, capped at ``--seconds`` (default 10), one deal after another in this
process (``solve`` keeps its own time limit and resets the peak-memory mark before
each solve). Each deal's verdict, wall-clock seconds (``SolveResult.seconds``),
CPU seconds (``time.process_time`` around the solve: what the solve itself used,
whatever else the machine runs), positions and peak resident size go to a JSON
line in ``--log``; a rerun resumes after the deals already there. Then it prints
decided, won, lost, unknown, the mean, median, 95th and 99th percentile and
largest seconds (wall and CPU) with the slowest deals, the deals over a few
thresholds, and the largest peak memory.

``--compare OTHER.jsonl`` also prints every deal of both logs where one says
solved and the other unsolvable (there must be none), and where one decided and
the other did not.

``--peer PROGRAM`` runs a build of lonelybot (Rust), the fastest Klondike solver we
know of, on the same deals after ours, and prints its figures and where its verdicts
differ from ours. It cannot be installed here (its crates are not on any registry this
machine reaches); ``docs/benchmarks.md`` says how the build used was made from its
public source. PROGRAM reads one deal a line, ``N tableau P1|P2|...|P7 down
0,1,...,6 stock C1 C2 ...`` (piles and stock bottom first, cards as ``TH``), solves it
with draw 3 and unlimited redeals within the cap given as its one argument, and
writes ``N verdict cpu_seconds wall_seconds``.

Run (the figures in ``docs/benchmarks.md``): ``nice -n 5 .venv/bin/python
bench/klondike_sweep.py --start 0 --stop 10000 --log /tmp/ksweep.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import time
from typing import Any

import cardtable
from cardtable.core.cards import card_text
from cardtable.solve import solve

THRESHOLDS = (0.1, 0.5, 1.0, 1.4, 2.0)
"""Seconds the summary counts the deals over."""

PEER = (
    "peer, published: lonelybot (Rust) on its own 200 deals, "
    "mean 32 ms, slowest 1.4 s; 81.96% +-0.05 of draw-3 deals winnable over 2.4 million deals"
)
"""The published figures of the fastest solver we know of, printed beside ours."""


def peer_line(deal: int) -> str:
    """A deal as the ``--peer`` program reads it (module docstring).

    >>> peer_line(0).split()[:3]
    ['0', 'tableau', 'TH|KC']
    """
    s = cardtable.rules_for("klondike").deal(deal)
    tableau = "|".join(" ".join(card_text(c) for c in pile) for pile in s.tableau)
    down = ",".join(map(str, s.down))
    return f"{deal} tableau {tableau} down {down} stock {' '.join(card_text(c) for c in s.stock)}"


def run_peer(program: str, deals: range, seconds: float) -> list[dict[str, Any]]:
    """The ``--peer`` program's rows for ``deals`` (one process for all; its peak memory is
    that process's high-water mark, the same in every row).

    >>> callable(run_peer)
    True
    """
    text = "".join(peer_line(d) + "\n" for d in deals)
    done = subprocess.run([program, f"{seconds:g}"], input=text, capture_output=True, text=True, check=True)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    rows = []
    for line in done.stdout.splitlines():
        deal, verdict, cpu, wall = line.split()
        verdict = verdict if verdict in ("solved", "unsolvable") else "unknown"
        row = {"deal": int(deal), "verdict": verdict, "seconds": float(wall), "cpu": float(cpu), "peak_mb": peak_mb}
        rows.append(row)
    return rows


def solve_one(deal: int, seconds: float) -> dict[str, Any]:
    """Solve one deal at the defaults with a time cap; its log row.

    >>> row = solve_one(8, 10.0); row["verdict"], row["deal"]
    ('solved', 8)
    """
    game = cardtable.new_game("klondike", deal=deal)
    cpu = time.process_time()
    result = solve(game, seconds=seconds)
    cpu = time.process_time() - cpu
    return {
        "deal": deal,
        "limit": seconds,
        "verdict": result.verdict,
        "seconds": round(result.seconds, 5),
        "cpu": round(cpu, 5),
        "nodes": result.nodes,
        "peak_mb": round(result.peak_mb, 1),
    }


def read_log(path: str | None, seconds: float, retry: float | None = None) -> dict[int, dict[str, Any]]:
    """The rows already in a log for this time cap, by deal; with ``retry``, a deal's row
    at that longer cap replaces its row at ``seconds``.

    >>> read_log(None, 10.0)
    {}
    """
    rows: dict[int, dict[str, Any]] = {}
    if path is None or not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as log:
        for line in log:
            row = json.loads(line)
            if (row["limit"] == seconds and row["deal"] not in rows) or row["limit"] == retry:
                rows[row["deal"]] = row
    return rows


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (3.0, 4.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(rows: list[dict[str, Any]]) -> str:
    """The figures of a set of rows, as text.

    >>> print(summary([{"deal": 1, "verdict": "solved", "seconds": 0.5, "cpu": 0.4, "peak_mb": 50.0}]))
    ... # doctest: +ELLIPSIS
    1 deals: 1 decided (1 won, 0 lost), 0 unknown
    ...
    """
    count = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("solved", "unsolvable", "unknown")}
    lines = [
        f"{len(rows)} deals: {count['solved'] + count['unsolvable']} decided ({count['solved']} won, "
        f"{count['unsolvable']} lost), {count['unknown']} unknown"
    ]
    unknown = [r["deal"] for r in rows if r["verdict"] == "unknown"]
    if unknown:
        lines.append(f"unknown: {unknown[:50]}{' ...' if len(unknown) > 50 else ''}")
    for name in ("seconds", "cpu"):
        values = [float(r[name]) for r in rows]
        slowest = sorted(rows, key=lambda r: -float(r[name]))[:5]
        lines.append(
            f"{'wall' if name == 'seconds' else 'cpu ':<4} s: mean {statistics.fmean(values):.4f}  "
            f"median {statistics.median(values):.4f}  p95 {percentile(values, 0.95):.4f}  "
            f"p99 {percentile(values, 0.99):.4f}  max {max(values):.3f}  slowest "
            + ", ".join(f"{r['deal']} ({float(r[name]):.2f})" for r in slowest)
        )
        over = [f"{sum(1 for v in values if v > t)} over {t:g} s" for t in THRESHOLDS]
        lines.append("         " + ", ".join(over))
    peak = max(rows, key=lambda r: float(r["peak_mb"]))
    lines.append(f"peak memory (resident, whole process): {float(peak['peak_mb']):.0f} MB (deal {peak['deal']})")
    return "\n".join(lines)


def compare(rows: dict[int, dict[str, Any]], other: dict[int, dict[str, Any]]) -> str:
    """Deals where two logs disagree: solved against unsolvable (a bug), and decided against not.

    >>> a = {1: {"verdict": "solved"}, 2: {"verdict": "unknown"}}
    >>> print(compare(a, {1: {"verdict": "solved"}, 2: {"verdict": "unsolvable"}}))
    2 deals in both; solved vs unsolvable: none; decided only here: []; decided only there: [2]
    """
    both = sorted(set(rows) & set(other))
    flips = [d for d in both if {rows[d]["verdict"], other[d]["verdict"]} == {"solved", "unsolvable"}]
    here = [d for d in both if rows[d]["verdict"] != "unknown" and other[d]["verdict"] == "unknown"]
    there = [d for d in both if rows[d]["verdict"] == "unknown" and other[d]["verdict"] != "unknown"]
    return (
        f"{len(both)} deals in both; solved vs unsolvable: {flips or 'none'}; "
        f"decided only here: {here}; decided only there: {there}"
    )


def main() -> None:
    """Solve the deals not yet in the log, then print the figures.

    >>> callable(main)
    True
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=0, help="first deal (default 0)")
    parser.add_argument("--stop", type=int, default=2000, help="deals up to this one, excluded (default 2000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="time cap per deal (default 10)")
    parser.add_argument("--log", metavar="FILE", help="append each deal's row as a JSON line; resume from it")
    parser.add_argument(
        "--retry", type=float, metavar="S", help="solve the deals left unknown again with a cap of S seconds"
    )
    parser.add_argument("--compare", metavar="FILE", help="another log: print where the verdicts differ")
    parser.add_argument("--peer", metavar="PROGRAM", help="a lonelybot build: run it on the same deals (docstring)")
    args = parser.parse_args()
    done = read_log(args.log, args.seconds, args.retry)
    retries = [args.seconds] if args.retry is None else [args.seconds, args.retry]
    for cap in retries:
        for deal in range(args.start, args.stop):
            if deal in done and (done[deal]["verdict"] != "unknown" or done[deal]["limit"] >= cap):
                continue
            done[deal] = row = solve_one(deal, cap)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps(row) + "\n")
    rows = [done[d] for d in range(args.start, args.stop)]
    caps = f"{args.seconds:g} s cap per deal"
    if args.retry:
        caps += f", the deals left unknown again at {args.retry:g} s"
    print(f"Klondike draw 3 at solve's defaults, deals {args.start}-{args.stop - 1}, {caps}")
    if args.retry:
        again = [r["deal"] for r in rows if r["limit"] == args.retry]
        print(f"solved again at {args.retry:g} s: {len(again)} deals {again[:40]}{' ...' if len(again) > 40 else ''}")
    print(summary(rows))
    print(PEER)
    if args.peer:
        cap = max(args.seconds, args.retry or 0.0)
        peer = run_peer(args.peer, range(args.start, args.stop), cap)
        print(f"peer, the same deals in this run: {os.path.basename(args.peer)}, {cap:g} s cap per deal")
        print(summary(peer))
        print("ours against the peer: " + compare({r["deal"]: r for r in rows}, {r["deal"]: r for r in peer}))
    if args.compare:
        other = read_log(args.compare, args.seconds, args.retry)
        print(compare({d: done[d] for d in range(args.start, args.stop)}, other))


if __name__ == "__main__":
    main()

"""cardtable's Klondike solver against Klondike-Solver (pyksolve), same deals, same limit.

The deals are cardtable deal numbers 0..N-1 (draw 3, unlimited redeals,
foundation returns on: the rules both solvers play). Each deal goes to
Klondike-Solver as PySol text (``Solitaire.load_pysol``, ``solve_fast`` with its
default 5,000,000-state cap) and to ``cardtable.solve``. Every solve runs in a
child process with the same wall-clock limit, so time and peak memory (the
child's maximum resident size) are measured alike. Prints, for each solver:
solved, proved unsolvable, unknown (limit or cap reached), median, 95th
percentile, mean and largest seconds per deal, peak memory; then any deal where
one says solved and the other proved it unsolvable (there must be none).

Klondike-Solver's ``solve_fast`` never proves a deal unsolvable (it prunes to
the best three moves per position); a deal it does not solve is "unknown".

Run: ``.venv/bin/python bench/solve_klondike.py --deals 200 --limit 60 --log klondike-60.jsonl``
(``--log`` keeps each deal's results as it goes, and a rerun resumes from them).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import statistics
import time
from typing import Any

import cardtable


def cardtable_worker(deal: int, limit: float, out: Any) -> None:
    """Solve one deal with cardtable; send (verdict, seconds, positions)."""
    from cardtable.solve import solve

    result = solve(cardtable.new_game("klondike", deal=deal), seconds=limit, memory=None)
    out.send((result.verdict, result.seconds, own_peak_memory_mb()))


def pyksolve_worker(deal: int, limit: float, out: Any) -> None:
    """Solve one deal with Klondike-Solver; send (verdict, seconds, states)."""
    from pyksolve.solver import Solitaire

    text = cardtable.new_game("klondike", deal=deal).to_text(format="pysol")
    solver = Solitaire()
    solver.load_pysol(text.replace("\n", "\r\n"))  # its reader wants CRLF lines
    solver.reset_game(3)
    start = time.perf_counter()
    result = solver.solve_fast()
    seconds = time.perf_counter() - start
    name = getattr(result, "name", str(result))
    verdict = "solved" if name.startswith("Solved") else "unsolvable" if name == "Impossible" else "unknown"
    out.send((verdict, seconds, own_peak_memory_mb()))


def own_peak_memory_mb() -> float:
    """This process's largest resident size so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(worker: Any, deal: int, limit: float) -> tuple[str, float, float]:
    """Run a worker in a child process: (verdict, seconds, peak MB). An answer after the
    limit counts as unknown at the limit; past the limit plus start-up slack the child is
    stopped, its memory unmeasured."""
    receive, send = mp.Pipe(duplex=False)
    child = mp.Process(target=worker, args=(deal, limit, send))
    child.start()
    found: tuple[str, float, float] = ("unknown", limit, 0.0)
    if receive.poll(limit + 5):
        found = receive.recv()
    child.join(1)
    if child.is_alive():
        child.terminate()
        child.join()
        found = ("unknown", limit, 0.0)
    if found[0] == "unknown" or found[1] > limit:  # an answer after the limit does not count
        found = ("unknown", limit, found[2])
    return found


def summary(name: str, runs: list[tuple[str, float, float]]) -> str:
    """One line of figures; peak memory is the largest of any finished deal."""
    memory_mb = max(m for _, _, m in runs)
    times = sorted(t for _, t, _ in runs)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    count = {v: sum(1 for r in runs if r[0] == v) for v in ("solved", "unsolvable", "unknown")}
    return (
        f"{name:<16} {count['solved']:>7} {count['unsolvable']:>11} {count['unknown']:>8} "
        f"{statistics.median(times):>9.3f} {p95:>9.3f} {statistics.fmean(times):>9.3f} {times[-1]:>9.3f} "
        f"{memory_mb:>9.0f}"
    )


def read_log(path: str | None, limit: float) -> dict[tuple[str, int], tuple[str, float, float]]:
    """The results already in a ``--log`` file for this limit, by (solver, deal).

    >>> read_log(None, 60.0)
    {}
    """
    done: dict[tuple[str, int], tuple[str, float, float]] = {}
    if path is None or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as log:
        for line in log:
            entry = json.loads(line)
            if entry["limit"] == limit:
                verdict, seconds, memory = entry["result"]
                done[(entry["solver"], entry["deal"])] = (verdict, seconds, memory)
    return done


def main() -> None:
    """Run both solvers on the same deals and print the table.

    >>> callable(main)
    True
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 0..N-1 (default 200)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--log", metavar="FILE", help="append each deal's results as a JSON line; resume from it")
    args = parser.parse_args()
    mp.set_start_method("fork")
    done = read_log(args.log, args.limit)
    results: dict[str, list[tuple[str, float, float]]] = {"cardtable": [], "klondike-solver": []}
    for deal in range(args.deals):
        for name, worker in (("klondike-solver", pyksolve_worker), ("cardtable", cardtable_worker)):
            found = done.get((name, deal)) or run_one(worker, deal, args.limit)
            results[name].append(found)
            if args.log and (name, deal) not in done:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps({"solver": name, "deal": deal, "limit": args.limit, "result": found}) + "\n")
    print(f"{args.deals} random draw-3 deals (cardtable deal numbers 0..{args.deals - 1}), {args.limit:g} s per deal")
    columns = ("solved", "unsolvable", "unknown", "median s", "p95 s", "mean s", "max s", "peak MB")
    widths = (7, 11, 8, 9, 9, 9, 9, 9)  # summary's
    print(f"{'solver':<16} " + " ".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True)))
    for name in ("klondike-solver", "cardtable"):
        print(summary(name, results[name]))
    disagree = [
        deal
        for deal, (a, b) in enumerate(zip(results["cardtable"], results["klondike-solver"], strict=True))
        if {a[0], b[0]} == {"solved", "unsolvable"}
    ]
    print(f"disagreements (solved vs proved unsolvable): {disagree or 'none'}")


if __name__ == "__main__":
    main()

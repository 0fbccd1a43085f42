"""Deals a second through ``cardtable analyze`` against ``solve`` in a loop: the cost of the
store, the batches and the scheduling.

One deterministic workload (the same deals, positions counted, not seconds), run:

- ``solve`` in a plain loop in this process (the baseline);
- :func:`cardtable.analysis.run` with 1 worker (this process, rows written to a fresh
  SQLite store) and with 2 local worker processes;
- the same through a Dask ``LocalCluster`` on loopback with 1 and with 2 worker
  processes of one thread each.

It prints deals a second for each, and the overhead per deal against the loop (time
per deal minus the loop's, for the one-worker runs). Run:
``.venv/bin/python bench/analyze.py [--game desturado --mode hard] [--deals 400] [--nodes 20000]``
(needs the ``analysis`` extra).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import cardtable
from cardtable.analysis import ResultStore, make_job, run
from cardtable.analysis.runner import local_cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="desturado")
    parser.add_argument("--mode", default="hard", help="Desturado's mode (ignored for other games)")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--memory", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=None, help="deals per batch (default: the run's choice)")
    args = parser.parse_args()
    options: dict[str, Any] = {"mode": args.mode} if args.game == "desturado" else {}
    deals = list(range(args.deals))
    job = make_job("solve", args.game, options, nodes=args.nodes, memory=args.memory)
    print(f"{args.game} {options} deals 0:{args.deals}, nodes={args.nodes}, memory={args.memory}")
    print(f"{'how':<37} {'seconds':>8} {'deals/s':>9} {'overhead ms/deal':>17}")

    start = time.perf_counter()
    verdicts = [
        cardtable.solve(cardtable.new_game(args.game, deal=d, **options), None, args.nodes, args.memory).verdict
        for d in deals
    ]
    loop = time.perf_counter() - start
    show("solve() in a loop", loop, args.deals, None)

    def timed(label: str, **how: Any) -> None:
        with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "r.sqlite") as store:
            began = time.perf_counter()
            result = run(job, deals, store, batch=args.batch, **how)
            took = time.perf_counter() - began
            assert result.complete and [r.verdict for r in store.rows(job.key)] == verdicts
        show(label, took, args.deals, loop if how.get("workers", 1) == 1 and "scheduler" not in how else None)

    timed("analyze, 1 worker (this process)", workers=1)
    timed("analyze, 2 local processes", workers=2)
    from dask.distributed import Client

    for n in (1, 2):
        with (
            local_cluster(n) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            client.run(lambda: None)  # the workers are up before the clock starts
            began = time.perf_counter()
            with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "r.sqlite") as store:
                result = run(job, deals, store, scheduler=client, batch=args.batch)
                took = time.perf_counter() - began
                assert result.complete and [r.verdict for r in store.rows(job.key)] == verdicts
            show(
                f"analyze, Dask LocalCluster {n} worker{'s' if n > 1 else ''}",
                took,
                args.deals,
                loop if n == 1 else None,
            )


def show(label: str, seconds: float, deals: int, loop: float | None) -> None:
    overhead = "" if loop is None else f"{(seconds - loop) / deals * 1000:17.2f}"
    print(f"{label:<37} {seconds:>8.2f} {deals / seconds:>9.1f} {overhead:>17}", flush=True)


if __name__ == "__main__":
    main()

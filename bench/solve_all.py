"""Winnability of every one-player game and mode: the share of random deals the solver
proves solved, proves unsolvable or leaves unknown, with 95% confidence intervals.

These are the project's published winnability estimates (``docs/benchmarks.md``,
"Winnability estimates"). Deals are the deal numbers 0..N-1 of each game, the
same on every run. Each deal is solved by ``cardtable.solve`` ("thoughtful":
every card known) in its own child process with ``--limit`` seconds, so one deal
can never eat the memory or the time of the others: a child still running
``GRACE`` seconds past the limit is stopped and its deal counts as unknown.

For each game and mode it prints: deals, solved, proved unsolvable, unknown;
the winnable share as an interval, from solved/n (every unknown deal lost) to
(solved+unknown)/n (every unknown deal won); a 95% interval: the Wilson score
interval of the solved share, widened when some deals are unknown to run from
the Wilson low of solved to the Wilson high of solved+unknown; median and 95th
percentile seconds per deal; the largest resident memory of any deal's process;
and the literature's figure, where there is one, with whether it lies in our
95% interval.

``--json`` prints the run as JSON instead (every deal's verdict, seconds and
positions too); ``--table FILE`` prints the table of such a saved run again.
``--games`` takes mode labels (``desturado-hard``) or game names (all their modes).

Full run (the published figures; at most 200 x 8 x 10 s, about 4.5 hours on one
worker, so save it): ``nice -n 10 .venv/bin/python bench/solve_all.py --deals 200
--limit 10 --json > solve_all.json`` then ``.venv/bin/python bench/solve_all.py
--table solve_all.json``. Quick check: ``.venv/bin/python bench/solve_all.py
--deals 20 --limit 5``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from solve_klondike import own_peak_memory_mb

import cardtable
from cardtable.analysis.report import wilson
from cardtable.core.multiplayer import MultiplayerRules
from cardtable.solve.solver import VERDICTS

GRACE = 2.0
"""Seconds past ``--limit`` before a deal's process is stopped (start-up, freeing memory)."""


@dataclass(frozen=True)
class Mode:
    """One game with fixed options, and the literature's winnable share for it (if any).

    >>> MODES[0].label, MODES[0].options
    ('klondike-draw3', {'draw': 3})
    """

    label: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    literature: float | None = None
    source: str = ""


MODES: tuple[Mode, ...] = (
    Mode("klondike-draw3", "klondike", {"draw": 3}, 0.819, "thoughtful, draw 3, unlimited redeals"),
    Mode("klondike-draw1", "klondike", {"draw": 1}),
    Mode("desturado-easy", "desturado", {"mode": "easy"}),
    Mode("desturado-medium", "desturado", {"mode": "medium"}),
    Mode("desturado-hard", "desturado", {"mode": "hard"}),
    Mode("demonthief", "demonthief", {}, 0.75, "estimate of unstated method"),
    Mode("demons-and-thieves", "demons-and-thieves", {}, 0.96, "estimate of unstated method"),
    Mode("devils-square", "devils-square", {}),
)
"""Every one-player game and mode, each at its default options otherwise (Klondike:
unlimited redeals, foundation return on)."""


@dataclass(frozen=True)
class Run:
    """One deal's outcome: verdict, seconds (wall clock of the solve call), positions explored,
    the process's peak resident MB (0 when unmeasured), how it ended: ``"ok"``, ``"stopped"``
    (past the hard limit) or ``"crashed"`` (the process died without answering), and the
    search's own seconds (``SolveResult.seconds``, the clock its budget is checked against).

    >>> Run(0, "unknown", 5.0, 100, 50.0).end
    'ok'
    """

    deal: int
    verdict: str
    seconds: float
    nodes: int
    peak_mb: float
    end: str = "ok"
    search_seconds: float = 0.0


def solve_one(mode: Mode, deal: int, limit: float, memory: int | None, out: Connection) -> None:
    """In a child process: solve one deal; send (verdict, seconds, nodes, peak MB, search seconds)."""
    game = cardtable.new_game(mode.game, deal=deal, **mode.options)
    start = time.perf_counter()
    result = cardtable.solve(game, seconds=limit, memory=memory)
    seconds = time.perf_counter() - start
    out.send((result.verdict, seconds, result.nodes, own_peak_memory_mb(), result.seconds))


def run_one(ctx: ForkServerContext, mode: Mode, deal: int, limit: float, memory: int | None) -> Run:
    """Solve one deal in a child process, stopping it ``GRACE`` seconds past the limit."""
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=solve_one, args=(mode, deal, limit, memory, send))
    start = time.perf_counter()
    child.start()
    send.close()  # the child holds its own end; a crash then shows as EOF
    run: Run | None = None
    try:
        if receive.poll(limit + GRACE):
            verdict, seconds, nodes, peak_mb, search = receive.recv()
            run = Run(deal, verdict, seconds, nodes, peak_mb, "ok", search)
        else:
            run = Run(deal, "unknown", time.perf_counter() - start, 0, 0.0, "stopped")
    except EOFError:
        run = Run(deal, "unknown", time.perf_counter() - start, 0, 0.0, "crashed")
    finally:
        receive.close()
        if run is None or run.end != "stopped":
            child.join(1)
        if child.is_alive():
            child.terminate()
            child.join()
    return run


def percentile95(values: list[float]) -> float:
    """The 95th percentile by nearest rank (the value at index ⌊0.95·n⌋ of the sorted list).

    >>> percentile95([float(i) for i in range(1, 21)])
    20.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summarise(mode: Mode, runs: list[Run]) -> dict[str, Any]:
    """A mode's figures as JSON-ready data (shares rounded to 4 decimals, seconds to 3).

    >>> s = summarise(MODES[0], [Run(0, "solved", 1.0, 5, 9.0), Run(1, "unknown", 5.0, 9, 9.0)])
    >>> s["winnable"], s["ci95"], s["literature"]["inside"]
    ([0.5, 1.0], [0.0945, 1.0], True)
    """
    n = len(runs)
    count = {v: sum(1 for r in runs if r.verdict == v) for v in VERDICTS}
    solved, unknown = count["solved"], count["unknown"]
    low = wilson(solved, n)[0]
    high = wilson(solved + unknown, n)[1]
    times = [r.seconds for r in runs]
    literature = None
    if mode.literature is not None:
        literature = {"share": mode.literature, "source": mode.source, "inside": low <= mode.literature <= high}
    return {
        "mode": mode.label,
        "game": mode.game,
        "options": mode.options,
        "deals": n,
        **count,
        "winnable": [round(solved / n, 4), round((solved + unknown) / n, 4)],
        "ci95": [round(low, 4), round(high, 4)],
        "solved_ci95": [round(x, 4) for x in wilson(solved, n)],
        "median_seconds": round(statistics.median(times), 3),
        "p95_seconds": round(percentile95(times), 3),
        "peak_mb": round(max(r.peak_mb for r in runs), 1),
        "stopped": sum(1 for r in runs if r.end == "stopped"),
        "crashed": sum(1 for r in runs if r.end == "crashed"),
        "literature": literature,
        "runs": [
            {
                "deal": r.deal,
                "verdict": r.verdict,
                "seconds": round(r.seconds, 3),
                "search_seconds": round(r.search_seconds, 3),
                "nodes": r.nodes,
                "end": r.end,
            }
            for r in runs
        ],
    }


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The summaries as text lines: a header, then one line per mode.

    >>> table([summarise(MODES[7], [Run(0, "unsolvable", 0.01, 5, 9.0)])])[1].split()[:4]
    ['devils-square', '1', '0', '1']
    """

    def pct(x: float) -> str:
        """A share as a percentage with one decimal."""
        return f"{100 * x:.1f}%"

    lines = [
        f"{'mode':<19}{'deals':>6}{'solved':>7}{'unsolv':>7}{'unknown':>8}  {'winnable':<14}{'95% CI':<14}"
        f"{'median s':>9}{'p95 s':>7}{'peak MB':>8}  literature"
    ]
    for row in rows:
        lit = row["literature"]
        lit_text = "" if lit is None else f"{pct(lit['share'])} ({'in' if lit['inside'] else 'NOT in'} CI)"
        lines.append(
            f"{row['mode']:<19}{row['deals']:>6}{row['solved']:>7}{row['unsolvable']:>7}{row['unknown']:>8}  "
            f"{pct(row['winnable'][0]) + '-' + pct(row['winnable'][1]):<14}"
            f"{pct(row['ci95'][0]) + '-' + pct(row['ci95'][1]):<14}"
            f"{row['median_seconds']:>9.3f}{row['p95_seconds']:>7.2f}{row['peak_mb']:>8.0f}  {lit_text}".rstrip()
        )
    return lines


def select(names: list[str] | None) -> list[Mode]:
    """The modes named (a label such as ``desturado-hard``, or a game name for all its modes).

    >>> [m.label for m in select(["klondike", "devils-square"])]
    ['klondike-draw3', 'klondike-draw1', 'devils-square']
    """
    if not names:
        return list(MODES)
    unknown = [n for n in names if not any(n in (m.label, m.game) for m in MODES)]
    if unknown:
        raise ValueError(f"unknown game or mode {', '.join(unknown)} (modes: {', '.join(m.label for m in MODES)})")
    return [m for m in MODES if m.label in names or m.game in names]


def report(data: dict[str, Any]) -> list[str]:
    """The text report of a run's JSON data (what ``--json`` prints): the table and notes."""
    n = data["deals"]
    lines = [
        f"{n} random deals per mode (deal numbers 0..{n - 1}), {data['limit']:g} s per deal, "
        f"{data['workers']} worker(s), memory {data['memory']:,} positions",
        *table(data["modes"]),
        "winnable: solved/n to (solved+unknown)/n; 95% CI: Wilson low of solved to Wilson high of solved+unknown",
    ]
    for row in data["modes"]:
        if row["literature"] is not None:
            lit = row["literature"]
            lines.append(f"literature, {row['mode']}: about {100 * lit['share']:.1f}% ({lit['source']})")
    lines.append(
        f"slowest answered solve {data['slowest_solve_seconds']:.2f} s (limit {data['limit']:g} s); "
        f"stopped at limit+{data['grace']:g} s: {data['stopped']}; crashed: {data['crashed']}; "
        f"wall {data['wall_seconds']:.0f} s"
    )
    return lines


def run_all(modes: list[Mode], deals: int, limit: float, memory: int | None, workers: int) -> dict[str, Any]:
    """Solve deals 0..deals-1 of each mode, ``workers`` at a time; the run as JSON-ready data."""
    # forkserver: children start from a clean, single-threaded process with cardtable loaded.
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["__main__", "cardtable"])
    jobs = [(mode, deal) for mode in modes for deal in range(deals)]
    runs: dict[str, list[Run]] = {m.label: [] for m in modes}
    began = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        done = pool.map(lambda job: run_one(ctx, job[0], job[1], limit, memory), jobs)
        for (mode, _), run in zip(jobs, done, strict=True):
            runs[mode.label].append(run)
            if len(runs[mode.label]) == deals:
                print(f"{mode.label}: done at {time.perf_counter() - began:.0f} s", file=sys.stderr)
    every = [r for m in modes for r in runs[m.label]]
    answered = [r.seconds for r in every if r.end == "ok"]
    return {
        "deals": deals,
        "limit": limit,
        "memory": memory,
        "workers": workers,
        "grace": GRACE,
        "wall_seconds": round(time.perf_counter() - began, 1),
        "slowest_solve_seconds": round(max(answered, default=0.0), 3),
        "stopped": sum(1 for r in every if r.end == "stopped"),
        "crashed": sum(1 for r in every if r.end == "crashed"),
        "modes": [summarise(m, runs[m.label]) for m in modes],
    }


def main() -> None:
    """Solve deals 0..N-1 of every selected mode and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 0..N-1 of each mode (default 200)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per deal (default 10)")
    parser.add_argument("--games", nargs="+", metavar="NAME", help="modes or games to run (default all)")
    parser.add_argument("--workers", type=int, default=1, help="deals solved at once (default 1)")
    parser.add_argument("--memory", type=int, default=2_000_000, help="positions remembered per solve")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--table", metavar="FILE", help="print the table of a saved --json run; solve nothing")
    args = parser.parse_args()
    if args.table:
        with open(args.table, encoding="utf-8") as f:
            print("\n".join(report(json.load(f))))
        return
    if args.deals < 1 or args.workers < 1 or args.limit <= 0:
        parser.error("--deals and --workers must be at least 1, --limit positive")
    try:
        modes = select(args.games)
    except ValueError as err:
        parser.error(str(err))
    covered = {m.game for m in MODES}
    for name in cardtable.GAMES:
        if name not in covered and not isinstance(cardtable.rules_for(name), MultiplayerRules):
            print(f"warning: one-player game {name} has no mode here", file=sys.stderr)
    data = run_all(modes, args.deals, args.limit, args.memory, args.workers)
    print(json.dumps(data, indent=1) if args.json else "\n".join(report(data)))


if __name__ == "__main__":
    main()

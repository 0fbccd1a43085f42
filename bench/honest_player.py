"""The honest player's win share on a range of deals, with its 95% Wilson interval, the time
per move and per game, and the all-seeing solver's winnability of the same deals (the gap),
beside its peer's figure where one is known (lonelybot's no-undo "hop" player, Klondike draw 3).

Run: ``.venv/bin/python bench/honest_player.py GAME [--option NAME=VALUE] [--deals A-B]
[--samples K] [--nodes N] [--workers W] [--out FILE] [--with FILE ...] [--solver-seconds S]``, e.g.
``.venv/bin/python bench/honest_player.py klondike --deals 0-1999 --workers 2 --out honest-k3.jsonl``.

Each deal is played by :func:`cardtable.bots.honest.play` (seed 0) in a pool of ``--workers``
processes (:class:`concurrent.futures.ProcessPoolExecutor`, as ``cardtable analyze`` runs
its local pool); with ``--out``, one JSON line per deal is appended to the file as it
finishes and the deals already there, played with the same game, options, samples and nodes,
are skipped (an interrupted run resumes; rows of other settings in the file are left out of
the figures). ``--with`` reads the rows of other runs' files the same way (the figures of
two evaluations of one player together, e.g. ``--deals 302000-305999 --out
bench/results/honest-k3-eval4.jsonl --with bench/results/honest-k3-eval3.jsonl``). The
solver column solves each deal seeing every card (``--solver-seconds``, default 10; 0:
skipped).

>>> line = summary([{"won": True, "moves": 100, "seconds": 2.0, "slowest": 0.1, "solver": "solved"}])
>>> line.splitlines()[0]
'1/1 won = 100.0% (95% Wilson 20.6-100.0%)'
>>> print(peer("klondike", {}))
peer: lonelybot's no-undo "hop" player wins 47.58% +-0.80 of random draw-3 deals (a few seconds a game)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from cardtable.analysis.report import percentile, wilson
from cardtable.bots.honest import NODES, SAMPLES, play
from cardtable.core.game import Game
from cardtable.games import rules_for
from cardtable.solve import solve

PEERS: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {
    ("klondike", (("draw", 3),)): 'lonelybot\'s no-undo "hop" player wins 47.58% +-0.80 of random draw-3 deals '
    "(a few seconds a game)",
}
"""Published figures of other honest players, by game and options (the defaults filled in)."""


def peer(game: str, options: dict[str, Any]) -> str | None:
    """The peer's figure for ``game`` with ``options`` (the game's defaults filled in), if one is known.

    >>> peer("klondike", {"draw": 1}) is None
    True
    """
    for (name, fixed), text in PEERS.items():
        if name == game and rules_for(game, **options).options == rules_for(game, **dict(fixed)).options:
            return "peer: " + text
    return None


def one_deal(
    game: str, options: dict[str, Any], deal: int, samples: int, nodes: int, solver_seconds: float
) -> dict[str, Any]:
    """Play one deal honestly and solve it seeing everything: a JSON-ready row.

    >>> row = one_deal("devils-square", {}, 1, 2, 1000, 1.0)
    >>> row["deal"], row["solver"]
    (1, 'unsolvable')
    """
    rules = rules_for(game, **options)
    played = play(rules, deal, samples=samples, nodes=nodes)
    verdict = "skipped"
    if solver_seconds > 0:
        verdict = solve(Game(rules, rules.deal(deal)), seconds=solver_seconds).verdict
    return {
        "deal": deal,
        "game": game,
        "options": options,
        "samples": samples,
        "nodes": nodes,
        "won": played.won,
        "moves": played.moves,
        "decisions": played.decisions,
        "solves": played.solves,
        "seconds": round(played.seconds, 4),
        "slowest": round(played.slowest, 4),
        "solver": verdict,
    }


def run(
    game: str, options: dict[str, Any], deals: list[int], samples: int, nodes: int, workers: int, solver_seconds: float
) -> Iterator[dict[str, Any]]:
    """The rows of ``deals``, as they finish, from ``workers`` processes."""
    if workers <= 1:
        for deal in deals:
            yield one_deal(game, options, deal, samples, nodes, solver_seconds)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        todo = iter(deals)
        running: set[Future[dict[str, Any]]] = set()
        for deal in todo:
            running.add(pool.submit(one_deal, game, options, deal, samples, nodes, solver_seconds))
            if len(running) >= 2 * workers:
                break
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                following = next(todo, None)
                if following is not None:
                    running.add(pool.submit(one_deal, game, options, following, samples, nodes, solver_seconds))


def summary(rows: list[dict[str, Any]]) -> str:
    """The figures of ``rows`` as text: wins, share and interval; time per move and game; the solver's share."""
    n = len(rows)
    won = sum(1 for r in rows if r["won"])
    low, high = wilson(won, n)
    moves = sum(r["moves"] for r in rows)
    seconds = [r["seconds"] for r in rows]
    total = sum(seconds)
    lines = [f"{won}/{n} won = {100 * won / max(1, n):.1f}% (95% Wilson {100 * low:.1f}-{100 * high:.1f}%)"]
    decisions = sum(r.get("decisions", 0) for r in rows)
    lines.append(
        f"time: {total / max(1, moves):.3f} s per move, {total / max(1, decisions):.3f} s per decision, "
        f"{total / max(1, n):.2f} s per game "
        f"(p50 {percentile(seconds, 50):.2f} s, p95 {percentile(seconds, 95):.2f} s), "
        f"slowest decision {max((r['slowest'] for r in rows), default=0.0):.2f} s"
    )
    judged = [r for r in rows if r["solver"] != "skipped"]
    if judged:
        solved = sum(1 for r in judged if r["solver"] == "solved")
        unknown = sum(1 for r in judged if r["solver"] == "unknown")
        s_low, _ = wilson(solved, len(judged))
        _, s_high = wilson(solved + unknown, len(judged))
        lost_winnable = sum(1 for r in judged if not r["won"] and r["solver"] == "solved")
        lines.append(
            f"all-seeing solver: {solved}/{len(judged)} winnable = {100 * solved / len(judged):.1f}% "
            f"(95% {100 * s_low:.1f}-{100 * s_high:.1f}%, {unknown} unknown); gap "
            f"{100 * (solved - won) / len(judged):.1f} points; winnable deals lost: {lost_winnable}"
        )
    return "\n".join(lines)


def _settings(row: dict[str, Any]) -> tuple[Any, ...]:
    """A row's game, options, samples and nodes: rows of other settings are left out.

    >>> _settings({"game": "klondike", "options": {}, "samples": 8, "nodes": 10, "won": True})
    ('klondike', {}, 8, 10)
    """
    return row.get("game"), row.get("options"), row.get("samples"), row.get("nodes")


def _deals(text: str) -> list[int]:
    """``A-B`` (both included) or one number."""
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, play the deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, e.g. draw=1 or mode=hard")
    parser.add_argument("--deals", default="0-99")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=None, help="a JSON-lines file of rows (resumed)")
    parser.add_argument(
        "--with",
        dest="logs",
        action="append",
        default=[],
        help="another run's JSON-lines file: its rows of these settings and deals count too (read, not written)",
    )
    parser.add_argument("--solver-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    deals = _deals(args.deals)
    rows: list[dict[str, Any]] = []
    wanted = set(deals)
    settings = (args.game, options, args.samples, args.nodes)
    for log in [*args.logs, *([args.out] if args.out else [])]:
        if os.path.exists(log):
            with open(log) as f:
                rows += [r for r in map(json.loads, f) if r["deal"] in wanted and _settings(r) == settings]
    rows = list({r["deal"]: r for r in rows}.values())  # a deal in two logs counts once
    done = {r["deal"] for r in rows}
    todo = [d for d in deals if d not in done]
    print(
        f"{args.game} {options}: deals {args.deals}, {args.samples} samples x {args.nodes} nodes; {len(todo)} to play"
    )
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 (kept open while the games run)
    try:
        for row in run(args.game, options, todo, args.samples, args.nodes, args.workers, args.solver_seconds):
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if len(rows) % 50 == 0:
                print(f"... {len(rows)} deals: " + summary(rows).splitlines()[0], file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    print(summary(sorted(rows, key=lambda r: r["deal"])))
    known = peer(args.game, options)
    if known is not None:
        print(known)


if __name__ == "__main__":
    main()

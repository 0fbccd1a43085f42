"""The wait for the honest hint (:func:`cardtable.hints.honest_hint`), per game and mode: p50,
p95 and the longest, over the positions of games played by following it.

Run: ``.venv/bin/python bench/honest_hint.py [DEALS] [MOVES] [--seconds S] [--games G1,G2]`` (default 3 deals,
the first 30 hints of each, the default budget). The budget bounds the wait: the hint solves
no new imagined deal once ``seconds`` have passed.

>>> waits("devils-square", {}, deals=1, moves=2, seconds=0.2)[0] >= 0
True
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import cardtable
from cardtable.analysis.report import percentile
from cardtable.games import specs
from cardtable.hints import HONEST_SECONDS, honest_hint


def waits(game: str, options: dict[str, Any], deals: int, moves: int, seconds: float) -> list[float]:
    """The seconds of each honest hint along ``deals`` games of ``moves`` hints each."""
    out: list[float] = []
    for deal in range(deals):
        g = cardtable.new_game(game, deal=deal, **options)
        for _ in range(moves):
            began = time.perf_counter()
            hint = honest_hint(g, seconds=seconds)
            out.append(time.perf_counter() - began)
            if hint.move is None:
                break
            g.play(hint.move)
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the waits of every one-player game and mode."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=3)
    parser.add_argument("moves", nargs="?", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=HONEST_SECONDS)
    parser.add_argument("--games", default=None, help="comma-separated games (default: every one-player game)")
    args = parser.parse_args(argv)
    wanted = None if args.games is None else set(args.games.split(","))
    print(f"honest hint, budget {args.seconds:g} s; {args.deals} deals x up to {args.moves} hints")
    for spec in specs():
        if not spec.one_player or (wanted is not None and spec.name not in wanted):
            continue
        for options in spec.variants or ({},):
            w = waits(spec.name, dict(options), args.deals, args.moves, args.seconds)
            name = spec.name + "".join(f" {k}={v}" for k, v in options.items())
            print(
                f"{name:<24} {len(w):>4} hints: p50 {1000 * percentile(w, 50):.0f} ms, "
                f"p95 {1000 * percentile(w, 95):.0f} ms, max {1000 * max(w, default=0.0):.0f} ms"
            )


if __name__ == "__main__":
    main()

"""Why the honest player loses: for each deal it loses, how its game ended and the last
position of that game the all-seeing solver still wins (a binary search over the game's
positions, each solved within ``--solver-seconds``).

Run: ``.venv/bin/python bench/honest_losses.py GAME [--option NAME=VALUE] [--deals A-B]
[--samples K] [--workers W]``, e.g. ``.venv/bin/python bench/honest_losses.py klondike
--deals 200000-200040``. A line a deal, JSON: ``won``; for a loss, ``end`` (``no-move``:
no legal move; ``gave-up``: the player chose none while moves were legal; ``repeats``,
``move-limit``), ``moves``, ``start`` (the solver's verdict on the deal),
``last_winnable`` (the number of moves into the game of the last position it still
wins, None when the deal was lost from the start or undecided) and ``face_down`` (cards
still face down at the end, the stock's included).

>>> ends(["a", "a"], won=False, stuck=True, legal=True)
'gave-up'
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable.bots import honest
from cardtable.core.game import Game
from cardtable.games import rules_for
from cardtable.solve import solve


def ends(positions: list[Any], won: bool, stuck: bool, legal: bool) -> str:
    """How a game of ``positions`` ended: won, the player chose nothing (``gave-up`` with
    legal moves left, ``no-move`` without), else a limit.

    >>> ends([1], won=True, stuck=False, legal=False), ends([1], won=False, stuck=True, legal=False)
    ('won', 'no-move')
    """
    if won:
        return "won"
    if stuck:
        return "gave-up" if legal else "no-move"
    return "repeats" if len(positions) <= honest.MOVE_LIMIT else "move-limit"


def one(game: str, options: dict[str, Any], deal: int, samples: int, seconds: float) -> dict[str, Any]:
    """Play ``deal`` with the honest player (seed 0) as :func:`cardtable.bots.honest.play`
    does and, when it loses, find the last position the all-seeing solver wins."""
    rules = rules_for(game, **options)
    player = honest.HonestPlayer(rules, seed=0, samples=samples)
    state = rules.deal(deal)
    positions, visits, stuck = [state], Counter[Any](), False
    while len(positions) <= honest.MOVE_LIMIT:
        visits[state] += 1
        if visits[state] >= honest.REPEATS:
            break
        move = player.choose(state)
        if move is None:
            stuck = True
            break
        state = rules.apply(state, move)
        positions.append(state)
    won = rules.is_won(state)
    row: dict[str, Any] = {"deal": deal, "won": won}
    if won:
        return row

    def wins(position: Any) -> bool:
        return solve(Game(rules, position), seconds=seconds).verdict == "solved"

    start = solve(Game(rules, positions[0]), seconds=seconds).verdict
    last = None
    if start == "solved":
        low, high = 0, len(positions) - 1  # positions[low] is won
        if wins(positions[high]):
            last = high
        else:
            while high - low > 1:
                middle = (low + high) // 2
                low, high = (middle, high) if wins(positions[middle]) else (low, middle)
            last = low
    row |= {
        "end": ends(positions, won, stuck, bool(rules.legal_moves(state))),
        "moves": len(positions) - 1,
        "start": start,
        "last_winnable": last,
        "face_down": len(rules.face_down(state)),
    }
    return row


def main() -> None:
    """Parse the command line, play the deals, print a JSON line a deal and a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, e.g. draw=1")
    parser.add_argument("--deals", default="0-19")
    parser.add_argument("--samples", type=int, default=honest.SAMPLES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--solver-seconds", type=float, default=2.0)
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    parsed = {k: int(v) if v.isdigit() else v for k, v in options.items()}
    first, last = (int(x) for x in args.deals.split("-"))
    tally: Counter[str] = Counter()
    with ProcessPoolExecutor(args.workers) as pool:
        deals = list(range(first, last + 1))
        n = len(deals)
        rows = pool.map(one, [args.game] * n, [parsed] * n, deals, [args.samples] * n, [args.solver_seconds] * n)
        for row in rows:
            print(json.dumps(row), flush=True)
            if row["won"]:
                tally["won"] += 1
            elif row["start"] != "solved":
                tally["lost from the start (or undecided)"] += 1
            elif row["last_winnable"] == row["moves"]:
                tally[f"lost, still winnable at the end ({row['end']})"] += 1
            else:
                tally["lost by a move"] += 1
    print("; ".join(f"{what}: {n}" for what, n in sorted(tally.items())))


if __name__ == "__main__":
    main()

"""Why the honest player loses: for each deal it loses, how its game ended and the last
position of that game the all-seeing solver still wins (a binary search over the game's
positions, each solved within ``--solver-seconds``).

Run: ``.venv/bin/python bench/honest_losses.py GAME [--option NAME=VALUE] [--deals A-B]
[--samples K] [--workers W]``, e.g. ``.venv/bin/python bench/honest_losses.py klondike
--deals 200000-200040``. A line a deal, JSON: ``won``; for a loss, ``end`` (``no-move``:
no legal move; ``gave-up``: the player chose none while moves were legal; ``repeats``,
``move-limit``), ``moves``, ``start`` (the solver's verdict on the deal),
``last_winnable`` (the number of moves into the game of the last position it still
wins, None when the deal was lost from the start or undecided), ``unseen_then`` (the
cards the player had not seen at that position: what it did not know when it made the
move that lost) and ``face_down`` (cards still face down at the end, the stock's included).

>>> row = one("devils-square", {}, 1, 2, 0.5)
>>> row["won"], row["end"], row["start"]
(False, 'gave-up', 'unsolvable')
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


def one(game: str, options: dict[str, Any], deal: int, samples: int, seconds: float) -> dict[str, Any]:
    """Play ``deal`` with the honest player (:func:`cardtable.bots.honest.play`, seed 0)
    and, when it loses, find the last position the all-seeing solver wins."""
    rules = rules_for(game, **options)
    played = honest.play(rules, deal, samples=samples)
    positions = [rules.deal(deal)]
    for move in played.line:
        positions.append(rules.apply(positions[-1], move))
    state, won = positions[-1], played.won
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
    memory, unseen = honest.Memory(), None
    if last is not None:
        for position in positions[: last + 1]:
            memory.see(rules, position)
        unseen = memory.known(rules, positions[last])[1].count(False)
    row |= {
        "end": played.end,
        "moves": len(positions) - 1,
        "start": start,
        "last_winnable": last,
        "unseen_then": unseen,
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

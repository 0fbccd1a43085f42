"""The bots' fixed ratings: rated Deserto games among the bots, rated with OpenSkill as the server rates people.

The bots (those the game's declaration lists: random, greedy and ismcts at the budget a
room gives it, 400 iterations and at most 1 s a move) play ``GAMES`` games on deals 0,
1, ...: two games of two bots out of every three (each pair in turn, seats swapped every
other round) and one game of all three (seats rotated). The games run on two processes;
their results are rated in deal order with :func:`cardtable.web.ratings.rate_game`, every
bot's rating moving, from a newcomer's. Prints each bot's ``mu``, ``sigma`` and shown
rating (``mu - 3 sigma``); ``--write`` stores them in ``src/cardtable/web/bot_ratings.json``,
which the server loads as the bots' fixed ratings.

Run: ``.venv/bin/python bench/bot_ratings.py [GAMES] [--write]`` (default 120 games).
"""

from __future__ import annotations

import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cardtable
from cardtable import bots
from cardtable.core.multiplayer import MultiplayerGame
from cardtable.games import spec_for
from cardtable.web.database import Rating
from cardtable.web.ratings import BOT_RATINGS_FILE, NEW, rate_game, shown

GAME = "deserto"
BUDGETS: dict[str, dict[str, Any]] = {"ismcts": {"iterations": 400, "seconds": 1.0}}
"""Each bot's budget in a room (the browser asks 400 iterations of ismcts; the server caps a move at 1 s)."""

OUT = Path(__file__).resolve().parents[1] / "src" / "cardtable" / "web" / BOT_RATINGS_FILE


def schedule(games: int, names: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
    """The games to play: (deal, the bot of each seat).

    >>> schedule(4, ("a", "b", "c"))
    [(0, ('a', 'b')), (1, ('a', 'c')), (2, ('a', 'b', 'c')), (3, ('c', 'b'))]
    """
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    out: list[tuple[int, tuple[str, ...]]] = []
    for deal in range(games):
        step, kind = divmod(deal, 3)
        if kind == 2:
            k = step % len(names)
            out.append((deal, names[k:] + names[:k]))
        else:
            pair = pairs[(2 * step + kind) % len(pairs)]
            out.append((deal, pair if step % 2 == 0 else pair[::-1]))
    return out


def play(job: tuple[int, tuple[str, ...]]) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
    """One game among bots: its deal, seats and ranks."""
    deal, seats = job
    game: Any = cardtable.new_game(GAME, deal=deal, players=len(seats))
    assert isinstance(game, MultiplayerGame)
    players = [bots.make(name, seed=deal * 10 + i, **BUDGETS.get(name, {})) for i, name in enumerate(seats)]
    while (seat := game.to_move) is not None:
        game.play(players[seat].choose(game, seat), seat=seat)
    result = game.outcome.result
    assert result is not None
    return deal, seats, result.ranks


def measure(games: int, processes: int = 2) -> dict[str, Rating]:
    """The bots' ratings after ``games`` games among them."""
    names = tuple(spec_for(GAME).bots)
    ratings = dict.fromkeys(names, NEW)
    with Pool(processes) as pool:
        results = sorted(pool.map(play, schedule(games, names)))
    for _, seats, ranks in results:
        after = rate_game([ratings[s] for s in seats], ranks, [True] * len(seats))
        ratings.update(zip(seats, after, strict=True))
    return ratings


def main() -> None:
    """Measure, print, and with ``--write`` store the bots' ratings."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 120
    start = time.perf_counter()
    ratings = measure(games)
    took = time.perf_counter() - start
    print(f"{games} rated {GAME} games among the bots in {took:.0f} s (2 processes), OpenSkill Plackett-Luce:")
    for name, r in sorted(ratings.items(), key=lambda item: -shown(item[1])):
        line = f"mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  rating (mu - 3 sigma) {shown(r):6.1f}"
        print(f"  {name:8} {line}  ({r.games} games)")
    if "--write" in sys.argv:
        data = {
            "model": "openskill PlackettLuce",
            "measured_by": f"bench/bot_ratings.py {games}",
            "games": {
                GAME: {
                    n: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "games": r.games}
                    for n, r in sorted(ratings.items())
                }
            },
        }
        OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {OUT.relative_to(OUT.parents[3])}")


if __name__ == "__main__":
    main()

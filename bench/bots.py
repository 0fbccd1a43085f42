"""Mean seconds per ismcts move at its default budget, over whole Deserto games against greedy (2 and 4 players).

Run: ``.venv/bin/python bench/bots.py [GAMES]`` (default 4). Prints the figure.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import cardtable
from cardtable import bots
from cardtable.bots.ismcts import DEFAULT_ITERATIONS
from cardtable.core.multiplayer import MultiplayerGame


def seconds_per_move(games: int, players: int) -> tuple[float, int]:
    """The mean seconds of an ismcts move (default budget) and the number of moves timed."""
    total = 0.0
    moves = 0
    for deal in range(games):
        game: Any = cardtable.new_game("deserto", deal=deal, players=players)
        assert isinstance(game, MultiplayerGame)
        seats = [bots.make("ismcts", seed=deal)] + [bots.make("greedy") for _ in range(players - 1)]
        while (seat := game.to_move) is not None:
            start = time.perf_counter()
            move = seats[seat].choose(game, seat)
            if seat == 0:
                total += time.perf_counter() - start
                moves += 1
            game.play(move, seat=seat)
    return total / moves, moves


def main() -> None:
    """Print the mean seconds per ismcts move."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    budget = f"default budget ({DEFAULT_ITERATIONS} iterations)"
    for players in (2, 4):
        mean, moves = seconds_per_move(games, players)
        print(f"ismcts, {budget}, {players} players: {mean:.3f} s per move ({moves} moves, {games} games)")


if __name__ == "__main__":
    main()

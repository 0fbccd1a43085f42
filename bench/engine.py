"""Random-play speed of the rules engine, for every game, and OpenSpiel's Klondike.

Random play: list the legal moves, pick one at random, play it; a game ends
when no move is legal or after ``--cap`` moves (OpenSpiel's solitaire stops at
its depth limit of 150). For each game this prints moves per second through
the public ``Game`` API (which checks every move) and through the bare
``Rules`` interface (what solvers use). For Klondike it also runs OpenSpiel's
C++ Klondike (``pyspiel.load_game("solitaire")``, package ``open-spiel``) the
same way in the same run and prints both figures and the ratio. OpenSpiel's
chance nodes (cards turning up) are resolved by sampling and not counted as
moves.

Run: ``make bench`` or ``.venv/bin/python bench/engine.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import cardtable
from cardtable.games import rules_for


def game_api_rate(name: str, seconds: float, cap: int) -> tuple[float, int]:
    """Moves per second of random play through ``Game`` (legal_moves + play)."""
    rng = random.Random(1)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = cardtable.new_game(name, deal=games)
        games += 1
        for _ in range(cap):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
            moves += 1
    return moves / (time.perf_counter() - start), games


def rules_rate(name: str, seconds: float, cap: int) -> float:
    """Moves per second of random play through the bare ``Rules`` (legal_moves + apply)."""
    rules = rules_for(name)
    rng = random.Random(1)
    moves = deal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.deal(deal)
        deal += 1
        for _ in range(cap):
            legal = rules.legal_moves(state)
            if not legal:
                break
            state = rules.apply(state, rng.choice(legal))
            moves += 1
    return moves / (time.perf_counter() - start)


def openspiel_rate(seconds: float) -> float | None:
    """Player moves per second of random play in OpenSpiel's C++ Klondike, or None if not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game: Any = pyspiel.load_game("solitaire")
    rng = random.Random(1)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    """Print the figures.

    >>> callable(main)
    True
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--cap", type=int, default=150, help="moves per game at most (default 150)")
    args = parser.parse_args()
    print(f"random play, {args.seconds:g} s per figure, at most {args.cap} moves a game")
    print(f"{'game':<20} {'Game API moves/s':>17} {'Rules moves/s':>14} {'games':>7}")
    klondike = 0.0
    for name in cardtable.GAMES:
        rate, games = game_api_rate(name, args.seconds, args.cap)
        bare = rules_rate(name, args.seconds, args.cap)
        print(f"{name:<20} {rate:>17,.0f} {bare:>14,.0f} {games:>7}")
        if name == "klondike":
            klondike = rate
    peer = openspiel_rate(args.seconds)
    if peer is None:
        print("OpenSpiel not installed (pip install -e '.[bench]'): no peer figure")
        return
    print(f"{'openspiel solitaire':<20} {peer:>17,.0f}")
    print(f"klondike / openspiel = {klondike / peer:.2f} (target: at least 0.33)")


if __name__ == "__main__":
    main()

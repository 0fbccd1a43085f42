"""OpenSpiel's own ISMCTSBot against cardtable's ismcts bot at Deserto, at equal time per move.

Each game is a cardtable game (a deal of the tournament's seed, seats as
``cardtable tournament`` balances them: :class:`cardtable.bots.tournament.GameSpec`)
followed move by move by an OpenSpiel state of ``cardtable_deserto`` (the
same deal as its chance outcomes, every draw as chance outcomes). OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random-rollout evaluator,
UCT, unlimited world samples drawn by ``resample_from_infostate``) chooses on
the OpenSpiel state; ``cardtable.bots`` ``ismcts`` chooses on the cardtable
game with ``seconds=`` the budget. OpenSpiel's bot counts simulations, not
time: before each move it is given the number of simulations it made in the
budget on its last move, and time it left unused or overdrew on earlier moves
carries over (a time bank), so that its mean time per move is the budget; the
script prints the time each bot really took per move.

The result: each bot's win share per game (the shares of its seats added;
fair is 0.5 with two bots, whatever the seats) with a 95% interval.

    .venv/bin/python bench/openspiel_ismcts.py --players 2 --games 300 --seconds 0.1 --seed 18 --workers 2

``--simulations N`` plays at equal simulations instead (each bot N per move:
OpenSpiel's simulations, our iterations), to tell the search from its speed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardtable
from cardtable.bots.ismcts import IsmctsBot, Node
from cardtable.bots.seat import Seat
from cardtable.bots.tournament import EntryStats, GameSpec, bot_seed, deal_number
from cardtable.core.multiplayer import MultiplayerGame
from cardtable.research.actions import action_space
from cardtable.research.openspiel import DESERTO, deal_outcomes, draw_outcomes

OPENSPIEL = "openspiel-ismcts"
OURS = "ismcts"
UCT_C = 1.4
"""OpenSpiel's exploration constant: about sqrt(2), UCB1's for returns in 0..1 (the win share)."""
FIRST_RATE = 500.0
"""Simulations per second assumed before the first move is timed."""


class CountingIsmcts(IsmctsBot):
    """Our ismcts bot, remembering how many iterations its last search made."""

    last_iterations = 0

    def search(self, seat: Seat) -> Node:
        root = super().search(seat)
        self.last_iterations = sum(child.visits for child in root.children.values())
        return root


class OpenSpielPlayer:
    """OpenSpiel's ISMCTSBot with a time budget: a new bot each move, given as many
    simulations as the running rate fits in ``seconds``."""

    def __init__(self, game: Any, seconds: float, seed: int, simulations: int | None = None) -> None:
        self.game = game
        self.seconds = seconds
        self.simulations = simulations
        self.random = np.random.RandomState(seed % 2**32)
        sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
        self.resample = lambda state, player: state.resample_from_infostate(player, sampler)
        self.rate = FIRST_RATE
        self.last_simulations = 0
        self.behind = 0.0  # the budget not yet used (or, below 0, overdrawn) on earlier moves

    def step(self, state: Any) -> tuple[int, float | None]:
        """The action chosen, and the time taken when there was a choice."""
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0], None
        # A time bank: what earlier moves left unused (or overdrew) moves to this move, so that
        # the mean time per move is the budget although a move's simulations are a guess.
        target = min(2 * self.seconds, max(0.5 * self.seconds, self.seconds + self.behind))
        sims = self.simulations or max(2, round(self.rate * target))
        evaluator = mcts.RandomRolloutEvaluator(1, self.random)
        bot = ismcts.ISMCTSBot(self.game, evaluator, UCT_C, sims, random_state=self.random)
        bot.set_resampler(self.resample)
        start = time.perf_counter()
        action = int(bot.step(state))
        self.last_simulations = sims
        took = time.perf_counter() - start
        self.rate = sims / took  # the last move is the best guess: rollouts shorten slowly as the deck empties
        self.behind += self.seconds - took
        return action, took


def play(spec: GameSpec, seconds: float, simulations: int | None = None) -> dict[str, Any]:
    """One game: the OpenSpiel bot's win share, each bot's times per move."""
    n = len(spec.players)
    seating = spec.seating()
    deal = deal_number(spec.seed, spec.index // n)
    game = cardtable.new_game("deserto", deal=deal, players=n)
    assert isinstance(game, MultiplayerGame)
    spiel_game = pyspiel.load_game(DESERTO, {"players": n})
    state = spiel_game.new_initial_state()
    for kind in deal_outcomes(game.rules, deal):  # type: ignore[arg-type]
        state.apply_action(kind)
    space = action_space(game.rules)
    players: list[Any] = []
    for s in range(n):
        seed = bot_seed(spec.seed, spec.index, seating[s])
        if spec.players[seating[s]] == OPENSPIEL:
            players.append(OpenSpielPlayer(spiel_game, seconds, seed, simulations))
        elif simulations:
            players.append(CountingIsmcts(seed=seed, iterations=simulations))
        else:
            players.append(CountingIsmcts(seed=seed, seconds=seconds))
    times: dict[str, list[float]] = {OPENSPIEL: [], OURS: []}
    searches: dict[str, list[int]] = {OPENSPIEL: [], OURS: []}
    while (seat := game.to_move) is not None:
        assert state.current_player() == seat
        player = players[seat]
        if isinstance(player, OpenSpielPlayer):
            action, took = player.step(state)
            move = space.action_to_move(action)
            name = OPENSPIEL
            size = player.last_simulations
        else:
            start = time.perf_counter()
            move = player.choose(game, seat)
            took = time.perf_counter() - start if len(game.legal_moves()) > 1 else None
            name = OURS
            size = player.last_iterations
        if took is not None:
            times[name].append(took)
            searches[name].append(size)
        before = game.state
        game.play(move, seat=seat)
        state.apply_action(space.move_to_action(move))
        for kind in draw_outcomes(before, game.state):
            state.apply_action(kind)
    assert state.is_terminal()
    result = game.outcome.result
    assert result is not None
    share = sum(1 / len(result.winners) for s in result.winners if spec.players[seating[s]] == OPENSPIEL)
    assert abs(share - sum(state.returns()[s] for s in range(n) if spec.players[seating[s]] == OPENSPIEL)) < 1e-9
    return {"share": share, "times": times, "searches": searches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.1, help="time per move of each bot")
    parser.add_argument(
        "--simulations", type=int, default=0, help="instead of equal time: this many simulations (iterations) each"
    )
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    # Two entries per bot with four players: seats and neighbours balanced as in `cardtable tournament`.
    lineup = (OPENSPIEL, OURS) * (args.players // 2)
    specs = [GameSpec("deserto", lineup, (), {}, args.seed, i) for i in range(args.games)]
    shares: list[float] = []
    times: dict[str, list[float]] = {OPENSPIEL: [], OURS: []}
    searches: dict[str, list[int]] = {OPENSPIEL: [], OURS: []}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for i, game in enumerate(
            pool.map(play, specs, [args.seconds] * len(specs), [args.simulations or None] * len(specs), chunksize=1)
        ):
            shares.append(game["share"])
            for name in times:
                times[name] += game["times"][name]
                searches[name] += game["searches"][name]
            if (i + 1) % 10 == 0:
                print(f"  {i + 1} games, OpenSpiel share so far {statistics.mean(shares):.3f}", flush=True)
    wall = time.perf_counter() - start
    report: dict[str, Any] = {"players": args.players, "games": args.games, "seed": args.seed}
    report["budget"] = f"{args.simulations} simulations" if args.simulations else f"{args.seconds} s"
    for name, own in ((OPENSPIEL, shares), (OURS, [1.0 - s for s in shares])):
        stats = EntryStats(name, own, [0] * len(own))
        t = times[name]
        report[name] = {
            "win_share": round(stats.win_share, 4),
            "ci95": list(stats.ci95),
            "seconds_per_move_mean": round(statistics.mean(t), 4),
            "seconds_per_move_median": round(statistics.median(t), 4),
            "moves_timed": len(t),
            "simulations_per_move_mean": round(statistics.mean(searches[name]), 1),
        }
    report["wall_seconds"] = round(wall, 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()

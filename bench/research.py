"""Steps per second of random masked play through the research interfaces, and their peers.

In one run, on this machine, each for ``--seconds`` of wall-clock time
(episodes restarted as they end):

- our Gymnasium env of every one-player game and mode
  (``cardtable/Klondike-v0`` draw 3 and draw 1, ``Desturado-v0`` easy /
  medium / hard, ``Demonthief-v0``, ``DemonsAndThieves-v0``,
  ``DevilsSquare-v0``), at the default ``over_limit`` (exact over detection,
  as ``Game.outcome``) and, for the games where that search is the cost, at
  ``over_limit`` 2000, 200 and 20;
- our PettingZoo Deserto AEC env for 2 and 4 players;
- our six OpenSpiel games (``cardtable_*``, through ``pyspiel`` as OpenSpiel's
  own below: chance nodes sampled, a mask made from the legal actions);
- the peers: PettingZoo's classic ``leduc_holdem_v4`` and ``texas_holdem_v4``
  (the rlcard card games; ``gin_rummy_v4`` is gone from PettingZoo 1.27) and
  OpenSpiel's own ``solitaire`` (through ``pyspiel``, chance nodes sampled);
- Gymnasium's ``SyncVectorEnv`` and ``AsyncVectorEnv`` of Devil's Square
  and Klondike with 1, 2 and 8 envs (steps counted per env: 8 envs stepping
  once are 8 steps).

A step is one action of one agent (PettingZoo's dead steps at the end of a
game are not counted). Each line gives steps per second of wall-clock time
and, beside it (``cpu``), per second of this process's CPU time, which other
work on the machine changes less (it leaves out ``AsyncVectorEnv``'s worker
processes). The agent picks uniformly among the legal actions
(the mask). Run: ``.venv/bin/python bench/research.py [--seconds 5]
[--only NAME]`` (needs the ``research`` and ``bench`` extras: ``pip install
-e '.[research,bench]'``).
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import cardtable.research  # noqa: F401 (registers the envs)
from cardtable.research import deserto_v0
from cardtable.research.solitaire_env import VARIANTS

OVER_LIMITS = (2000, 200, 20)
"""The smaller bounds of the "over" search tried where that search is the cost."""

Runner = Callable[[float], tuple[int, int]]
"""Runs for that many seconds; returns (steps, episodes)."""


def gym_runner(env_id: str, **kwargs: Any) -> Runner:
    def run(seconds: float) -> tuple[int, int]:
        env = gymnasium.make(env_id, disable_env_checker=True, **kwargs)
        rng = np.random.default_rng(0)
        _, info = env.reset(seed=0)
        steps = episodes = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                episodes += 1
                _, info = env.reset()
        return steps, episodes

    return run


def aec_runner(make: Callable[[], Any]) -> Runner:
    def run(seconds: float) -> tuple[int, int]:
        env = make()
        rng = np.random.default_rng(0)
        steps = episodes = 0
        end = time.perf_counter() + seconds
        env.reset(seed=0)
        while time.perf_counter() < end:
            if episodes:
                env.reset()
            for _ in env.agent_iter(max_iter=10_000):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
            episodes += 1
        return steps, episodes

    return run


def openspiel_runner(name: str, params: dict[str, Any] | None = None) -> Runner:
    def run(seconds: float) -> tuple[int, int]:
        import pyspiel

        import cardtable.research.openspiel  # noqa: F401 (registers our games)

        game = pyspiel.load_game(name, params or {})
        rng = np.random.default_rng(0)
        steps = episodes = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal() and time.perf_counter() < end:
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(actions, p=probs)))
                    continue
                # A mask, as the other interfaces give, from the legal actions.
                mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
                mask[state.legal_actions()] = 1
                state.apply_action(int(rng.choice(np.flatnonzero(mask))))
                steps += 1
            episodes += 1
        return steps, episodes

    return run


def unavailable(seconds: float) -> tuple[int, int]:
    """A line whose interface is not installed: no steps."""
    return 0, 0


def vector_runner(env_id: str, n: int, asynchronous: bool, **kwargs: Any) -> Runner:
    def run(seconds: float) -> tuple[int, int]:
        def make() -> gymnasium.Env[Any, Any]:
            return gymnasium.make(env_id, disable_env_checker=True, **kwargs)

        kind = gymnasium.vector.AsyncVectorEnv if asynchronous else gymnasium.vector.SyncVectorEnv
        envs = kind([make] * n)
        rng = np.random.default_rng(0)
        _, info = envs.reset(seed=0)
        steps = episodes = 0
        end = time.perf_counter() + seconds
        try:
            while time.perf_counter() < end:
                masks = info["action_mask"]
                actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
                _, _, terminated, truncated, info = envs.step(actions)
                steps += n
                episodes += int(np.sum(terminated | truncated))
        finally:
            envs.close()
        return steps, episodes

    return run


def runners() -> list[tuple[str, str, Runner]]:
    ours: list[tuple[str, str, Runner]] = []
    solitaires = VARIANTS
    for env_id, kwargs in solitaires:
        label = env_id + "".join(f" {k}={v}" for k, v in kwargs.items())
        ours.append(("gymnasium", label, gym_runner(env_id, **kwargs)))
        if "Klondike" in env_id or "Demon" in env_id:
            for limit in OVER_LIMITS:
                runner = gym_runner(env_id, over_limit=limit, **kwargs)
                ours.append(("gymnasium", f"{label} over_limit={limit}", runner))
    for players in (2, 4):
        ours.append(
            (
                "pettingzoo",
                f"cardtable deserto_v0 players={players}",
                aec_runner(functools.partial(deserto_v0.env, players=players)),
            )
        )
    from cardtable.research.openspiel import DESERTO, SOLITAIRES

    for name in SOLITAIRES.values():
        ours.append(("openspiel", name, openspiel_runner(name)))
    for players in (2, 4):
        ours.append(("openspiel", f"{DESERTO} players={players}", openspiel_runner(DESERTO, {"players": players})))
    peers: list[tuple[str, str, Runner]] = []
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as missing:  # the bench extra (rlcard, pygame) is not installed
        peers.append(("peer", f"pettingzoo classic: {missing}", unavailable))
    else:
        peers.append(("peer", "pettingzoo leduc_holdem_v4", aec_runner(leduc_holdem_v4.env)))
        peers.append(("peer", "pettingzoo texas_holdem_v4", aec_runner(texas_holdem_v4.env)))
    peers.append(("peer", "openspiel solitaire", openspiel_runner("solitaire")))
    vectors: list[tuple[str, str, Runner]] = []
    vectored: list[tuple[str, dict[str, Any]]] = [
        ("cardtable/DevilsSquare-v0", {}),
        ("cardtable/Klondike-v0", {"over_limit": 2000}),
    ]
    for env_id, kwargs in vectored:
        for asynchronous in (False, True):
            for n in (1, 2, 8):
                kind = "AsyncVectorEnv" if asynchronous else "SyncVectorEnv"
                extra = "".join(f" {k}={v}" for k, v in kwargs.items())
                vectors.append(
                    ("vector", f"{kind}({n}) {env_id}{extra}", vector_runner(env_id, n, asynchronous, **kwargs))
                )
    return ours + peers + vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per interface (default 5)")
    parser.add_argument("--only", default="", help="run the lines whose label contains this text")
    args = parser.parse_args()
    print(f"{'kind':<11} {'interface':<62} {'steps/s':>9} {'cpu':>9} {'episodes':>9}")
    for kind, label, run in runners():
        if args.only not in label:
            continue
        start, cpu = time.perf_counter(), time.process_time()
        steps, episodes = run(args.seconds)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{kind:<11} {label:<62} {steps / elapsed:>9,.0f} {steps / cpu:>9,.0f} {episodes:>9}", flush=True)


if __name__ == "__main__":
    main()

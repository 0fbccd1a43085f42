"""Deserto through PettingZoo: PettingZoo's own API and seed tests, the rules' end, rewards, errors."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardtable.core.errors import IllegalMoveError, OptionError
from cardtable.research import deserto_v0
from cardtable.research.actions import action_space
from cardtable.research.deserto_v0 import raw_env

pytestmark = pytest.mark.research


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_and_seed_tests_pass(players: int) -> None:
    api_test(deserto_v0.env(players=players), num_cycles=300)
    seed_test(lambda: deserto_v0.env(players=players), num_cycles=300)


def play_out(env: Any, seed: int) -> tuple[dict[str, float], int]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    moves = 0
    for agent in env.agent_iter(max_iter=1000):
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        moves += 1
    return totals, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_ends_with_the_rules_and_shares_the_win(players: int) -> None:
    for seed in range(5):
        env = raw_env(players=players)
        totals, moves = play_out(env, seed)
        assert env.agents == []  # every agent was done
        result = env.rules.result(env.state_)
        assert result is not None and moves >= 51 - 3 * players  # every card was played or given
        winners = list(result.winners)
        assert totals == {f"player_{s}": (1 / len(winners) if s in winners else 0.0) for s in range(players)}


def test_margin_rewards() -> None:
    env = raw_env(players=3, reward="margin")
    totals, _ = play_out(env, 1)
    result = env.rules.result(env.state_)
    assert result is not None
    scores = list(result.scores)
    for s, score in enumerate(scores):
        assert totals[f"player_{s}"] == pytest.approx((score - max(scores[:s] + scores[s + 1 :])) / 51)


def test_only_the_seat_to_move_has_legal_actions_and_they_are_the_rules() -> None:
    env = raw_env(players=3)
    env.reset(seed=4)
    space = action_space(env.rules)
    for _ in range(20):
        seat = env.possible_agents.index(env.agent_selection)
        for s, agent in enumerate(env.possible_agents):
            mask = env.observe(agent)["action_mask"]
            if s == seat:
                assert sorted(np.flatnonzero(mask)) == sorted(
                    space.move_to_action(m) for m in env.rules.legal_moves(env.state_)
                )
            else:
                assert not mask.any()
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = raw_env(players=2)
    env.reset(seed=0)
    state = env.state_
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalMoveError, match="illegal move"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state_ == state and env.agent_selection == "player_0"
    with pytest.raises(OptionError):
        raw_env(players=5)
    with pytest.raises(OptionError):
        raw_env(reward="points")


def test_the_deal_never_reaches_an_agent() -> None:
    env = raw_env(players=2, render_mode="ansi")
    env.reset(seed=9)
    assert all(not info for info in env.infos.values())
    text = env.render()  # the seat to move's view: its own hand, counts of the rest
    assert text is not None and text.startswith("seat 0 hand ") and "deck 45" in text


def test_bad_calls_get_clear_errors_not_assertions() -> None:
    env = deserto_v0.env()
    env.reset(seed=0)
    for action, error in ((20, ValueError), (-1, ValueError), (1.7, TypeError), ("1", TypeError)):
        with pytest.raises(error):  # before: PettingZoo's AssertionError (nothing under python -O)
            env.step(action)
    for seed in (-1, 1.5, "abc"):
        with pytest.raises(OptionError, match="seed"):
            deserto_v0.env().reset(seed=seed)
    raw = raw_env()
    with pytest.raises(gymnasium.error.ResetNeeded):
        raw.step(0)
    with pytest.raises(gymnasium.error.ResetNeeded):
        raw.observe("player_0")
    raw.reset(seed=2)
    with pytest.raises(ValueError, match="no agent 'player_9'"):
        raw.observe("player_9")
    for _ in raw.agent_iter(400):
        observation, _, terminated, truncated, _ = raw.last()
        raw.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert raw.agents == []
    with pytest.raises(gymnasium.error.ResetNeeded, match="the game has ended"):
        raw.step(0)  # before: KeyError 'player_0'

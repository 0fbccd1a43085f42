"""The environments' ``terminated`` is the library's exact "over", step after step: EpisodeOver
(remembered answers, the compiled cores, the stretch since the last progress) changes only
its cost, never its answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardtable.core.progress import can_progress
from cardtable.games import rules_for
from cardtable.research.over import EpisodeOver
from cardtable.research.solitaire_env import VARIANTS, SolitaireEnv, env_ids

pytestmark = pytest.mark.research


def library_over(env: SolitaireEnv) -> bool:
    """The env's position over as the uncached library function says (Game.outcome's rule)."""
    rules, state = env.rules, env.state
    return rules.is_won(state) or can_progress(rules, state, env.over_limit) is False


def game_name(env_id: str) -> str:
    """The game whose environment is ``env_id``."""
    return next(name for name, gid in env_ids().items() if gid == env_id)


@pytest.mark.parametrize(("env_id", "kwargs"), list(VARIANTS))
@pytest.mark.parametrize("limit", [2_000, 150])
def test_terminated_is_the_library_answer_at_every_step(env_id: str, kwargs: dict[str, Any], limit: int) -> None:
    env = SolitaireEnv(game_name(env_id), over_limit=limit, max_steps=400, **kwargs)
    ends = 0
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        assert info["over"] == library_over(env) == env.rules.is_won(env.state)  # a drawn deal is never over
        for _ in range(400):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = env.step(action)
            expected = library_over(env)
            assert terminated == info["over"] == expected
            assert info["won"] == env.rules.is_won(env.state)
            if terminated or truncated:
                ends += terminated
                break
    assert ends or "Klondike" in env_id  # most games' random play ends within the steps


def test_a_deal_over_at_the_start_is_over_and_reset_starts_afresh() -> None:
    env = SolitaireEnv("desturado", mode="hard", over_limit=2_000)
    assert can_progress(env.rules, env.rules.deal(2208), 2_000) is False  # over before its first move
    _, info = env.reset(options={"deal": 2208})
    assert info["over"] is True
    _, _, terminated, _, info = env.step(0)
    assert terminated and info["over"]
    _, info = env.reset(options={"deal": 2209})
    assert info["over"] is False == library_over(env)


@pytest.mark.parametrize("probe", [1, 40])
def test_the_stretch_and_targets_answer_as_the_library(probe: int) -> None:
    # probe 1: nearly every answer goes past the first search to the stretch, so a wrong
    # stretch rule would show here.
    rules = rules_for("klondike")
    limit = 3_000
    rng = np.random.default_rng(4)
    for deal in range(4):
        over = EpisodeOver(rules, limit=limit, probe=probe)
        state = rules.deal(deal)
        for _ in range(300):
            legal = rules.legal_moves(state)
            answer = over.over(state, legal)
            assert answer == (can_progress(rules, state, limit) is False)
            if answer or not legal:
                break
            state = rules.apply(state, legal[int(rng.integers(len(legal)))])


def test_episodes_are_deterministic() -> None:
    def trace() -> list[tuple[bool, bool]]:
        env = SolitaireEnv("klondike", draw=1, over_limit=2_000)
        rng = np.random.default_rng(9)
        _, info = env.reset(seed=9)
        out = []
        for _ in range(300):
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            out.append((terminated, truncated))
            if terminated or truncated:
                _, info = env.reset()
        return out

    assert trace() == trace()

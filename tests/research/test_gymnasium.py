"""The Gymnasium environments: Gymnasium's own checker, determinism, masks, rewards, the end."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardtable
import cardtable.research
from cardtable.core.errors import DealNumberError, OptionError
from cardtable.research.solitaire_env import VARIANTS, SolitaireEnv

pytestmark = pytest.mark.research

ENVS = list(VARIANTS)


@pytest.mark.parametrize(("env_id", "kwargs"), ENVS)
def test_gymnasium_env_checker_passes(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)


def play(env: gymnasium.Env[Any, Any], seed: int, steps: int) -> list[tuple[Any, ...]]:
    """A masked random episode's trace: observations, rewards, ends."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[Any, ...]] = [(obs.tobytes(), info["deal"])]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((obs.tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            break
    return trace


@pytest.mark.parametrize(("env_id", "kwargs"), ENVS)
def test_a_seed_gives_the_same_episode(env_id: str, kwargs: dict[str, Any]) -> None:
    a = play(gymnasium.make(env_id, **kwargs), seed=7, steps=60)
    b = play(gymnasium.make(env_id, **kwargs), seed=7, steps=60)
    c = play(gymnasium.make(env_id, **kwargs), seed=8, steps=60)
    assert a == b
    assert a[0][1] != c[0][1]  # another seed, another deal


@pytest.mark.parametrize(
    ("game", "options"), [("desturado", {"mode": "hard"}), ("devils-square", {}), ("klondike", {"draw": 1})]
)
def test_steps_follow_the_library_masks_rewards_and_the_end(game: str, options: dict[str, Any]) -> None:
    env = SolitaireEnv(game, max_steps=300, **options)
    rng = np.random.default_rng(3)
    ended = 0
    for deal in range(3 if game == "klondike" else 12):
        obs, info = env.reset(options={"deal": deal})
        library = cardtable.new_game(game, deal=deal, **options)
        progress = library.rules.progress
        while True:
            assert sorted(str(env.moves[a]) for a in np.flatnonzero(info["action_mask"])) == sorted(
                str(m) for m in library.legal_moves()
            )
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            before = progress(library.state)[0]
            library.play(env.moves[action])
            obs, reward, terminated, truncated, info = env.step(action)
            assert terminated == library.outcome.over
            assert info["won"] == library.outcome.won
            assert reward == progress(library.state)[0] - before + (env.win_bonus if library.outcome.won else 0)
            assert np.array_equal(obs, env._encoder.encode(library.state))
            if terminated or truncated:
                ended += terminated
                break
    assert ended > 0


def test_an_illegal_action_changes_nothing_and_costs_the_penalty() -> None:
    env = SolitaireEnv("klondike")
    obs, info = env.reset(options={"deal": 0})
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -1.0 and info2["illegal"] and not terminated and not truncated
    assert np.array_equal(after, obs) and np.array_equal(info2["action_mask"], info["action_mask"])
    with pytest.raises(ValueError, match="no action 591"):
        env.step(591)


def test_reset_options_deal_level_and_errors() -> None:
    env = SolitaireEnv("devils-square")
    assert env.reset(options={"deal": 12})[1]["deal"] == 12
    deal = env.reset(seed=5, options={"level": "hard"})[1]["deal"]
    assert deal == env.reset(seed=5, options={"level": "hard"})[1]["deal"]
    assert cardtable.deal_for_level("devils-square", "hard", seed=0) is not None
    with pytest.raises(OptionError, match="unknown reset option 'dael'"):
        env.reset(options={"dael": 1})
    with pytest.raises(OptionError, match="not both"):
        env.reset(options={"deal": 1, "level": "easy"})
    with pytest.raises(DealNumberError):
        env.reset(options={"deal": -1})
    with pytest.raises(OptionError, match="unknown level"):
        env.reset(options={"level": "impossible"})
    for wrong in ([1], "deal", 5):  # a list was "cannot convert dictionary update sequence" (the audit)
        with pytest.raises(TypeError, match="reset options are a dict"):
            env.reset(options=wrong)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        SolitaireEnv("deserto")
    with pytest.raises(OptionError):
        gymnasium.make("cardtable/Klondike-v0", draw=2)


def test_the_truncation_and_the_text() -> None:
    env = SolitaireEnv("klondike", max_steps=5, render_mode="ansi")
    _obs, _info = env.reset(options={"deal": 0})
    draw = env.moves.index(env.rules.parse_move("d"))
    ends = [env.step(draw)[3] for _ in range(5)]
    assert ends == [False] * 4 + [True]
    text = env.render()
    assert text is not None and text.startswith("stock: ## ##") and "<" not in text


def test_a_won_game_ends_with_the_bonus() -> None:
    deal, solved = next(
        (d, r) for d in range(20) if (r := cardtable.solve(cardtable.new_game("desturado", deal=d, mode="hard"))).solved
    )
    env = SolitaireEnv("desturado", mode="hard")
    env.reset(options={"deal": deal})
    total = 0.0
    for move in solved.moves:
        _obs, reward, terminated, _truncated, info = env.step(env.moves.index(move))
        total += float(reward)
    assert terminated and info["won"] and not info["action_mask"].any()
    assert total == 40 - 4 + 10  # every card into the hand (4 were dealt there), then the bonus


@pytest.mark.parametrize("action", [5.9, "5", True, np.float32(5.0), None, np.array([5])])
def test_an_action_that_is_no_whole_number_is_refused(action: Any) -> None:
    # Before, int() made 5.9 and "5" action 5 and True action 1.
    env = SolitaireEnv("klondike")
    env.reset(options={"deal": 0})
    before = env.state
    with pytest.raises(TypeError, match="an action is a whole number"):
        env.step(action)
    assert env.state == before
    assert env.step(np.int64(5))[1] == 1.0  # a NumPy integer is a whole number


def test_no_step_after_the_episode_ended() -> None:
    env = SolitaireEnv("klondike", max_steps=3)
    _, info = env.reset(options={"deal": 0})
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated
    before = env.state
    with pytest.raises(gymnasium.error.ResetNeeded, match="the episode has ended"):
        env.step(0)
    assert env.state == before
    env.reset(options={"deal": 0})
    env.step(0)  # a new episode plays again


@pytest.mark.parametrize(
    "setting",
    [
        {"max_steps": float("nan")},
        {"max_steps": 1.5},
        {"max_steps": "5"},
        {"win_bonus": float("nan")},
        {"illegal_reward": float("inf")},
        {"over_limit": "x"},
        {"over_limit": None},
    ],
)
def test_settings_are_checked_when_the_env_is_made(setting: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        SolitaireEnv("klondike", **setting)


def test_a_refused_reset_leaves_the_generator_as_it_was() -> None:
    one, other = SolitaireEnv("klondike"), SolitaireEnv("klondike")
    one.reset(seed=1)
    other.reset(seed=1)
    for options in ({"level": "nope"}, {"foo": 1}, {"deal": -1}):
        with pytest.raises((OptionError, DealNumberError)):
            other.reset(seed=99, options=options)
    assert one.reset()[1]["deal"] == other.reset()[1]["deal"]

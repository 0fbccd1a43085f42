"""The proof for the research layer: the toy games of ``tests/toys.py``, added to the one list of
games by the ``toy_games`` fixture and nothing else, are Gymnasium, PettingZoo and OpenSpiel
games like the built-in ones."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import cardtable.research
from cardtable.core.errors import OptionError, UnknownGameError
from cardtable.core.spec import GameSpec
from cardtable.games import register, rules_for, unregister
from cardtable.research import multiplayer_env, openspiel
from cardtable.research.actions import action_space
from cardtable.research.observations import ViewEncoder, seat_encoder
from cardtable.research.solitaire_env import ENV_IDS, VARIANTS, SolitaireEnv, make_env

from ..toys import PATIENCE_MOVES, TOY_DUEL, TOY_PATIENCE, ToyDuel

pytestmark = pytest.mark.usefixtures("toy_games")


def test_the_toys_are_in_every_registry_while_registered() -> None:
    assert ENV_IDS["toy-patience"] == TOY_PATIENCE.gymnasium_id
    assert (TOY_PATIENCE.gymnasium_id, {}) in VARIANTS
    assert "toy-duel" not in ENV_IDS  # two players: not a Gymnasium env
    assert openspiel.SOLITAIRES["toy-patience"] == "cardtable_toy_patience"
    assert {"cardtable_toy_patience", "cardtable_toy_duel"} <= set(openspiel.GAME_NAMES)
    space = action_space(rules_for("toy-patience"))
    assert space.moves == PATIENCE_MOVES and space.key == "toy-patience"


def test_the_toy_patience_passes_gymnasiums_checker_through_its_id() -> None:
    cardtable.research.register()  # the game came after the import
    assert TOY_PATIENCE.gymnasium_id is not None
    env = gymnasium.make(TOY_PATIENCE.gymnasium_id)
    check_env(env.unwrapped, skip_render_check=False)
    check_env(make_env("toy-patience", render_mode="ansi").unwrapped, skip_render_check=False)


def test_the_toy_patience_masks_observations_rewards_and_end_follow_the_rules() -> None:
    env = make_env("toy-patience").unwrapped
    assert isinstance(env, SolitaireEnv)
    rules = env.rules
    rng = np.random.default_rng(5)
    won = 0
    for deal in range(20):
        obs, info = env.reset(options={"deal": deal})
        state = rules.deal(deal)
        assert obs.shape == (6 * 8 + 2,)  # six piles of room for the 8 cards, then redeals and progress
        while True:
            legal = rules.legal_moves(state)
            assert sorted(np.flatnonzero(info["action_mask"])) == sorted(env.moves.index(m) for m in legal)
            # face-down cards are 1, face-up ones 2 + card: the first card of each pile is face down
            piles = obs[2 * 8 : 6 * 8].reshape(4, 8)
            bottoms = [1 if down else 2 + pile[0] for pile, down in zip(state.piles, state.down, strict=True) if pile]
            assert [int(p[0]) for p in piles if p[0]] == bottoms
            if not legal:
                break
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            before = rules.progress(state)[0]
            state = rules.apply(state, env.moves[action])
            obs, reward, terminated, _truncated, info = env.step(action)
            bonus = env.win_bonus if rules.is_won(state) else 0
            assert reward == rules.progress(state)[0] - before + bonus
            if terminated:
                won += info["won"]
                break
    assert won > 0  # some random games were won: the bonus was checked too


def test_the_toy_duel_passes_pettingzoos_api_and_seed_tests() -> None:
    api_test(multiplayer_env.env("toy-duel"), num_cycles=200)
    seed_test(lambda: multiplayer_env.env("toy-duel"), num_cycles=200)


def test_the_toy_duel_observes_a_seats_view_only_and_shares_the_win() -> None:
    env = multiplayer_env.raw_env("toy-duel")
    assert env.metadata["name"] == "toy_duel_v0"
    rules = env.rules
    encoder = seat_encoder(rules)
    assert isinstance(encoder, ViewEncoder)
    rng = random.Random(2)
    differed = 0
    for seed in range(10):
        env.reset(seed=seed)
        while env.agents:
            agent = env.agent_selection
            obs, reward, terminated, truncated, _info = env.last()
            seat = env.possible_agents.index(agent)
            # what the seat cannot see (the other hand, the deck) does not change its observation
            other = rules.sample(env.state_, seat, rng)
            differed += other != env.state_
            assert np.array_equal(env.observe(agent)["observation"], encoder.encode(other, seat))
            assert encoder.text(other, seat) == encoder.text(env.state_, seat)
            if terminated or truncated:
                result = rules.result(env.state_)
                assert result is not None
                share = 1 / len(result.winners) if seat in result.winners else 0.0
                assert reward == share
                env.step(None)
                continue
            legal = rules.legal_moves(env.state_)
            assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(
                action_space(rules).move_to_action(m) for m in legal
            )
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert differed > 20  # the samples did change what the seat cannot see


@pytest.mark.parametrize("name", ["cardtable_toy_patience", "cardtable_toy_duel"])
def test_the_toys_pass_openspiels_random_simulation_test(name: str) -> None:
    openspiel.register()  # the games came after the import
    game = pyspiel.load_game(name, {"deals": 30})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_the_toy_duel_through_openspiel_follows_the_rules_and_resamples_what_a_seat_cannot_see() -> None:
    game = openspiel.load_game("toy-duel", {"deal": 3})
    rules = ToyDuel()
    position = rules.deal(3)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    rng = random.Random(4)
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == rules.to_move(position) and state.position == position
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        move = rules.parse_move(state.action_to_string(seat, action))
        # the seat's record: its view, then what it learnt of each move and its view after
        state.apply_action(action)
        assert state.information_state_string(seat).splitlines()[-2] == str(rules.public_move(position, move, seat))
        position = rules.apply(position, move)
    result = rules.result(position)
    assert result is not None
    assert state.returns() == [1 / len(result.winners) if s in result.winners else 0.0 for s in range(2)]


def test_a_game_without_what_an_interface_needs_is_refused_by_asking_its_declaration(
    toy_games: tuple[GameSpec, ...],
) -> None:
    with pytest.raises(OptionError, match="toy-duel is a game for several players"):
        make_env("toy-duel")
    with pytest.raises(OptionError, match="toy-patience is a game for one player"):
        multiplayer_env.env("toy-patience")
    bare = rules_for("toy-patience")
    unregister("toy-patience")
    register(replace(TOY_PATIENCE, action_moves=None, gymnasium_id=None, openspiel_name=None))
    with pytest.raises(OptionError, match="toy-patience has no action space"):
        SolitaireEnv("toy-patience")
    with pytest.raises(OptionError, match="toy-patience has no Gymnasium environment"):
        make_env("toy-patience")
    with pytest.raises(OptionError, match="toy-patience has no OpenSpiel game"):
        openspiel.load_game("toy-patience")
    with pytest.raises(OptionError, match="has no action space"):
        action_space(bare)
    unregister("toy-patience")
    with pytest.raises(UnknownGameError):
        SolitaireEnv("toy-patience")
    with pytest.raises(pyspiel.SpielError, match="unknown game 'toy-patience'"):
        pyspiel.load_game("cardtable_toy_patience")
    assert TOY_DUEL in toy_games


def test_a_view_that_holds_text_asks_for_an_encoder_of_its_own() -> None:
    class Texts(ToyDuel):
        def view(self, state: Any, seat: int | None, history: tuple[Any, ...]) -> Any:
            return {"hand": [self.card_text(c) for c in state.hands[seat or 0]]}

    with pytest.raises(OptionError, match=r"toy-duel: the view's hand\[0\] is str, not a number"):
        ViewEncoder(Texts())

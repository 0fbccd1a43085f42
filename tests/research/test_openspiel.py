"""The six games through OpenSpiel: OpenSpiel's own random simulation test, the rules
followed exactly, information states that hold what a seat knows and nothing more, and
OpenSpiel's information-set MCTS playing Deserto through ``resample_from_infostate``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cardtable
from cardtable.bots import make
from cardtable.core.errors import IllegalMoveError
from cardtable.games import rules_for
from cardtable.games.deserto import Deserto
from cardtable.research import openspiel
from cardtable.research.actions import action_space
from cardtable.research.openspiel import DESERTO, INFO_STATE_SIZE, SOLITAIRES, deal_outcomes, draw_outcomes

from .test_observations import shuffle_hidden

pytestmark = pytest.mark.research

SOLITAIRE_PARAMS: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 3}),
    ("klondike", {"draw": 1, "redeals": 2, "autoplay": True}),
    ("desturado", {"mode": "easy"}),
    ("desturado", {"mode": "hard"}),
    ("demonthief", {}),
    ("demons-and-thieves", {}),
    ("devils-square", {}),
]

DESERTO_PARAMS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "first": 2, "refill_after_give": False},
]


def test_the_six_games_are_registered() -> None:
    names = set(pyspiel.registered_names())
    assert set(openspiel.GAME_NAMES) <= names and len(openspiel.GAME_NAMES) == 6
    openspiel.register()  # again: nothing changes, no error


@pytest.mark.parametrize(("game", "options"), SOLITAIRE_PARAMS)
def test_openspiel_random_sim_test_passes_for_the_one_player_games(game: str, options: dict[str, Any]) -> None:
    spiel = pyspiel.load_game(SOLITAIRES[game], {**options, "deals": 50, "max_steps": 150})
    pyspiel.random_sim_test(spiel, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("params", DESERTO_PARAMS)
def test_openspiel_random_sim_test_passes_for_deserto(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(DESERTO, params), num_sims=10, serialize=True, verbose=False)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game(DESERTO, {"players": 5})
    with pytest.raises(pyspiel.SpielError, match="mode"):
        pyspiel.load_game("cardtable_desturado", {"mode": "brutal"})
    with pytest.raises(pyspiel.SpielError, match="deals"):
        pyspiel.load_game("cardtable_klondike", {"deals": 0})
    with pytest.raises(pyspiel.SpielError, match="deal is -1"):
        pyspiel.load_game("cardtable_klondike", {"deal": -5})  # before: taken as "by chance"
    with pytest.raises(pyspiel.SpielError, match="max_steps must be from 1"):
        openspiel.SeatsGame("deserto", {"max_steps": 0})
    for bonus in (float("nan"), float("inf"), -1e308, -0.5):  # nan made max_utility nan (the audit)
        with pytest.raises(pyspiel.SpielError, match="win_bonus must be a finite number of at least 0"):
            pyspiel.load_game("cardtable_klondike", {"win_bonus": bonus})
    assert pyspiel.load_game("cardtable_klondike", {"win_bonus": 0.0}).max_utility() == 52.0
    state = pyspiel.load_game(DESERTO).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(pyspiel.SpielError, match="no player 7"):
        state.resample_from_infostate(7, random.random)


def offered(state: Any) -> set[int]:
    return {a for a, _ in state.chance_outcomes()} if state.is_chance_node() else set(state.legal_actions())


def refused_everywhere_else(state: Any, size: int) -> None:
    """Every action ``state`` does not offer (of ``0..size-1``) is refused, and changes nothing."""
    before = (str(state), state.history())
    for action in sorted(set(range(size)) - offered(state)):
        with pytest.raises(IllegalMoveError, match="not offered here"):
            state.apply_action(action)
    assert (str(state), state.history()) == before


@pytest.mark.parametrize("name", [*SOLITAIRES.values(), DESERTO])
def test_an_action_not_offered_is_refused_and_changes_nothing(name: str) -> None:
    # Before, a one-player state played any action (Klondike's "r" with cards in the
    # stock lost the 24 stock cards), a chance node took any deal, and Deserto changed its
    # state before its KeyError.
    params: dict[str, Any] = {} if name == DESERTO else {"deals": 4}
    game = pyspiel.load_game(name, params)
    rng = random.Random(name)
    state = game.new_initial_state()
    for _ in range(12):
        if state.is_terminal():
            break
        size = game.max_chance_outcomes() + 4 if state.is_chance_node() else game.num_distinct_actions()
        refused_everywhere_else(state, size)
        state.apply_action(rng.choice(sorted(offered(state))))


@pytest.mark.parametrize(("game", "options"), SOLITAIRE_PARAMS)
def test_a_one_player_game_follows_the_library(game: str, options: dict[str, Any]) -> None:
    """Deal ``d`` of the chance node is the library's deal ``d``; every step's legal actions,
    rewards and end are the library's; the notation is the action's string."""
    rules = rules_for(game, **options)
    space = action_space(rules)
    spiel = pyspiel.load_game(SOLITAIRES[game], {**options, "deals": 10, "max_steps": 60})
    rng = random.Random(f"openspiel {game} {options}")
    for _ in range(3):
        state = spiel.new_initial_state()
        assert state.is_chance_node() and len(state.chance_outcomes()) == 10
        deal = rng.randrange(10)
        state.apply_action(deal)
        position = rules.deal(deal)
        assert str(state) == rules.to_text(position)
        steps = 0
        total = 0.0
        while not state.is_terminal():
            legal = rules.legal_moves(position)
            assert state.legal_actions() == sorted(space.move_to_action(m) for m in legal)
            action = rng.choice(state.legal_actions())
            move = space.action_to_move(action)
            assert state.action_to_string(0, action) == str(move)
            before = rules.progress(position)[0]
            position = rules.apply(position, move)
            while options.get("autoplay") and (auto := rules.auto_move(position)) is not None:
                position = rules.apply(position, auto)
            state.apply_action(action)
            steps += 1
            reward = rules.progress(position)[0] - before + (10 if rules.is_won(position) else 0)
            assert state.rewards() == [reward]
            total += reward
            assert str(state) == rules.to_text(position)
        assert state.returns() == [total]
        assert rules.is_won(position) or not rules.legal_moves(position) or steps == 60


def test_a_fixed_deal_has_no_chance_node_and_a_win_pays_the_bonus() -> None:
    spiel = pyspiel.load_game("cardtable_devils_square", {"deal": 7, "win_bonus": 5.0})
    state = spiel.new_initial_state()
    assert not state.is_chance_node() and state.current_player() == 0
    assert str(state) == rules_for("devils-square").to_text(rules_for("devils-square").deal(7))
    game = cardtable.new_game("klondike", deal=0, draw=1)
    spiel = pyspiel.load_game("cardtable_klondike", {"deal": 0, "draw": 1})
    state = spiel.new_initial_state()
    ace = action_space(game.rules).move_to_action(game.parse_move("3f"))
    state.apply_action(ace)
    assert state.rewards() == [1.0]


@pytest.mark.parametrize(("game", "options"), SOLITAIRE_PARAMS)
def test_one_player_observations_and_information_states_hide_face_down_cards(
    game: str, options: dict[str, Any]
) -> None:
    """A position with the face-down cards shuffled observes the same; the information state
    lists only cards seen face up; a face-up card turned shows in it."""
    rules = rules_for(game, **options)
    spiel = pyspiel.load_game(SOLITAIRES[game], {**options, "deal": 3, "max_steps": 40})
    rng = random.Random(f"hidden {game}")
    state = spiel.new_initial_state()
    while not state.is_terminal():
        text = rules.to_text(state.position)
        other = state.clone()
        other.position = rules.from_text(shuffle_hidden(text, rng))
        assert other.observation_tensor(0) == state.observation_tensor(0)
        assert other.observation_string(0) == state.observation_string(0)
        assert other.information_state_string(0) == state.information_state_string(0)
        seen = {rules.card_text(c) for line in rules.display(state.position) for _, p in line for c, up in p if up}
        logged = {word for token in state.log for word in token.split("+", 1)[-1].split()}
        assert seen <= logged
        state.apply_action(rng.choice(state.legal_actions()))


def random_deserto_game(params: dict[str, Any], seed: int) -> list[Any]:
    """The states of a random Deserto game through OpenSpiel (chance by its probabilities)."""
    spiel = pyspiel.load_game(DESERTO, params)
    rng = np.random.RandomState(seed)
    state = spiel.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("params", DESERTO_PARAMS)
def test_deserto_chance_nodes_are_the_unseen_cards(params: dict[str, Any]) -> None:
    """Each chance node offers the kinds nobody has seen, by their share; the cards of the
    position are always the 51; the game ends as the rules say, the returns share the win."""
    rules = Deserto(**params)
    for seed in range(3):
        states = random_deserto_game(params, seed)
        for state in states:
            assert sorted(rules.cards(state.position)) == rules.deck()
            if state.is_chance_node():
                unseen = Counter(state.position.deck)
                unseen.subtract(state.drawn)
                total = sum(unseen.values())
                assert state.chance_outcomes() == [(k, unseen[k] / total) for k in range(4) if unseen[k]]
        end = states[-1]
        result = rules.result(end.position)
        assert result is not None
        assert end.returns() == [1 / len(result.winners) if s in result.winners else 0.0 for s in range(rules.players)]
        assert sum(end.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("params", DESERTO_PARAMS)
def test_deserto_follows_a_cardtable_game_exactly(params: dict[str, Any]) -> None:
    """The deal's and the draws' chance outcomes make the OpenSpiel state follow a cardtable
    game: same hands, area, winnings and seat to move, and the same legal actions."""
    rules = Deserto(**params)
    space = action_space(rules)
    for deal in (0, 11):
        game = cardtable.new_game("deserto", deal=deal, **params)
        state = pyspiel.load_game(DESERTO, params).new_initial_state()
        for kind in deal_outcomes(rules, deal):
            state.apply_action(kind)
        greedy = make("greedy")
        while (seat := game.to_move) is not None:
            real = game.state
            assert state.position == real._replace(deck=tuple(sorted(real.deck)))
            assert state.legal_actions() == [space.move_to_action(m) for m in game.legal_moves()]
            move = greedy.choose(game, seat)
            game.play(move, seat=seat)
            state.apply_action(space.move_to_action(move))
            for kind in draw_outcomes(real, game.state):
                assert state.is_chance_node()
                state.apply_action(kind)
        assert state.is_terminal() and state.position.captured == game.state.captured


@pytest.mark.parametrize("params", DESERTO_PARAMS)
def test_deserto_resampled_states_keep_exactly_what_the_seat_knows(params: dict[str, Any]) -> None:
    """For every seat at every decision: a resampled state has the same information state
    (string and tensor) and observation for that seat, while the cards it cannot see do
    change in some samples; so nothing it cannot see is in its information state."""
    rules = Deserto(**params)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    changed = 0
    for state in random_deserto_game(params, 7)[::5]:
        if state.is_chance_node() or state.is_terminal():
            continue
        for seat in range(rules.players):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.current_player() == state.current_player()
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            hidden = [h for s, h in enumerate(state.position.hands) if s != seat]
            changed += hidden != [h for s, h in enumerate(other.position.hands) if s != seat]
            assert other.history() == []  # the sampled world has no past of its own
    assert changed > 0


def test_deserto_information_state_shows_own_draws_and_gifts_seen_only() -> None:
    """A line per turn: a gift's kind only for giver and receiver, and only the seat's own draws."""
    end = random_deserto_game({"players": 3}, 2)[-1]
    assert any(t.receiver >= 0 for t in end.turns), "the random game should hold a gift"
    for seat in range(3):
        assert len(end.information_state_tensor(seat)) == INFO_STATE_SIZE
        lines = end.information_state_string(seat).splitlines()
        assert lines[0].startswith(f"seat {seat} dealt ") and len(lines) == len(end.turns) + 2
        for turn, line in zip(end.turns, lines[1:], strict=False):
            text, _, drew = line.partition("; you draw ")
            knows = turn.receiver < 0 or seat in (turn.mover, turn.receiver)
            assert text == (turn.private if knows else turn.public)
            assert drew == "".join("OVTG"[k] for k in turn.drawn[seat] or ())


def test_openspiel_ismcts_plays_deserto_through_resampling() -> None:
    game = pyspiel.load_game(DESERTO, {"players": 2})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 8, random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(9, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves == 51 and sum(state.returns()) == pytest.approx(1.0)

"""Properties every game must have, checked on random play (hypothesis)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.errors import IllegalMoveError, OptionError
from cardtable.core.multiplayer import MultiplayerRules
from cardtable.core.options import Option
from cardtable.games import rules_class, rules_for

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def option_values(option: Option) -> list[Any]:
    """A few values worth trying for an option."""
    if option.choices:
        return list(option.choices)
    if option.kind is bool:
        return [False, True]
    if option.kind is int:
        return [option.default, *([None] if option.none_text else []), 0, 1, 2]
    return [option.default]


@st.composite
def games(draw: st.DrawFn, name: str) -> cardtable.Game[Any, Any]:
    """A new game of ``name`` with drawn options and deal number."""
    options = {o.name: draw(st.sampled_from(option_values(o))) for o in rules_class(name).OPTIONS}
    options.pop("autoplay", None)  # autoplay makes several moves per play; tested per game
    deal = draw(st.integers(min_value=0, max_value=2**63 - 1))
    try:
        return cardtable.new_game(name, deal=deal, **options)
    except OptionError:
        reject()  # option values that do not go together (deserto: the first seat must be below players)


def play_randomly(game: cardtable.Game[Any, Any], data: st.DataObject, length: int) -> list[Any]:
    """Play up to ``length`` random legal moves; return the positions, first included."""
    seen = [game.state]
    for _ in range(length):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(data.draw(st.sampled_from(moves)))
        seen.append(game.state)
    return seen


@pytest.mark.parametrize("name", cardtable.GAMES)
@SETTINGS
@given(data=st.data())
def test_every_card_is_always_exactly_once_somewhere(name: str, data: st.DataObject) -> None:
    game = data.draw(games(name))
    deck = Counter(game.rules.deck())
    for state in play_randomly(game, data, 80):
        assert Counter(game.rules.cards(state)) == deck


@pytest.mark.parametrize("name", cardtable.GAMES)
@SETTINGS
@given(data=st.data())
def test_undo_restores_every_position_exactly(name: str, data: st.DataObject) -> None:
    game = data.draw(games(name))
    seen = play_randomly(game, data, 60)
    for state in reversed(seen[:-1]):
        game.undo()
        assert game.state == state
    assert game.moves == []


@pytest.mark.parametrize("name", cardtable.GAMES)
@SETTINGS
@given(data=st.data())
def test_text_save_and_move_notation_round_trip(name: str, data: st.DataObject) -> None:
    game = data.draw(games(name))
    rules = game.rules
    for state in play_randomly(game, data, 60):
        assert rules.from_text(rules.to_text(state)) == state
        for move in rules.legal_moves(state):
            assert rules.parse_move(str(move)) == move
            assert hash(move) == hash(rules.parse_move(str(move)))
    back = cardtable.load(game.save())
    assert back.state == game.state and back.moves == game.moves
    again = cardtable.new_game(name, layout=game.to_text(), **game.options)
    assert again.state == game.state


@pytest.mark.parametrize("name", cardtable.GAMES)
@SETTINGS
@given(data=st.data())
def test_moves_not_generated_are_refused_and_change_nothing(name: str, data: st.DataObject) -> None:
    game = data.draw(games(name))
    # Moves legal somewhere along a random line are the candidates most likely to be
    # wrongly accepted elsewhere on it.
    universe: set[Any] = set()
    states = play_randomly(game, data, 40)
    for state in states:
        universe.update(game.rules.legal_moves(state))
    game.restart()
    for state in states[:10]:
        game = cardtable.new_game(name, layout=game.rules.to_text(state), **game.options)
        legal = set(game.legal_moves())
        for move in sorted(universe - legal, key=str):
            with pytest.raises(IllegalMoveError):
                game.play(move)
            assert game.state == state and game.moves == []


@pytest.mark.parametrize("name", cardtable.GAMES)
def test_legal_moves_are_listed_once_in_a_stable_order(name: str) -> None:
    game = cardtable.new_game(name, deal=77)
    for _ in range(40):
        moves = game.legal_moves()
        if not moves:
            break
        assert len(moves) == len(set(moves))
        assert moves == game.rules.legal_moves(game.state)
        game.play(moves[len(moves) // 2])


def test_deals_are_the_same_whatever_the_hash_seed() -> None:
    code = "import cardtable\nfor g in cardtable.GAMES: print(cardtable.new_game(g, deal=5).to_text())"
    outputs = set()
    for seed in ("0", "7", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outputs.add(run.stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize("name", cardtable.GAMES)
def test_deals_are_deterministic_and_vary(name: str) -> None:
    texts = [cardtable.new_game(name, deal=n).to_text() for n in (0, 1, 2, 0)]
    assert texts[0] == texts[3]
    assert len(set(texts)) == 3


ONE_PLAYER = [name for name in cardtable.GAMES if not isinstance(rules_for(name), MultiplayerRules)]


@pytest.mark.parametrize("name", ONE_PLAYER)
def test_random_play_ends_in_a_consistent_outcome(name: str) -> None:
    """Where a game runs out of moves, over must be True; while progress is
    possible, over must be False (checked by finding that progress)."""
    import random

    rng = random.Random(name)
    for deal in range(3):
        game = cardtable.new_game(name, deal=deal)
        for _ in range(300):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        if not game.legal_moves():
            assert game.outcome.over
        if game.outcome.won:
            assert game.outcome.over

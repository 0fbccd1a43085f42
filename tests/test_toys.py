"""The toy games play by the engine's rules: every layer's proof builds on this."""

from __future__ import annotations

import random

import cardtable
from cardtable.core.multiplayer import MultiplayerGame
from cardtable.core.spec import GameSpec
from cardtable.games import names


def test_the_toys_join_the_one_list_for_the_test_only(toy_games: tuple[GameSpec, ...]) -> None:
    assert names()[-2:] == ("toy-patience", "toy-duel")


def test_the_toys_leave_the_list_after_the_test() -> None:
    assert "toy-patience" not in names() and "toy-duel" not in names()


def test_toy_patience_plays_saves_and_round_trips(toy_games: tuple[GameSpec, ...]) -> None:
    rng = random.Random(5)
    won = 0
    for deal in range(40):
        game = cardtable.new_game("toy-patience", deal=deal)
        while (moves := game.legal_moves()) and len(game.moves) < 60:
            move = rng.choice(moves)
            assert game.rules.parse_move(str(move)) == move
            game.play(move)
            assert cardtable.new_game("toy-patience", layout=game.to_text()).state == game.state
        won += game.outcome.won
        assert cardtable.load(game.save()).state == game.state
    assert 0 < won < 40


def test_toy_duel_plays_to_a_result(toy_games: tuple[GameSpec, ...]) -> None:
    rng = random.Random(3)
    for deal in range(20):
        game = cardtable.new_game("toy-duel", deal=deal)
        assert isinstance(game, MultiplayerGame)  # a game of several players, by its rules
        while (seat := game.to_move) is not None:
            game.play(rng.choice(game.legal_moves()), seat=seat)
        result = game.outcome.result
        assert result is not None and sum(result.scores) <= 11
        assert cardtable.load(game.save()).state == game.state


def test_a_game_without_a_rulebook_page_is_described_by_its_module(toy_games: tuple[GameSpec, ...]) -> None:
    from cardtable.rulebook import rules_text

    text = rules_text("toy-patience")
    assert text.startswith("# Toy patience\n") and "eight cards" in text

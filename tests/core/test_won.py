"""A won game stays won: no move is legal or playable after the win, in every one-player game."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.errors import IllegalMoveError

SOLITAIRES = ("klondike", "desturado", "demonthief", "demons-and-thieves", "devils-square")


@pytest.mark.parametrize("name", SOLITAIRES)
def test_no_move_after_a_win(name: str) -> None:
    deal = cardtable.deal_for_level(name, "easy", seed=1)
    game = cardtable.new_game(name, deal=deal)
    result = cardtable.solve(game, seconds=60)
    assert result.verdict == "solved"
    for move in result.moves:
        game.play(move)
    assert game.outcome.won and game.outcome.over
    assert game.legal_moves() == []
    # The rules alone may still list moves (a won Klondike game's foundation returns,
    # Desturado's hand stacks): the game refuses every one of them.
    state = game.state
    for move in game.rules.legal_moves(state):
        assert not game.is_legal(move)
        with pytest.raises(IllegalMoveError, match="won"):
            game.play(move)
        assert game.state == state and game.outcome.won
    saved = cardtable.load(game.save())
    assert saved.outcome.won and saved.legal_moves() == []


def test_a_won_klondike_game_is_not_unwon_by_a_foundation_return() -> None:
    game = cardtable.new_game("klondike", deal=8)
    for move in cardtable.solve(game, seconds=30).moves:
        game.play(move)
    returns = [m for m in game.rules.legal_moves(game.state) if str(m).startswith("f")]
    assert returns, "the rules offer foundation returns in the won position"
    with pytest.raises(IllegalMoveError, match="a won game stays won"):
        game.play(returns[0])

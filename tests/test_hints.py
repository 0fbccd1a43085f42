"""Hints: from a real solver when it finds a win, labelled heuristics otherwise."""

from __future__ import annotations

import cardtable
from cardtable.hints import heuristic_move, hint
from cardtable.solve import solve


def test_a_winnable_position_gets_the_first_move_of_a_winning_line() -> None:
    game = cardtable.new_game("klondike", deal=8)
    h = hint(game, seconds=10)
    assert (h.source, h.status) == ("solver", "winnable")
    assert h.move in game.legal_moves()
    assert str(h.move) in h.text
    game.play(h.move)
    assert solve(game, seconds=10).solved  # still winnable after following the hint


def test_following_hints_wins() -> None:
    game = cardtable.new_game("desturado", deal=0)
    for _ in range(200):
        if game.outcome.won:
            break
        h = hint(game, seconds=5)
        assert h.source == "solver"
        game.play(h.move)
    assert game.outcome.won
    assert hint(game).status == "won" and hint(game).move is None


def test_a_lost_position_is_said_to_be_lost() -> None:
    game = cardtable.new_game("devils-square", deal=1)
    h = hint(game, seconds=5)
    assert h.status == "lost" and h.source == "heuristic"
    assert "can no longer be won" in h.text
    assert h.move is None or h.move in game.legal_moves()


def test_out_of_budget_the_hint_is_a_labelled_heuristic_move() -> None:
    game = cardtable.new_game("desturado", deal=5)  # needs far more than a millisecond
    h = hint(game, seconds=0.001)
    assert (h.source, h.status) == ("heuristic", "unknown")
    assert h.move == heuristic_move(game) and h.move in game.legal_moves()
    assert "heuristic" in h.text


def test_the_heuristic_prefers_the_foundation() -> None:
    game = cardtable.new_game("klondike", deal=0)
    assert str(heuristic_move(game)) == "3f"  # the ace of spades on pile 3

"""Game: play, undo, redo, restart, outcome, save and load (on Klondike)."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.core.errors import (
    CardtableError,
    DealNumberError,
    HistoryError,
    IllegalMoveError,
    MoveParseError,
    OptionError,
    SaveFileError,
    UnknownGameError,
)


def test_games_list() -> None:
    assert cardtable.GAMES == (
        "klondike",
        "desturado",
        "demonthief",
        "demons-and-thieves",
        "devils-square",
        "deserto",
    )


def test_new_game_errors() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        cardtable.new_game("chess", deal=1)
    with pytest.raises(OptionError):
        cardtable.new_game("klondike", deal=1, draw=2)
    with pytest.raises(DealNumberError):
        cardtable.new_game("klondike", deal=-5)
    with pytest.raises(CardtableError, match="exactly one"):
        cardtable.new_game("klondike")
    with pytest.raises(CardtableError, match="exactly one"):
        cardtable.new_game("klondike", deal=1, layout="x")


def test_undo_redo_restart() -> None:
    g = cardtable.new_game("klondike", deal=11)
    states = [g.state]
    for _ in range(6):
        g.play(g.legal_moves()[-1])
        states.append(g.state)
    for i in range(6, 0, -1):
        g.undo()
        assert g.state == states[i - 1]
    with pytest.raises(HistoryError, match="nothing to undo"):
        g.undo()
    for i in range(1, 7):
        g.redo()
        assert g.state == states[i]
    with pytest.raises(HistoryError, match="nothing to redo"):
        g.redo()
    g.undo()
    g.play("d" if "d" in [str(m) for m in g.legal_moves()] else g.legal_moves()[0])
    with pytest.raises(HistoryError):
        g.redo()  # a new move clears the redo list
    g.restart()
    assert g.state == states[0] and g.moves == []


def test_a_failed_move_changes_nothing() -> None:
    g = cardtable.new_game("klondike", deal=11)
    g.play("d")
    before, moves = g.state, g.moves
    with pytest.raises(MoveParseError):
        g.play("hello")
    with pytest.raises(IllegalMoveError):
        g.play("r")
    assert g.state == before and g.moves == moves
    g.undo()  # and the history is intact


def test_outcome_is_cached_per_position_and_recomputed_after_a_move() -> None:
    g = cardtable.new_game("klondike", deal=11)
    first = g.outcome
    assert g.outcome is first
    g.play("d")
    assert g.outcome is not first


def test_save_load_round_trip() -> None:
    g = cardtable.new_game("klondike", deal=21, draw=1, redeals=2)
    for _ in range(30):
        g.play(g.legal_moves()[0])
    data = json.loads(g.save())
    assert data["game"] == "klondike" and data["deal"] == 21 and data["options"]["draw"] == 1
    assert data["rules_version"] == g.rules.RULES_VERSION and len(data["moves"]) == 30
    back = cardtable.load(g.save())
    assert back.state == g.state and back.moves == g.moves and back.options == g.options
    back.undo()  # a loaded game has its full history


def test_save_load_from_a_layout() -> None:
    start = cardtable.new_game("klondike", deal=4)
    g = cardtable.new_game("klondike", layout=start.to_text())
    g.play("d")
    back = cardtable.load(g.save())
    assert back.state == g.state and back.layout == start.to_text()


def _save(**changes: object) -> str:
    g = cardtable.new_game("klondike", deal=2)
    g.play("d")
    data = json.loads(g.save())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"format": "other"}', "not a cardtable save file"),
        (_save(version=9), "version"),
        (_save(game="chess"), "does not describe a game"),
        (_save(options={"draw": 7}), "does not describe a game"),
        (_save(deal=-1), "does not describe a game"),
        (_save(moves=["d", "zz"]), "move 2 .* does not replay"),
        (_save(moves=["r"]), "move 1 .* does not replay"),
        (_save(moves="d"), "'moves'"),
        (_save(rules_version=99), "rules version"),
        (_save(version=True), "version True is not 1"),  # true == 1 in Python, but not a version
        (_save(version=1.0), "version 1.0 is not 1"),
        (_save(rules_version=True), "rules version True"),
        (_save(auto="x"), "'auto'"),
        # Every move is replayed: four million draws took 49 s (found by the bad-input audit).
        (_save(moves=["d"] * 1_000_001), "at most 1,000,000 moves, not 1,000,001"),
    ],
)
def test_bad_save_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(SaveFileError, match=message):
        cardtable.load(text)

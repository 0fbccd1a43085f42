"""Deserto's public events (:class:`DesertoEvent`) and the spectator's view.

``data/deserto_events.json`` holds twelve random games (2, 3 and 4 players, both
``refill_after_give`` settings) as the code before events recorded them (commit c34d096):
each move's history line as a spectator (``public_move(state, move, -1)``) and, where it
differs, as each seat saw it; the sentence ``web/story.py``'s ``tell`` made of each line,
with the names Ana, Ben, Cy, Dee; and the cards each seat won by capture (its
``captured``). The events must give the same lines and sentences, from their fields.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core.multiplayer import Event, MultiplayerGame
from cardtable.games.deserto import GIFT, KINDS, OASIS, THIEF, TREASURE, VIZIER, Deserto, DesertoEvent, DesertoView
from tests.games.test_deserto import layout

RECORDED = json.loads((Path(__file__).parent / "data" / "deserto_events.json").read_text())
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def replay(record: dict[str, Any]) -> MultiplayerGame[Any, Any]:
    game: MultiplayerGame[Any, Any] = cardtable.new_game("deserto", deal=record["deal"], **record["options"])
    for move in record["moves"]:
        game.play(move)
    return game


def deserto_events(history: tuple[Event, ...]) -> list[DesertoEvent]:
    assert all(isinstance(event, DesertoEvent) for event in history)
    return [event for event in history if isinstance(event, DesertoEvent)]


@pytest.mark.parametrize("record", RECORDED, ids=lambda r: f"deal {r['deal']}")
def test_events_give_the_recorded_lines_sentences_and_captures(record: dict[str, Any]) -> None:
    game = replay(record)
    players = game.players
    names = NAMES[:players]
    for i, seen in enumerate(record["seen"]):
        spectator, lines = (seen, [seen] * players) if isinstance(seen, str) else seen
        assert str(game.history(None)[i]) == spectator
        for seat in range(players):
            event = game.history(seat)[i]
            assert str(event) == lines[seat]
            assert event.told(names) == record["told"][lines[seat]]
    won = [""] * players
    for event in deserto_events(game.history(None)):
        won[event.seat] += "".join(KINDS[c] for _, cards in event.captures for c in cards)
    assert won == record["captured"]


def test_the_recorded_games_hold_every_kind_of_event() -> None:
    events = [e for record in RECORDED for s in (None, 0) for e in deserto_events(replay(record).history(s))]
    assert any(e.four_viziers for e in events) and any(len(e.captures) == 1 for e in events)
    assert any(e.gift and e.kind is None for e in events) and any(e.gift and e.kind is not None for e in events)


def test_an_oasis_given_keeps_its_old_line() -> None:
    event = DesertoEvent(1, OASIS, None, receiver=0)
    assert str(event) == "seat 1: gO, gives a oasis to seat 0"
    assert event.told(["Ana", "Ben"]) == "Ben could not play and gave an oasis to Ana"
    assert DesertoEvent(3, VIZIER, 2).told(["Ana"]) == "seat 4 put a vizier at 3"  # a seat with no name


def test_events_are_values() -> None:
    a = DesertoEvent(0, THIEF, 1, captures=((0, (VIZIER, THIEF)),))
    b = DesertoEvent(0, THIEF, 1, None, ((0, (VIZIER, THIEF)),), False)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1 and isinstance(a, Event)
    with pytest.raises(AttributeError):
        a.seat = 1  # type: ignore[misc]
    assert a != DesertoEvent(0, THIEF, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_spectator_sees_the_public_part_only(players: int) -> None:
    rng = random.Random(players)
    gifts = 0
    for deal in range(6):
        game = cardtable.new_game("deserto", deal=deal, players=players, refill_after_give=deal % 2 == 0)
        while game.to_move is not None:
            game.play(rng.choice(game.legal_moves()))
            view = game.view(None)
            assert isinstance(view, DesertoView)
            assert view.seat is None and view.hand == () and view.history == game.history(None)
            for seat in range(players):
                seen = game.view(seat)
                assert isinstance(seen, DesertoView)
                assert view._replace(seat=seat, hand=seen.hand, history=seen.history) == seen
            last = deserto_events(game.history(None))[-1]
            if last.gift:
                gifts += 1
                assert last.kind is None
                assert {e.kind for e in deserto_events(tuple(game.history(s)[-1] for s in range(players)))} - {
                    None
                } == {game.moves[-1].kind}
            else:
                assert all(game.history(s)[-1] == last for s in range(players))
            data = view.to_json()
            assert data["seat"] is None and data["hand"] == []
            assert data["history"] == [str(e) for e in game.history(None)]
        assert game.sample(0, random.Random(deal)).history(None) == game.history(None)
    assert gifts > 0


def test_a_spectator_never_learns_a_gift() -> None:
    rules = Deserto(players=3)
    state = rules._read(layout("to move: 2\n1: T\n2: T\n3: T\n4: T\nhand 2: T G\nhand 1: O", players=3))
    for kind in (THIEF, TREASURE):
        assert rules.public_move(state, GIFT[kind], None) == DesertoEvent(2, None, None, receiver=1)
        assert rules.public_move(state, GIFT[kind], 0) == DesertoEvent(2, None, None, receiver=1)
        assert rules.public_move(state, GIFT[kind], 1) == DesertoEvent(2, kind, None, receiver=1)

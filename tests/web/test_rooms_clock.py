"""Rooms never stall, against a real server: a person out of time has their turn played by a
bot, which keeps their seat until they come back; the time left is in every snapshot; the
creator frees the seat of someone who left or gives it to a bot; one seat a browser.
The paces are short here (``create_app(paces=...)``); every wait is bounded.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import LiveServer
from .rooms_client import HUMAN, Client, made, make_room, play_turn, seat_two

PACES = {"casual": None, "quick": 1.0, "slow": 60.0}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data", paces=PACES)
    yield server
    server.stop()


def test_the_paces_are_offered_and_checked(live: LiveServer) -> None:
    paces = httpx.get(f"{live.url}/api/games").json()["paces"]
    assert [(p["name"], p["seconds"]) for p in paces] == list(PACES.items())
    refused = make_room(live, [HUMAN, HUMAN], pace="blitz")
    assert refused.status_code == 400 and refused.json()["kind"] == "bad-request" and "pace" in refused.json()["error"]
    room = made(make_room(live, [HUMAN, HUMAN], pace="slow"))
    summary = httpx.get(f"{live.url}/api/rooms/{room['code']}", headers={"x-room-key": room["key"]}).json()
    assert summary["pace"] == "slow"


def test_every_snapshot_says_how_long_the_person_to_move_has(live: LiveServer) -> None:
    _, ana, ben = seat_two(live, pace="slow")
    frame = ana.frame
    clock = frame["clock"]
    mover = frame["table"]["to_move"]
    assert clock["pace"] == "slow" and clock["limit"] == 60.0 and clock["seat"] == mover and clock["bot"] == "greedy"
    assert 55 < clock["left"] <= 60
    time.sleep(0.5)
    play_turn({0: ana, 1: ben})
    again = ana.frame["clock"]
    assert again["seat"] == 1 - mover and again["left"] > clock["left"] - 0.5  # a new turn: the whole minute again
    _, c_ana, c_ben = seat_two(live)
    assert c_ana.frame["clock"] is None and c_ben.frame["clock"] is None


def test_out_of_time_a_bot_plays_for_the_person_until_they_come_back(live: LiveServer) -> None:
    _, ana, ben = seat_two(live, pace="quick")
    clients = {0: ana, 1: ben}
    mover = ana.frame["table"]["to_move"]
    late, other = clients[mover], clients[1 - mover]
    at = ana.frame["at"]
    started = time.monotonic()
    # Nobody plays: after a second the stand-in plays the late person's turn.
    taken = other.snapshot(lambda f: f["at"] > at, timeout=5)
    waited = time.monotonic() - started
    assert 0.9 < waited < 3.0, waited
    assert taken["seats"][mover]["stand_in"] == "greedy"
    assert late.snapshot(lambda f: f["at"] > at)["seats"][mover]["stand_in"] == "greedy"
    # The other person's turn: their clock runs, the late one's seat stays the bot's.
    assert taken["clock"]["seat"] == 1 - mover
    play_turn_of = other.frame
    other.send({"type": "move", "move": play_turn_of["table"]["legal"][0]["move"], "at": play_turn_of["at"]})
    # The bot plays the late person's next turn too (after its short pause), with no clock.
    bot_turn = other.snapshot(lambda f: f["at"] >= play_turn_of["at"] + 2, timeout=5)
    assert bot_turn["seats"][mover]["stand_in"] == "greedy"
    late.snapshot(lambda f: f["at"] >= bot_turn["at"])
    # Back: a "back" message takes the seat again, with a fresh clock.
    late.send({"type": "back"})
    back = late.snapshot(lambda f: f["seats"][mover]["stand_in"] is None)
    assert back["seats"][mover]["stand_in"] is None
    late.send({"type": "back"})
    assert late.error()["kind"] == "illegal"  # nobody plays for them now


def test_coming_back_by_reconnecting_takes_the_seat_back(live: LiveServer) -> None:
    room, ana, ben = seat_two(live, pace="quick")
    mover = ana.frame["table"]["to_move"]
    clients = {0: ana, 1: ben}
    tokens = {0: room["token"], 1: room["ben_token"]}
    players = {0: "ana", 1: "ben"}
    at = ana.frame["at"]
    clients[mover].close()  # the person to move walks away
    other = clients[1 - mover]
    taken = other.snapshot(lambda f: f["at"] > at and f["seats"][mover]["stand_in"] == "greedy", timeout=5)
    assert taken["seats"][mover]["away"]
    again = Client(live, room["code"], token=tokens[mover], player=players[mover])
    frame = again.snapshot()
    assert frame["you"] == mover and frame["seats"][mover]["stand_in"] is None
    assert other.snapshot(lambda f: f["seats"][mover]["stand_in"] is None)["seats"][mover]["away"] is False


def test_a_casual_room_waits_and_its_creator_frees_or_gives_away_a_seat(live: LiveServer) -> None:
    room = made(make_room(live, [HUMAN, HUMAN, HUMAN], player="ana"))
    ana = Client(live, room["code"], token=room["token"], player="ana")
    ana.snapshot()
    ben = Client(live, room["code"], key=room["key"], player="ben")
    ben.snapshot()
    ben.send({"type": "join", "seat": 1, "name": "Ben"})
    ben.until(lambda m: m.get("type") == "joined")
    ben.send({"type": "join", "seat": 2, "name": "Ben again"})
    assert ben.error()["kind"] == "bad-request"  # this socket has a seat
    twin = Client(live, room["code"], key=room["key"], player="ben")  # the same browser, another tab
    twin.snapshot()
    twin.send({"type": "join", "seat": 2, "name": "Benjamin"})
    assert twin.error()["kind"] == "seat-taken"  # one seat a person
    cid = Client(live, room["code"], key=room["key"], player="cid")
    cid.snapshot()
    cid.send({"type": "join", "seat": 2, "name": "Cid"})
    cid.until(lambda m: m.get("type") == "joined")
    ana.send({"type": "start"})
    ana.snapshot(lambda f: f["status"] == "playing")
    # Only the creator, only for someone who left.
    ben.send({"type": "free-seat", "seat": 2})
    assert ben.error()["kind"] == "not-ready"
    ana.send({"type": "free-seat", "seat": 2})
    assert ana.error()["kind"] == "seat-taken"
    ana.send({"type": "bot-seat", "seat": 0, "bot": "greedy"})
    assert ana.error()["kind"] == "bad-request"
    cid.close()
    ana.snapshot(lambda f: f["seats"][2]["away"])
    ana.send({"type": "bot-seat", "seat": 2, "bot": "nobody"})
    assert ana.error()["kind"] == "bad-request"
    ana.send({"type": "bot-seat", "seat": 2, "bot": "greedy"})
    given = ana.snapshot(lambda f: f["seats"][2]["kind"] == "bot")
    assert given["seats"][2]["bot"] == "greedy" and given["seats"][2]["taken"]
    ben.close()
    ana.snapshot(lambda f: f["seats"][1]["away"])
    ana.send({"type": "free-seat", "seat": 1})
    freed = ana.snapshot(lambda f: not f["seats"][1]["taken"])
    assert freed["seats"][1]["name"] == ""
    dan = Client(live, room["code"], key=room["key"], player="dan")
    dan.snapshot()
    dan.send({"type": "join", "seat": 1, "name": "Dan"})
    dan.until(lambda m: m.get("type") == "joined")
    frame = dan.snapshot(lambda f: f["you"] == 1)
    hand = next(p for p in frame["table"]["piles"] if p["name"] == "hand 1")
    assert hand["cards"] and all(c["up"] for c in hand["cards"])  # Ben's hand is Dan's now
    assert frame["clock"] is None
    # Play goes on with the bot in seat 3 and Dan in seat 2, to the end, bounded.
    clients = {0: ana, 1: dan}
    deadline = time.monotonic() + 60
    while ana.frame["status"] == "playing":
        assert time.monotonic() < deadline
        frame = ana.frame
        if frame["table"]["to_move"] in clients:
            play_turn(clients)
        else:
            ana.snapshot(lambda f, at=frame["at"]: f["at"] > at, timeout=5)
    assert ana.frame["status"] == "over"


def test_a_restart_keeps_the_stand_in_and_starts_the_clock_again(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", paces=PACES)
    try:
        room, ana, ben = seat_two(live, pace="quick")
        mover = ana.frame["table"]["to_move"]
        at = ana.frame["at"]
        other = {0: ana, 1: ben}[1 - mover]
        other.snapshot(lambda f: f["at"] > at and f["seats"][mover]["stand_in"] == "greedy", timeout=5)
        ana.close()
        ben.close()
        live.restart()
        tokens = {0: room["token"], 1: room["ben_token"]}
        watcher = Client(live, room["code"], key=room["key"])
        frame: dict[str, Any] = watcher.snapshot()
        assert frame["seats"][mover]["stand_in"] == "greedy"  # kept in the file
        back = Client(live, room["code"], token=tokens[1 - mover], player="ana" if mover else "ben")
        back.snapshot()
        # Nobody plays: the clock runs again after the restart and the game moves on by itself.
        later = watcher.snapshot(lambda f: f["at"] > frame["at"], timeout=6)
        assert later["at"] > frame["at"]
    finally:
        live.stop()

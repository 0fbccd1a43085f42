"""Replays, ratings and the lobby over the API (issue 30, "Replayable and rated"): a rated game of
two people played to its end over the rooms' sockets, replayed move by move from each seat (the
same tables the seats were sent), from a spectator's seat and with every card shown; both
ratings updated once (a second processing of the end and a restart change nothing); bots on
the ratings page; public rooms in the lobby, "play now", the identity carried to another browser.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.web import create_app
from cardtable.web.ratings import NEW, bot_rating, bot_ratings, rate_game
from cardtable.web.rooms import holder_of

from .test_rooms import BASE, GREEDY, HUMAN, enter, make_room, read_all, rooms_of

ANA, BEN = "ana-" + "a" * 24, "ben-" + "b" * 24
"""The two people's player ids (their browsers' cookies)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, bot_pause=0), base_url=BASE, cookies={"cardtable_player": ANA}) as client:
        yield client


def as_(client: TestClient, player: str) -> dict[str, str]:
    return {"cookie": f"cardtable_player={player}"}


def play_rated_game(client: TestClient) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """Ana and Ben play a rated room's game to its end, each moving the first legal move of
    their own table; the room's code and every frame each seat got, by move count."""
    room = make_room(client, [HUMAN, HUMAN])
    code = room["code"]
    tables: list[dict[str, Any]] = [{}, {}]
    with enter(client, code, room["token"]) as ana:
        assert ana.receive_json()["rated"] is True  # people only: rated unless chosen otherwise
        with enter(client, code, key=room["key"], person=BEN) as ben:
            ben.receive_json()
            ben.send_json({"type": "join", "seat": 1, "name": "Ben"})
            assert ben.receive_json()["type"] == "joined"
            read_all([ben, ana])
            ana.send_json({"type": "start"})
            frames = read_all([ana, ben])
            sockets = [ana, ben]
            while frames[0]["status"] == "playing":
                for seat in (0, 1):
                    tables[seat][frames[seat]["at"]] = frames[seat]
                mover = frames[0]["table"]["to_move"]
                move = frames[mover]["table"]["legal"][0]["move"]
                sockets[mover].send_json({"type": "move", "move": move, "at": frames[mover]["at"]})
                frames = read_all(sockets)
            for seat in (0, 1):
                tables[seat][frames[seat]["at"]] = frames[seat]
    return code, [tables[0][k] for k in sorted(tables[0])], [tables[1][k] for k in sorted(tables[1])]


def faces(table: dict[str, Any]) -> dict[str, list[str | None]]:
    return {p["name"]: [c["face"]["text"] if c["up"] else None for c in p["cards"]] for p in table["piles"]}


def test_a_rated_game_is_replayed_from_every_seat_and_rates_both_players_once(client: TestClient) -> None:
    code, ana_frames, ben_frames = play_rated_game(client)
    end = ana_frames[-1]
    assert end["status"] == "over" and end["replay"].startswith("/replay/")
    replay_id = end["replay"].removeprefix("/replay/")
    assert len(replay_id) >= 22 and ben_frames[-1]["replay"] == end["replay"]
    moves = end["at"]

    # Forward, back and a jump: each seat's replay is the table that seat was sent then.
    for seat, frames in ((0, ana_frames), (1, ben_frames)):
        for at in (0, 1, 2, moves // 2, moves, 3, 1):
            data = client.get(f"/api/replays/{replay_id}", params={"view": seat, "at": at}).json()
            assert data["at"] == at and data["moves"] == moves and data["view"] == seat
            live = frames[at]["table"]
            assert faces(data["table"]) == faces(live), (seat, at)
            assert data["table"]["lines"] == live["lines"] and data["table"]["turn"] == live["turn"]
            assert data["table"]["legal"] == []
    full = client.get(f"/api/replays/{replay_id}", params={"view": 0}).json()
    assert full["at"] == moves and len(full["log"]) == moves and full["log"][0] == ben_frames[1]["log"][0]
    assert full["result"]["ranks"] == end["result"]["ranks"] and full["seats"][1]["name"] == "Ben"

    # A spectator sees no hand; "all" shows every card of the game, at every move.
    watching = client.get(f"/api/replays/{replay_id}", params={"view": "spectator", "at": 3}).json()
    assert not any(f for name, pile in faces(watching["table"]).items() if name.startswith("hand") for f in pile)
    deck = len(cardtable.new_game("deserto", deal=0).rules.deck())
    for at in (0, 5, moves):
        every = client.get(f"/api/replays/{replay_id}", params={"view": "all", "at": at}).json()
        shown = [f for pile in faces(every["table"]).values() for f in pile]
        assert len(shown) == deck and None not in shown
    assert client.get("/api/replays/" + "x" * 22).status_code == 404
    assert client.get(f"/api/replays/{replay_id}", params={"view": 7}).status_code == 400
    assert client.get(f"/api/replays/{replay_id}", params={"at": moves + 1}).status_code == 400
    for field in ("at", "view"):  # digits that are not ASCII: refused, not a 500
        for text in ("\u00b2", "\u0661", "\uff11"):
            refused = client.get(f"/api/replays/{replay_id}", params={field: text})
            assert refused.status_code == 400 and refused.json()["error"], (field, text)

    # Both ratings moved once: the winner's up, the other's down; the bots are on the board.
    board = client.get("/api/ratings").json()
    people = {r["name"]: r for r in board["rows"] if r["bot"] is None}
    assert set(people) == {"Ana", "Ben"} and all(r["games"] == 1 for r in people.values())
    assert people["Ana"]["you"] and not people["Ben"]["you"]
    winner, loser = ("Ana", "Ben") if end["result"]["ranks"][0] < end["result"]["ranks"][1] else ("Ben", "Ana")
    if end["result"]["ranks"][0] != end["result"]["ranks"][1]:
        assert people[winner]["mu"] > 25 > people[loser]["mu"]
    assert {r["bot"] for r in board["rows"] if r["bot"]} == set(bot_ratings()["deserto"])
    ratings = [r["rating"] for r in board["rows"]]
    assert ratings == sorted(ratings, reverse=True)

    rooms = rooms_of(client)
    room = rooms.get(code)
    assert room is not None
    rooms._finish(room)  # the end processed again: counted once
    again = {r["name"]: r for r in client.get("/api/ratings").json()["rows"] if r["bot"] is None}
    assert again == people
    me = client.get("/api/me").json()
    assert me["id"] == ANA and me["name"] == "Ana" and me["ratings"][0]["games"] == 1
    assert [g["replay"] for g in me["games"]] == [end["replay"]] and me["games"][0]["seats"] == ["Ana", "Ben"]


def test_a_restart_replays_and_counts_a_rated_end_once(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, bot_pause=0), base_url=BASE, cookies={"cardtable_player": ANA}) as client:
        play_rated_game(client)
        before = client.get("/api/ratings").json()["rows"]
    with TestClient(create_app(tmp_path, bot_pause=0), base_url=BASE, cookies={"cardtable_player": ANA}) as client:
        assert client.get("/api/ratings").json()["rows"] == before


def test_rooms_with_bots_are_unrated_unless_chosen_and_a_rated_one_has_no_undo(client: TestClient) -> None:
    code = make_room(client, [HUMAN, GREEDY])["code"]
    room = rooms_of(client).get(code)
    assert room is not None and not room.rated
    response = client.post("/api/rooms", json={"name": "Ana", "seats": [HUMAN, GREEDY], "rated": True})
    rated = response.json()
    with enter(client, rated["code"], rated["token"]) as ws:
        frame = ws.receive_json()
        assert frame["rated"] is True
        mover = frame["table"]["to_move"]
        if mover != 0:
            frame = ws.receive_json()
        ws.send_json({"type": "hint", "at": frame["at"]})
        answer = ws.receive_json()
        assert answer["kind"] == "unavailable" and "rated" in answer["error"]


def test_a_rated_game_against_a_bot_rates_the_person_against_the_bots_fixed_rating(client: TestClient) -> None:
    rated = client.post("/api/rooms", json={"name": "Ana", "seats": [HUMAN, GREEDY], "rated": True}).json()
    with enter(client, rated["code"], rated["token"]) as ws:
        frame = ws.receive_json()
        assert frame["rated"] is True and frame["status"] == "playing"  # one person and a bot: at once
        while frame["status"] != "over":
            if frame["type"] == "snapshot" and frame["table"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": frame["table"]["legal"][0]["move"], "at": frame["at"]})
            frame = ws.receive_json()
    ranks = frame["result"]["ranks"]
    board = client.get("/api/ratings").json()["rows"]
    (ana,) = [r for r in board if r["bot"] is None]
    # Ana's new rating is the one a game against the bot's measured rating gives; a newcomer
    # in the bot's seat would give another.
    greedy = bot_rating("deserto", "greedy")
    assert greedy != NEW
    expected = rate_game([NEW, greedy], ranks, [True, False])[0]
    as_newcomer = rate_game([NEW, NEW], ranks, [True, True])[0]
    holder = holder_of(ANA)
    assert holder is not None
    stored = rooms_of(client).db.ratings("deserto", [holder])[holder]
    assert ana["games"] == stored.games == 1 and ana["mu"] == round(expected.mu, 2)
    assert abs(stored.mu - expected.mu) < 1e-9 and abs(stored.sigma - expected.sigma) < 1e-9
    assert max(abs(expected.mu - as_newcomer.mu), abs(expected.sigma - as_newcomer.sigma)) > 0.01
    # The bot's rating stays fixed: the board shows the measured one.
    bots = {r["bot"]: r for r in board if r["bot"]}
    assert (bots["greedy"]["mu"], bots["greedy"]["sigma"]) == (round(greedy.mu, 2), round(greedy.sigma, 2))


def test_the_lobby_lists_public_rooms_and_play_now_seats_a_second_person(client: TestClient) -> None:
    private = make_room(client, [HUMAN, HUMAN])
    assert client.get("/api/lobby").json()["rooms"] == []
    with enter(client, private["code"], private["token"]) as ana:
        ana.receive_json()
        ana.send_json({"type": "public", "public": True})
        assert ana.receive_json()["public"] is True
        listed = client.get("/api/lobby").json()["rooms"]
        assert [(r["code"], r["seats"], r["taken"], r["rated"]) for r in listed] == [(private["code"], 2, 1, True)]
        ana.send_json({"type": "public", "public": False})
        ana.receive_json()
    assert client.get("/api/lobby").json()["rooms"] == []

    first = client.post("/api/play-now", json={"players": 3, "name": "Cleo"}, headers=as_(client, "c" * 24)).json()
    assert first["token"] and first["link"] == f"/room/{first['code']}#key={first['key']}"
    listed = client.get("/api/lobby").json()["rooms"]
    assert [(r["code"], r["seats"], r["taken"], r["game"], r["names"]) for r in listed] == [
        (first["code"], 3, 1, "deserto", ["Cleo"])
    ]
    again = client.post("/api/play-now", json={"players": 3, "name": "Cleo"}, headers=as_(client, "c" * 24)).json()
    assert again["code"] == first["code"] and again["token"] is None  # this browser holds its seat already
    second = client.post("/api/play-now", json={"players": 3, "name": "Dan"}, headers=as_(client, "d" * 24)).json()
    assert second["code"] == first["code"] and second["token"] != first["token"]
    other_size = client.post("/api/play-now", json={"players": 2, "name": "Eve"}, headers=as_(client, "e" * 24))
    assert other_size.json()["code"] != first["code"]
    third = client.post("/api/play-now", json={"players": 3, "name": "Fay"}, headers=as_(client, "f" * 24)).json()
    room = rooms_of(client).get(first["code"])
    assert third["code"] == first["code"] and room is not None and room.status == "playing"  # full: started
    assert [r["code"] for r in client.get("/api/lobby").json()["rooms"]] == [other_size.json()["code"]]
    with enter(client, first["code"], third["token"]) as fay:
        frame = fay.receive_json()
        assert frame["you"] == 2 and frame["status"] == "playing" and frame["rated"] is True

    for body in ({"players": 9, "name": "Gil"}, {"players": 2, "name": "\u202e"}, {"players": 2}):
        assert client.post("/api/play-now", json=body).status_code == 400, body


def test_play_now_is_rate_limited(tmp_path: Path) -> None:
    from cardtable.web.limits import Limits

    app = create_app(":memory:", bot_pause=0, limits=Limits(play_now_burst=2, play_now_per_minute=0.001))
    with TestClient(app, base_url=BASE) as client:
        for i in range(2):
            assert client.post("/api/play-now", json={"players": 2, "name": f"P{i}"}).status_code == 200
        refused = client.post("/api/play-now", json={"players": 2, "name": "P3"})
        assert refused.status_code == 429 and refused.json()["kind"] == "too-many"


def test_an_identity_is_carried_to_another_browser(client: TestClient) -> None:
    me = client.get("/api/me").json()
    assert me["id"] == ANA and me["link"] == f"/me#id={ANA}"
    assert client.post("/api/me", json={"name": "Ana B"}).json()["name"] == "Ana B"
    other = TestClient(client.app, base_url=BASE)
    fresh = other.get("/api/me").json()
    assert fresh["id"] != ANA and len(fresh["id"]) >= 22 and fresh["name"] == ""
    adopted = other.post("/api/me/adopt", json={"id": ANA})
    assert adopted.status_code == 200 and adopted.json()["name"] == "Ana B"
    assert other.get("/api/me").json()["id"] == ANA
    for bad in ("short", "x" * 65, "a" * 30 + ";"):
        assert other.post("/api/me/adopt", json={"id": bad}).status_code == 400
    assert other.post("/api/me", json={"name": "x" * 40}).status_code == 400
    assert secrets  # the module's names are used

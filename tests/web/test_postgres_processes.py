"""Two server processes sharing one PostgreSQL database; one of them is SIGKILLed mid-game.

Two real servers (uvicorn, each a process of its own, on 127.0.0.1, different ports)
share a throwaway PostgreSQL cluster. Two rooms are played with their people's sockets
spread over both processes: a room of two people and a greedy bot at a short clock,
made at the first process (which holds its lease: its bot and clock run there), and a
room of two people made at the second. After some moves the first process is killed
with SIGKILL, its sockets still open. Every socket it had reconnects to the survivor,
saying the last move it saw (``hello``'s ``game_no`` and ``at``) and is told every move
since; the survivor takes the first room's lease over, so its bot and its clock go on (a
person who does not move has a bot play for them); and at the end every seat's table is
the game stored in the database: each move stored once, none lost, none doubled.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.sync.client import connect

from .pg_cluster import Cluster
from .rooms_client import GREEDY, HUMAN, SeatSocket, move_at_random, wait_serving

pytestmark = pytest.mark.postgres

CLOCK = 1.5
"""Seconds a person has for a move in the room with a clock."""

LAUNCHER = """
import sys, uvicorn
from cardtable.web import SERVER_OPTIONS, create_app
url, port, clock = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
app = create_app(database=url, bot_pause=0.05, paces={"casual": None, "fast": clock}, lease_seconds=0.2)
uvicorn.run(app, host="127.0.0.1", port=port, **SERVER_OPTIONS)
"""


class Process:
    """One server process on a free loopback port."""

    def __init__(self, url: str) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        command = [sys.executable, "-c", LAUNCHER, url, str(self.port), str(CLOCK)]
        self.proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_serving(self.proc, self.url, 30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{code}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)


class Seat(SeatSocket):
    """A person's socket, with the first frame after each hello."""

    def __init__(self, seat: int, token: str) -> None:
        super().__init__(seat)
        self.token = token
        self.greeted: list[dict[str, Any]] = []

    def hello(self, stack: ExitStack, process: Process, code: str) -> None:
        """Connect (again): the hello says the last move seen, if any."""
        self.ws = stack.enter_context(connect(process.ws(code), close_timeout=1))
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.frame.get("status") in ("playing", "over"):
            hello.update(game_no=self.frame["game_no"], at=self.frame["at"])
        self.ws.send(json.dumps(hello))
        self.greeted.append(self.wait_frame())

    def wait_frame(self) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            message = json.loads(self.ws.recv(timeout=10))
            self.take(message)
            if message["type"] == "snapshot":
                return self.frame


class Room:
    """A room of the test: its code and its people's seats."""

    def __init__(self, code: str, seats: list[Seat]) -> None:
        self.code = code
        self.seats = seats
        self.sent: set[int] = set()
        self.moved = 0

    def play(self, rng: random.Random, idle: int | None = None) -> None:
        """The person to move (by their newest snapshot) plays a random legal move (not ``idle``)."""
        if move_at_random(self.seats, self.sent, rng, idle):
            self.moved += 1


def stored(url: str, code: str) -> list[str]:
    """A room's stored moves (game 0), from the database."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT n, move FROM room_moves WHERE code = %s AND game_no = 0 ORDER BY n", (code,))
        found = rows.fetchall()
    assert [n for n, _ in found] == list(range(len(found)))  # each move number once, none missing
    return [m for _, m in found]


def converged(url: str, room: Room) -> bool:
    """Every seat's newest snapshot is the stored game."""
    moves = stored(url, room.code)
    return all(s.frame.get("at") == len(moves) and len(s.frame["table"]["history"]) == len(moves) for s in room.seats)


def join(stack: ExitStack, process: Process, code: str, key: str, seat: int, name: str) -> Seat:
    """A person takes a free seat by the invite link at ``process``."""
    ws = stack.enter_context(connect(process.ws(code), close_timeout=1))
    ws.send(json.dumps({"type": "hello", "key": key}))
    while (answer := json.loads(ws.recv(timeout=10)))["type"] != "joined":
        if answer["type"] == "snapshot" and answer["seats"][seat]["taken"] is False:
            ws.send(json.dumps({"type": "join", "seat": seat, "name": name}))
    person = Seat(seat, answer["token"])
    person.ws = ws
    return person


def test_a_killed_process_loses_nothing_and_its_rooms_go_on_at_the_other(cluster: Cluster) -> None:
    url = cluster.database()
    rng = random.Random(30)
    first, second = Process(url), Process(url)
    try:
        with ExitStack() as stack:
            made = httpx.post(
                f"{first.url}/api/rooms", json={"name": "Ana", "seats": [HUMAN, HUMAN, GREEDY], "pace": "fast"}
            ).json()
            ana = Seat(0, made["token"])
            ana.hello(stack, first, made["code"])
            ben = join(stack, second, made["code"], made["key"], 1, "Ben")
            timed = Room(made["code"], [ana, ben])
            made = httpx.post(f"{second.url}/api/rooms", json={"name": "Cleo", "seats": [HUMAN, HUMAN]}).json()
            cleo = Seat(0, made["token"])
            cleo.hello(stack, second, made["code"])
            dan = join(stack, first, made["code"], made["key"], 1, "Dan")
            duel = Room(made["code"], [cleo, dan])
            rooms = [timed, duel]
            for room in rooms:
                room.seats[0].send({"type": "start"})

            # People at both processes play; the bot of the timed room answers at the first.
            deadline = time.monotonic() + 20
            while any(r.moved < 6 for r in rooms):
                assert time.monotonic() < deadline, [(r.code, r.moved) for r in rooms]
                for room in rooms:
                    for seat in room.seats:
                        seat.poll(0.01)
                    room.play(rng)
            before = {(r.code, s.seat): s.frame["at"] for r in rooms for s in r.seats}
            for room in rooms:  # every move a socket saw accepted is stored
                assert all(at <= len(stored(url, room.code)) for at in (s.frame["at"] for s in room.seats))

            first.stop()  # SIGKILL, mid-game, every socket still open

            # Its sockets are closed; they come back at the survivor with the last move they saw.
            for seat in (ana, dan):
                deadline = time.monotonic() + 10
                while seat.poll(0.05):
                    assert time.monotonic() < deadline, "the killed process's socket stayed open"
            for room, seat in ((timed, ana), (duel, dan)):
                seat.hello(stack, second, room.code)
                greeted = seat.greeted[-1]
                assert greeted["at"] >= before[(room.code, seat.seat)]
                assert greeted["log_from"] <= before[(room.code, seat.seat)]  # told every move since

            # The survivor took the timed room over: its bot plays and its clock runs. Ana
            # does not move: her time runs out and a bot plays for her; the others play on.
            deadline = time.monotonic() + 25
            while timed.moved < 10 or duel.moved < 10 or not any(s["stand_in"] for s in ana.frame["seats"]):
                assert time.monotonic() < deadline, ([(r.code, r.moved) for r in rooms], ana.frame["seats"])
                for room in rooms:
                    for seat in room.seats:
                        assert seat.poll(0.01)
                    room.play(rng, idle=0 if room is timed else None)
            # Every seat converges to the stored game: every move stored once, none lost.
            deadline = time.monotonic() + 10
            while not all(converged(url, r) for r in rooms):
                assert time.monotonic() < deadline, [
                    (s.frame["at"], len(stored(url, r.code))) for r in rooms for s in r.seats
                ]
                for room in rooms:
                    for seat in room.seats:
                        seat.poll(0.05)
            for room in rooms:
                moves = stored(url, room.code)
                for seat in room.seats:
                    table = seat.frame["table"]
                    for line, move in zip(table["history"], moves, strict=True):
                        assert move in line or "gives" in line, (line, move)
                    seen = sorted(set(seat.states))
                    assert seen[-1] == len(moves)
            assert ana.frame["seats"][0]["stand_in"] == "greedy"
            assert not ana.frame["seats"][0]["away"] and not dan.frame["seats"][0]["away"]
    finally:
        first.stop()
        second.stop()


def test_cardtable_serve_database_runs_the_app_on_postgresql(cluster: Cluster, tmp_path: Path) -> None:
    """The command itself: ``cardtable serve --database postgresql://...`` keeps a table made
    through it in PostgreSQL, and no data folder is made."""
    url = cluster.database()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    command = [
        sys.executable,
        "-c",
        "from cardtable.cli.main import main; main()",
        "serve",
        "--database",
        url,
        "--port",
        str(port),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_serving(proc, base, 30)
        table = httpx.post(f"{base}/api/tables", json={"game": "klondike", "deal": 7}, timeout=10).json()
        with psycopg.connect(url) as conn:
            stored = conn.execute("SELECT game FROM tables WHERE id = %s", (table["id"],)).fetchall()
        assert stored == [("klondike",)]
        assert not (tmp_path / "cardtable-data").exists()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert b"games kept in PostgreSQL" in out

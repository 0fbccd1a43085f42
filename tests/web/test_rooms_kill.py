"""Killing the server (SIGKILL) in the middle of Deserto games loses nothing.

The real server runs as a process (``cardtable serve``) on 127.0.0.1; rooms
of 2, 3 and 4 seats (people and bots) play random legal moves over real
WebSockets, all at once. With every socket still open, the server is killed
with SIGKILL and started again on the same data folder. Every room resumes at
its last accepted move: each seat sees exactly the table it saw before, the
moves stored in SQLite are the moves the clients saw accepted, and play goes
on (the person to move plays, everyone hears of it, the bots answer again).
"""

from __future__ import annotations

import json
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .rooms_client import GREEDY, HUMAN, RANDOM, SeatSocket, move_at_random, wait_serving

PERSON_MOVES = 10
"""Moves people make in each room before the kill (a game has 51 moves: it goes on)."""

MOVE_TEXT = re.compile(r"^seat \d: (\S+?)(?:,|$)")
"""A history line that shows its move's text ("seat 2: T4, wins ..."); a gift shows
its kind to its giver and receiver only ("seat 0: gives a card to seat 2")."""


class Server:
    """``cardtable serve`` as a process on a free loopback port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "cardtable.cli.main", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data", str(self.data)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_serving(self.proc, self.url, 20)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever SQLite committed is all that is left."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stored(self, code: str) -> list[str]:
        """A room's stored moves (game 0), read from the SQLite file opened read-only."""
        db = sqlite3.connect(f"file:{self.data / 'cardtable.sqlite'}?mode=ro", uri=True)
        try:
            query = "SELECT move FROM room_moves WHERE code = ? AND game_no = 0 ORDER BY n"
            return [m for (m,) in db.execute(query, (code,))]
        finally:
            db.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data")
    try:
        running.start()
        yield running
    finally:
        running.stop()


class Seat(SeatSocket):
    """One seated socket, which can wait for a state."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        super().__init__(seat, ws)

    def wait(self, state: int, timeout: float = 15) -> dict[str, Any]:
        """Read until a snapshot of a game being played (or over) at ``state`` or later."""
        deadline = time.monotonic() + timeout
        while self.frame.get("status") in (None, "lobby") or self.frame["at"] < state:
            assert time.monotonic() < deadline, f"seat {self.seat}: no snapshot at state {state}"
            assert self.poll(0.2), f"seat {self.seat}: the socket closed"
        return self.frame


class Table:
    """One room of the test: its people's sockets."""

    def __init__(self, code: str, seats: dict[int, Seat]) -> None:
        self.code = code
        self.seats = seats
        self.moved = 0
        self.sent: set[int] = set()

    def state(self) -> int:
        return max(int(s.frame.get("at", 0)) for s in self.seats.values())

    def at_rest(self) -> bool:
        """Every socket has the newest position (every move sent is in it), and a person is
        to move (or the game is over): nothing can happen until a person plays."""
        frames = [s.frame for s in self.seats.values()]
        if any(f.get("status") not in ("playing", "over") for f in frames):
            return False
        if len({f["at"] for f in frames}) != 1 or any(turn >= frames[0]["at"] for turn in self.sent):
            return False
        return frames[0]["status"] == "over" or frames[0]["table"]["to_move"] in self.seats

    def play(self, rng: random.Random) -> None:
        """If a person is to move (by that person's newest snapshot), a random legal move."""
        if move_at_random(self.seats.values(), self.sent, rng):
            self.moved += 1

    def settle(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while not self.at_rest():
            assert time.monotonic() < deadline, f"room {self.code} did not come to rest (bots?)"
            for seat in self.seats.values():
                seat.poll(0.05)


def seated(stack: ExitStack, server: Server, code: str, tokens: dict[int, str]) -> Table:
    """Sockets for a room's people, by their seat tokens."""
    seats = {}
    for i, token in tokens.items():
        url = f"ws://127.0.0.1:{server.port}/ws/rooms/{code}"
        ws = stack.enter_context(connect(url, close_timeout=1))
        ws.send(json.dumps({"type": "hello", "token": token}))  # the seat token in the first message, not the URL
        seats[i] = Seat(ws, i)
    return Table(code, seats)


def seen_moves(table: Table) -> list[str | None]:
    """The moves of the game as the room's people saw them (None: a gift between bots,
    whose kind nobody in the room was shown)."""
    histories = [s.frame["table"]["history"] for s in table.seats.values()]
    assert len({len(h) for h in histories}) == 1
    seen: list[str | None] = []
    for lines in zip(*histories, strict=True):
        texts = {m.group(1) for line in lines if (m := MOVE_TEXT.match(line))}
        assert len(texts) <= 1, lines
        seen.append(texts.pop() if texts else None)
    return seen


def test_a_killed_server_resumes_every_room_at_its_last_move(server: Server) -> None:
    rng = random.Random(9)
    layouts = [[HUMAN, HUMAN], [HUMAN, HUMAN, GREEDY], [HUMAN, GREEDY, RANDOM, HUMAN]]
    with ExitStack() as stack:
        tables: list[Table] = []
        tokens: dict[str, dict[int, str]] = {}
        for layout in layouts:
            made = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana", "seats": layout}).json()
            code = made["code"]
            tokens[code] = {0: made["token"]}
            table = seated(stack, server, code, {0: made["token"]})
            for i, spec in enumerate(layout[1:], start=1):
                if spec["kind"] != "human":
                    continue
                # A spectator takes a free seat; the same socket then plays it.
                ws = stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/rooms/{code}", close_timeout=1))
                ws.send(json.dumps({"type": "hello", "key": made["key"]}))
                ws.recv(timeout=10)
                ws.send(json.dumps({"type": "join", "seat": i, "name": f"P{i}"}))
                while (answer := json.loads(ws.recv(timeout=10)))["type"] != "joined":
                    pass
                assert answer["seat"] == i
                tokens[code][i] = answer["token"]
                table.seats[i] = Seat(ws, i)
            table.seats[0].send({"type": "start"})
            tables.append(table)

        # All rooms at once: people play as soon as they are to move, bots answer.
        deadline = time.monotonic() + 25
        while any(t.moved < PERSON_MOVES for t in tables):
            assert time.monotonic() < deadline, [(t.code, t.moved) for t in tables]
            for table in tables:
                for seat in table.seats.values():
                    seat.poll(0.01)
                if table.moved < PERSON_MOVES:
                    table.play(rng)
        for table in tables:
            table.settle()
        before = {(t.code, i): s.frame for t in tables for i, s in t.seats.items()}
        for table in tables:
            last = table.state()
            assert table.seats[0].frame["status"] == "playing" and last >= PERSON_MOVES
            for seat in table.seats.values():  # every accepted move was broadcast to every seat
                assert sorted(set(seat.states)) == list(range(last + 1)), (table.code, seat.seat)
            # Stored before broadcast: SQLite holds exactly the moves the clients saw accepted.
            stored = server.stored(table.code)
            assert len(stored) == last
            for text, shown in zip(stored, seen_moves(table), strict=True):
                assert text == shown if shown is not None else text.startswith("g"), (stored, seen_moves(table))

        server.kill()  # in the middle of three games, every socket still open

    server.start()
    with ExitStack() as stack:
        for code, seats in tokens.items():
            stored = server.stored(code)
            table = seated(stack, server, code, seats)
            for i, seat in table.seats.items():
                again = seat.wait(0)
                old = before[(code, i)]
                assert again["you"] == i
                assert again["status"] == old["status"] == "playing"
                assert again["at"] == old["at"] == len(stored)
                assert again["table"] == old["table"], (code, i)  # same hand, area, counts, history
                assert again["log"] == old["log"]
            # Play goes on: the person to move plays, everyone hears of it, bots answer.
            last = table.state()
            table.play(rng)
            for seat in table.seats.values():
                assert seat.wait(last + 1)["at"] >= last + 1
            table.settle()
            assert server.stored(code)[: len(stored)] == stored
            assert len(server.stored(code)) == table.state() > last


def test_a_bot_to_move_when_the_server_was_killed_plays_after_the_restart(server: Server) -> None:
    made = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana", "seats": [HUMAN, GREEDY]}).json()
    code, token = made["code"], made["token"]
    with ExitStack() as stack:
        table = seated(stack, server, code, {0: token})
        seat = table.seats[0]  # one person against a bot: the game started when the room was made
        frame = seat.wait(0)
        seat.send({"type": "move", "move": frame["table"]["legal"][0]["move"], "at": 0})
        assert seat.wait(1)["table"]["to_move"] == 1
        server.kill()  # during the bot's pause (0.7 s)
    assert server.stored(code) and len(server.stored(code)) == 1
    server.start()
    with ExitStack() as stack:
        seat = seated(stack, server, code, {0: token}).seats[0]
        assert seat.wait(0)["at"] == 1
        seat.wait(2, timeout=5)  # the bot plays its move

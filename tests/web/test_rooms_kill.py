"""Killing the server (SIGKILL) in the middle of Deserto games loses nothing.

The real server runs as a process (``cardtable serve``) on 127.0.0.1; rooms
of 2, 3 and 4 seats (people and bots) play some moves over real WebSockets;
the server is killed with SIGKILL and started again on the same data folder.
Every room resumes at its last accepted move: each seat sees exactly the table
it saw before, the stored moves are the moves the clients saw, and play goes on.
"""

from __future__ import annotations

import json
import random
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

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}
RANDOM = {"kind": "bot", "bot": "random"}


class Server:
    """``cardtable serve`` as a process on a free loopback port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "cardtable.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
        ]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data")
    running.start()
    try:
        yield running
    finally:
        if running.proc is not None and running.proc.poll() is None:
            running.proc.kill()
            running.proc.wait(timeout=10)


class Seat:
    """One seated socket and the newest snapshot it was sent."""

    def __init__(self, stack: ExitStack, server: Server, code: str, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/rooms/{code}?token={token}"
        self.ws: ClientConnection = stack.enter_context(connect(url))
        self.frame: dict[str, Any] = {}

    def read(self, timeout: float) -> bool:
        """Read one message (a snapshot becomes the newest); whether one came."""
        try:
            message = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return False
        if message["type"] == "snapshot":
            self.frame = message
        return True

    def settle(self, people: dict[int, str]) -> dict[str, Any]:
        """Read until a person (a seat of ``people``) is to move, or the game is not
        being played, and nothing more comes; the newest snapshot."""
        deadline = time.monotonic() + 15
        while True:
            while self.read(0.3):
                pass
            table = self.frame.get("table")
            if self.frame.get("status") != "playing" or (table and table["to_move"] in people):
                return self.frame
            assert time.monotonic() < deadline, "the bots did not answer"
            self.read(1.0)

    def wait(self, state: int) -> dict[str, Any]:
        """Read until a snapshot at ``state`` or later."""
        deadline = time.monotonic() + 15
        while self.frame.get("state", -1) < state or self.frame.get("status") == "lobby":
            assert time.monotonic() < deadline, "no snapshot came"
            self.read(1.0)
        return self.frame


def test_a_killed_server_resumes_every_room_at_its_last_move(server: Server) -> None:
    rng = random.Random(9)
    layouts = [[HUMAN, HUMAN], [HUMAN, HUMAN, GREEDY], [HUMAN, GREEDY, RANDOM, HUMAN]]
    rooms: list[tuple[str, dict[int, str]]] = []
    for seats in layouts:
        made = httpx.post(f"{server.url}/api/rooms", json={"name": "Ana", "seats": seats}).json()
        tokens = {0: made["token"]}
        for i, spec in enumerate(seats[1:], start=1):
            if spec["kind"] == "human":
                with connect(f"ws://127.0.0.1:{server.port}/ws/rooms/{made['code']}") as ws:
                    ws.recv(timeout=10)
                    ws.send(json.dumps({"type": "join", "seat": i, "name": f"P{i}"}))
                    tokens[i] = json.loads(ws.recv(timeout=10))["token"]
        rooms.append((made["code"], tokens))
    seen: dict[tuple[str, int], dict[str, Any]] = {}
    for code, tokens in rooms:
        with ExitStack() as stack:
            seated = {i: Seat(stack, server, code, t) for i, t in tokens.items()}
            seated[0].ws.send(json.dumps({"type": "start"}))
            for _ in range(12):  # moves by people; the bots answer in between
                seated[0].wait(0)
                frame = seated[0].settle(tokens)
                if frame["status"] != "playing":
                    break
                mover = seated[frame["table"]["to_move"]]
                mine = mover.wait(frame["state"])
                move = rng.choice(mine["table"]["legal"])["move"]
                mover.ws.send(json.dumps({"type": "move", "move": move, "turn": mine["state"]}))
                seated[0].wait(frame["state"] + 1)
            for i, seat in seated.items():
                seen[(code, i)] = seat.settle(tokens)
    server.kill()
    server.start()
    db = sqlite3.connect(f"file:{server.data / 'cardtable.sqlite'}?mode=ro", uri=True)
    for code, tokens in rooms:
        stored = [m for (m,) in db.execute("SELECT move FROM room_moves WHERE code = ? ORDER BY n", (code,))]
        with ExitStack() as stack:
            seated = {i: Seat(stack, server, code, t) for i, t in tokens.items()}
            for i, seat in seated.items():
                again = seat.wait(0)
                before = seen[(code, i)]
                assert again["you"] == i
                assert again["state"] == before["state"] == len(stored) > 0
                assert again["table"] == before["table"]
            # Play goes on: the person to move plays, and everyone hears of it.
            frame = seated[0].settle(tokens)
            if frame["status"] == "playing":
                mover = seated[frame["table"]["to_move"]]
                mine = mover.wait(frame["state"])
                mover.ws.send(
                    json.dumps({"type": "move", "move": mine["table"]["legal"][0]["move"], "turn": mine["state"]})
                )
                for seat in seated.values():
                    assert seat.wait(frame["state"] + 1)["state"] == frame["state"] + 1
    db.close()

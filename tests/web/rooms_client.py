"""Clients of a live server for the rooms' tests: HTTP and WebSocket as a browser (its cookie,
its address through ``X-Forwarded-For``, its ``Origin``) or as an attacker (a raw socket
that never reads, binary frames, floods). Every wait is bounded in time.

uvicorn takes a client's address from ``X-Forwarded-For`` when the connection comes from
127.0.0.1 (its trusted proxy by default), so one test can be many addresses.
"""

from __future__ import annotations

import base64
import json
import os
import random
import secrets
import socket
import struct
import subprocess
import time
from collections.abc import Iterable
from typing import Any, cast

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from .conftest import LiveServer

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}
RANDOM = {"kind": "bot", "bot": "random"}


def headers(player: str | None = None, address: str | None = None, origin: str | None = None) -> dict[str, str]:
    """A browser's headers: its cookie, its address (through the trusted proxy header), its Origin."""
    out = {}
    if player is not None:
        out["cookie"] = f"cardtable_player={player}"
    if address is not None:
        out["x-forwarded-for"] = address
    if origin is not None:
        out["origin"] = origin
    return out


def make_room(
    live: LiveServer,
    seats: list[dict[str, Any]],
    name: str = "Ana",
    player: str | None = None,
    address: str | None = None,
    **body: Any,
) -> httpx.Response:
    """POST /api/rooms as a browser (a new cookie unless ``player`` is given)."""
    who = headers(player or secrets.token_hex(8), address)
    return httpx.post(f"{live.url}/api/rooms", json={"name": name, "seats": seats, **body}, headers=who, timeout=10)


def made(response: httpx.Response) -> dict[str, Any]:
    """A room that was made: its answer's JSON."""
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


class Client:
    """One WebSocket of a room that said who it is; its frames as they come, bounded waits."""

    def __init__(
        self,
        live: LiveServer,
        code: str,
        token: str | None = None,
        key: str | None = None,
        player: str | None = None,
        address: str | None = None,
        origin: str | None = None,
    ) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{live.port}/ws/rooms/{code}",
            origin=cast("Origin | None", origin),
            additional_headers=headers(player or secrets.token_hex(8), address),
            open_timeout=10,
            close_timeout=2,
            max_size=2**22,
        ).__enter__()
        self.frame: dict[str, Any] = {}
        self.seen: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token, "key": key})

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def next(self, timeout: float = 10) -> dict[str, Any]:
        """The next message (a snapshot is kept as ``frame``)."""
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        if message.get("type") == "snapshot":
            self.frame = message
        return message

    def until(self, test: Any, timeout: float = 10) -> dict[str, Any]:
        """Read until a message passes ``test`` (within ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no such message within {timeout} s (last: {self.seen[-1:]})"
            message = self.next(left)
            if test(message):
                return message

    def snapshot(self, test: Any = lambda f: True, timeout: float = 10) -> dict[str, Any]:
        """The next snapshot that passes ``test``."""
        return self.until(lambda m: m.get("type") == "snapshot" and test(m), timeout)

    def error(self, timeout: float = 10) -> dict[str, Any]:
        return self.until(lambda m: m.get("type") == "error", timeout)

    def closed(self, timeout: float = 10) -> int | None:
        """Read until the server closes the socket; its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.next(deadline - time.monotonic())
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            pass
        raise AssertionError(f"the socket stayed open for {timeout} s")

    def close(self) -> None:
        self.ws.close()


def seat_two(live: LiveServer, **body: Any) -> tuple[dict[str, Any], Client, Client]:
    """A room of two people, started: its answer (with Ben's seat token as ``ben_token``),
    Ana's socket (the creator), Ben's."""
    room = made(make_room(live, [HUMAN, HUMAN], player="ana", **body))
    ana = Client(live, room["code"], token=room["token"], player="ana")
    ana.snapshot()
    ben = Client(live, room["code"], key=room["key"], player="ben")
    ben.snapshot()
    ben.send({"type": "join", "seat": 1, "name": "Ben"})
    room["ben_token"] = ben.until(lambda m: m.get("type") == "joined")["token"]
    ana.send({"type": "start"})
    ana.snapshot(lambda f: f["status"] == "playing")
    ben.snapshot(lambda f: f["status"] == "playing")
    return room, ana, ben


def person_turn(client: Client, seat: int = 0, timeout: float = 10) -> dict[str, Any]:
    """The newest snapshot once ``seat`` is to move (or the game is over)."""

    def ready(frame: dict[str, Any]) -> bool:
        return bool(frame["status"] == "over" or (frame["table"] and frame["table"]["to_move"] == seat))

    if client.frame and ready(client.frame):
        return client.frame
    return client.snapshot(ready, timeout)


def play_turn(clients: dict[int, Client], timeout: float = 10) -> int:
    """The person to move plays their first legal move; every socket sees it; the new count."""
    frame = next(iter(clients.values())).frame
    mover = frame["table"]["to_move"]
    at = int(frame["at"])
    client = clients[mover]
    if client.frame.get("at") != at:  # a socket not read for a while: its newest snapshot first
        client.snapshot(lambda f: f["at"] >= at, timeout)
    client.send({"type": "move", "move": client.frame["table"]["legal"][0]["move"], "at": at})
    for c in clients.values():
        c.snapshot(lambda f: f["at"] > at, timeout)
    return at + 1


class RawSocket:
    """A WebSocket made by hand that reads nothing unless asked (a small receive buffer):
    the attacker of the issue, a spectator that never reads."""

    def __init__(self, live: LiveServer, code: str, rcvbuf: int = 4096) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", live.port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 101"), answer

    def send(self, payload: bytes, opcode: int = 1) -> None:
        """One masked frame (text by default; 2 is binary)."""
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x80 | opcode])
        if size < 126:
            head += bytes([0x80 | size])
        elif size < 2**16:
            head += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", size)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def send_json(self, message: Any) -> None:
        self.send(json.dumps(message).encode())

    def close(self) -> None:
        self.sock.close()


def wait_serving(proc: subprocess.Popen[bytes], url: str, seconds: float) -> None:
    """Wait until the server process ``proc`` answers ``GET url/api/games`` (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        assert proc.poll() is None, "the server stopped"
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"the server did not start within {seconds} s"
        time.sleep(0.1)


class SeatSocket:
    """One seated person's socket (``ws``, set when connected): the newest snapshot it was
    sent (``frame``) and the state of every snapshot of a game it was sent (``states``)."""

    def __init__(self, seat: int, ws: ClientConnection | None = None) -> None:
        self.seat = seat
        self.ws = ws
        self.frame: dict[str, Any] = {}
        self.states: list[int] = []

    def take(self, message: dict[str, Any]) -> None:
        """Read one message: no error but a stale move's; a snapshot is the newest frame."""
        assert message["type"] != "error" or message["kind"] == "stale", message
        if message["type"] == "snapshot":
            self.frame = message
            if message["status"] != "lobby":
                self.states.append(message["at"])

    def poll(self, timeout: float = 0.0) -> bool:
        """Read every message that has come (waiting up to ``timeout`` for the first); False
        when the socket is closed (its server is gone)."""
        assert self.ws is not None
        try:
            self.take(json.loads(self.ws.recv(timeout=timeout)))
            while True:
                self.take(json.loads(self.ws.recv(timeout=0)))
        except TimeoutError:
            return True
        except (ConnectionClosed, OSError):
            return False

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))


def move_at_random(seats: Iterable[SeatSocket], sent: set[int], rng: random.Random, idle: int | None = None) -> bool:
    """The first person to move by their newest snapshot, at a state no move was ``sent`` at
    (not seat ``idle``, nor a seat a stand-in plays for), sends a random legal move; the
    state goes into ``sent``. True if a move was sent."""
    for seat in seats:
        frame = seat.frame
        if frame.get("status") != "playing" or frame["at"] in sent or seat.seat == idle:
            continue
        table = frame["table"]
        if table["to_move"] == seat.seat and table["legal"] and frame["seats"][seat.seat].get("stand_in") is None:
            seat.send({"type": "move", "move": rng.choice(table["legal"])["move"], "at": frame["at"]})
            sent.add(frame["at"])
            return True
    return False

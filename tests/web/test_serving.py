"""Connections that hold the server without asking anything (``cardtable.web.serving`` and
the body deadline of ``cardtable.web.guard``), against the live server: a socket that says
nothing, or sends its headers a byte at a time, is closed; a body that does not arrive in
time is answered 408; a request, and a room's WebSocket, are not cut short. Every wait is
bounded."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cardtable.web.limits import Limits
from cardtable.web.serving import IdleClosingHttp

from .conftest import LiveServer
from .rooms_client import GREEDY, HUMAN, Client, made, make_room

IDLE = 0.4
"""The idle time the tests give connections (the server's is 10 s)."""


@pytest.fixture
def quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(IdleClosingHttp, "idle_seconds", IDLE)
    server = LiveServer(tmp_path / "data", limits=Limits(body_seconds=IDLE))
    yield server
    server.stop(wait=False)


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Read ``sock`` until the server closes it (what it sent is dropped); how long that took."""
    start = time.monotonic()
    sock.settimeout(seconds)
    while sock.recv(4096):
        pass
    return time.monotonic() - start


def test_a_socket_that_says_nothing_is_closed(quick: LiveServer) -> None:
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", quick.port), timeout=5) as sock:
        _closed_within(sock, 5)
    # Not before its idle time (less the event loop's clock resolution), well within 5 s.
    assert IDLE - 0.05 <= time.monotonic() - began < 5


def test_headers_sent_a_byte_at_a_time_do_not_hold_the_connection(quick: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=5) as sock:
        start = time.monotonic()
        closed = False
        for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - start > 5:
                break
        if not closed:
            assert _closed_within(sock, 5) < 5
        assert time.monotonic() - start < 5


def test_a_body_that_does_not_arrive_in_time_is_refused(quick: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick.port), timeout=5) as sock:
        head = (
            "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"game"')
        sock.settimeout(5)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(rest.partition(b"\r\n\r\n")[2])["kind"] == "too-slow"


def test_requests_and_room_sockets_outlive_the_idle_time(quick: LiveServer) -> None:
    with httpx.Client(base_url=quick.url, timeout=5) as client:  # one connection, kept alive
        assert client.get("/api/games").status_code == 200
        time.sleep(IDLE / 2)
        assert client.get("/api/games").status_code == 200
    room = made(make_room(quick, [HUMAN, GREEDY]))
    person = Client(quick, room["code"], token=room["token"])
    status = person.snapshot()["status"]
    time.sleep(3 * IDLE)  # the WebSocket is not watched: its own hello and message rules apply
    person.send({"type": "start"})  # answered (a solo room has started already: an error)
    assert person.next()["type"] in ("snapshot", "error") and status in ("lobby", "playing")
    person.close()

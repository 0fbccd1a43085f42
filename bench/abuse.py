"""Deserto rooms under attack, after the fixes of the rooms' safety issue: the issue's attacks
again, bounded in count and time, against a real server on 127.0.0.1, and the clocks.

The server runs as its own process (``create_app`` under uvicorn with ``cardtable
serve``'s options and its log lines written to a file; default caps; the bots' pause
0.7 s as served; one extra pace, ``bench``, of 2 s a move, for the clock figures). The
attacker and the victims are clients of this one process; their network addresses are
told to the server through ``X-Forwarded-For`` (uvicorn trusts it from 127.0.0.1), so
one machine is many addresses. The figures:

- **frozen rooms**: a spectator that never reads sends the issue's 100,000 small
  messages; then 600 spectators join and leave, then 500 try to watch at once. For each:
  the longest time a move of the room's two players took to reach both, how long the
  silent socket lasted, how many spectators were let in, what a move costs in frames;
- **bricked rooms**: the names that bricked a room (a lone surrogate, direction
  overrides, control characters...), and whether the room still answers;
- **guessing**: room lookups from one address as fast as it can; the rate answered
  before 429, and what finding a room by its code would take (joining needs the
  128-bit key of the invite link on top);
- **hostile budgets**: another client's bot (ismcts, 400 iterations) before and while
  seven hostile rooms keep three ismcts bots each at the server's highest budget, and
  what asking a budget of 10^9 seconds gets;
- **memory under floods**: the server's resident memory (``VmRSS``) and peak
  (``VmHWM``) before and after floods of room creations, of 15 MB messages, of 20,000
  messages from one socket, of bad frames (with the log bytes they cost), of 15 MB
  request bodies;
- **clocks**: a person who does not play at a 2-s pace: when the stand-in bot played,
  that the seat was marked, that ``back`` took it back with the whole time again;
- **slow connections** (2026-11-28): 200 sockets that say nothing and 50 that begin their
  headers and stop, and one that begins a request body and stops: a victim's request
  meanwhile, when the server had closed them (``web/serving.py``), what the body got.

Run: ``.venv/bin/python bench/abuse.py [--json FILE]`` (about 3 minutes).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import secrets
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

LAUNCHER = """
import sys, uvicorn
from cardtable.web import SERVER_OPTIONS, create_app, log_events
from cardtable.web.clocks import PACES
data, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
log_events(open(log, "a", buffering=1))
app = create_app(data, paces={**PACES, "bench": 2.0})
uvicorn.run(app, host="127.0.0.1", port=port, **SERVER_OPTIONS)
"""
"""The server: the app as ``cardtable serve`` runs it, with a 2-s pace for the clock figures."""

HUMAN = {"kind": "human"}
NAMES = [
    "M\ud800",
    "Ana\u202eevil",
    "A\u200bna",
    "Ana\x00",
    "Ana\x1b[31m",
    "   ",
    "x" * 200,
    "You",
    "Greedy 2",
    "\ufeff",
]
"""Display names that bricked a room or would mislead: each must be refused."""


class Server:
    """The server process on a free loopback port; its memory and its log."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = folder / "server.log"
        command = [sys.executable, "-c", LAUNCHER, str(folder / "data"), str(self.port), str(self.log)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def memory(self) -> dict[str, float]:
        """Resident and peak memory of the server, in MB."""
        fields = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)
        return fields

    def log_bytes(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def logged(self, words: str) -> int:
        return sum(words in line for line in self.log.read_text(errors="replace").splitlines())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def who(address: str, player: str | None = None) -> dict[str, str]:
    headers = {"x-forwarded-for": address}
    if player is not None:
        headers["cookie"] = f"cardtable_player={player}"
    return headers


def room(server: Server, seats: list[dict[str, Any]], address: str, player: str | None = None, **body: Any) -> Any:
    return httpx.post(
        f"{server.url}/api/rooms",
        json={"name": "Ana", "seats": seats, **body},
        headers=who(address, player or secrets.token_hex(6)),
        timeout=30,
    )


class Sock:
    """A room's socket that said who it is, reading with bounded waits."""

    def __init__(self, server: Server, code: str, address: str, token: str | None = None, key: str | None = None):
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/rooms/{code}",
            additional_headers=who(address, secrets.token_hex(6)),
            open_timeout=10,
            close_timeout=1,
            max_size=2**24,
        ).__enter__()
        self.frame: dict[str, Any] = {}
        self.ws.send(json.dumps({"type": "hello", "token": token, "key": key}))

    def next(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message.get("type") == "snapshot":
            self.frame = message
        return message

    def until(self, test: Any, timeout: float = 15) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            if test(message):
                return message

    def closed_with(self, timeout: float = 10) -> int | None:
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.next(max(0.01, deadline - time.monotonic()))
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            return None
        return None

    def close(self) -> None:
        self.ws.close()


class Raw:
    """A WebSocket made by hand that never reads (a small receive buffer): the silent spectator."""

    def __init__(self, server: Server, code: str, address: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"X-Forwarded-For: {address}\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(1)

    def send(self, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + struct.pack("!H", size)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def two_people(server: Server, address: str, **body: Any) -> tuple[dict[str, Any], Sock, Sock]:
    made = room(server, [HUMAN, HUMAN], address, **body).json()
    ana = Sock(server, made["code"], address, token=made["token"])
    ana.next()
    ben = Sock(server, made["code"], address, key=made["key"])
    ben.next()
    ben.ws.send(json.dumps({"type": "join", "seat": 1, "name": "Ben"}))
    ben.until(lambda m: m.get("type") == "joined")
    ana.ws.send(json.dumps({"type": "start"}))
    for s in (ana, ben):
        s.until(lambda m: m.get("status") == "playing")
    return made, ana, ben


def turn(players: dict[int, Sock]) -> float | None:
    """The person to move plays; seconds until both players have the new position (None: game over)."""
    frame = players[0].frame
    if frame["status"] != "playing":
        return None
    at, mover = frame["at"], frame["table"]["to_move"]
    mine = players[mover]
    if mine.frame["at"] != at:
        mine.until(lambda m: m.get("type") == "snapshot" and m["at"] >= at)
    began = time.perf_counter()
    mine.ws.send(json.dumps({"type": "move", "move": mine.frame["table"]["legal"][0]["move"], "at": at}))
    for s in players.values():
        s.until(lambda m: m.get("type") == "snapshot" and m["at"] > at)
    return time.perf_counter() - began


def frozen(server: Server) -> dict[str, Any]:
    made, ana, ben = two_people(server, "10.1.1.1")
    players = {0: ana, 1: ben}
    silent = Raw(server, made["code"], "10.6.6.6")
    silent.send(json.dumps({"type": "hello", "key": made["key"]}).encode())
    began = time.monotonic()
    sent = 0
    try:
        for _ in range(100_000):
            silent.send(b'{"type":"fly"}')
            sent += 1
    except OSError:
        pass
    flood_seconds = time.monotonic() - began
    # A spectator that never reads, and does nothing else, while the game is played.
    still = Raw(server, made["code"], "10.6.6.7")
    still.send(json.dumps({"type": "hello", "key": made["key"]}).encode())
    turns = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and (t := turn(players)) is not None:
        turns.append(t)
    ana.ws.send(json.dumps({"type": "rematch"}))
    for s in players.values():
        s.until(lambda m: m.get("type") == "snapshot" and m["game_no"] == 1)
    # The second freeze: many spectators joining and leaving.
    began = time.monotonic()
    joined = 0
    for _ in range(600):
        s = Sock(server, made["code"], "10.1.1.2", key=made["key"])
        s.next()
        joined += 1
        s.close()
    churn_seconds = time.monotonic() - began
    turns_after_churn = [t for t in (turn(players) for _ in range(5)) if t is not None]
    # 500 at once: the cap lets 50 in; what a move then costs.
    crowd, refused = [], 0
    for _ in range(500):
        s = Sock(server, made["code"], "10.1.1.3", key=made["key"])
        first = s.next()
        if first.get("type") == "error":
            refused += 1
            s.close()
        else:
            crowd.append(s)
    crowd_turns = [t for t in (turn(players) for _ in range(5)) if t is not None]
    for s in crowd:
        s.close()
    return {
        "flooding silent socket: messages it wrote": sent,
        "seconds of its flood": round(flood_seconds, 2),
        "of them read and refused by the server (one log line each)": server.logged("(10.6.6.6) refused (bad-request)"),
        "then closed for too many (4429)": server.logged("(10.6.6.6) refused (too-many)"),
        "moves played with a spectator that never reads": len(turns),
        "longest move to both players meanwhile (s)": round(max(turns), 3),
        "median move (s)": round(statistics.median(turns), 4),
        "spectators who joined and left": joined,
        "seconds for 600 spectators to join and leave": round(churn_seconds, 1),
        "longest move after the churn (s)": round(max(turns_after_churn), 3),
        "spectators let in of 500 at once": len(crowd),
        "spectators refused (too-many, close 4429)": refused,
        "frames a move costs with the room full": 2 + len(crowd),
        "longest move with the room full (s)": round(max(crowd_turns), 3) if crowd_turns else None,
    }


def bricked(server: Server) -> dict[str, Any]:
    made = room(server, [HUMAN, HUMAN], "10.2.2.2").json()
    refused = 0
    for name in NAMES:
        body = json.dumps({"name": name, "seats": [HUMAN, HUMAN]})
        answer = httpx.post(f"{server.url}/api/rooms", content=body, headers={"content-type": "application/json"})
        refused += answer.status_code == 400
        s = Sock(server, made["code"], "10.2.2.2", key=made["key"])
        s.next()
        s.ws.send(json.dumps({"type": "join", "seat": 1, "name": name}))
        refused += s.until(lambda m: m.get("type") in ("error", "joined")).get("type") == "error"
        s.close()
    summary = httpx.get(
        f"{server.url}/api/rooms/{made['code']}", headers={"x-room-key": made["key"], **who("10.2.2.2")}
    )
    return {
        "bad names tried (creating and joining)": 2 * len(NAMES),
        "refused": refused,
        "room still answers": summary.status_code == 200,
    }


def guessing(server: Server) -> dict[str, Any]:
    live = room(server, [HUMAN, HUMAN, HUMAN], "10.3.3.3").json()
    answered = throttled = 0
    began = time.monotonic()
    with httpx.Client(timeout=10) as http:
        while time.monotonic() - began < 10 and answered + throttled < 5000:
            code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
            status = http.get(f"{server.url}/api/rooms/{code}", headers=who("10.3.3.4")).status_code
            answered += status == 404
            throttled += status == 429
        wrong_key = http.get(f"{server.url}/api/rooms/{live['code']}", headers=who("10.3.3.5")).json()
    seconds = time.monotonic() - began
    per_hour = 10 * 60 + 20  # the steady rate after the burst (misses_per_minute 10, burst 20)
    space = 32**6
    return {
        "lookups tried in 10 s from one address": answered + throttled,
        "answered (404)": answered,
        "refused (429 too-many)": throttled,
        "seconds": round(seconds, 1),
        "lookups an hour one address gets answered": per_hour,
        "years to find 1 live room by its code, one address": round(space / 2 / per_hour / 24 / 365, 1),
        "years to find 1 of 100 live rooms by code": round(space / 200 / per_hour / 24 / 365, 2),
        "a live room's code without its key answers": wrong_key["kind"],
        "key bits needed to join": len(live["key"]) * 6,
    }


def bot_times(server: Server, address: str, moves: int = 8) -> list[float]:
    """Seconds from a person's move to their ismcts bot's answer, in a solo room."""
    made = room(server, [HUMAN, {"kind": "bot", "bot": "ismcts", "budget": {"iterations": 400}}], address).json()
    me = Sock(server, made["code"], address, token=made["token"])
    me.next()
    times = []
    for _ in range(moves):
        frame = me.frame
        if frame["status"] != "playing":
            break
        at = frame["at"]
        me.ws.send(json.dumps({"type": "move", "move": frame["table"]["legal"][0]["move"], "at": at}))
        began = time.perf_counter()
        me.until(lambda m, at=at: m.get("type") == "snapshot" and (m["at"] > at + 1 or m["status"] == "over"), 60)
        times.append(time.perf_counter() - began)
        if me.frame["status"] == "playing" and me.frame["table"]["to_move"] != 0:
            me.until(lambda m: m.get("type") == "snapshot" and m["table"]["to_move"] == 0, 60)
    me.close()
    return times


def spread(times: list[float]) -> list[float]:
    """Median and maximum, rounded.

    >>> spread([1.0, 2.0, 4.0])
    [2.0, 4.0]
    """
    return [round(statistics.median(times), 2), round(max(times), 2)]


def hostile(server: Server) -> dict[str, Any]:
    quiet = bot_times(server, "10.4.4.1")
    huge = room(server, [HUMAN, {"kind": "bot", "bot": "ismcts", "budget": {"seconds": 1e9}}], "10.4.4.2")
    top = {"kind": "bot", "bot": "ismcts", "budget": {"iterations": 5000, "seconds": 1.0}}
    rooms = []
    for _ in range(7):
        made = room(server, [HUMAN, top, top, top], "10.4.4.2", options={"first": 1}).json()
        s = Sock(server, made["code"], "10.4.4.2", token=made["token"])
        rooms.append(s)
    time.sleep(2)
    loaded = bot_times(server, "10.4.4.3")
    for s in rooms:
        s.close()
    return {
        "a budget of 1e9 seconds": f"{huge.status_code} {huge.json()['kind']}",
        "victim bot reply, quiet server: median / max (s)": spread(quiet),
        "victim bot reply, 7 hostile rooms: median / max (s)": spread(loaded),
        "of which the bots' visible pause (s)": 0.7,
    }


def floods(server: Server, folder: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {"memory at start (MB)": server.memory()}
    made = made_rooms = refused = 0
    began = time.monotonic()
    with httpx.Client(timeout=30) as http:
        for _ in range(3000):
            answer = http.post(
                f"{server.url}/api/rooms", json={"name": "Ana", "seats": [HUMAN, HUMAN]}, headers=who("10.5.5.1")
            )
            http.cookies.clear()  # a new browser each time: the address cap holds
            made_rooms += answer.status_code == 200
            refused += answer.status_code == 429
            made += 1
    figures["room creations tried from one address"] = made
    figures["rooms made / refused (429)"] = [made_rooms, refused]
    figures["seconds"] = round(time.monotonic() - began, 1)
    figures["memory after the room flood (MB)"] = server.memory()
    code = room(server, [HUMAN, HUMAN], "10.5.5.2").json()
    big = Sock(server, code["code"], "10.5.5.2", key=code["key"])
    big.next()
    with contextlib.suppress(ConnectionClosed):
        big.ws.send("x" * 15_000_000)
    figures["a 15 MB message: close code"] = big.closed_with()
    figures["memory after the 15 MB message (MB)"] = server.memory()
    fast = Sock(server, code["code"], "10.5.5.2", key=code["key"])
    fast.next()
    sent = 0
    began = time.monotonic()
    try:
        for _ in range(20_000):
            fast.ws.send('{"type": "fly"}')
            sent += 1
    except ConnectionClosed:
        pass
    figures["20,000 messages from one socket: sent before the close"] = sent
    figures["close code"] = fast.closed_with()
    figures["memory after the message flood (MB)"] = server.memory()
    before = server.log_bytes()
    bad_sent = 0
    for _ in range(20):
        bad = Sock(server, code["code"], "10.5.5.3", key=code["key"])
        bad.next()
        try:
            for frame in ('{"type": [1]}', '{"type": {}}', "[" * 2000 + "]" * 2000) * 20:
                bad.ws.send(frame)
                bad_sent += 1
        except ConnectionClosed:
            pass
        bad.closed_with(2)
    log = server.log_bytes() - before
    lines = server.logged("(10.5.5.3) refused (bad-request)")
    figures["bad frames written by 20 sockets"] = bad_sent
    figures["of them read and answered (one log line each; then too-many)"] = lines
    figures["log bytes in all / per refused frame"] = [log, round(log / max(1, lines))]
    began = time.monotonic()
    refused_bodies = 0
    body = b'{"name": "' + b"x" * 15_000_000 + b'"}'
    for _ in range(10):
        try:
            answer = httpx.post(f"{server.url}/api/rooms", content=body, headers={"content-type": "application/json"})
            refused_bodies += answer.status_code == 413
        except httpx.HTTPError:  # the server answered 413 and closed before the upload ended
            refused_bodies += 1
    figures["15 MB request bodies refused (413) / 10"] = refused_bodies
    figures["seconds for them"] = round(time.monotonic() - began, 1)
    figures["memory at the end (MB)"] = server.memory()
    return figures


def clocks(server: Server) -> dict[str, Any]:
    _, ana, ben = two_people(server, "10.7.7.7", pace="bench")
    players = {0: ana, 1: ben}
    frame = ana.frame
    mover = frame["table"]["to_move"]
    at = frame["at"]
    left = frame["clock"]["left"]
    began = time.perf_counter()
    other = players[1 - mover]
    taken = other.until(lambda m: m.get("type") == "snapshot" and m["at"] > at, 15)
    waited = time.perf_counter() - began
    late = players[mover]
    late.until(lambda m: m.get("type") == "snapshot" and m["at"] > at)
    late.ws.send(json.dumps({"type": "back"}))
    back = late.until(lambda m: m.get("type") == "snapshot" and m["seats"][mover]["stand_in"] is None)
    return {
        "pace": "bench (2 s a move)",
        "time left in the first snapshot (s)": left,
        "seconds until the stand-in played": round(waited, 2),
        "seat marked as played by": taken["seats"][mover]["stand_in"],
        "after back: stand-in": back["seats"][mover]["stand_in"],
        "log lines 'out of time'": server.logged("out of time"),
    }


def _closed_by(sock: socket.socket, deadline: float) -> bool:
    """Whether the server closes ``sock`` before ``deadline`` (what it sent is read and dropped)."""
    try:
        while time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            if not sock.recv(4096):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True
    return False


def slow(server: Server) -> dict[str, Any]:
    """Sockets that hold the server without asking anything: 200 that say nothing, 50 that
    begin their headers and stop, one that begins a body and stops."""
    address = ("127.0.0.1", server.port)
    began = time.monotonic()
    idle = [socket.create_connection(address, timeout=5) for _ in range(200)]
    half = [socket.create_connection(address, timeout=5) for _ in range(50)]
    for sock in half:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    body = socket.create_connection(address, timeout=5)
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n"
    )
    body.sendall(head.encode() + b"{")
    sent = time.monotonic()
    victim = httpx.get(f"{server.url}/api/games", timeout=10)
    victim_s = round(time.monotonic() - sent, 3)
    deadline = began + 30
    closed = sum(_closed_by(sock, deadline) for sock in idle + half)
    all_closed_s = round(time.monotonic() - began, 1)
    body.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        answer = body.recv(4096)
    except TimeoutError:
        answer = b""
    body_s = round(time.monotonic() - sent, 1)
    for sock in [*idle, *half, body]:
        sock.close()
    return {
        "idle sockets / sockets with half-sent headers": [len(idle), len(half)],
        "a victim's request meanwhile: status, seconds": [victim.status_code, victim_s],
        "of them closed by the server within 30 s": closed,
        "seconds until the last was closed": all_closed_s,
        "a body that stopped after its first byte: answer, seconds": [answer.split(b"\r\n")[0].decode(), body_s],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = Server(folder)
        try:
            for name, attack in (
                ("frozen rooms", frozen),
                ("bricked rooms", bricked),
                ("guessing", guessing),
                ("hostile budgets", hostile),
                ("clocks", clocks),
                ("slow connections", slow),
            ):
                began = time.monotonic()
                results[name] = attack(server)
                results[name]["(seconds of this part)"] = round(time.monotonic() - began, 1)
                print(f"{name}: {json.dumps(results[name], indent=1)}", flush=True)
            results["memory under floods"] = floods(server, folder)
            print(f"memory under floods: {json.dumps(results['memory under floods'], indent=1)}", flush=True)
            results["server alive at the end"] = httpx.get(f"{server.url}/api/games", timeout=5).status_code == 200
        finally:
            server.stop()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

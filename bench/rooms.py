"""Deserto rooms under load: many rooms at once over real WebSockets, nothing lost or doubled.

For each room count and each backend (``--backends``) it starts fresh real
servers (uvicorn, each in its own process, on 127.0.0.1 only, the bots' pause
``--bot-pause``, 0.05 s): ``sqlite``, one process on SQLite in a temporary folder
(the default ``cardtable serve``); ``pg1`` and ``pg2``, one and two processes
sharing a throwaway PostgreSQL cluster (Debian's package, on a loopback port; its
files synced, its commits not waiting for the disk, as SQLite's WAL at
``synchronous=NORMAL``). With two processes, rooms are made at each in turn and
the sockets of each room are spread over both (seat ``i`` of room ``r`` at
process ``(r + i) % 2``): every move is heard of at the other process through
``NOTIFY``. Each run makes that many rooms of 4 seats: people, each a
WebSocket client of its own that plays a random legal move when it is to
move, and ``--bots`` greedy bots (1 by default). People play at once by
default: a saturation test, where every room always has a move under way, so
the time to the broadcast grows with the rooms (Little's law); ``--think S``
gives them a random pause of S seconds on average, a load closer to people's.
A room whose game is over asks for a rematch and goes on. Rooms and their sockets are made gradually (20 rooms at
a time); the clients run in this one asyncio process.

Each run plays for ``--seconds`` (and stops sending once ``--max-moves``
people's moves were sent), then listens until every room is quiet and closes
its sockets. It prints the moves per second over all rooms, the time from a
move sent by a person's socket to the broadcast of the new state received on
each socket of the room (p50, p95, p99, max), and the CPU used by the clients (this
process) and by the servers (and PostgreSQL's processes), as a share of one core:
a client near 100 % would be the bottleneck, not the server. The times (p50, p95,
p99, max) are from a move sent by a person's socket to the new state received on
every socket of the room (the mover's and the others', at either process).

Then it checks every room against the database (SQLite's file opened read-only, or PostgreSQL): for
each game, the stored moves must be exactly the moves its clients saw
accepted: the last state seen is the number of moves stored (none lost, none
extra), the move numbers are 0, 1, 2, ... each once, and each stored move is
the one the seats' histories show at that place (a gift's kind is shown to
its giver and receiver only; a gift between two bots is only checked to be a
gift). A socket that skipped a state (a broadcast it never got) or went back
is counted apart ("skipped").

The issue's target on this machine: 200 rooms at once, p99 under 100 ms, zero
lost or doubled moves.

Run: ``.venv/bin/python bench/rooms.py --rooms 50 200 500 --seconds 30 [--backends sqlite pg1 pg2] [--think S]
[--bots K] [--json FILE]``;
``--profile DIR`` also writes the server's cProfile statistics (one file a run; the
profiler slows the server down).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.web.pg_cluster import Cluster

BACKENDS = {"sqlite": 1, "pg1": 1, "pg2": 2}
"""The backends a run can use, with their server processes."""

LAUNCHER = """
import cProfile, signal, sys, uvicorn
from cardtable.web import SERVER_OPTIONS, create_app
from cardtable.web.limits import Limits
data, port, pause, profile = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
# One client makes every room from one address: the caps on rooms are lifted for the load.
caps = Limits(rooms_per_client=10**6, rooms_per_address=10**6)
database = data if data.startswith("postgresql://") else None
app = create_app(data, bot_pause=pause, limits=caps, database=database)
# uvicorn stops gracefully on SIGTERM, then raises it again: let that end in `finally`.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
prof = cProfile.Profile() if profile else None
if prof:
    prof.enable()
try:
    uvicorn.run(app, host="127.0.0.1", port=port, **SERVER_OPTIONS)  # as serve
finally:
    if prof:
        prof.disable()
        prof.dump_stats(profile)
"""
"""The server: ``create_app`` with the bots' pause (the CLI has no flag for it) and no cap on
the rooms one address makes, under uvicorn."""

MOVE_TEXT = re.compile(r"^seat \d: (\S+?)(?:,|$)")
"""A history line that shows its move's text ("seat 2: T4, wins ..."), not a hidden gift."""

SETUP_AT_ONCE = 20
"""Rooms made (HTTP, then their sockets and joins) at the same time."""

QUIET = 5.0
"""Seconds without a message after which a socket's room counts as quiet at the end (or twice the slowest
broadcast seen, if longer: on a loaded machine a socket that stops listening sooner misses the last moves)."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank; 0 for none.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.99), percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([], 0.5)
    (4.0, 2.0, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = -int(-q * len(ordered) // 1)  # ceil
    return ordered[min(len(ordered), max(1, rank)) - 1]


def moves_seen(histories: list[list[str]]) -> list[str | None]:
    """A game's moves as its people saw them: for each move the text a seat was shown in
    full, None if nobody was (a gift between bots).

    >>> moves_seen([["seat 0: V1", "seat 1: gives a card to seat 0"], ["seat 0: V1", "seat 1: gT, gives ..."]])
    ['V1', 'gT']
    >>> moves_seen([["seat 0: V1", "seat 3: gives a card to seat 2"]])
    ['V1', None]
    """
    longest = max((len(h) for h in histories), default=0)
    seen: list[str | None] = []
    for i in range(longest):
        texts = [m.group(1) for h in histories if i < len(h) and (m := MOVE_TEXT.match(h[i]))]
        seen.append(texts[0] if texts else None)
    return seen


def steps(states: list[int]) -> tuple[int, int]:
    """How a socket's states (in the order received, one game) went: (states skipped, times
    it went back). Repeats are fine (a seat coming or going, a stale move's fresh snapshot).

    >>> steps([0, 1, 1, 2, 3]), steps([0, 2, 3]), steps([0, 2, 1, 3])
    ((0, 0), (1, 0), (2, 1))
    """
    skipped = back = 0
    for a, b in itertools.pairwise(states):
        if b < a:
            back += 1
        elif b > a + 1:
            skipped += b - a - 1
    return skipped, back


@dataclass
class Seat:
    """One person's socket and what it was sent."""

    seat: int
    ws: ClientConnection
    states: dict[int, list[int]] = field(default_factory=dict)  # game_no -> states, in order
    history: dict[int, list[str]] = field(default_factory=dict)  # game_no -> newest history


@dataclass
class Room:
    """One room of the load; ``moved``: for each move sent (game, move count), when and the seats
    whose sockets have not seen its new state yet."""

    code: str
    seats: dict[int, Seat] = field(default_factory=dict)
    rematched: set[int] = field(default_factory=set)
    moved: dict[tuple[int, int], tuple[float, set[int]]] = field(default_factory=dict)


@dataclass
class Load:
    """The figures of one run, gathered by every socket."""

    until: float
    think: float
    max_moves: int
    rng: random.Random
    sent: int = 0
    moves: int = 0  # moves accepted before ``until`` (as the room's first person socket saw them)
    latencies: list[float] = field(default_factory=list)
    slowest: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)


def seat_kinds(bots: int, bot: str) -> list[dict[str, Any]]:
    """A room's 4 seats: people first, the bots last (so the creator holds seat 0).

    >>> [s["kind"] for s in seat_kinds(1, "greedy")]
    ['human', 'human', 'human', 'bot']
    """
    return [{"kind": "human"}] * (4 - bots) + [{"kind": "bot", "bot": bot}] * bots


async def make_room(http: httpx.AsyncClient, ports: list[int], kinds: list[dict[str, Any]]) -> Room:
    """A room with every person's seat taken, each by its own open socket (seat ``i`` at the
    server ``ports[i % len(ports)]``); not started (unless its one person plays against bots
    only: such a room starts when it is made). It is made at the first of ``ports``."""
    made = (await http.post(f"http://127.0.0.1:{ports[0]}/api/rooms", json={"name": "P0", "seats": kinds})).json()
    room = Room(made["code"])

    def base(seat: int) -> str:
        return f"ws://127.0.0.1:{ports[seat % len(ports)]}/ws/rooms/{room.code}"

    first = await connect(base(0), max_size=2**22)
    await first.send(json.dumps({"type": "hello", "token": made["token"]}))  # who it is: the first message
    room.seats[0] = Seat(0, first)
    for i, kind in enumerate(kinds[1:], start=1):
        if kind["kind"] != "human":
            continue
        ws = await connect(base(i), max_size=2**22)  # a spectator (by the invite key) takes the seat, then plays it
        await ws.send(json.dumps({"type": "hello", "key": made["key"]}))
        await ws.send(json.dumps({"type": "join", "seat": i, "name": f"P{i}"}))
        while json.loads(await ws.recv())["type"] != "joined":
            pass
        room.seats[i] = Seat(i, ws)
    return room


async def person(room: Room, seat: Seat, load: Load) -> None:
    """One person's socket: plays whenever it is to move until the time is up, then listens
    until its room is quiet, so that every move the server took is seen."""
    ws, first = seat.ws, seat.seat == min(room.seats)
    if first and len(room.seats) > 1:  # a room of one person against bots started when it was made
        await asyncio.sleep(load.rng.uniform(0, 2 * load.think))
        await ws.send(json.dumps({"type": "start"}))
    sent: tuple[int, int, float] | None = None  # game, move count, when
    last: tuple[int, int] = (0, 0)
    while True:
        playing = time.monotonic() < load.until
        try:
            raw = await asyncio.wait_for(
                ws.recv(), timeout=max(0.01, load.until - time.monotonic()) if playing else max(QUIET, 2 * load.slowest)
            )
        except TimeoutError:
            if playing:
                continue
            return
        got = time.monotonic()
        frame = json.loads(raw)
        if frame["type"] == "error":
            load.errors[frame["kind"]] = load.errors.get(frame["kind"], 0) + 1
            continue
        if frame["type"] != "snapshot" or frame["status"] == "lobby":
            continue
        game, state = frame["game_no"], frame["at"]
        seat.states.setdefault(game, []).append(state)
        seat.history[game] = frame["table"]["history"]
        if first and (game, state) > last:
            if got <= load.until:
                load.moves += state if game > last[0] else state - last[1]
            last = (game, state)
        for key, (when, waiting) in list(room.moved.items()):  # the moves whose new state this socket sees now
            if (game, state) > key and seat.seat in waiting:
                waiting.discard(seat.seat)
                load.latencies.append(got - when)
                load.slowest = max(load.slowest, got - when)
                if not waiting:
                    del room.moved[key]
        if sent is not None and (game, state) > sent[:2]:
            sent = None
        if not playing:
            continue
        if frame["status"] == "over":
            if first and game not in room.rematched:
                room.rematched.add(game)
                await ws.send(json.dumps({"type": "rematch"}))
            continue
        table = frame["table"]
        if table["to_move"] == seat.seat and sent is None and table["legal"] and load.sent < load.max_moves:
            if load.think:  # random, so that the rooms do not move in step
                await asyncio.sleep(load.rng.uniform(0, 2 * load.think))
            move = load.rng.choice(table["legal"])["move"]
            load.sent += 1
            sent = (game, state, time.monotonic())
            room.moved[(game, state)] = (sent[2], set(room.seats))
            await ws.send(json.dumps({"type": "move", "move": move, "at": state}))


class Reader:
    """The stored moves, read from SQLite's file (read-only) or PostgreSQL (``database``)."""

    def __init__(self, database: str) -> None:
        self.pg = database.startswith("postgresql://")
        self.db: Any = psycopg.connect(database) if self.pg else sqlite3.connect(f"file:{database}?mode=ro", uri=True)

    def rows(self, query: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows of a query written with ``?`` for values."""
        return list(self.db.execute(query.replace("?", "%s") if self.pg else query, values).fetchall())

    def close(self) -> None:
        self.db.close()


def check(database: str, rooms: list[Room]) -> tuple[int, int, list[str], int]:
    """Every room's stored moves against what its people saw: (rooms checked, games checked,
    problems, states skipped or gone back on some socket)."""
    db = Reader(database)
    problems: list[str] = []
    games_checked = skipped = 0
    try:
        for room in rooms:
            stored_games = {
                g for (g,) in db.rows("SELECT DISTINCT game_no FROM room_moves WHERE code = ?", (room.code,))
            }
            seen_games = {g for s in room.seats.values() for g in s.states}
            for game in sorted(stored_games | seen_games):
                games_checked += 1
                rows = db.rows(
                    "SELECT n, move FROM room_moves WHERE code = ? AND game_no = ? ORDER BY n", (room.code, game)
                )
                numbers, stored = [n for n, _ in rows], [m for _, m in rows]
                last = max((max(s.states.get(game, [0])) for s in room.seats.values()), default=0)
                seen = moves_seen([s.history[game] for s in room.seats.values() if game in s.history])
                where = f"room {room.code} game {game}"
                if numbers != list(range(len(numbers))):
                    problems.append(f"{where}: stored move numbers {numbers[:5]}... are not 0, 1, 2, ...")
                if len(stored) != last or len(seen) != last:
                    problems.append(
                        f"{where}: {len(stored)} moves stored, last state seen {last}, {len(seen)} in history"
                    )
                for n, (text, shown) in enumerate(zip(stored, seen, strict=False)):
                    if text != shown if shown is not None else not text.startswith("g"):
                        problems.append(f"{where}: move {n} stored {text!r}, seen {shown!r}")
                        break
                for s in room.seats.values():
                    gaps, back = steps(s.states.get(game, []))
                    skipped += gaps + back
    finally:
        db.close()
    return len(rooms), games_checked, problems, skipped


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family_cpu(pids: list[int]) -> float:
    """CPU time so far of the processes ``pids`` and their children (PostgreSQL's backends are
    the postmaster's; a child that ended is counted in its parent's children times)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(stat.parent.name), int(fields[1])
        if pid in pids or parent in pids:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if pid in pids:
            total += (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return total


def more_files() -> None:
    """Raise the open-files soft limit to the hard limit (1500 sockets on each side at 500 rooms)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def drive(ports: list[int], count: int, args: argparse.Namespace, servers: list[int]) -> dict[str, Any]:
    """Make the rooms, play, listen until quiet; the figures (and the rooms, for the check).
    ``servers``: the process ids whose CPU (theirs and their children's) is the servers'."""
    kinds = seat_kinds(args.bots, args.bot)
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    async with httpx.AsyncClient(timeout=60) as http:

        async def one(r: int) -> Room:
            async with gate:
                return await make_room(http, ports[r % len(ports) :] + ports[: r % len(ports)], kinds)

        made = time.monotonic()
        rooms = await asyncio.gather(*(one(r) for r in range(count)))
        setup = time.monotonic() - made
    cpu, server_cpu = time.process_time(), family_cpu(servers)
    began = time.monotonic()
    load = Load(began + args.seconds, args.think, args.max_moves, random.Random(count))
    await asyncio.gather(*(person(room, seat, load) for room in rooms for seat in room.seats.values()))
    ended = time.monotonic()
    client_cpu, server_cpu = time.process_time() - cpu, family_cpu(servers) - server_cpu
    await asyncio.gather(*(seat.ws.close() for room in rooms for seat in room.seats.values()))
    wall = min(ended, load.until) - began
    return {
        "rooms": count,
        "sockets": sum(len(room.seats) for room in rooms),
        "setup_seconds": setup,
        "seconds": wall,
        "moves": load.moves,
        "moves_per_second": load.moves / wall,
        "person_moves_timed": len(load.latencies),
        "p50_ms": percentile(load.latencies, 0.50) * 1000,
        "p95_ms": percentile(load.latencies, 0.95) * 1000,
        "p99_ms": percentile(load.latencies, 0.99) * 1000,
        "max_ms": max(load.latencies, default=0.0) * 1000,
        "errors": load.errors,
        "client_cpu_share": client_cpu / (ended - began),
        "server_cpu_share": server_cpu / (ended - began),
        "server_cpu_ms_per_move": 1000 * server_cpu / max(1, load.moves),
        "_rooms": rooms,
    }


def start_server(data: str, args: argparse.Namespace, name: str) -> tuple[int, subprocess.Popen[bytes]]:
    """One server process on a free loopback port, once it answers: its port and process."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    profile = str(Path(args.profile).resolve() / f"server-{name}.prof") if args.profile else ""
    command = [sys.executable, "-c", LAUNCHER, data, str(port), str(args.bot_pause), profile]
    server = subprocess.Popen(command, preexec_fn=more_files)
    deadline = time.monotonic() + 30
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError("the server did not start")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return port, server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)


def run(count: int, backend: str, args: argparse.Namespace) -> dict[str, Any]:
    """One load run with ``count`` rooms on fresh servers of ``backend``."""
    with tempfile.TemporaryDirectory(prefix="rooms-bench-") as folder, ExitStack() as stack:
        cluster: Cluster | None = None
        if backend == "sqlite":
            data = folder
            database = str(Path(folder) / "cardtable.sqlite")
        else:
            cluster = Cluster(durable=True)
            stack.callback(cluster.stop)
            cluster.start()
            data = database = cluster.database()
        servers: list[subprocess.Popen[bytes]] = []

        def stop() -> None:
            for server in servers:
                server.send_signal(signal.SIGTERM)  # uvicorn stops gracefully (and the profile is written)
            for server in servers:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()

        stack.callback(stop)
        ports = []
        for i in range(BACKENDS[backend]):
            port, server = start_server(data, args, f"{backend}-{count}-{i}")
            ports.append(port)
            servers.append(server)
        pids = [s.pid for s in servers] + ([cluster.postmaster()] if cluster is not None else [])
        result = asyncio.run(asyncio.wait_for(drive(ports, count, args, pids), timeout=args.seconds + 600))
        rooms = result.pop("_rooms")
        checked, games, problems, skipped = check(database, rooms)
    result.update(backend=backend, processes=BACKENDS[backend])
    result.update(rooms_checked=checked, games_checked=games, mismatches=len(problems), skipped=skipped)
    result["problems"] = problems[:10]
    return result


def main() -> None:
    """Run the load for each room count (see the module docstring) and print the table.

    >>> callable(main)
    True
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 200, 500], help="room counts, a fresh server each")
    parser.add_argument(
        "--backends", nargs="+", choices=list(BACKENDS), default=["sqlite"], help="sqlite, pg1, pg2 (default sqlite)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="playing time of each run (default 30)")
    parser.add_argument("--bots", type=int, choices=(0, 1, 2, 3), default=1, help="bot seats of the 4 (default 1)")
    parser.add_argument("--bot", default="greedy", help="the bots' kind (default greedy)")
    parser.add_argument("--bot-pause", type=float, default=0.05, help="the bots' pause in seconds (default 0.05)")
    parser.add_argument("--think", type=float, default=0.0, help="a person's mean pause before a move, s (default 0)")
    parser.add_argument("--max-moves", type=int, default=10**7, help="people's moves sent per run, at most")
    parser.add_argument("--json", help="also write the figures to this file (with the servers' CPU ms a move)")
    parser.add_argument("--profile", help="write the server's cProfile statistics into this folder")
    args = parser.parse_args()
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    more_files()
    print(
        f"4 seats a room: {4 - args.bots} people (a socket each), {args.bots} {args.bot} bot(s), "
        f"bot pause {args.bot_pause:g} s, think {args.think:g} s, {args.seconds:g} s a run; one client process"
    )
    header = (
        f"{'backend':>7} {'rooms':>5} {'sockets':>7} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}"
        f" {'max ms':>7} {'timed':>7} {'checked':>8} {'games':>6} {'lost/doubled':>12} {'skipped':>7}"
        f" {'client CPU':>10} {'server CPU':>10}"
    )
    print(header)
    results = []
    for count, backend in itertools.product(args.rooms, args.backends):
        r = run(count, backend, args)
        results.append(r)
        print(
            f"{backend:>7} {r['rooms']:>5} {r['sockets']:>7} {r['moves_per_second']:>8,.0f}"
            f" {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['max_ms']:>7.0f}"
            f" {r['person_moves_timed']:>7} {r['rooms_checked']:>8}"
            f" {r['games_checked']:>6} {r['mismatches']:>12} {r['skipped']:>7}"
            f" {r['client_cpu_share']:>10.0%} {r['server_cpu_share']:>10.0%}",
            flush=True,
        )
        for problem in r["problems"]:
            print(f"  {problem}")
        if r["errors"]:
            print(f"  errors sent to clients: {r['errors']}")
    for target in (r for r in results if r["rooms"] == 200):
        met = target["p99_ms"] < 100 and target["mismatches"] == 0
        print(
            f"target on {target['backend']} (200 rooms, p99 < 100 ms, 0 lost or doubled): {'met' if met else 'missed'}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "runs": results}, indent=1))


if __name__ == "__main__":
    main()

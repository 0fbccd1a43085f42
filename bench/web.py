"""The web app's speed: server time per move and per hint for each game, and the page's weight.

Runs the real app under uvicorn on 127.0.0.1 (SQLite in a temporary folder, so
every move is really written) and plays random legal moves from fresh deals,
bounded in moves and seconds per game. For each game it reports:

* the round trip of ``POST /api/tables/{id}/move`` over loopback HTTP (client
  to server and back, JSON encoding included);
* the service time of the same kind of move measured inside the server
  (:meth:`SolitaireTables.play`, database write included, HTTP excluded);
* the hint (``/hint``, the solver with its default budget, ``HINT_SECONDS``) on
  positions of random play, and how many ran into that budget (a heuristic
  hint after "unknown"); and the hints of a player who follows them along an
  easy deal (the solver's line is found once, then remembered).

A multi-player game (Deserto) is played as a player plays it against bots: in
a room with two greedy bots, over its WebSocket, the bots' pause set to 0. A
move's round trip there runs from the move sent to the snapshot where the
person is to move again, so it includes the bots' replies; a hint is the
``hint`` message's round trip (the greedy bot's move). The page weight is ``/``
and every file it loads (scripts followed through their imports), raw and
gzip-compressed. The issue's targets: a move under 10 ms and a hint under 50 ms
at the 95th percentile; the page under 300 KB.

    .venv/bin/python bench/web.py [--seconds 15] [--hints 40] [--json FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from cardtable.games import specs
from cardtable.web import create_app


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0], 0.95)
    (2.0, 5.0)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def page_files(client: httpx.Client) -> dict[str, bytes]:
    """``/`` and every file it loads: stylesheets, scripts and their imports.

    >>> sorted(re.findall(r'from "\\./([\\w-]+\\.js)"', 'import { a } from "./x.js";'))
    ['x.js']
    """
    found: dict[str, bytes] = {"/": client.get("/").content}
    todo = re.findall(r'(?:src|href)="(/static/[^"]+)"', found["/"].decode())
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found[path] = client.get(path).content
        if path.endswith(".js"):
            todo += [f"/static/{name}" for name in re.findall(r'from "\./([\w-]+\.js)"', found[path].decode())]
    return found


def games() -> list[tuple[str, bool]]:
    """The games the web app offers (those with a browser table), each with whether it is
    for one player.

    >>> games()[0], games()[-1]
    (('klondike', True), ('deserto', False))
    """
    return [(s.name, s.one_player) for s in specs() if s.table is not None]


def measure(client: httpx.Client, app: Any, name: str, seconds: float, hints: int) -> dict[str, Any]:
    """Random games of one-player ``name`` through the server, within ``seconds``; hints on every 5th position."""
    rng = random.Random(name)
    tables = app.state.tables
    player = None
    trips: list[float] = []
    service: list[float] = []
    hint_times: list[float] = []
    at_budget = 0
    deal = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        body: dict[str, Any] = {"game": name, "deal": deal}
        table = client.post("/api/tables", json=body).json()
        player = player or client.cookies.get("cardtable_player")
        deal += 1
        for step in range(400):
            if table["outcome"]["over"] or time.monotonic() > end:
                break
            if step % 5 == 0 and len(hint_times) < hints:
                began = time.perf_counter()
                answer = client.post(f"/api/tables/{table['id']}/hint", json={"at": table["at"]}).json()
                hint_times.append(time.perf_counter() - began)
                at_budget += answer["hint"]["status"] == "unknown" and answer["hint"]["source"] == "heuristic"
                table = answer
            move = rng.choice(table["legal"])["move"]
            if step % 2:  # in the server: the service alone
                began = time.perf_counter()
                table = tables.play(player, table["id"], table["at"], move=move)
                service.append(time.perf_counter() - began)
            else:  # over HTTP: the round trip
                began = time.perf_counter()
                table = client.post(f"/api/tables/{table['id']}/move", json={"at": table["at"], "move": move}).json()
                trips.append(time.perf_counter() - began)
    # A player who follows the hints: the solver's line is searched once, then remembered.
    followed: list[float] = []
    table = client.post("/api/tables", json={"game": name, "level": "easy", "seed": 1}).json()
    while not table["outcome"]["over"] and len(followed) < hints:
        began = time.perf_counter()
        table = client.post(f"/api/tables/{table['id']}/hint", json={"at": table["at"]}).json()
        followed.append(time.perf_counter() - began)
        if table["hint"]["move"] is None:
            break
        body = {"at": table["at"], "move": table["hint"]["move"]}
        table = client.post(f"/api/tables/{table['id']}/move", json=body).json()
    return figures(name, trips, service, hint_times, at_budget, followed)


def measure_room(client: httpx.Client, port: int, name: str, seconds: float, hints: int) -> dict[str, Any]:
    """Random games of multi-player ``name`` against two greedy bots in a room, over its
    WebSocket, within ``seconds``; hints on every 5th of the person's positions."""
    rng = random.Random(name)
    trips: list[float] = []
    hint_times: list[float] = []
    end = time.monotonic() + seconds
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    while time.monotonic() < end:
        made = client.post("/api/rooms", json={"game": name, "name": "Bench", "seats": seats}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{made['code']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))  # the seat token: the first message
            frame = json.loads(ws.recv())
            step = 0
            while frame["status"] != "over" and time.monotonic() < end:
                if frame["table"]["to_move"] != frame["you"]:
                    frame = json.loads(ws.recv())
                    continue
                if step % 5 == 0 and len(hint_times) < hints:
                    began = time.perf_counter()
                    ws.send(json.dumps({"type": "hint", "at": frame["at"]}))
                    while json.loads(ws.recv())["type"] != "hint":
                        pass
                    hint_times.append(time.perf_counter() - began)
                step += 1
                move = rng.choice(frame["table"]["legal"])["move"]
                sent = frame["at"]
                began = time.perf_counter()
                ws.send(json.dumps({"type": "move", "move": move, "at": sent}))
                while True:  # until the bots have answered and the person is to move again (or it is over)
                    frame = json.loads(ws.recv())
                    if frame["type"] != "snapshot" or frame["at"] <= sent:
                        continue
                    if frame["status"] == "over" or frame["table"]["to_move"] == frame["you"]:
                        break
                trips.append(time.perf_counter() - began)
    return figures(name, trips, [], hint_times, 0, [])


def figures(
    name: str,
    trips: list[float],
    service: list[float],
    hint_times: list[float],
    at_budget: int,
    followed: list[float],
) -> dict[str, Any]:
    """One game's figures, in milliseconds (a figure not measured is 0; service and followed
    hints only at one-player tables).

    >>> figures("x", [0.001], [], [0.002], 0, [])["trip_p50"]
    1.0
    """
    ms = 1000.0

    def quantile(values: list[float], q: float) -> float:
        return percentile(values, q) * ms if values else 0.0

    return {
        "followed_hints": len(followed),
        "followed_p95": quantile(followed, 0.95),
        "game": name,
        "moves": len(trips) + len(service),
        "trip_p50": quantile(trips, 0.5),
        "trip_p95": quantile(trips, 0.95),
        "trip_max": max(trips, default=0.0) * ms,
        "service_p50": quantile(service, 0.5),
        "service_p95": quantile(service, 0.95),
        "service_mean": statistics.fmean(service) * ms if service else 0.0,
        "hints": len(hint_times),
        "hint_p50": quantile(hint_times, 0.5),
        "hint_p95": quantile(hint_times, 0.95),
        "hint_max": max(hint_times, default=0.0) * ms,
        "hints_at_budget": at_budget,
    }


def main() -> None:
    """Run the benchmark (see the module docstring) and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="time per game")
    parser.add_argument("--hints", type=int, default=40, help="hints per game at most")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        app = create_app(data, bot_pause=0)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                rows = [
                    measure(client, app, name, args.seconds, args.hints)
                    if one_player
                    else measure_room(client, port, name, args.seconds, args.hints)
                    for name, one_player in games()
                ]
                files = page_files(client)
        finally:
            server.should_exit = True
            thread.join(timeout=10)
    print(
        "| game | moves | move round trip p50 / p95 / max ms | service p50 / p95 ms"
        " | hint p50 / p95 / max ms (random positions) | hints at budget | hints followed: count, p95 ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        service = f"{r['service_p50']:.1f} / {r['service_p95']:.1f}" if r["service_mean"] else "-"  # none in a room
        print(
            f"| {r['game']} | {r['moves']} | {r['trip_p50']:.1f} / {r['trip_p95']:.1f} / {r['trip_max']:.1f} "
            f"| {service} "
            f"| {r['hint_p50']:.0f} / {r['hint_p95']:.0f} / {r['hint_max']:.0f} "
            f"| {r['hints_at_budget']} of {r['hints']} | {r['followed_hints']}, {r['followed_p95']:.1f} |"
        )
    raw = sum(len(b) for b in files.values())
    packed = sum(len(gzip.compress(b)) for b in files.values())
    print(f"\npage: {len(files)} files, {raw / 1024:.1f} KB ({packed / 1024:.1f} KB gzipped); target under 300 KB")
    for path, content in sorted(files.items()):
        print(f"  {path}: {len(content) / 1024:.1f} KB")
    if args.json:
        Path(args.json).write_text(json.dumps({"games": rows, "page_bytes": raw, "page_gzip_bytes": packed}, indent=1))


if __name__ == "__main__":
    main()

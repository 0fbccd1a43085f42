"""The web app's speed: server time per move and per hint for each game, and the page's weight.

Runs the real app under uvicorn on 127.0.0.1 (SQLite in a temporary folder, so
every move is really written) and plays random legal moves from fresh deals,
bounded in moves and seconds per game. For each game it reports:

* the round trip of ``POST /api/tables/{id}/move`` over loopback HTTP (client
  to server and back, JSON encoding included);
* the service time of the same kind of move measured inside the server
  (:meth:`Tables.play`, store write included, HTTP excluded);
* the hint (``/hint``, the solver with its default budget, ``HINT_SECONDS``) on
  positions of random play, and how many ran into that budget (a heuristic
  hint after "unknown"); and the hints of a player who follows them along an
  easy deal (the solver's line is found once, then remembered).

Deserto is played against two greedy bots: a move there includes the bots'
replies. The page weight is ``/`` and every file it loads (scripts followed
through their imports), raw and gzip-compressed. The issue's targets: a move
under 10 ms and a hint under 50 ms at the 95th percentile; the page under 300 KB.

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

from cardtable.web import create_app

GAMES = ("klondike", "desturado", "demonthief", "demons-and-thieves", "devils-square", "deserto")


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


def measure(client: httpx.Client, app: Any, name: str, seconds: float, hints: int) -> dict[str, Any]:
    """Random games of ``name`` through the server, within ``seconds``; hints on every 5th position."""
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
        if name == "deserto":
            body = {"game": name, "seats": ["you", "greedy", "greedy"]}
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
    if name != "deserto":
        table = client.post("/api/tables", json={"game": name, "level": "easy", "seed": 1}).json()
        while not table["outcome"]["over"] and len(followed) < hints:
            began = time.perf_counter()
            table = client.post(f"/api/tables/{table['id']}/hint", json={"at": table["at"]}).json()
            followed.append(time.perf_counter() - began)
            if table["hint"]["move"] is None:
                break
            body = {"at": table["at"], "move": table["hint"]["move"]}
            table = client.post(f"/api/tables/{table['id']}/move", json=body).json()
    ms = 1000.0
    return {
        "followed_hints": len(followed),
        "followed_p95": percentile(followed, 0.95) * ms if followed else 0.0,
        "game": name,
        "moves": len(trips) + len(service),
        "trip_p50": percentile(trips, 0.5) * ms,
        "trip_p95": percentile(trips, 0.95) * ms,
        "trip_max": max(trips) * ms,
        "service_p50": percentile(service, 0.5) * ms,
        "service_p95": percentile(service, 0.95) * ms,
        "service_mean": statistics.fmean(service) * ms,
        "hints": len(hint_times),
        "hint_p50": percentile(hint_times, 0.5) * ms,
        "hint_p95": percentile(hint_times, 0.95) * ms,
        "hint_max": max(hint_times) * ms,
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
        app = create_app(data)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                rows = [measure(client, app, name, args.seconds, args.hints) for name in GAMES]
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
        print(
            f"| {r['game']} | {r['moves']} | {r['trip_p50']:.1f} / {r['trip_p95']:.1f} / {r['trip_max']:.1f} "
            f"| {r['service_p50']:.1f} / {r['service_p95']:.1f} "
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

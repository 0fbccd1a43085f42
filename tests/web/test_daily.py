"""The daily deal through the JSON API (issue 29): the same deal for every browser and stable
for a date, its number in no response until the deal is won or given up, leaderboard entries
made by the server only (a forged score is refused), ranked by moves then time with the clean
mark, past days playable and marked late, names, streaks."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.levels import level_tables
from cardtable.web import create_app
from cardtable.web.daily import WEEK, daily_deal, daily_level, daily_mode, daily_modes, daily_seed, streaks

MONDAY = date(2026, 11, 23)
"""A Monday: an easy day, whose deals the solver wins at once."""


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self, day: date) -> None:
        self.now = datetime(day.year, day.month, day.day, 9, tzinfo=UTC).timestamp()

    def __call__(self) -> float:
        return self.now

    def day(self, day: date) -> None:
        self.now = datetime(day.year, day.month, day.day, 9, tzinfo=UTC).timestamp()


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY)


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Iterator[Any]:
    application = create_app(tmp_path, hint_seconds=0.5)
    application.state.tables.clock = clock
    yield application
    application.state.db.close()


@pytest.fixture
def secret(app: Any) -> str:
    """The test server's secret, which chooses its daily deals (no player knows it)."""
    return str(app.state.daily.secret)


@pytest.fixture
def browsers(app: Any) -> Callable[[], TestClient]:
    """A new browser (its own cookie) on the app, each call."""
    return lambda: TestClient(app, base_url="http://localhost")


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def line(mode: str, day: date, secret: str) -> list[str]:
    """The solver's winning line of a day's deal (the test knows the deal; the player does not)."""
    key = daily_mode(mode)
    game = cardtable.new_game(key.game, deal=daily_deal(day, mode, secret), **key.options())
    moves = [str(m) for m in cardtable.solve(game, seconds=30).moves]
    assert moves
    return moves


def play_line(client: TestClient, table: dict[str, Any], moves: list[str], seen: list[Any] | None = None) -> Any:
    for move in moves:
        table = ok(client.post(f"/api/tables/{table['id']}/move", json={"at": table["at"], "move": move}))
        if seen is not None:
            seen.append(table)
    return table


def shows_number(data: Any, deal: int) -> list[str]:
    """Where a response shows the deal number: a ``deal`` or ``seed`` field that is set, or the
    number as a word in any text."""
    found: list[str] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in ("deal", "seed") and v is not None:
                    found.append(f"{where}.{k}={v}")
                walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
        elif isinstance(value, str) and re.search(rf"(?<![\d.]){deal}(?![\d.])", value):
            found.append(f"{where}: {value!r}")

    walk(data, "")
    return found


def test_the_deal_is_the_same_for_two_browsers_and_stable_for_a_date(
    browsers: Callable[[], TestClient], secret: str
) -> None:
    ana, ben = browsers(), browsers()
    for key in daily_modes():
        a = ok(ana.post("/api/daily/play", json={"mode": key.label}))
        b = ok(ben.post("/api/daily/play", json={"mode": key.label}))
        assert a["id"] != b["id"] and a["piles"] == b["piles"] and a["options"] == b["options"]
        assert ok(ana.post("/api/daily/play", json={"mode": key.label}))["id"] == a["id"]  # the same table again
        # The deal: a pure function of the day, the mode and the server's secret, from the
        # level table of the day's level.
        deal = daily_deal(MONDAY, key.label, secret)
        assert deal == daily_deal(MONDAY, key.label, secret)
        assert deal in level_tables()[key.label].levels[daily_level(MONDAY)]
        fresh = cardtable.new_game(key.game, deal=deal, **key.options())
        assert [p["cards"] for p in a["piles"]] == [p["cards"] for p in _table_of(fresh)["piles"]]
    # SHA-256 of the day, the mode and the secret: the same on every machine and Python.
    assert daily_seed(MONDAY, "klondike-draw3") == int(
        sha256(b"cardtable daily 2026-11-23 klondike-draw3").hexdigest()[:16], 16
    )
    assert daily_seed(MONDAY, "klondike-draw3", secret) == int(
        sha256(f"cardtable daily 2026-11-23 klondike-draw3 {secret}".encode()).hexdigest()[:16], 16
    )
    assert [daily_level(MONDAY + timedelta(days=i)) for i in range(7)] == list(WEEK)
    assert daily_deal(MONDAY, "klondike-draw3", secret) != daily_deal(
        MONDAY + timedelta(days=7), "klondike-draw3", secret
    )


def test_nobody_can_work_out_the_day_s_deal_without_the_server_s_secret(tmp_path: Path, secret: str) -> None:
    # Until 2026-11-28 the day's deal was a function of the day and the mode alone, so
    # anyone with this library had it, face-down cards and all (found by the audit). The
    # secret is random, made once and kept: the same for a server started again.
    assert len(secret) == 64 and int(secret, 16) >= 0
    assert all(daily_seed(MONDAY, key.label, secret) != daily_seed(MONDAY, key.label) for key in daily_modes())
    again = create_app(tmp_path, hint_seconds=0.5)
    assert again.state.daily.secret == secret
    again.state.db.close()
    other = create_app(tmp_path / "other", hint_seconds=0.5)
    assert other.state.daily.secret != secret
    other.state.db.close()


def _table_of(game: Any) -> dict[str, Any]:
    from cardtable.web.table_json import solitaire_table

    return solitaire_table(game)


def test_the_number_is_in_no_response_until_the_deal_is_won(browsers: Callable[[], TestClient], secret: str) -> None:
    mode = "desturado-easy"
    deal = daily_deal(MONDAY, mode, secret)
    ana = browsers()
    seen: list[Any] = [ok(ana.get("/api/daily")), ok(ana.post("/api/daily/play", json={"mode": mode}))]
    table = seen[-1]
    assert table["label"].startswith("Daily deal of 23 November 2026")
    moves = line(mode, MONDAY, secret)
    table = play_line(ana, table, moves[:5], seen)
    progress = ok(ana.get("/api/tables"))
    seen += [
        progress,
        ok(ana.post(f"/api/tables/{table['id']}/undo", json={"at": table["at"]})),
        ok(ana.get(f"/api/tables/{table['id']}")),
        ok(ana.get("/api/tables")),
        ok(ana.get("/api/daily")),
        ok(ana.get("/api/daily/leaderboard", params={"mode": mode})),
        ok(ana.get("/api/stats")),
        ok(ana.post(f"/api/tables/{table['id']}/hint", json={"at": table["at"] - 1, "kind": "plain"})),
    ]
    stale = ana.post(f"/api/tables/{table['id']}/move", json={"at": 0, "move": moves[0]})
    assert stale.status_code == 409
    seen.append(stale.json())
    table = ok(ana.get(f"/api/tables/{table['id']}"))
    assert table["daily"]["status"] == "playing"
    table = play_line(ana, table, moves[table["at"] :], seen)  # the rest of the line, from the undo
    last = seen.pop()
    for response in seen:
        assert shows_number(response, deal) == [], response
    in_progress = [t for t in progress["tables"] if t["game"] == "desturado"]
    assert in_progress and in_progress[0]["link"].startswith("/daily/play")
    # Won: now it is shown, at the table, on the daily page and on the leaderboard.
    assert last["outcome"]["won"] and last["deal"] == deal and f"deal {deal}" in last["label"]
    assert last["daily"]["deal"] == deal
    assert next(m for m in ok(ana.get("/api/daily"))["modes"] if m["mode"] == mode)["deal"] == deal
    assert ok(ana.get("/api/daily/leaderboard", params={"mode": mode}))["deal"] == deal
    # Another browser that has not finished it still does not see it.
    ben = browsers()
    for response in (ok(ben.get("/api/daily")), ok(ben.get("/api/daily/leaderboard", params={"mode": mode}))):
        assert shows_number(response, deal) == []


def test_giving_up_ends_the_deal_and_shows_its_number(browsers: Callable[[], TestClient], secret: str) -> None:
    mode = "devils-square"
    ana = browsers()
    table = ok(ana.post("/api/daily/play", json={"mode": mode}))
    table = play_line(ana, table, line(mode, MONDAY, secret)[:3])
    assert table["deal"] is None
    given = ok(ana.post(f"/api/tables/{table['id']}/give-up", json={"at": table["at"]}))
    assert given["deal"] == daily_deal(MONDAY, mode, secret) and given["daily"]["status"] == "given up"
    refused = ana.post(f"/api/tables/{table['id']}/move", json={"at": given["at"], "move": given["legal"][0]["move"]})
    assert refused.status_code == 409
    assert ok(ana.post("/api/daily/play", json={"mode": mode}))["id"] == table["id"]  # not played again
    assert ok(ana.get("/api/daily/leaderboard", params={"mode": mode}))["entries"] == []
    assert ok(ana.get("/api/stats"))["rows"][0]["played"] == 1


def test_a_forged_score_is_refused(app: Any, browsers: Callable[[], TestClient], secret: str) -> None:
    mode = "desturado-easy"
    ana, ben = browsers(), browsers()
    table = ok(ana.post("/api/daily/play", json={"mode": mode}))
    # Not won yet: no entry, whatever the request says.
    assert ana.post("/api/daily/enter", json={"table": table["id"], "name": "Ana"}).status_code == 422
    for forged in (
        {"table": table["id"], "moves": 3, "seconds": 1.5},
        {"table": table["id"], "name": "Ana", "score": 999},
        {"mode": mode, "moves": 3, "seconds": 1.5, "name": "Ana"},
        {"table": 5},
    ):
        response = ana.post("/api/daily/enter", json=forged)
        assert 400 <= response.status_code < 500, forged
    assert ana.post("/api/daily/entries", json={"mode": mode, "moves": 3}).status_code in (404, 405)
    won = play_line(ana, table, line(mode, MONDAY, secret))
    assert won["outcome"]["won"]
    # Another browser cannot enter Ana's table (it is not found for it), nor a table that is no daily deal's.
    assert ben.post("/api/daily/enter", json={"table": won["id"], "name": "Ben"}).status_code == 404
    plain = ok(ben.post("/api/tables", json={"game": "desturado", "deal": 3}))
    assert ben.post("/api/daily/enter", json={"table": plain["id"], "name": "Ben"}).status_code == 400
    # A table whose stored moves do not win the day's deal is refused by the replay.
    carl = browsers()
    other = ok(carl.post("/api/daily/play", json={"mode": mode}))
    other = play_line(carl, other, line(mode, MONDAY, secret)[:4])
    db = app.state.db
    row = db.get(other["id"])
    row.result, row.ended = "won", row.created + 5
    db.put(row)
    app.state.tables._cache.clear()
    assert carl.post("/api/daily/enter", json={"table": other["id"], "name": "Carl"}).status_code == 400
    entries = ok(ana.get("/api/daily/leaderboard", params={"mode": mode}))["entries"]
    assert entries == []  # Ana's entry waits for her name; Carl has none
    board = ok(ana.post("/api/daily/enter", json={"table": won["id"], "name": "  Ana   B "}))["leaderboard"]
    assert [(e["name"], e["moves"], e["you"]) for e in board["entries"]] == [("Ana B", won["at"], True)]
    assert board["scoring"] == "Cards left" and board["entries"][0]["score"]["text"] == "0 cards left"


def test_entries_are_ranked_by_moves_then_time_with_the_clean_mark(
    clock: Clock, browsers: Callable[[], TestClient], secret: str
) -> None:
    mode = "klondike-draw3"
    moves = line(mode, MONDAY, secret)
    detour = ["d"] * 8 + ["r"]  # through the stock and back: the same position, nine moves more
    players = {"Slow": (moves, 300.0, True), "Fast": (moves, 60.0, False), "Long": (detour + moves, 10.0, False)}
    for name, (played, seconds, hint) in players.items():
        b = browsers()
        ok(b.post("/api/daily/name", json={"name": name}))
        table = ok(b.post("/api/daily/play", json={"mode": mode}))
        table = play_line(b, table, played[:1])
        if hint:
            table = ok(b.post(f"/api/tables/{table['id']}/hint", json={"at": table["at"], "kind": "plain"}))
        clock.now += seconds
        table = play_line(b, table, played[1:])
        assert table["outcome"]["won"] and table["daily"]["status"] == "won"
        assert table["daily"]["clean"] is (not hint)
    board = ok(browsers().get("/api/daily/leaderboard", params={"mode": mode, "day": MONDAY.isoformat()}))
    got = [(e["rank"], e["name"], e["moves"], e["seconds"], e["clean"], e["late"]) for e in board["entries"]]
    n = len(moves)
    assert got == [
        (1, "Fast", n, 60.0, True, False),
        (2, "Slow", n, 300.0, False, False),
        (3, "Long", n + 9, 10.0, True, False),
    ]


@pytest.mark.parametrize("help_", ["undo", "restart", "plain hint", "solver hint", "autocomplete"])
def test_undo_restart_hints_and_autocomplete_are_not_clean(
    browsers: Callable[[], TestClient], help_: str, secret: str
) -> None:
    mode = "demonthief"
    moves = line(mode, MONDAY, secret)
    b = browsers()
    ok(b.post("/api/daily/name", json={"name": "Gus"}))
    table = play_line(b, ok(b.post("/api/daily/play", json={"mode": mode})), moves[:2])
    url = f"/api/tables/{table['id']}"
    if help_ == "undo":
        table = play_line(b, ok(b.post(f"{url}/undo", json={"at": table["at"]})), moves[1:])
    elif help_ == "restart":
        table = play_line(b, ok(b.post(f"{url}/restart", json={"at": table["at"]})), moves)
    elif help_.endswith("hint"):
        kind = help_.split()[0]
        assert ok(b.post(f"{url}/hint", json={"at": table["at"], "kind": kind}))["hint"]["move"]
        table = play_line(b, table, moves[2:])
    else:  # played until Autocomplete is offered, then finished by it
        played = 2
        while not table["finish"]:
            table = play_line(b, table, moves[played : played + 1])
            played += 1
        assert played < len(moves)
        table = ok(b.post(f"{url}/finish", json={"at": table["at"]}))
    assert table["outcome"]["won"] and not table["daily"]["clean"]
    board = ok(b.get("/api/daily/leaderboard", params={"mode": mode}))
    assert [(e["name"], e["clean"]) for e in board["entries"]] == [("Gus", False)]


def test_a_win_with_no_help_is_clean(browsers: Callable[[], TestClient], secret: str) -> None:
    mode = "demonthief"
    b = browsers()
    ok(b.post("/api/daily/name", json={"name": "Hal"}))
    table = play_line(b, ok(b.post("/api/daily/play", json={"mode": mode})), line(mode, MONDAY, secret))
    assert table["outcome"]["won"] and table["daily"]["clean"]


def test_a_past_day_is_playable_and_its_entries_are_late(
    clock: Clock, browsers: Callable[[], TestClient], secret: str
) -> None:
    mode = "devils-square"
    past = MONDAY - timedelta(days=2)  # a Saturday: a hard deal
    b = browsers()
    ok(b.post("/api/daily/name", json={"name": "Eve"}))
    assert (
        b.post("/api/daily/play", json={"mode": mode, "day": (MONDAY + timedelta(days=1)).isoformat()}).status_code
        == 400
    )
    assert b.post("/api/daily/play", json={"mode": mode, "day": "23/11/2026"}).status_code == 400
    assert b.post("/api/daily/play", json={"mode": "deserto"}).status_code == 404
    table = ok(b.post("/api/daily/play", json={"mode": mode, "day": past.isoformat()}))
    assert table["daily"]["day"] == past.isoformat() and table["daily"]["level"] == "hard" and table["deal"] is None
    assert [p["cards"] for p in table["piles"]] == [
        p["cards"] for p in _table_of(cardtable.new_game("devils-square", deal=daily_deal(past, mode, secret)))["piles"]
    ]
    won = play_line(b, table, line(mode, past, secret))
    assert won["outcome"]["won"] and won["deal"] == daily_deal(past, mode, secret)
    board = ok(b.get("/api/daily/leaderboard", params={"mode": mode, "day": past.isoformat()}))
    assert [(e["name"], e["late"], e["rank"]) for e in board["entries"]] == [("Eve", True, 1)]
    assert ok(b.get("/api/daily/leaderboard", params={"mode": mode}))["entries"] == []  # today's is apart
    # A win on the day itself is not late, and ranks before the late ones.
    clock.day(past)
    f = browsers()
    ok(f.post("/api/daily/name", json={"name": "Fay"}))
    play_line(f, ok(f.post("/api/daily/play", json={"mode": mode, "day": past.isoformat()})), line(mode, past, secret))
    board = ok(f.get("/api/daily/leaderboard", params={"mode": mode, "day": past.isoformat()}))
    assert [(e["name"], e["late"]) for e in board["entries"]] == [("Fay", False), ("Eve", True)]


def test_streaks_count_days_played_on_the_day(clock: Clock, browsers: Callable[[], TestClient]) -> None:
    b = browsers()
    for offset in (0, 1, 2, 4, 5):
        clock.day(MONDAY + timedelta(days=offset))
        table = ok(b.post("/api/daily/play", json={"mode": "desturado-easy"}))
        ok(b.post(f"/api/tables/{table['id']}/move", json={"at": 0, "move": table["legal"][0]["move"]}))
    # A past day played late does not count.
    table = ok(
        b.post("/api/daily/play", json={"mode": "devils-square", "day": (MONDAY + timedelta(days=3)).isoformat()})
    )
    ok(b.post(f"/api/tables/{table['id']}/move", json={"at": 0, "move": table["legal"][0]["move"]}))
    assert ok(b.get("/api/daily"))["streak"] == {"current": 2, "best": 3, "days": 5}
    clock.day(MONDAY + timedelta(days=6))
    assert ok(b.get("/api/daily"))["streak"]["current"] == 2  # today not yet played: still running
    clock.day(MONDAY + timedelta(days=7))
    assert ok(b.get("/api/daily"))["streak"]["current"] == 0
    assert streaks([], MONDAY) == {"current": 0, "best": 0, "days": 0}


def test_names_are_normalised_and_checked(browsers: Callable[[], TestClient]) -> None:
    b = browsers()
    assert ok(b.post("/api/daily/name", json={"name": " Zoë \t Q "}))["name"] == "Zoë Q"
    assert ok(b.get("/api/daily"))["name"] == "Zoë Q"
    for bad in ("", "x" * 40, "A\u202eB", "you"):
        assert b.post("/api/daily/name", json={"name": bad}).status_code == 400, bad
    assert browsers().get("/api/daily").json()["name"] is None  # per browser


def test_a_daily_table_is_not_left_for_another_game(browsers: Callable[[], TestClient]) -> None:
    b = browsers()
    daily = ok(b.post("/api/daily/play", json={"mode": "klondike-draw3"}))
    daily = play_line(b, daily, ["d"])
    ok(b.post("/api/tables", json={"game": "klondike", "deal": 4}))
    again = ok(b.get(f"/api/tables/{daily['id']}"))
    assert again["result"] is None and again["at"] == 1
    assert ok(b.get("/api/stats"))["rows"] == []


def test_the_daily_pages_are_served(browsers: Callable[[], TestClient]) -> None:
    b = browsers()
    for path in ("/daily", "/daily/play?mode=devils-square", "/leaderboard"):
        assert "<main" in b.get(path).text
    data = ok(b.get("/api/daily", params={"day": "2026-11-20"}))
    assert data["day"] == "2026-11-20" and data["today"] == MONDAY.isoformat()
    assert [m["mode"] for m in data["modes"]] == [k.label for k in daily_modes()]
    assert b.get("/api/daily", params={"day": "2025-12-31"}).status_code == 400

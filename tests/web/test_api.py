"""The web app's JSON API through FastAPI's test client: every endpoint and every error path.

The rules under test are the browser issue's: the server owns every game, a
response carries only what the player may see, every move goes through the
engine's ``play``, and a bad request gets an error answer and changes nothing.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.web import create_app
from cardtable.web.database import MIGRATIONS, Database, DataFileError
from cardtable.web.errors import KINDS
from cardtable.web.solitaire_tables import SolitaireTables

from .helpers import act, new

SOLITAIRES = ("klondike", "desturado", "demonthief", "demons-and-thieves", "devils-square")
DECK = {"klondike": 52, "desturado": 40, "demonthief": 104, "demons-and-thieves": 104, "devils-square": 64}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path, hint_seconds=0.5), base_url="http://localhost")


def server_game(client: TestClient, table: dict[str, Any]) -> Any:
    tables: SolitaireTables = client.app.state.tables  # type: ignore[attr-defined]
    player = client.cookies.get("cardtable_player")
    assert player
    return tables._table(player, table["id"]).game


def faces(data: Any) -> list[str]:
    """Every card identity a response carries (face texts), wherever it is."""
    found: list[str] = []
    if isinstance(data, dict):
        if "face" in data:
            found.append(str(data["face"]["text"]))
        for value in data.values():
            found += faces(value)
    elif isinstance(data, list):
        for value in data:
            found += faces(value)
    return found


def visible(game: Any, state: Any = None) -> Counter[str]:
    """The face-up cards of the table (of ``state``, by default the game's): the rules' display, and
    the cards it shows aside (Devil's Square's books)."""
    text = game.rules.card_text
    state = game.state if state is None else state
    piles = [pile for row in game.rules.display(state) for _, pile in row] + [p for _, p in game.rules.aside(state)]
    return Counter(text(c) for pile in piles for c, up in pile if up)


def step_faces(game: Any, steps: list[dict[str, Any]]) -> set[str]:
    """The faces the moves just played show, step by step (issue 29: the page plays them out):
    each step's piles hold only cards face up in the position after that move."""
    moves = game.moves
    state = game.start
    for move in moves[: len(moves) - len(steps)]:
        state = game.rules.apply(state, move)
    shown: set[str] = set()
    for step, move in zip(steps, moves[len(moves) - len(steps) :], strict=True):
        assert step["move"] == str(move)
        state = game.rules.apply(state, move)
        up = visible(game, state)
        for cards in step["piles"].values():
            for face in faces(cards):
                assert face in up, f"{face} is in a step but not face up after {move}"
                shown.add(face)
    return shown


def hidden_names(game: Any) -> set[str]:
    """The words of the face-down cards that no face-up card shares (``10♦``, ``green 3 of keys``)."""
    rules, state = game.rules, game.state
    piles = [pile for row in rules.display(state) for _, pile in row] + [p for _, p in rules.aside(state)]
    up = {rules.card_name(c) for pile in piles for c, face_up in pile if face_up}
    return {rules.card_name(c) for pile in piles for c, face_up in pile if not face_up} - up


CARD_TOKEN = re.compile(r"\b(?:[A2-9TJQK][CDHS]|[1-4][YRGB][KASC])\b")


def check_nothing_hidden(client: TestClient, table: dict[str, Any], raw: str) -> None:
    """The response's cards are exactly the face-up cards of the server's position,
    and no card text of a face-down card appears anywhere in the response."""
    game = server_game(client, table)
    seen = visible(game)
    assert Counter(faces({k: v for k, v in table.items() if k != "steps"})) == seen
    shown = step_faces(game, table.get("steps", []))
    raw = raw.replace(table["id"], "")  # a random id may hold "8C" and the like
    for token in CARD_TOKEN.findall(raw):
        assert token in seen or token in shown, f"{token} is in a response but not face up"
    # The moves in words name face-up cards only.
    said = json.dumps([m.get("words", "") for m in table["legal"]] + table.get("told", []), ensure_ascii=False)
    for name in hidden_names(game):
        assert not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", said), f"{name} is said but face down"


def test_catalogue_lists_every_game_with_options_and_levels(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["name"] for g in data["games"]] == list(cardtable.GAMES)
    klondike = data["games"][0]
    assert {o["name"]: o["default"] for o in klondike["options"]}["draw"] == "3"
    assert klondike["levels"] == ["random", "easy", "normal", "hard", "tricky"]
    assert data["games"][-1]["levels"] == []
    assert "greedy" in data["bots"]


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    for path in ("/", "/play/klondike", "/stats", "/rules/deserto"):
        response = client.get(path)
        assert response.status_code == 200 and "<main" in response.text
    for name in ("app.js", "table.js", "cards.js", "util.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/nope.js").status_code == 404


def test_rules_endpoint(client: TestClient) -> None:
    data = client.get("/api/rules/demons-and-thieves").json()
    assert data["title"] == "Demons and Thieves" and "## Options" in data["text"]
    bad = client.get("/api/rules/poker")
    assert bad.status_code == 404 and "poker" in bad.json()["error"]


@pytest.mark.parametrize("name", SOLITAIRES)
def test_a_new_deal_has_every_card_and_the_engines_legal_moves(client: TestClient, name: str) -> None:
    table = new(client, game=name, deal=7)
    game = cardtable.new_game(name, deal=7)
    cards = sum(len(p["cards"]) for p in table["piles"])
    assert cards == DECK[name]
    assert [m["move"] for m in table["legal"]] == [str(m) for m in game.legal_moves()]
    assert table["label"] == "Random (7)" and table["at"] == 0 and table["deal"] == 7
    names = {p["name"] for p in table["piles"]}
    for m in table["legal"]:
        assert m["from"] in names and m["to"] in names


@pytest.mark.parametrize("name", SOLITAIRES)
def test_random_play_through_the_api_matches_the_engine_and_hides_face_down_cards(
    client: TestClient, name: str
) -> None:
    rng = random.Random(name)
    table = new(client, game=name, deal=3)
    mirror = cardtable.new_game(name, deal=3)
    for _ in range(40):
        if table["outcome"]["over"]:
            break
        choice = rng.choice(table["legal"])
        if rng.random() < 0.5 and choice["index"] is not None:  # the same move, as a drop
            response = act(
                client, table, "move", **{"from": choice["from"], "index": choice["index"], "to": choice["to"]}
            )
        else:
            response = act(client, table, "move", move=choice["move"])
        assert response.status_code == 200, response.text
        mirror.play(choice["move"])
        table = response.json()
        check_nothing_hidden(client, table, response.text)
        assert server_game(client, table).state == mirror.state
        if rng.random() < 0.15 and table["can_undo"]:
            response = act(client, table, "undo")
            mirror.undo()
            table = response.json()
            check_nothing_hidden(client, table, response.text)
            response = act(client, table, "redo")
            mirror.redo()
            table = response.json()
            assert server_game(client, table).state == mirror.state


def test_a_multi_player_game_is_played_in_a_room_not_at_a_table(client: TestClient) -> None:
    for body in (
        {"game": "deserto"},
        {"game": "deserto", "options": {"players": 3}},
    ):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400 and response.json()["kind"] == "bad-request"
        assert "open a room for it (POST /api/rooms)" in response.json()["error"]
    # Seats are a room's: a table has none.
    assert client.post("/api/tables", json={"game": "klondike", "deal": 1, "seats": ["you"]}).status_code == 400
    assert client.get("/api/tables").json()["tables"] == []


def test_error_paths_change_nothing(client: TestClient) -> None:
    table = new(client, game="klondike", deal=0)
    before = server_game(client, table).state
    cases: list[tuple[dict[str, Any], int, str, str]] = [
        ({"move": "r"}, 422, "illegal", "rule 2"),
        ({"move": "xx"}, 400, "unparsable", "not a klondike move"),
        ({"move": 5}, 400, "bad-request", "move"),
        ({"from": "1", "index": 0, "to": "fc"}, 422, "illegal", "rule 4"),
        ({"from": "2", "index": 0, "to": "5"}, 422, "illegal", "face-down"),
        ({"from": "2", "index": 9, "to": "5"}, 400, "bad-request", "no card"),
        ({"from": "9", "index": 0, "to": "5"}, 400, "bad-request", "no pile"),
        ({"from": "3", "index": 2, "to": "3"}, 422, "illegal", "already"),
        ({"move": "d", "from": "3"}, 400, "bad-request", "give a move"),
        ({}, 400, "bad-request", "give a move"),
        ({"move": "d", "colour": "red"}, 400, "bad-request", "colour"),
        # Strict kinds: a number is a JSON number, a yes or no is true or false.
        ({"move": "d", "at": True}, 400, "bad-request", "at"),
        ({"move": "d", "at": "0"}, 400, "bad-request", "at"),
        ({"move": "d", "at": 0.0}, 400, "bad-request", "at"),
        ({"from": "3", "index": "2", "to": "fs"}, 400, "bad-request", "index"),
        ({"move": "d", "auto": "yes"}, 400, "bad-request", "auto"),
        ({"move": "d", "auto": 1}, 400, "bad-request", "auto"),
    ]
    for body, status, kind, words in cases:
        response = act(client, table, "move", **body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["kind"] == kind and words in response.json()["error"], (body, response.json())
        assert server_game(client, table).state == before
    stale = client.post(f"/api/tables/{table['id']}/move", json={"at": 3, "move": "d"})
    assert stale.status_code == 409 and stale.json()["kind"] == "stale" and stale.json()["table"]["at"] == 0
    missing_at = client.post(f"/api/tables/{table['id']}/move", json={"move": "d"})
    assert missing_at.status_code == 400
    assert client.post(f"/api/tables/{table['id']}/undo", json={"at": 0}).json()["kind"] == "illegal"
    assert client.post(f"/api/tables/{table['id']}/redo", json={"at": 0}).json()["kind"] == "illegal"
    assert client.post(f"/api/tables/{table['id']}/fly", json={"at": 0}).status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    assert server_game(client, table).state == before
    # A drop on a foundation that does not take the card: the spades ace is home, the hearts one is not.
    table = act(client, table, "move", move="3f").json()
    response = act(client, table, "move", **{"from": "1", "index": 0, "to": "fs"})
    assert response.status_code == 422 and "10♥" in response.json()["error"]


def test_bad_new_tables_are_refused(client: TestClient) -> None:
    for body in (
        {"game": "poker"},
        {"game": "klondike", "options": {"draw": 2}},
        {"game": "klondike", "options": {"colour": "red"}},
        {"game": "klondike", "level": "impossible"},
        {"game": "klondike", "deal": -1},
        {"game": "klondike", "deal": "seven"},
        {"game": "klondike", "surprise": 1},
        {"game": "klondike", "deal": True},
        {"game": "klondike", "deal": 3.0},
        {"game": "klondike", "deal": "3"},
        {"game": "klondike", "seed": False, "level": "easy"},
        {"game": "klondike", "seed": -1, "level": "easy"},
        {"game": "klondike", "options": {"draw": 1.0}},
    ):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400, body
        assert response.json()["kind"] == "bad-request" and response.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made
    said = client.post("/api/tables", json={"game": "klondike", "options": {"draw": 1.5}}).json()["error"]
    assert said == "bad request: options.draw: Input should be text, a whole number, true or false"
    not_flags: list[tuple[str, dict[str, Any]]] = [
        ("/api/rooms", {"name": "Ana", "seats": [{"kind": "human"}, {"kind": "human"}], "public": "yes"}),
        ("/api/play-now", {"players": "2", "name": "Ana"}),
    ]
    for path, made in not_flags:
        response = client.post(path, json=made)
        assert response.status_code == 400 and response.json()["kind"] == "bad-request", (path, response.text)


def test_another_browsers_game_is_not_found(client: TestClient, tmp_path: Path) -> None:
    table = new(client, game="klondike", deal=0)
    other = TestClient(client.app, base_url="http://localhost")
    assert other.get(f"/api/tables/{table['id']}").status_code == 404
    assert other.post(f"/api/tables/{table['id']}/move", json={"at": 0, "move": "d"}).status_code == 404
    assert server_game(client, table).moves == []


def test_levels_and_seeds_give_the_libraries_deal(client: TestClient) -> None:
    table = new(client, game="devils-square", level="hard", seed=11)
    deal = cardtable.deal_for_level("devils-square", "hard", seed=11)
    assert table["deal"] == deal and table["label"] == f"Hard ({deal})" and table["seed"] == 11
    random_level = new(client, game="klondike", level="random")
    assert random_level["label"].startswith("Random (")


@pytest.mark.slow
def test_a_solver_line_wins_and_a_won_game_stays_won(client: TestClient) -> None:
    line = cardtable.solve(cardtable.new_game("klondike", deal=8), seconds=30).moves
    table = new(client, game="klondike", deal=8)
    for move in line:
        response = act(client, table, "move", move=str(move))
        assert response.status_code == 200, response.text
        table = response.json()
        if table["finish"]:  # every card known: autocomplete is offered, and finishes
            table = act(client, table, "finish").json()
            break
    assert table["outcome"] == {"won": True, "over": True, "score": 52, "reason": "You won!"}
    assert table["legal"] == [] and not table["can_undo"] and table["result"] == "won"
    for action, body in (("move", {"move": "fh5"}), ("undo", {}), ("restart", {}), ("hint", {}), ("finish", {})):
        response = act(client, table, action, **body)
        assert response.status_code in (409, 422), action
    assert server_game(client, table).outcome.won
    stats = client.get("/api/stats").json()["rows"]
    assert len(stats) == 1
    row = stats[0]
    assert (row["game"], row["played"], row["won"], row["win_rate"], row["current_streak"]) == (
        "klondike",
        1,
        1,
        1.0,
        1,
    )
    assert (
        row["fewest_moves"] == table["at"] and row["best_time"] is not None and row["average_time"] == row["best_time"]
    )


def test_a_game_given_up_offers_no_autocomplete_and_no_undo(client: TestClient) -> None:
    line = cardtable.solve(cardtable.new_game("klondike", deal=8), seconds=30).moves
    table = new(client, game="klondike", deal=8)
    for move in line:
        table = act(client, table, "move", move=str(move)).json()
        if table["finish"]:
            break
    assert table["finish"] and table["can_undo"]
    table = act(client, table, "give-up").json()
    assert table["result"] == "abandoned" and not table["finish"] and not table["can_undo"]
    played = server_game(client, table).moves
    for action in ("finish", "undo", "move", "hint"):
        response = act(client, table, action, **({"move": "d"} if action == "move" else {}))
        assert response.status_code == 409 and response.json()["kind"] == "finished", (action, response.text)
    assert server_game(client, table).moves == played
    assert client.get(f"/api/tables/{table['id']}").json()["result"] == "abandoned"


def test_statistics_count_abandoned_games_and_hints(client: TestClient) -> None:
    first = new(client, game="klondike", deal=8)
    hinted = act(client, first, "hint").json()
    assert hinted["hint"]["source"] == "solver" and hinted["hints"] == 1
    act(client, hinted, "move", move=hinted["hint"]["move"])
    new(client, game="klondike", deal=9)  # leaves the first one
    new(client, game="devils-square", deal=1)  # another game: the Klondike one stays open
    rows = client.get("/api/stats").json()["rows"]
    assert [(r["game"], r["played"], r["won"], r["hints"], r["current_streak"]) for r in rows] == [
        ("klondike", 1, 0, 1, 0)
    ]
    open_games = client.get("/api/tables").json()["tables"]
    assert sorted(t["game"] for t in open_games) == ["devils-square", "klondike"]


def test_a_lost_game_is_announced_with_its_reason(client: TestClient) -> None:
    # Random moves that never go back to a position seen: Desturado deal 1 runs out of legal moves.
    rules, rng = cardtable.rules_for("desturado"), random.Random(1)
    state = rules.deal(1)
    seen, line = {state}, []
    while rules.legal_moves(state):
        move = rng.choice([m for m in rules.legal_moves(state) if rules.apply(state, m) not in seen])
        state = rules.apply(state, move)
        seen.add(state)
        line.append(str(move))
    table = new(client, game="desturado", deal=1)
    for move in line:
        assert not table["outcome"]["over"]
        table = act(client, table, "move", move=move).json()
    assert table["legal"] == [] and "no more valid moves" in table["outcome"]["reason"]
    assert table["result"] == "lost" and not table["outcome"]["won"]
    response = act(client, table, "move", move="ab")
    assert response.status_code == 409 and response.json()["kind"] == "finished"
    rows = client.get("/api/stats").json()["rows"]
    assert rows[0]["played"] == 1 and rows[0]["won"] == 0


def test_autoplay_moves_safe_cards_and_undo_takes_them_back(client: TestClient) -> None:
    table = new(client, game="klondike", deal=0)
    table = act(client, table, "move", move="d", auto=True).json()
    game = server_game(client, table)
    assert [str(m) for m in game.moves] == ["d", "3f"]
    table = act(client, table, "undo").json()
    assert table["at"] == 0


def test_a_game_survives_a_server_restart(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), base_url="http://localhost")
    table = new(client, game="demonthief", deal=2)
    for _ in range(3):
        table = act(client, table, "move", move=table["legal"][0]["move"]).json()
    table = act(client, table, "undo").json()
    cookie = client.cookies.get("cardtable_player")
    assert cookie
    again = TestClient(create_app(tmp_path), base_url="http://localhost")
    again.cookies.set("cardtable_player", cookie)
    same = again.get(f"/api/tables/{table['id']}").json()
    for key in ("at", "piles", "legal", "can_redo", "label"):
        assert same[key] == table[key]
    assert act(again, same, "redo").json()["at"] == 3


def test_the_database_migrates_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    assert Database(str(path)).version() == len(MIGRATIONS)
    assert Database(str(path)).version() == len(MIGRATIONS)  # opening again changes nothing


def test_a_data_file_that_is_not_ours_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    other, newer, junk = tmp_path / "other.sqlite", tmp_path / "newer.sqlite", tmp_path / "junk.sqlite"
    with sqlite3.connect(other) as db:  # another program's: before, 15 tables were added to it
        db.execute("CREATE TABLE users (id INTEGER)")
    Database(str(newer)).close()
    with sqlite3.connect(newer) as db:  # a newer cardtable's: before, it was used as it was
        db.execute("PRAGMA user_version = 99")
    junk.write_bytes(bytes(range(256)) * 20)
    for path, words in (
        (other, "not a cardtable data file (it holds other tables: users)"),
        (newer, "schema version 99; this one knows up to"),
        (junk, "file is not a database"),
    ):
        before = (path.read_bytes(), path.stat().st_mode)
        with pytest.raises(DataFileError, match=re.escape(words)):
            Database(str(path))
        assert (path.read_bytes(), path.stat().st_mode) == before, path


def test_a_file_of_the_old_tables_and_rooms_is_migrated(tmp_path: Path) -> None:
    """A version 2 file: its rooms were Deserto's, and its Deserto tables against bots (the
    rows with seats) are left as when a new game starts: abandoned after a move, else dropped."""
    path = tmp_path / "cardtable.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:2]:
        db.executescript(step)
    db.execute("PRAGMA user_version = 2")
    columns = "id, player, game, mode, level, save, seats, created, ended, result, moves"
    for row in (
        ("moved", "p", "deserto", "players=2", "random", "{}", '["you", "greedy"]', 1.0, None, None, 4),
        ("fresh", "p", "deserto", "players=2", "random", "{}", '["you", "greedy"]', 2.0, None, None, 0),
        ("done", "p", "deserto", "players=2", "random", "{}", '["you", "greedy"]', 3.0, 9.0, "won", 30),
        ("solo", "p", "klondike", "draw=3", "random", "{}", None, 4.0, None, None, 2),
    ):
        db.execute(f"INSERT INTO tables ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    seats = json.dumps([{"kind": "human", "name": "Ana"}, {"kind": "bot", "name": "Greedy 2", "bot": "greedy"}])
    db.execute("INSERT INTO rooms VALUES ('ABCDEF', '{\"players\": 2}', ?, NULL, 0, 'lobby', 1.0, 1.0)", (seats,))
    db.close()
    migrated = Database(str(path))
    assert migrated.version() == len(MIGRATIONS) == 9
    assert migrated.daily_plays("p") == [] and migrated.daily_name("p") is None  # the daily deal's tables, empty
    room = migrated.rooms()[0]
    assert (room.code, room.game, room.player, room.hints, room.redo) == ("ABCDEF", "deserto", None, 0, "[]")
    assert (room.public, room.rated, room.rev, room.epoch) == (0, 0, 0, 0)  # an older room: private, not rated
    assert migrated.get("fresh") is None
    moved = migrated.get("moved")
    assert moved is not None and (moved.result, moved.ended) == ("abandoned", 1.0)
    assert [r.id for r in migrated.player_tables("p", finished=False)] == ["solo"]
    assert [(r.id, r.result) for r in migrated.player_tables("p", finished=True)] == [
        ("moved", "abandoned"),
        ("done", "won"),
    ]


def test_a_rooms_stored_moves_are_given_its_epoch_when_the_file_is_migrated(tmp_path: Path) -> None:
    """A version 7 file: its rooms' moves had no epoch (the moves taken back were removed);
    each row now belongs to its room's epoch of then, so the room's game reads the same."""
    path = tmp_path / "cardtable.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:7]:
        db.executescript(step)
    db.execute("PRAGMA user_version = 7")
    db.execute(
        "INSERT INTO rooms (code, options, seats, deal, game_no, status, created, epoch)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ("ABCDEF", "{}", "[]", 5, 0, "playing", 1.0, 3),
    )
    for n, move in enumerate(["V1", "T2"]):
        db.execute("INSERT INTO room_moves VALUES ('ABCDEF', 0, ?, ?)", (n, move))
    db.execute("INSERT INTO room_moves VALUES ('GONE', 0, 0, 'V1')")  # a room no longer stored
    db.close()
    migrated = Database(str(path))
    assert migrated.version() == len(MIGRATIONS)
    assert migrated.moves("ABCDEF", 0) == migrated.moves("ABCDEF", 0, epoch=3) == ["V1", "T2"]
    assert migrated.moves("GONE", 0, epoch=0) == ["V1"]


def test_one_error_vocabulary_with_one_status_a_kind() -> None:
    assert set(KINDS) >= {
        "not-found",
        "stale",
        "illegal",
        "unparsable",
        "finished",
        "not-your-turn",
        "bad-request",
        "spectator",
        "seat-taken",
        "not-ready",
        "unavailable",
    }
    assert all(400 <= status < 500 for status in KINDS.values())


def test_hints_follow_the_solvers_line_without_a_new_search(client: TestClient) -> None:
    table = new(client, game="klondike", deal=8)
    first = act(client, table, "hint").json()["hint"]
    assert first["source"] == "solver" and "starts a winning line" in first["text"]
    table = act(client, table, "move", move=first["move"]).json()
    second = act(client, table, "hint").json()
    assert second["hint"]["source"] == "solver" and "goes on with a winning line" in second["hint"]["text"]
    assert second["hints"] == 2
    # Off the line, the solver searches afresh.
    other = next(m["move"] for m in second["legal"] if m["move"] != second["hint"]["move"])
    table = act(client, second, "move", move=other).json()
    third = act(client, table, "hint").json()["hint"]
    assert "goes on" not in third["text"]


def test_redo_repeats_exactly_what_undo_took_back(client: TestClient) -> None:
    # Issue 27: a move sent with auto plays "d 3f" (the ace of spades goes home); undo takes
    # both back, and redo must give the same position again, not "d" alone.
    table = new(client, game="klondike", deal=0)
    played = act(client, table, "move", move="d", auto=True).json()
    assert played["at"] == 2
    position = server_game(client, played).state
    undone = act(client, played, "undo").json()
    assert undone["at"] == 0
    redone = act(client, undone, "redo").json()
    assert redone["at"] == 2 and server_game(client, redone).state == position
    # A move played without its automatic moves is played again without them.
    plain = act(client, redone, "undo").json()
    plain = act(client, plain, "move", move="d").json()
    assert plain["at"] == 1
    again = act(client, act(client, plain, "undo").json(), "redo").json()
    assert again["at"] == 1


def test_an_address_may_ask_for_only_so_many_searches() -> None:
    # A deal by level may be a live search, and a hint is one: ten level requests with new
    # options at once took 18 to 73 s each, holding others' requests (the bad-input audit).
    from cardtable.web.limits import Limits

    client = TestClient(
        create_app(":memory:", limits=Limits(search_burst=3, searches_per_minute=0.0)), base_url="http://localhost"
    )
    table = new(client, game="klondike", level="easy", seed=1)
    assert act(client, table, "hint", kind="plain").status_code == 200
    new(client, game="klondike", deal=5)  # a deal by number is no search
    assert act(client, table, "hint", kind="solver").status_code == 200
    for refused in (
        client.post("/api/tables", json={"game": "klondike", "level": "easy", "seed": 2}),
        act(client, table, "hint", kind="plain"),
    ):
        assert refused.status_code == 429 and refused.json()["kind"] == "too-many", refused.text
        assert "too many searches" in refused.json()["error"]
    assert new(client, game="klondike", deal=6)["deal"] == 6


def test_a_deal_and_a_level_together_are_refused(client: TestClient) -> None:
    # As the CLI refuses them; the server used to take the deal and drop the level quietly
    # (found by the bad-input audit).
    for body in ({"deal": 3, "level": "easy"}, {"deal": 3, "seed": 5}):
        refused = client.post("/api/tables", json={"game": "klondike", **body})
        assert refused.status_code == 400 and "not both" in refused.json()["error"], refused.text

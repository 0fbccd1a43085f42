"""The proof of issue 25 for the web layer: two games defined only under tests/
(:mod:`tests.toys`), added to the one list of games by the ``toy_games`` fixture and
by nothing else, are offered on the home page and played to their end: the toy
patience at a table (won, by the solver's line), the toy duel in a room against the
random bot; through the JSON API and the socket, and in Chromium by mouse as a
player does, with no console error.

The live server runs in this process, so the fixture's registration is the server's.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core.spec import GameSpec
from cardtable.web import create_app

from .conftest import Page

TOYS = ("toy-patience", "toy-duel")
ROOM_TABLE = "() => { const r = window.cardtableRoom; return r && r.table ? r.table.table : null; }"


def won_line(name: str) -> tuple[int, list[Any]]:
    """A deal of a one-player game that the solver wins, and its winning line."""
    for deal in range(20):
        result = cardtable.solve(cardtable.new_game(name, deal=deal), seconds=10)
        if result.solved and len(result.moves) >= 8:
            return deal, list(result.moves)
    raise AssertionError(f"no deal of {name} won among the first 20")


@pytest.fixture
def client(tmp_path: Path, toy_games: tuple[GameSpec, ...]) -> TestClient:
    return TestClient(create_app(tmp_path, hint_seconds=0.2, bot_pause=0), base_url="http://localhost")


# --- through the API --------------------------------------------------------------------------


def test_the_api_offers_the_toys_and_plays_the_patience_to_a_win(client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(TOYS) <= set(listed)
    assert listed["toy-patience"]["players"] == "1" and listed["toy-patience"]["cards"] == "french"
    assert listed["toy-duel"]["players"] == "2-2" and listed["toy-duel"]["bots"] == ["random"]
    assert "Toy" in client.get("/api/rules/toy-patience").json()["title"]
    deal, line = won_line("toy-patience")
    table = client.post("/api/tables", json={"game": "toy-patience", "deal": deal}).json()
    assert table["width"] == 6 and {p["name"] for p in table["piles"]} == {"fc", "fh", "1", "2", "3", "4"}
    # A drop no legal move has: refused in words, nothing changes.
    legal = {(m["from"], m["index"], m["to"]) for m in table["legal"]}
    bad = next((p, 1, q) for p in "1234" for q in "1234" if p != q and (p, 1, q) not in legal)
    body = {"at": 0, "from": bad[0], "index": bad[1], "to": bad[2]}
    refused = client.post(f"/api/tables/{table['id']}/move", json=body)
    assert refused.status_code == 422 and refused.json()["kind"] == "illegal", refused.json()
    for i, move in enumerate(line):
        entry = next(m for m in table["legal"] if m["move"] == str(move))
        if i % 2:  # half the moves as drops, half in notation
            body = {"at": table["at"], "from": entry["from"], "index": entry["index"], "to": entry["to"]}
        else:
            body = {"at": table["at"], "move": entry["move"]}
        response = client.post(f"/api/tables/{table['id']}/move", json=body)
        assert response.status_code == 200, response.text
        table = response.json()
    assert table["outcome"] == {"won": True, "over": True, "score": 8, "reason": "You won!"}
    rows = client.get("/api/stats").json()["rows"]
    assert [(r["game"], r["won"]) for r in rows] == [("toy-patience", 1)]


def test_the_toy_duel_is_played_in_a_room_against_the_random_bot_to_its_end(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    # Only the bots the toy declares: greedy plays Deserto's tactics, not the toy.
    refused = client.post(
        "/api/rooms", json={"game": "toy-duel", "name": "Ana", "seats": [seats[0], {"kind": "bot", "bot": "greedy"}]}
    )
    assert refused.status_code == 400 and "no bot 'greedy' plays Toy duel" in refused.json()["error"], refused.json()
    room = client.post("/api/rooms", json={"game": "toy-duel", "name": "Ana", "seats": seats}).json()
    rng = random.Random(4)
    drops = 0
    with client.websocket_connect(f"ws://localhost/ws/rooms/{room['code']}") as ws:
        ws.send_json({"type": "hello", "token": room["token"], "key": room["key"]})
        while True:
            frame = ws.receive_json()
            if frame["type"] == "hint":
                continue
            assert frame["type"] == "snapshot", frame
            table = frame["table"]
            assert table["family"] == "seats" and table["seat"] == 0
            bot_hand = next(p for p in table["piles"] if p["name"] == "hand 1")
            assert not any(c["up"] for c in bot_hand["cards"])  # the bot's hand stays hidden
            if frame["status"] == "over":
                break
            if table["to_move"] == 0:
                assert table["turn"].startswith("Your turn")
                move = rng.choice(table["legal"])
                if rng.random() < 0.5:
                    drops += 1
                    ws.send_json({"type": "move", "from": move["from"], "index": move["index"], "to": move["to"]})
                else:
                    ws.send_json({"type": "move", "move": move["move"], "at": frame["at"]})
                    continue
                # A drop names its move count too: without it, refused.
                assert ws.receive_json()["kind"] == "bad-request"
                body = {"type": "move", "from": move["from"], "index": move["index"], "to": move["to"]}
                ws.send_json({**body, "at": frame["at"]})
    result = frame["result"]
    assert result is not None and len(result["scores"]) == 2 and drops > 0
    assert result["reason"].startswith(("You won!", "You share the win!", "Game over."))
    assert "rank" in result["reason"] and frame["log"] and "You laid" in " ".join(frame["log"])


# --- in the browser -------------------------------------------------------------------------


def at(p: Any) -> int:
    return int(p.evaluate("document.body.dataset.at"))


def top(p: Any, pile: str) -> Any:
    """Where to put a card on a pile: its top card, or the empty slot."""
    cards = p.locator(f'.card[data-pile="{pile}"]')
    return cards.nth(cards.count() - 1) if cards.count() else p.locator(f'.pile[data-pile="{pile}"]')


def point(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] * 0.1, 8)


def drag(p: Any, src: Any, dst: Any) -> None:
    x, y = point(src)
    tx, ty = point(dst)
    p.mouse.move(x, y)
    p.mouse.down()
    p.mouse.move(tx, ty, steps=6)
    p.mouse.up()


def click(p: Any, src: Any, dst: Any) -> None:
    p.mouse.click(*point(src))
    p.mouse.click(*point(dst))


def test_the_home_page_lists_both_toys(page: Page, toy_games: tuple[GameSpec, ...]) -> None:
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    titles = p.locator(".game-card h2").all_inner_texts()
    assert titles[-2:] == ["Toy patience", "Toy duel"], titles
    duel = p.locator('.game-card[data-game="toy-duel"]')
    assert duel.locator('select[name="seat2"] option').all_inner_texts() == ["random", "a person (invite)"]


def test_the_toy_patience_is_won_in_the_browser(page: Page, toy_games: tuple[GameSpec, ...]) -> None:
    deal, line = won_line("toy-patience")
    game = cardtable.new_game("toy-patience", deal=deal)  # the test follows the game to know where cards lie
    p = page.page
    p.goto(f"{page.live.url}/play/toy-patience?deal={deal}")
    p.wait_for_selector("body[data-state='playing']")
    assert p.locator(".card").count() == 8 and p.locator(".card.down").count() == 4
    for i, move in enumerate(line):
        where = game.rules.move_places(game.state, move)
        card = p.locator(f'.card[data-pile="{where.src}"]').last
        # The page shows the card the move takes: its label names it.
        text = game.rules.card_text(game.state.piles[int(where.src) - 1][-1])
        rank, suit = text[0], text[1]
        label = card.get_attribute("aria-label") or ""
        assert label.endswith({"C": "clubs", "H": "hearts"}[suit]) and label[0].upper() == rank, (label, move)
        before = at(p)
        if where.dst.startswith("f") and i % 3 == 2:
            p.mouse.dblclick(*point(card))  # a double-click sends a card home
        elif i % 2:
            drag(p, card, top(p, where.dst))
        else:
            click(p, card, top(p, where.dst))
        p.wait_for_function(f"() => Number(document.body.dataset.at) === {before + 1}")
        game.play(move)
    p.wait_for_selector("body[data-state='won']")
    assert "You won!" in p.locator("#banner").inner_text()
    assert p.locator('.card[data-pile^="f"]').count() == 8


def test_the_toy_duel_is_played_against_the_random_bot_in_the_browser(
    page: Page, toy_games: tuple[GameSpec, ...]
) -> None:
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    p.locator('.game-card[data-game="toy-duel"] button[type="submit"]').click()  # play against the bot
    p.wait_for_selector("body[data-state='playing']")
    assert "/room/" in p.url
    rng = random.Random(2)
    for turn in range(20):
        p.wait_for_function(
            f"() => {{ const t = ({ROOM_TABLE})(); return t && (t.to_move === t.seat || t.outcome.over); }}"
        )
        table = p.evaluate(f"({ROOM_TABLE})()")
        if table["outcome"]["over"]:
            break
        assert p.locator("#news .turn").inner_text().startswith("Your turn")
        hand = p.locator('.card[data-pile="hand 0"]')
        card = hand.nth(rng.randrange(hand.count()))
        assert card.get_attribute("aria-label")
        before = at(p)
        (drag if turn % 2 else click)(p, card, top(p, "middle"))
        p.wait_for_function(f"() => Number(document.body.dataset.at) > {before}")
    else:
        raise AssertionError("the duel did not end in 20 turns")
    p.wait_for_selector("#banner:not([hidden])")
    banner = p.locator("#banner").inner_text()
    assert "rank 1" in banner and "You" in banner, banner
    assert p.locator(".side .log li").count() >= 6

"""Deserto rooms in real Chromium: friends by the invite link, a person against bots (no lobby:
it starts at once, and counts in the statistics), a reload. The page runs under its
Content-Security-Policy, which forbids evaluating strings: every predicate is a function.

Each page plays by dragging cards from its hand onto the square (or onto the
previous player's winnings to give one), as a person does.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveServer, Page

pytestmark = pytest.mark.browser

TABLE = "() => { const r = window.cardtableRoom; return r && r.table ? r.table.table : null; }"


def shown(p: Any) -> dict[str, Any] | None:
    data: dict[str, Any] | None = p.evaluate(TABLE)
    return data


def grab_point(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] * 0.1, 8)


def play_one(p: Any, rng: random.Random, by_drag: bool) -> bool:
    """If it is this page's turn, play a random legal move by mouse; whether it did."""
    t = shown(p)
    if t is None or t["outcome"]["over"] or t["to_move"] != t["seat"] or not t["legal"]:
        return False
    move = rng.choice(t["legal"])
    src = p.locator(f'.card[data-pile="{move["from"]}"][data-index="{move["index"]}"]').bounding_box()
    cards = p.locator(f'.card[data-pile="{move["to"]}"]')
    dst = (
        cards.nth(cards.count() - 1) if cards.count() else p.locator(f'.pile[data-pile="{move["to"]}"]')
    ).bounding_box()
    x, y = grab_point(src)
    tx, ty = grab_point(dst)
    if by_drag:
        p.mouse.move(x, y)
        p.mouse.down()
        p.mouse.move(tx, ty, steps=5)
        p.mouse.up()
    else:
        p.mouse.click(x, y)
        p.mouse.click(tx, ty)
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.at !== {t['at']}; }}")
    return True


def play_moves(p: Any, rng: random.Random, count: int, drags: int) -> None:
    """Play ``count`` random moves of this page's seat by mouse, the first ``drags`` of them
    by dragging (the others by two clicks), waiting for the bots between them."""
    played = 0
    while played < count:
        if play_one(p, rng, played < drags):
            played += 1
        else:
            p.wait_for_timeout(50)


def over(p: Any) -> bool:
    return str(p.evaluate("document.body.dataset.state")) in ("won", "over")


def open_room(page: Page, seats: list[str], name: str = "Ana") -> Any:
    """Open a room from the home page's Deserto card: the seats after the first, your name."""
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    card = p.locator('.game-card[data-game="deserto"]')
    card.locator('select[name="players"]').select_option(str(len(seats) + 1))
    for i, who in enumerate(seats):
        card.locator(f'select[name="seat{i + 2}"]').select_option(who)
    card.locator('input[name="room-name"]').fill(name)
    card.locator("#open-room").click()
    # A room of bots only starts at once; one with a seat for a person waits in its lobby.
    p.wait_for_selector("body[data-state='playing']" if "person" not in seats else "body[data-state='lobby']")
    return p


def test_two_friends_play_a_whole_game_by_the_invite_link(page: Page, context: Any, browser: Any) -> None:
    ana = open_room(page, ["person"])
    link = ana.locator("#invite").get_attribute("href")
    assert ana.locator("#start").is_disabled()
    friend = browser.new_context(viewport={"width": 900, "height": 900})
    ben = friend.new_page()
    errors: list[str] = []
    ben.on("pageerror", lambda e: errors.append(str(e)))
    ben.goto(page.live.url + link)
    ben.wait_for_selector("body[data-state='lobby']")
    ben.locator('li[data-seat="1"] input[name="name"]').fill("Ben")
    ben.locator('li[data-seat="1"] button').click()
    ana.wait_for_selector("#start:not([disabled])")
    assert "Ben" in ana.locator('li[data-seat="1"]').inner_text()
    ana.click("#start")
    for p in (ana, ben):
        p.wait_for_selector("body[data-state='playing']")
    rng = random.Random(7)
    for step in range(400):
        if over(ana) and over(ben):
            break
        if not (play_one(ana, rng, step % 2 == 0) or play_one(ben, rng, step % 2 == 1)):
            ana.wait_for_timeout(50)
    ana.wait_for_function("() => ['won', 'over'].includes(document.body.dataset.state)")
    ben.wait_for_function("() => ['won', 'over'].includes(document.body.dataset.state)")
    for p in (ana, ben):
        banner = p.locator("#banner").inner_text()
        assert "rank" in banner and "cards" in banner, banner
    assert "Ben" in ana.locator("#banner").inner_text() and "Ana" in ben.locator("#banner").inner_text()
    assert errors == []
    friend.close()


def test_one_person_against_three_bots_to_the_end(page: Page) -> None:
    p = open_room(page, ["greedy", "random", "ismcts"])
    assert p.locator(".card").count() == 51
    rng = random.Random(3)
    for step in range(600):
        if over(p):
            break
        if not play_one(p, rng, step % 2 == 0):
            p.wait_for_timeout(50)
    p.wait_for_function("() => ['won', 'over'].includes(document.body.dataset.state)")
    assert "rank" in p.locator("#banner").inner_text()
    log = p.locator(".log").inner_text()
    assert "You put a" in log or "You could not play" in log
    won = p.evaluate("document.body.dataset.state") == "won"
    code = p.url.rsplit("/", 1)[1]
    p.click("#banner-new")  # a new game against the same bots, in a new room
    p.wait_for_function(f"() => !location.pathname.endsWith('/{code}') && document.body.dataset.state === 'playing'")
    names = p.locator(".seats-list li").all_inner_texts()
    assert len(names) == 4 and all(n.split(":")[0] in ("You", "Greedy 2", "Random 3", "Ismcts 4") for n in names), names
    # The game this browser finished counts in its statistics.
    p.click("header nav >> text=Statistics")
    p.wait_for_selector("body[data-state='stats']")
    row = p.locator("tbody tr").first.inner_text()
    assert "Deserto" in row and ("100%" if won else "0%") in row, row


def test_play_against_bots_from_the_home_page_then_undo_and_redo(page: Page) -> None:
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    p.locator('.game-card[data-game="deserto"] button[type="submit"]').click()
    p.wait_for_selector("body[data-state='playing']")
    assert "/room/" in p.url and p.locator("#start").count() == 0
    rng = random.Random(2)
    play_moves(p, rng, 2, drags=1)
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.to_move === t.seat && t.can_undo; }}")
    before = shown(p)
    assert before is not None
    p.click("#undo")
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.at < {before['at']}; }}")
    p.keyboard.press("Control+y")
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.at === {before['at']}; }}")
    after = shown(p)
    assert after is not None and after["piles"] == before["piles"]
    p.click("#solver-hint")
    p.wait_for_selector("#message.show")
    assert "greedy bot would play" in p.locator("#message").inner_text()
    # The home page offers the game in progress; it resumes the same room.
    room = p.url
    p.click("header nav >> text=Games")
    p.wait_for_selector("body[data-state='home']")
    link = p.locator("ul.continue a")
    assert link.count() == 1 and link.inner_text().startswith("Deserto — Room ")
    link.click()
    p.wait_for_selector("body[data-state='playing']")
    resumed = shown(p)
    same = p.url.split("#")[0] == room.split("#")[0]  # the room (its creator needs no invite key)
    assert same and resumed is not None and resumed["piles"] == after["piles"]


def test_a_reload_in_the_middle_of_a_game_gives_back_the_same_seat_and_hand(page: Page) -> None:
    p = open_room(page, ["greedy"])
    rng = random.Random(1)
    play_moves(p, rng, 3, drags=3)
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.to_move === t.seat; }}")
    before = shown(p)
    assert before is not None
    hand = [c for pile in before["piles"] if pile["name"] == "hand 0" for c in pile["cards"]]
    p.reload()
    p.wait_for_selector("body[data-state='playing']")
    after = shown(p)
    assert after is not None and after["seat"] == 0 and after["at"] == before["at"]
    assert [c for pile in after["piles"] if pile["name"] == "hand 0" for c in pile["cards"]] == hand


def test_a_page_that_lost_its_connection_says_the_last_move_it_saw(page: Page) -> None:
    p = open_room(page, ["greedy"])
    rng = random.Random(2)
    play_moves(p, rng, 2, drags=0)
    p.wait_for_function(f"() => {{ const t = ({TABLE})(); return t && t.to_move === t.seat; }}")
    before = shown(p)
    assert before is not None
    # What the page sends is noted; then its connection is lost, and it comes back by itself.
    p.evaluate(
        "() => { const send = WebSocket.prototype.send; window.sentFrames = [];"
        " WebSocket.prototype.send = function (d) {"
        " window.sentFrames.push(JSON.parse(d)); return send.call(this, d); };"
        " window.cardtableRoom.socket.close(); }"
    )
    p.wait_for_function("() => (window.sentFrames || []).some((m) => m.type === 'hello')", timeout=15000)
    hello = next(m for m in p.evaluate("() => window.sentFrames") if m["type"] == "hello")
    assert hello["game_no"] == 0 and hello["at"] == before["at"] and hello["token"]
    p.wait_for_selector("body[data-connection='open']")
    after = shown(p)
    assert after is not None and after["at"] == before["at"] and after["piles"] == before["piles"]


def test_a_room_with_a_clock_shows_it_and_a_bot_plays_for_whoever_is_out_of_time(browser: Any, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", paces={"casual": None, "quick": 1.5, "2m": 120.0})
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in range(2)]
    try:
        ana, ben = (c.new_page() for c in contexts)
        for p in (ana, ben):
            p.set_default_timeout(10_000)
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        ana.goto(live.url + "/")
        ana.wait_for_selector("body[data-state='home']")
        card = ana.locator('.game-card[data-game="deserto"]')
        card.locator('select[name="players"]').select_option("2")
        card.locator('select[name="seat2"]').select_option("person")
        card.locator('input[name="room-name"]').fill("Ana")
        card.locator('select[name="room-pace"]').select_option("quick")
        card.locator("#open-room").click()
        ana.wait_for_selector("body[data-state='lobby']")
        assert "Clock: 1.5 s a move" in ana.locator("#room-clock").inner_text()
        link = ana.locator("#invite").get_attribute("href")
        assert "#key=" in link
        ben.goto(live.url + link)
        ben.wait_for_selector("body[data-state='lobby']")
        ben.locator('li[data-seat="1"] input[name="name"]').fill("Ben")
        ben.locator('li[data-seat="1"] button').click()
        ana.wait_for_selector("#start:not([disabled])")
        ana.click("#start")
        for p in (ana, ben):
            p.wait_for_selector("body[data-state='playing']")
        assert "left (then the greedy bot plays)" in ana.locator("#room-clock").inner_text()
        # Nobody plays: the person to move runs out of time; their page offers the seat back.
        first = shown(ana)
        assert first is not None
        late = ana if first["to_move"] == 0 else ben
        late.wait_for_selector("#take-back")
        assert "the greedy bot plays for you" in late.locator("#room-bar").inner_text()
        late.click("#take-back")
        late.wait_for_function("() => !document.querySelector('#take-back')")
        # The friend leaves: the creator may give the seat to a bot, and the bot plays it.
        contexts[1].close()
        ana.wait_for_selector("#room-bar .bot-seat")
        ana.click("#room-bar .bot-seat")
        given = "() => window.cardtableRoom.snapshot.seats[1].kind === 'bot'"
        ana.wait_for_function(given)
        ana.wait_for_function("() => !document.querySelector('#room-bar .bot-seat')")
    finally:
        for c in contexts:
            c.close()
        live.stop()
    assert [e for e in errors if "the server responded with a status of 4" not in e] == []

"""Replays, the ratings page, the lobby and "play now", and the identity link in real Chromium
(issue 30). A rated game of two people is played to its end over the rooms' sockets (as
two browsers would), then looked at again in the page: forward, back and jumps by mouse
and keyboard, from each seat and with every card; the ratings page shows both players once
rated, and the bots. axe-core finds no WCAG 2.1 AA violation on any of these pages.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import LiveServer, Page
from .helpers import violations
from .rooms_client import play_turn, seat_two

pytestmark = pytest.mark.browser

REPLAY = "() => window.cardtableReplay ? window.cardtableReplay.data : null"


def rated_game(live: LiveServer) -> dict[str, Any]:
    """Ana (player id ``ana``) and Ben play a rated game to its end; its room, and the last frame."""
    room, ana, ben = seat_two(live)
    clients = {0: ana, 1: ben}
    while ana.frame["status"] != "over":
        play_turn(clients)
    room["end"] = ana.frame
    ana.close()
    ben.close()
    return room


def as_ana(page: Page, player: str = "ana") -> Any:
    """The page's browser is Ana's (her player id in its cookie)."""
    page.page.context.add_cookies([{"name": "cardtable_player", "value": player, "url": page.live.url}])
    return page.page


def at(p: Any) -> int:
    return int(p.evaluate("document.body.dataset.at"))


def up_cards(p: Any, pile: str) -> int:
    data = p.evaluate(REPLAY)
    return sum(c["up"] for q in data["table"]["piles"] if q["name"] == pile for c in q["cards"])


def test_a_finished_game_is_replayed_move_by_move_from_any_seat(page: Page) -> None:
    room = rated_game(page.live)
    p = as_ana(page)
    p.goto(page.live.url + "/")
    p.evaluate(f"() => localStorage.setItem('cardtable.room.{room['code']}', '{room['token']}')")
    p.goto(page.live.url + f"/room/{room['code']}")  # the room at its end links to the replay
    p.click("#replay-link")
    p.wait_for_selector("body[data-state='replay']")
    moves = room["end"]["at"]
    assert at(p) == moves and p.locator("#replay-log li").count() == moves
    assert p.locator("#replay-result").inner_text() == p.evaluate(REPLAY)["result"]["reason"]
    assert not violations(p)

    p.locator("#replay-back").focus()
    p.keyboard.press("Home")
    p.wait_for_function("() => document.body.dataset.at === '0'")
    p.keyboard.press("ArrowRight")
    p.wait_for_function("() => document.body.dataset.at === '1'")
    assert p.locator("#replay-move").inner_text().startswith("Move 1 of")
    p.click("#replay-forward")
    p.wait_for_function("() => document.body.dataset.at === '2'")
    p.click("#replay-back")
    p.wait_for_function("() => document.body.dataset.at === '1'")
    p.locator('#replay-log button[data-at="7"]').click()  # a jump
    p.wait_for_function("() => document.body.dataset.at === '7'")
    assert p.locator("#replay-log li[aria-current] button").get_attribute("data-at") == "7"
    p.locator("#replay-at").fill("4")
    p.wait_for_function("() => document.body.dataset.at === '4'")
    p.keyboard.press("End")
    p.wait_for_function(f"() => document.body.dataset.at === '{moves}'")
    assert "at=" in p.url and "view=all" in p.url

    # Every card at the end, then each seat's view (its own hand only), then a spectator's.
    every = p.evaluate(REPLAY)["table"]
    assert all(c["up"] for q in every["piles"] for c in q["cards"])
    p.locator("#replay-at").fill("10")
    p.wait_for_function("() => document.body.dataset.at === '10'")
    assert up_cards(p, "hand 0") > 0 and up_cards(p, "hand 1") > 0 and up_cards(p, "deck") > 0
    p.select_option("#replay-view", "0")
    p.wait_for_function("() => window.cardtableReplay.data.view === 0")
    assert at(p) == 10 and up_cards(p, "hand 0") > 0 and up_cards(p, "hand 1") == 0 and up_cards(p, "deck") == 0
    assert "face down" in p.locator('#replay-piles li[data-pile="hand 1"]').inner_text()
    p.select_option("#replay-view", "1")
    p.wait_for_function("() => window.cardtableReplay.data.view === 1")
    assert up_cards(p, "hand 0") == 0 and up_cards(p, "hand 1") > 0
    p.select_option("#replay-view", "spectator")
    p.wait_for_function("() => window.cardtableReplay.data.view === 'spectator'")
    assert up_cards(p, "hand 0") == up_cards(p, "hand 1") == 0
    assert not violations(p)
    p.reload()  # the address keeps the move and the view
    p.wait_for_selector("body[data-state='replay']")
    assert at(p) == 10 and p.evaluate(REPLAY)["view"] == "spectator"


def test_the_ratings_page_shows_both_rated_players_and_the_bots(page: Page) -> None:
    p = as_ana(page)
    p.goto(page.live.url + "/ratings")
    p.wait_for_selector("body[data-state='ratings']")
    assert p.locator("tbody tr[data-bot]").count() == 3 and p.locator("tbody tr.you").count() == 0
    rated_game(page.live)
    p.goto(page.live.url + "/ratings")
    p.wait_for_selector("body[data-state='ratings']")
    rows = p.locator("tbody tr")
    assert rows.count() == 5
    mine = p.locator("tbody tr.you")
    assert mine.count() == 1 and "Ana (you)" in mine.inner_text() and mine.locator("td").last.inner_text() == "1"
    assert "Ben" in p.locator("tbody").inner_text()
    assert not violations(p)
    p.goto(page.live.url + "/me")
    p.wait_for_selector("body[data-state='me']")
    assert p.locator("tbody tr").count() == 2 and p.locator("#me-name").input_value() == "Ana"  # a rating, a game
    p.click("tbody a.replay")
    p.wait_for_selector("body[data-state='replay']")
    assert not violations(p)


def test_play_now_from_the_lobby_seats_a_second_person_in_the_public_room(page: Page, context: Any) -> None:
    p = page.page
    p.goto(page.live.url + "/lobby")
    p.wait_for_selector("body[data-state='lobby-list']")
    assert not violations(p)
    p.fill("#now-name", "Ana")
    p.select_option("#now-players", "2")
    p.click("#play-now-button")
    p.wait_for_selector("body[data-state='lobby']")  # a new public room, waiting
    code = p.url.split("/room/")[1].split("#")[0]
    assert p.locator("#room-public").is_checked()

    other = context.browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        q = other.new_page()
        q.goto(page.live.url + "/lobby")
        q.wait_for_selector(f'#lobby-rooms tr[data-code="{code}"]')
        assert "1 of 2" in q.locator(f'tr[data-code="{code}"]').inner_text()
        assert not violations(q)
        q.fill("#now-name", "Ben")
        q.select_option("#now-players", "2")
        q.click("#play-now-button")
        q.wait_for_selector("body[data-state='playing']")  # the room was full: it started
        assert code in q.url
        p.wait_for_selector("body[data-state='playing']")
        assert q.evaluate("document.body.dataset.you") == "1" and p.evaluate("document.body.dataset.you") == "0"
        q.goto(page.live.url + "/lobby")
        q.wait_for_selector("body[data-state='lobby-list']")
        assert q.locator(f'tr[data-code="{code}"]').count() == 0
    finally:
        other.close()


def test_the_identity_link_carries_a_player_to_another_browser(page: Page, context: Any) -> None:
    ana = "ana-" + "a" * 24
    p = as_ana(page, ana)
    p.goto(page.live.url + "/me")
    p.wait_for_selector("body[data-state='me']")
    link = p.locator("#identity-link").inner_text()
    assert link == f"{page.live.url}/me#id={ana}"
    other = context.browser.new_context()
    try:
        q = other.new_page()
        q.goto(link)
        q.wait_for_selector("#adopt-yes")
        assert not violations(q)
        q.click("#adopt-yes")
        q.wait_for_function("() => !document.getElementById('adopt') && document.body.dataset.state === 'me'")
        assert q.evaluate("() => fetch('/api/me').then((r) => r.json()).then((d) => d.id)") == ana
    finally:
        other.close()

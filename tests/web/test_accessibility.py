"""Accessibility in Chromium (issue 26): axe-core finds no WCAG 2.1 A or AA violation on any
page. (Whole games won by keyboard alone: ``test_keyboard.py``.)
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable

from .conftest import Page
from .helpers import PHONE, WIDE, shown_table, violations_wide_and_narrow
from .rooms_client import play_turn, seat_two

pytestmark = pytest.mark.browser

ROOM_TABLE = "() => { const r = window.cardtableRoom; return r && r.table ? r.table.table : null; }"


def settled(p: Any) -> None:
    if "/room/" in p.url:
        p.wait_for_function(
            f"() => {{ const t = ({ROOM_TABLE})(); return t && (t.to_move === t.seat || t.outcome.over); }}"
        )


def assert_none_found(report: dict[str, list[str]]) -> None:
    """Print how many violations axe found on each page checked, and fail if it found any."""
    print(f"\naxe, WCAG 2.1 AA, {WIDE['width']} and {PHONE['width']} px wide:")
    for name, found in report.items():
        print(f"  {name}: {len(found)} violations")
    assert not {name: found for name, found in report.items() if found}


SOLITAIRE_PAGES = [f"/play/{s.name}?deal=5" for s in cardtable.games.specs() if s.one_player]


def test_axe_finds_no_violation_on_any_page(page: Page) -> None:
    """Every page, each at a desktop's width and a phone's."""
    p = page.page
    p.set_viewport_size(WIDE)
    report: dict[str, list[str]] = {}

    def check(name: str) -> None:
        report[name] = violations_wide_and_narrow(p)

    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    check("home")
    for path in SOLITAIRE_PAGES:
        p.goto(page.live.url + path)
        p.wait_for_selector("body[data-state='playing']")
        t = shown_table(p)
        move = next(m for m in t["legal"] if m["index"] is not None)
        p.fill("#move-input", move["move"])  # a table in play: a move made, a card picked up, a hint shown
        p.press("#move-input", "Enter")
        p.wait_for_function("() => document.body.dataset.at === '1'")
        p.click("#hint")
        p.wait_for_selector(".mark.hinted")
        p.click(".settings summary")
        check(path)
    p.click("#new")  # the question before a game with moves is left
    p.wait_for_selector("dialog#confirm[open]")
    check("the New game question")
    p.click("#confirm-yes")
    p.wait_for_selector("body[data-state='playing']")
    p.goto(page.live.url + "/stats")
    p.wait_for_selector("body[data-state='stats']")
    assert p.locator(".bars li").count() >= 1
    check("statistics")
    for name in cardtable.GAMES:
        p.goto(page.live.url + f"/rules/{name}")
        p.wait_for_selector("body[data-state='rules']")
        check(f"rules of {name}")
    p.goto(page.live.url + "/play/deserto?seats=you,greedy,random&new=1")
    p.wait_for_selector("body[data-state='playing']")
    settled(p)
    t = p.evaluate(f"({ROOM_TABLE})()")
    p.fill("#move-input", t["legal"][0]["move"])
    p.press("#move-input", "Enter")
    p.wait_for_function(f"() => {{ const t = ({ROOM_TABLE})(); return t && t.at > {t['at']}; }}")
    settled(p)
    check("a Deserto room against bots, in play")
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    card = p.locator('.game-card[data-game="deserto"]')
    card.locator('select[name="seat2"]').select_option("person")
    card.locator('input[name="room-name"]').fill("Ana")
    card.locator("#open-room").click()
    p.wait_for_selector("body[data-state='lobby']")
    check("a Deserto room's lobby")
    p.click("#room-public")  # listed in the lobby
    p.goto(page.live.url + "/lobby")
    p.wait_for_selector("#lobby-rooms tr[data-code]")
    check("the lobby")
    _, ana, ben = seat_two(page.live)  # a rated game of two people, to its end
    while ana.frame["status"] != "over":
        play_turn({0: ana, 1: ben})
    for view in ("all", "0"):
        p.goto(page.live.url + f"{ana.frame['replay']}?view={view}&at=9")
        p.wait_for_selector("body[data-state='replay']")
        check(f"a replay seen from {view}")
    p.goto(page.live.url + "/ratings")
    p.wait_for_selector("body[data-state='ratings']")
    check("the ratings")
    p.goto(page.live.url + "/me#id=" + "x" * 24)
    p.wait_for_selector("#adopt")
    check("the you page, with an identity carried from another browser")
    assert_none_found(report)


DAILY_WIN = """async ([mode, moves]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  let t = await post("/api/daily/play", {mode});
  for (const move of moves.slice(0, -1)) t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  return t.at;
}"""
"""Play all but the last move of a day's deal through the API (the page plays the last)."""


def test_axe_finds_no_violation_on_the_daily_pages(page: Page) -> None:
    """The daily page, a daily deal's table in play and won (with the name asked for), a
    leaderboard, each at a desktop's width and a phone's."""
    from datetime import UTC, datetime

    from cardtable.web.daily import daily_deal, daily_mode

    monday = datetime(2026, 11, 23, 9, tzinfo=UTC).timestamp()
    page.live.app.state.tables.clock = lambda: monday
    mode = "desturado-easy"
    key = daily_mode(mode)
    game = cardtable.new_game(
        key.game,
        deal=daily_deal(datetime.fromtimestamp(monday, UTC).date(), mode, page.live.app.state.daily.secret),
        **key.options(),
    )
    line = [str(m) for m in cardtable.solve(game, seconds=30).moves]
    p = page.page
    p.set_viewport_size(WIDE)
    report: dict[str, list[str]] = {}
    p.goto(page.live.url + "/daily")
    p.wait_for_selector("body[data-state='daily']")
    report["daily"] = violations_wide_and_narrow(p)
    p.click('li[data-mode="devils-square"] a.button')
    p.wait_for_selector("body[data-state='playing']")
    report["a daily table in play"] = violations_wide_and_narrow(p)
    at = p.evaluate(DAILY_WIN, [mode, line])
    p.goto(f"{page.live.url}/daily/play?mode={mode}")
    p.wait_for_selector("body[data-state='playing']")
    p.fill("#move-input", line[-1])
    p.press("#move-input", "Enter")
    p.wait_for_function(f"() => document.body.dataset.at === '{at + 1}'")
    p.wait_for_selector("#daily-name")
    p.wait_for_timeout(400)  # the "You won!" toast has faded in (axe reads its colours mid-fade)
    p.wait_for_selector("dialog#win[open]")
    report["a daily table won, its win screen"] = violations_wide_and_narrow(p)
    p.click("#win-next")
    report["a daily table won, the name asked"] = violations_wide_and_narrow(p)
    p.fill("#daily-name", "Ana")
    p.click("#daily-entry button[type='submit']")
    p.wait_for_selector("#to-leaderboard")
    p.click("#to-leaderboard")
    p.wait_for_selector("body[data-state='leaderboard']")
    assert p.locator("#board-day tbody tr").count() == 1
    report["a leaderboard"] = violations_wide_and_narrow(p)
    assert_none_found(report)

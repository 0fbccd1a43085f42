"""The daily deal in Chromium (issue 29): two browsers play the day's deal to a win (the first
through the page's move box, the second its first and last moves there), its number hidden
until the win; the first asks for a name at the win; both are on the leaderboard in the right
order (the same moves: the faster first), the clean mark on the one that used no hint."""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime
from typing import Any

import pytest

import cardtable
from cardtable.web.daily import daily_deal, daily_mode

from .conftest import LiveServer, Page

pytestmark = pytest.mark.browser

MONDAY = date(2026, 11, 23)
MODE = "desturado-easy"


class Clock:
    """The server's time on a Monday, running as the real one runs."""

    def __init__(self, day: date) -> None:
        self.base = datetime(day.year, day.month, day.day, 9, tzinfo=UTC).timestamp()
        self.start = time.time()
        self.extra = 0.0

    def __call__(self) -> float:
        return self.base + time.time() - self.start + self.extra


FORGE = """async ([mode, table]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).status;
  return [
    await post("/api/daily/enter", {table, moves: 1, seconds: 0.5}),
    await post("/api/daily/enter", {mode, name: "Ben", moves: 1, seconds: 0.5, clean: true}),
    await post("/api/daily/entries", {mode, moves: 1}),
  ];
}"""
"""Post forged scores from the page; the HTTP statuses."""


def visible_number(p: Any, deal: int) -> list[str]:
    """Where the page shows the deal number: its text, title, address, or the table it holds."""
    shown = p.evaluate(
        "() => [document.body.innerText, document.title, location.href,"
        " JSON.stringify(window.cardtableTable ? window.cardtableTable.table : null)]"
    )
    word = re.compile(rf"(?<![\d.]){deal}(?![\d.])")
    return [text[:200] for text in shown if word.search(text)]


THROUGH_API = """async ([id, at, moves]) => {
  for (const move of moves) {
    const t = await (await fetch(`/api/tables/${id}/move`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({at, move}) })).json();
    at = t.at;
  }
  return at;
}"""
"""Play moves on this browser's table through the API, from the page; the move count after them."""


def play(page: Page, moves: list[str], deal: int, clock: Clock | None = None, hint: bool = False) -> Any:
    """Win the day's deal at the page: every move through its move box, or, for the player who
    asks for a hint (at the second move), the moves after it through the API and the last
    through the box again once the page is loaded anew (the first player's game covers the box)."""
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    p.click("#home-daily")
    p.wait_for_selector("body[data-state='daily']")
    assert visible_number(p, deal) == []
    p.click(f'li[data-mode="{MODE}"] a.button')
    p.wait_for_selector("body[data-state='playing']")
    assert "/daily/play" in p.url and p.locator("#new").is_hidden() and p.locator("#give-up").is_visible()
    boxed = sorted({0, 1, len(moves) - 1}) if hint else range(len(moves))
    for i in boxed:
        if i == 1 and hint:
            p.click("#hint")
            p.wait_for_selector(".mark.hinted")
        if i == 1 and clock is not None:
            clock.extra += 90.0  # this player thinks for a minute and a half
        at = int(p.evaluate("document.body.dataset.at"))
        if at < i:  # the moves before this one through the API, then the page loaded anew
            assert p.evaluate(THROUGH_API, [p.evaluate("window.cardtableTable.table.id"), at, moves[at:i]]) == i
            p.reload()
            p.wait_for_selector(f"body[data-state='playing'][data-at='{i}']")
        assert visible_number(p, deal) == [], moves[i]
        p.fill("#move-input", moves[i])
        p.press("#move-input", "Enter")
        p.wait_for_function(f"() => document.body.dataset.at === '{i + 1}'")
    p.wait_for_selector("body[data-state='won']")
    return p


def test_two_browsers_win_the_daily_deal_and_are_ranked(browser: Any, live: LiveServer) -> None:
    clock = Clock(MONDAY)
    live.app.state.tables.clock = clock
    key = daily_mode(MODE)
    deal = daily_deal(MONDAY, MODE, live.app.state.daily.secret)
    moves = [
        str(m) for m in cardtable.solve(cardtable.new_game(key.game, deal=deal, **key.options()), seconds=30).moves
    ]
    pages = []
    try:
        for name, hint in (("Ana", False), ("Ben", True)):
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            context.set_default_timeout(15_000)
            page = Page(context.new_page(), live)
            pages.append((context, page))
            p = play(page, moves, deal, clock=clock if hint else None, hint=hint)
            # Won: the number is shown now, and the name is asked for the first entry.
            assert f"deal {deal}" in p.inner_text("#label")
            p.wait_for_selector("dialog#win[open]")  # the win screen leads to the entry
            p.click("#win-next")
            assert p.evaluate("document.activeElement.id") == "daily-name"
            p.fill("#daily-name", f"  {name} ")
            p.click("#daily-entry button[type='submit']")
            p.wait_for_function(
                f"() => document.getElementById('daily-entry').textContent.includes('On the leaderboard as {name}')"
            )
        # A score posted by the page itself is refused: the server makes entries from its own tables.
        p = pages[1][1].page
        status = p.evaluate(FORGE, [MODE, p.evaluate("window.cardtableTable.table.id")])
        assert all(400 <= s < 500 for s in status), status
        # Both on the leaderboard, the faster first (the same moves); Ana clean, Ben (a hint) not.
        p.click("#to-leaderboard")
        p.wait_for_selector("body[data-state='leaderboard']")
        rows = p.locator("#board-day tbody tr")
        assert rows.count() == 2
        cells = [rows.nth(i).locator("td, th").all_inner_texts() for i in range(2)]
        assert [(c[0], c[1], c[2], c[5]) for c in cells] == [
            ("1", "Ana", str(len(moves)), "clean"),
            ("2", "Ben (you)", str(len(moves)), "\u2013"),
        ]
        assert f"deal {deal}" in p.inner_text("main")  # Ben has finished it
        # A third browser that has not played sees the leaderboard, not the number.
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = Page(context.new_page(), live)
        pages.append((context, page))
        page.page.goto(f"{live.url}/leaderboard?mode={MODE}")
        page.page.wait_for_selector("body[data-state='leaderboard']")
        assert page.page.locator("#board-day tbody tr").count() == 2
        assert visible_number(page.page, deal) == []
        for _, each in pages:
            faults = [e for e in each.errors if "the server responded with a status of 4" not in e]
            assert faults == [], faults
    finally:
        for context, _ in pages:
            context.close()


def test_give_up_at_a_daily_table_asks_then_shows_the_number(page: Page) -> None:
    page.live.app.state.tables.clock = Clock(MONDAY)
    p = page.page
    deal = daily_deal(MONDAY, "devils-square", page.live.app.state.daily.secret)
    p.goto(f"{page.live.url}/daily/play?mode=devils-square")
    p.wait_for_selector("body[data-state='playing']")
    assert visible_number(p, deal) == []
    first = p.evaluate("window.cardtableTable.table.legal[0].move")
    p.fill("#move-input", first)
    p.press("#move-input", "Enter")
    p.wait_for_function("() => window.cardtableTable.table.at === 1")
    assert p.locator("#restart").is_enabled() and p.locator("#hint").is_enabled()
    p.click("#give-up")
    p.wait_for_selector("dialog#confirm[open]")
    p.click("#confirm-yes")
    p.wait_for_function("() => window.cardtableTable.table.result === 'abandoned'")
    assert f"deal {deal}" in p.inner_text("#label") and p.locator("#give-up").is_disabled()
    # Nothing the server refuses for a deal given up is offered (before: Restart and both hints).
    for button in ("#restart", "#undo", "#hint", "#solver-hint"):
        assert p.locator(button).is_disabled(), button
    p.goto(f"{page.live.url}/daily")
    p.wait_for_selector("body[data-state='daily']")
    row = p.locator('li[data-mode="devils-square"]')
    assert "Given up" in row.inner_text() and str(deal) in row.inner_text()

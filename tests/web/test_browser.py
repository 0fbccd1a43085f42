"""The card table in real Chromium (Debian's, through Playwright), as a player uses it.

Every test drives the page with the mouse and keyboard (drags, clicks,
double-clicks, keys) against the real server on loopback, and reads what the
page shows. The page fixture fails a test on any console error.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.games.devils_square import DevilsSquare

from .conftest import LiveServer, Page
from .helpers import open_at

pytestmark = pytest.mark.browser

GAMES = {
    "klondike": ("/play/klondike?deal=5", 52),
    "desturado": ("/play/desturado?deal=5", 40),
    "demonthief": ("/play/demonthief?deal=5", 104),
    "devils-square": ("/play/devils-square?deal=5", 64),
    "deserto": ("/play/deserto?seats=you,greedy&new=1", 51),
}


ROOM_TABLE = "() => { const r = window.cardtableRoom; return r && r.table ? r.table.table : null; }"
"""The table a room's page shows (Deserto against bots is played in a room: /play/deserto opens one)."""


def open_table(page: Page, path: str) -> Any:
    p = page.page
    p.goto(page.live.url + path)
    p.wait_for_selector("body[data-state='playing']")
    settled(p)
    return p


def table(p: Any) -> dict[str, Any]:
    """The table as the page was sent it: asked again from the server, which owns it (a room's,
    as its last snapshot drew it)."""
    if "/room/" in p.url:
        shown: dict[str, Any] = p.evaluate(f"({ROOM_TABLE})()")
        return shown
    data: dict[str, Any] = p.evaluate(
        "async () => { const id = new URLSearchParams(location.search).get('id');"
        " return (await fetch('/api/tables/' + id)).json(); }"
    )
    return data


def settled(p: Any) -> None:
    """In a room, wait for the bots' answers: until the person is to move, or the game is over."""
    if "/room/" in p.url:
        p.wait_for_function(
            f"() => {{ const t = ({ROOM_TABLE})(); return t && (t.to_move === t.seat || t.outcome.over); }}"
        )


def at(p: Any) -> int:
    return int(p.evaluate("document.body.dataset.at"))


def wait_at(p: Any, before: int) -> int:
    p.wait_for_function(f"() => Number(document.body.dataset.at) !== {before}")  # a function: the CSP forbids eval
    settled(p)
    return at(p)


def card(p: Any, pile: str, index: int) -> Any:
    return p.locator(f'.card[data-pile="{pile}"][data-index="{index}"]')


def target(p: Any, pile: str) -> Any:
    """Where to drop on a pile: its top card, or the empty slot."""
    cards = p.locator(f'.card[data-pile="{pile}"]')
    return cards.nth(cards.count() - 1) if cards.count() else p.locator(f'.pile[data-pile="{pile}"]')


def grab_point(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] * 0.1, 8)


def drag(p: Any, pile: str, index: int, to: str) -> None:
    src = card(p, pile, index).bounding_box()
    dst = target(p, to).bounding_box()
    x, y = grab_point(src)
    p.mouse.move(x, y)
    p.mouse.down()
    tx, ty = grab_point(dst)
    p.mouse.move(tx, ty, steps=6)
    p.mouse.up()


def click_move(p: Any, pile: str, index: int, to: str) -> None:
    x, y = grab_point(card(p, pile, index).bounding_box())
    p.mouse.click(x, y)
    tx, ty = grab_point(target(p, to).bounding_box())
    p.mouse.click(tx, ty)


def play_legal(p: Any, move: dict[str, Any], by_drag: bool) -> int:
    before = at(p)
    if move["index"] is None:
        target(p, "stock").click()
    elif by_drag:
        drag(p, move["from"], move["index"], move["to"])
    else:
        click_move(p, move["from"], move["index"], move["to"])
    return wait_at(p, before)


def illegal_drop(t: dict[str, Any]) -> tuple[str, int, str] | None:
    """A face-up card that can be picked up and a pile it may not go to, if the table has one."""
    legal = {(m["from"], m["index"], m["to"]) for m in t["legal"]}
    for pile in t["piles"]:
        if pile["grab"] == "none" or not pile["cards"] or not pile["cards"][-1]["up"]:
            continue
        if pile["grab"] == "single":  # a hand: any of its cards
            indexes = list(range(len(pile["cards"])))
        elif pile["grab"] in ("top", "group"):
            indexes = [len(pile["cards"]) - 1]
        else:
            indexes = [[c["up"] for c in pile["cards"]].index(True)]
        for index in indexes:
            for other in t["piles"]:
                if (
                    other["name"] != pile["name"]
                    and other["kind"] not in ("stock", "deck", "won", "hand")
                    and (pile["name"], index, other["name"]) not in legal
                ):
                    return pile["name"], index, other["name"]
    return None


def type_move(p: Any, text: str) -> int:
    """A move typed in notation into the move box."""
    before = at(p)
    p.fill("#move-input", text)
    p.press("#move-input", "Enter")
    return wait_at(p, before)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_renders_and_plays_by_drag_click_and_keys(page: Page, name: str) -> None:
    path, cards = GAMES[name]
    p = open_table(page, path)
    assert p.locator(".card").count() == cards
    if name == "deserto":  # against bots: a room of one person, started at once, with a table's buttons
        assert "/room/" in p.url
        assert all(p.locator(f"#{b}").is_visible() for b in ("new", "restart", "undo", "redo", "solver-hint"))
    assert p.locator(".card.down").first.get_attribute("aria-label") == "face-down card"
    # A screen reader reads every pile and card: each has a text label.
    labels = p.locator(".pile, .card").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label') || '')")
    assert labels and all(labels), [i for i, label in enumerate(labels) if not label]
    # A move by drag and drop, then one by click.
    t = table(p)
    moves = [m for m in t["legal"] if m["index"] is not None]
    play_legal(p, moves[0], by_drag=True)
    t = table(p)
    moves = [m for m in t["legal"] if m["index"] is not None]
    after_drag = at(p)
    play_legal(p, moves[-1], by_drag=False)
    after_click = at(p)
    assert after_click > after_drag > 0
    # An illegal drop snaps back and says why, in the engine's words. (A Deserto
    # deal is the server's random one, and early on every placement may be legal:
    # play on by typed moves until one is not.)
    drop = illegal_drop(t := table(p))
    for _ in range(30):
        if drop is not None:
            break
        after_click = type_move(p, t["legal"][0]["move"])
        drop = illegal_drop(t := table(p))
    assert drop is not None, "no illegal drop found in 30 moves"
    src, index, dst = drop
    drag(p, src, index, dst)
    p.wait_for_selector("#message.show.error")
    message = p.locator("#message").inner_text()
    assert message.startswith("Not allowed: "), message
    assert at(p) == after_click
    # Undo and redo: buttons and Ctrl+Z / Ctrl+Y.
    p.click("#undo")
    undone = wait_at(p, after_click)
    assert undone < after_click
    p.keyboard.press("Control+y")
    assert wait_at(p, undone) == after_click
    p.keyboard.press("Control+z")
    assert wait_at(p, after_click) == undone
    # Hint: the playable cards light up; the solver's hint (a bot's suggestion at Deserto) names a move.
    p.click("#hint")  # a move chosen from the face-up cards (at Deserto: the playable cards), lit over the cards
    p.wait_for_selector(".mark.hinted")
    assert p.locator(".mark.hinted").count() >= 1
    p.click("#solver-hint")
    p.wait_for_selector("#message.show")
    assert p.locator("#message").inner_text()
    # Keyboard: a move typed in notation.
    t = table(p)
    type_move(p, t["legal"][0]["move"])


def test_keyboard_selection_with_arrows_and_enter(page: Page) -> None:
    p = open_table(page, "/play/klondike?deal=0")
    # Deal 0: the ace of spades tops pile 3; Enter picks it, arrows walk to the spades foundation, Enter drops it.
    card(p, "3", 2).focus()
    p.keyboard.press("Enter")
    assert p.locator(".card.selected").count() == 1
    p.keyboard.press("ArrowUp")  # the row above: the waste or the clubs foundation, the nearest piles
    assert p.evaluate("document.activeElement.dataset.pile") in ("w", "fc")
    for _ in range(6):
        if p.evaluate("document.activeElement.dataset.pile") == "fs":
            break
        p.keyboard.press("ArrowRight")
    assert p.evaluate("document.activeElement.dataset.pile") == "fs"
    p.keyboard.press("Enter")
    assert wait_at(p, 0) == 1
    assert p.locator('.card[data-pile="fs"]').first.get_attribute("aria-label") == "ace of spades"


def test_double_click_sends_a_card_home_and_the_stock_draws(page: Page) -> None:
    p = open_table(page, "/play/klondike?deal=0")
    x, y = grab_point(card(p, "3", 2).bounding_box())
    p.mouse.dblclick(x, y)
    assert wait_at(p, 0) == 1
    assert p.locator('.card[data-pile="fs"]').count() == 1
    target(p, "stock").click()
    assert wait_at(p, 1) == 2
    assert p.locator('.card[data-pile="w"]').count() == 3


@pytest.mark.slow
def test_klondike_won_in_the_browser_by_the_solvers_line(page: Page) -> None:
    # Deal 3046: an easy deal whose solver line reaches autocomplete after 75 moves (deal 8: 146).
    # Its first 30 moves through the API (test_keyboard.py plays the whole line by keys), the
    # rest by drag and click in turn: every kind of Klondike move is among them (from the waste,
    # a pile and a foundation, to a pile and a foundation, a turn of the stock, a redeal).
    line = [str(m) for m in cardtable.solve(cardtable.new_game("klondike", deal=3046), seconds=30).moves]
    p = open_at(page, "klondike", 3046, line[:30])
    p.set_default_timeout(40_000)  # the tests share the cores (pytest-xdist, make unit)
    for i, text in enumerate(line[30:], start=30):
        t = table(p)
        if t["finish"] and i % 2:
            break  # every card known: half the time, finish with autocomplete instead
        move = next(m for m in t["legal"] if m["move"] == text)
        play_legal(p, move, by_drag=i % 2 == 0)
    else:
        t = table(p)
    if not t["outcome"]["won"]:
        p.click("#finish")
    p.wait_for_selector("body[data-state='won']")
    assert p.locator("#banner.won").is_visible()
    assert "You won" in p.locator("#banner").inner_text()
    assert p.locator('.card[data-pile^="f"]').count() == 52
    assert p.locator("#undo").is_disabled()
    # The win screen (issue 29) is open over the table; Escape closes it.
    p.wait_for_selector("dialog#win[open]")
    p.keyboard.press("Escape")
    p.wait_for_function("() => !document.getElementById('win')")
    # The statistics page counts the win.
    p.click("header nav >> text=Statistics")
    p.wait_for_selector("body[data-state='stats']")
    row = p.locator("tbody tr").first.inner_text()
    assert "Klondike" in row and "100%" in row
    assert p.locator("figure.chart .bars li").count() == 1


def test_devils_square_removes_a_book_and_refills_the_spaces(page: Page) -> None:
    rules = DevilsSquare()
    deal = cardtable.deal_for_level("devils-square", "easy", seed=1)
    game = cardtable.new_game("devils-square", deal=deal)
    line = cardtable.solve(game, seconds=30).moves
    first_book = next(i for i in range(len(line)) if len(rules.removed(_after(game, line[: i + 1]))) > 0)
    p = open_table(page, f"/play/devils-square?deal={deal}")
    for i, move in enumerate(line[: first_book + 1]):
        legal = next(m for m in table(p)["legal"] if m["move"] == str(move))
        before_draw = p.locator('.card[data-pile="draw"]').count()
        play_legal(p, legal, by_drag=i % 2 == 0)
    assert "books: 1/16" in p.locator("#status-lines").inner_text()
    # Four cards left the field; the spaces they left were filled from the draw pile.
    assert p.locator('.card[data-pile="draw"]').count() < before_draw
    field = [p.locator(f'.card[data-pile="{c}{r}"]').count() for c in "abcd" for r in "1234"]
    assert all(n >= 1 for n in field), field
    assert sum(field) + p.locator('.card[data-pile="draw"]').count() == 64 - 4


def _after(game: Any, moves: list[Any]) -> Any:
    state = game.state
    for move in moves:
        state = game.rules.apply(state, move)
    return state


def test_a_game_survives_a_reload_and_a_server_restart(page: Page, live: LiveServer) -> None:
    p = open_table(page, "/play/demonthief?deal=2")
    for by_drag in (True, False):
        play_legal(p, next(m for m in table(p)["legal"] if m["index"] is not None), by_drag)
    shown = p.locator(".card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    moves = at(p)
    p.reload()
    p.wait_for_selector("body[data-state='playing']")
    assert at(p) == moves
    assert p.locator(".card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))") == shown
    url = p.url.split("/play/", 1)[1]
    live.restart()
    p.goto(f"{live.url}/play/{url}")
    p.wait_for_selector("body[data-state='playing']")
    assert at(p) == moves
    assert p.locator(".card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))") == shown
    p.click("#undo")
    assert wait_at(p, moves) == moves - 1


def test_a_shared_deal_link_opens_the_same_deal_in_another_browser(page: Page, browser: Any) -> None:
    p = open_table(page, "/play/klondike?level=hard&seed=4")
    deal = cardtable.deal_for_level("klondike", "hard", seed=4)
    assert p.locator("#label").inner_text() == f"Hard ({deal})"
    other = browser.new_context().new_page()
    other.goto(p.url)  # carries this browser's game id, which the other browser does not own
    other.wait_for_selector("body[data-state='playing']")
    assert other.locator("#label").inner_text() == f"Hard ({deal})"
    labels = "cards => cards.filter(c => c.classList.contains('up')).map(c => c.getAttribute('aria-label'))"
    assert other.locator(".card").evaluate_all(labels) == p.locator(".card").evaluate_all(labels)
    other.context.close()


@pytest.mark.parametrize("path", ["/", "/stats", "/rules/klondike", *[g[0] for g in GAMES.values()]])
def test_phone_width_has_no_horizontal_scrolling(page: Page, path: str) -> None:
    p = page.page
    p.set_viewport_size({"width": 360, "height": 740})
    p.goto(page.live.url + path)
    p.wait_for_selector("body:not([data-state='loading'])")
    width = p.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, (path, width)
    if path.startswith("/play/"):
        card_width = p.locator(".card").first.bounding_box()["width"]
        assert card_width >= 27, card_width


def test_home_and_rules_pages(page: Page) -> None:
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    titles = p.locator(".game-card h2").all_inner_texts()
    assert titles == [cardtable.rules_for(g).title for g in cardtable.GAMES]
    p.locator('.game-card[data-game="desturado"] select[name="mode"]').select_option("hard")
    p.locator('.game-card[data-game="desturado"] button[type="submit"]').click()
    p.wait_for_selector("body[data-state='playing']")
    assert "mode=hard" in p.url and p.locator(".card").count() == 40
    assert p.locator('.pile[data-pile="a"]').count() == 1 and p.locator('.pile[data-pile="d"]').count() == 0
    p.goto(page.live.url + "/rules/devils-square")
    p.wait_for_selector("body[data-state='rules']")
    assert "Devil" in p.locator("article.rules h1").first.inner_text()


def test_touch_taps_and_a_touch_drag(browser: Any, live: LiveServer) -> None:
    # A phone whose player asked for reduced motion (as the other tests that look where cards are).
    context = browser.new_context(
        viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    p = context.new_page()
    p.goto(live.url + "/play/klondike?deal=5")
    p.wait_for_selector("body[data-state='playing']")
    # Deal 5: a double tap sends the ace of hearts (pile 3) home.
    x, y = grab_point(card(p, "3", 2).bounding_box())
    p.touchscreen.tap(x, y)
    p.touchscreen.tap(x, y)
    assert wait_at(p, 0) == 1
    assert p.locator('.card[data-pile="fh"]').count() == 1
    # A drag by finger (touch pointer events) of a card to where it goes.
    move = next(m for m in table(p)["legal"] if m["index"] is not None)
    src = grab_point(card(p, move["from"], move["index"]).bounding_box())
    dst = grab_point(target(p, move["to"]).bounding_box())
    p.evaluate(
        """([sx, sy, tx, ty]) => {
          const at = (x, y) => document.elementFromPoint(x, y);
          const fire = (node, type, x, y) => node.dispatchEvent(new PointerEvent(type, {
            bubbles: true, clientX: x, clientY: y, pointerType: "touch", isPrimary: true, button: 0 }));
          fire(at(sx, sy), "pointerdown", sx, sy);
          for (let i = 1; i <= 6; i++) fire(window, "pointermove", sx + (tx - sx) * i / 6, sy + (ty - sy) * i / 6);
          fire(window, "pointerup", tx, ty);
        }""",
        [*src, *dst],
    )
    assert wait_at(p, 1) == 2
    # A tap on the stock draws.
    p.touchscreen.tap(*grab_point(target(p, "stock").bounding_box()))
    assert wait_at(p, 2) == 3
    context.close()

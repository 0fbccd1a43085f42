"""Screenshots of the card table for the docs: every game, at desktop and phone width.

Starts the web app on loopback with a fresh data folder, opens each game in
Debian's Chromium (through Playwright), plays a few moves so that the table
looks like a game in progress (the last one lit up by the plain hint), and writes
PNGs to ``docs/screenshots/``: each game (``klondike.png``, ``klondike-phone.png``...),
the home page, the statistics, a rules page, a Deserto room played to its end, and the
choices of issue 29: the win screen (``win.png``), a theme with the settings open
(``theme.png``) and the left-handed layout (``left-handed.png``, ``left-handed-phone.png``),
and the daily deal's page and a leaderboard (``daily.png``, ``leaderboard.png``, and at
phone width), after three players have won a deal of the day.
The tables are taken at rest: the browser asks for reduced motion, so no card is caught
in flight. ``--only`` takes some of them only (``--only win theme left-handed daily``).
Each is the window as a player sees it (not the whole page), so a table that
runs below the window shows in the picture.

    .venv/bin/python tools/screenshots.py [--out docs/screenshots] [--only ...]

>>> sorted(SHOTS)[:2]
['demonthief', 'deserto']
"""

from __future__ import annotations

import argparse
import random
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from cardtable.web import create_app

SHOTS = {
    "klondike": "/play/klondike?deal=8",
    "desturado": "/play/desturado?deal=8",
    "demonthief": "/play/demonthief?deal=8",
    "devils-square": "/play/devils-square?deal=8",
    "deserto": "/play/deserto?seats=you,greedy,ismcts&new=1",
}
"""The page of each game's screenshot (Deserto against bots opens a room of one person)."""

SETTLED = """() => {
  const room = window.cardtableRoom;
  const t = room && room.table && room.table.table;
  return !room || (t && (t.to_move === t.seat || t.outcome.over));
}"""
"""Whether the table a page shows waits for its player (in a room: the bots have answered)."""

LEGAL = """async () => {
  const room = window.cardtableRoom;
  if (room) return room.table.table.legal;
  const id = new URLSearchParams(location.search).get("id");
  if (!id) return window.cardtableTable.table.legal;  // a daily deal's table: its address has no id
  return (await (await fetch("/api/tables/" + id)).json()).legal;
}"""
"""The legal moves of the table a page shows."""

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def free_port() -> int:
    """A free TCP port on 127.0.0.1.

    >>> 0 < free_port() < 65536
    True
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def play_some(page: Any, rng: random.Random, moves: int) -> None:
    """Play ``moves`` random legal moves through the move box, the bots answering in between."""
    for _ in range(moves):
        page.wait_for_function(SETTLED)
        legal = page.evaluate(LEGAL)
        if not legal:
            break
        page.fill("#move-input", rng.choice(legal)["move"])
        page.press("#move-input", "Enter")
        page.wait_for_timeout(150)
    page.wait_for_function(SETTLED)


def main() -> None:
    """Write the screenshots (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder of the PNGs")
    parser.add_argument("--moves", type=int, default=6, help="moves played before each screenshot")
    parser.add_argument(
        "--only", nargs="*", choices=("games", *CHOICES), help="take only these (games: all the others)"
    )
    args = parser.parse_args()
    only = set(args.only or ("games", *CHOICES))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = uvicorn.Server(uvicorn.Config(create_app(data), host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            if "daily" in only:
                daily_shots(browser, f"http://127.0.0.1:{port}", out)
            choices(browser, f"http://127.0.0.1:{port}", out, only)
            for width, height, suffix in ((1100, 800, ""), (360, 740, "-phone")) if "games" in only else ():
                page = browser.new_context(
                    viewport={"width": width, "height": height}, reduced_motion="reduce"
                ).new_page()
                for name, path in SHOTS.items():
                    page.goto(f"http://127.0.0.1:{port}{path}")
                    page.wait_for_selector("body[data-state='playing']")
                    play_some(page, random.Random(name), args.moves)
                    if "/room/" not in page.url:
                        page.click("#hint")
                        page.wait_for_selector(".mark.hinted")
                        page.wait_for_timeout(100)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(out / f"{name}{suffix}.png"))
                    if "/room/" not in page.url:  # left for a new deal: a game in the statistics
                        page.click("#new")
                        page.click("#confirm-yes")
                        page.wait_for_selector("body[data-state='playing']")
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("body[data-state='home']")
                page.screenshot(path=str(out / f"home{suffix}.png"), full_page=True)
                page.goto(f"http://127.0.0.1:{port}/stats")
                page.wait_for_selector("body[data-state='stats']")
                page.screenshot(path=str(out / f"stats{suffix}.png"), full_page=True)
                page.goto(f"http://127.0.0.1:{port}/rules/klondike")
                page.wait_for_selector("body[data-state='rules']")
                page.screenshot(path=str(out / f"rules{suffix}.png"))
                if not suffix:  # a room against two bots, played to its end
                    page.goto(f"http://127.0.0.1:{port}/play/deserto?seats=you,greedy,ismcts&new=1")
                    page.wait_for_selector("body[data-state='playing']")
                    rng = random.Random("room")
                    while page.evaluate("document.body.dataset.state") == "playing":
                        play_some(page, rng, 1)
                    page.wait_for_selector("#banner:not([hidden])")
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(out / "deserto-room.png"))
            if "games" in only:
                room_with_clock(browser, f"http://127.0.0.1:{port}", out / "deserto-room-clock.png")
            if "people" in only:
                people_pages(browser, f"http://127.0.0.1:{port}", out)
            browser.close()
        server.should_exit = True
        thread.join(timeout=10)
    print(f"screenshots written to {out}/")


CHOICES = ("win", "theme", "left-handed", "daily", "people")
"""The screenshots of issue 29's choices (see :func:`choices`)."""

MAKE_TABLE = """async ([game, deal, moves]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  let t = await post("/api/tables", {game, deal, options: {}});
  for (const move of moves) t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  return t.id;
}"""
"""A table of the page's browser, played through the API; its id."""


def choices(browser: Any, url: str, out: Path, only: set[str]) -> None:
    """Issue 29's screenshots: Klondike deal 8 won (the solver's line, its last move typed) with
    the win screen open; a theme (blue table, red backs, larger cards, Vegas), then its settings open;
    the left-handed layout of Klondike and of Demonthief, at desktop and phone width."""
    import cardtable

    if "win" in only:
        line = [str(m) for m in cardtable.solve(cardtable.new_game("klondike", deal=8), seconds=30).moves]
        page = browser.new_context(viewport={"width": 1100, "height": 800}, reduced_motion="reduce").new_page()
        page.goto(url + "/")
        page.wait_for_selector("body[data-state='home']")
        table = page.evaluate(MAKE_TABLE, ["klondike", 8, line[:-1]])
        page.goto(f"{url}/play/klondike?id={table}")
        page.wait_for_selector("body[data-state='playing']")
        page.fill("#move-input", line[-1])
        page.press("#move-input", "Enter")
        page.wait_for_selector("dialog#win[open]")
        page.screenshot(path=str(out / "win.png"))
        page.context.close()
    if "theme" in only:
        page = browser.new_context(viewport={"width": 1100, "height": 800}, reduced_motion="reduce").new_page()
        page.goto(url + "/play/klondike?deal=8&new=1")
        page.wait_for_selector("body[data-state='playing']")
        play_some(page, random.Random("theme"), 8)
        page.click(".settings summary")
        page.select_option("#felt", "blue")
        page.select_option("#card-back", "red")
        page.select_option("#card-size", "large")
        page.select_option("#scoring", "vegas")
        page.click(".settings summary")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "theme.png"))
        page.click(".settings summary")
        page.screenshot(path=str(out / "settings.png"))
        page.context.close()
    if "left-handed" in only:
        for width, height, suffix in ((1100, 800, ""), (360, 740, "-phone")):
            context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
            page = context.new_page()
            page.goto(url + "/play/klondike?deal=8&new=1")
            page.wait_for_selector("body[data-state='playing']")
            page.click(".settings summary")
            page.select_option("#hand", "left")
            page.click(".settings summary")
            play_some(page, random.Random("left"), 8)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(out / f"left-handed{suffix}.png"))
            if not suffix:
                page.goto(url + "/play/demonthief?deal=8&new=1")
                page.wait_for_selector("body[data-state='playing']")
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(out / "left-handed-demonthief.png"))
            context.close()


def room_with_clock(browser: Any, url: str, path: Path) -> None:
    """A Deserto room of two friends at 2 min a move: they play a little, then the friend
    leaves; the creator's page shows the clock and the seat it may free or give to a bot."""
    ana = browser.new_context(viewport={"width": 1000, "height": 760}).new_page()
    ana.goto(url + "/")
    ana.wait_for_selector("body[data-state='home']")
    card = ana.locator('.game-card[data-game="deserto"]')
    card.locator('select[name="players"]').select_option("2")
    card.locator('select[name="seat2"]').select_option("person")
    card.locator('input[name="room-name"]').fill("Ana")
    card.locator('select[name="room-pace"]').select_option("2m")
    card.locator("#open-room").click()
    ana.wait_for_selector("body[data-state='lobby']")
    link = ana.locator("#invite").get_attribute("href")
    friend = browser.new_context(viewport={"width": 1000, "height": 760})
    ben = friend.new_page()
    ben.goto(url + link)
    ben.wait_for_selector("body[data-state='lobby']")
    ben.locator('li[data-seat="1"] input[name="name"]').fill("Ben")
    ben.locator('li[data-seat="1"] button').click()
    ana.wait_for_selector("#start:not([disabled])")
    ana.click("#start")
    rng = random.Random(2)
    for _ in range(4):
        take_turns((ana, ben), rng, "body[data-state='playing']", 200)
    friend.close()
    ana.wait_for_selector("#room-bar .seat-left")
    ana.wait_for_timeout(1500)  # the clock has counted down a little
    ana.screenshot(path=str(path), full_page=True)


def take_turns(pages: Any, rng: random.Random, ready: str, pause_ms: int) -> None:
    """Each page in turn, once ``ready`` matches: a random legal move of its seat, if it is to
    move, typed in the move box, then a pause of ``pause_ms``."""
    for page in pages:
        page.wait_for_selector(ready)
        moves = page.evaluate(MINE)
        if moves:
            page.fill("#move-input", rng.choice(moves)["move"])
            page.press("#move-input", "Enter")
            page.wait_for_timeout(pause_ms)


def people_pages(browser: Any, url: str, out: Path) -> None:
    """Two people meet by "play now" and play a rated game to its end: its replay halfway with
    every card shown (``replay.png``, ``replay-phone.png``), the ratings (``ratings.png``),
    a lobby with a public room waiting (``lobby.png``) and the "you" page (``me.png``)."""
    pages = []
    for name in ("Ana", "Ben"):
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.goto(url + "/lobby")
        page.wait_for_selector("body[data-state='lobby-list']")
        page.fill("#now-name", name)
        page.select_option("#now-players", "2")
        page.click("#play-now-button")
        pages.append(page)
    rng = random.Random(3)
    ana = pages[0]
    while ana.evaluate("document.body.dataset.state") not in ("won", "over"):
        take_turns(pages, rng, "body[data-state='playing'], body[data-state='won'], body[data-state='over']", 120)
    ana.click("#replay-link")
    ana.wait_for_selector("body[data-state='replay']")
    ana.locator("#replay-at").fill("24")
    ana.wait_for_function("() => document.body.dataset.at === '24'")
    ana.screenshot(path=str(out / "replay.png"), full_page=True)
    phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    phone.goto(ana.url)
    phone.wait_for_selector("body[data-state='replay']")
    phone.wait_for_timeout(200)
    phone.screenshot(path=str(out / "replay-phone.png"))
    ana.goto(url + "/ratings")
    ana.wait_for_selector("body[data-state='ratings']")
    ana.screenshot(path=str(out / "ratings.png"), full_page=True)
    cleo = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
    cleo.goto(url + "/lobby")
    cleo.wait_for_selector("body[data-state='lobby-list']")
    cleo.fill("#now-name", "Cleo")
    cleo.select_option("#now-players", "3")
    cleo.click("#play-now-button")
    cleo.wait_for_selector("body[data-state='lobby']")
    ana.goto(url + "/lobby")
    ana.wait_for_selector("#lobby-rooms tr[data-code]")
    ana.screenshot(path=str(out / "lobby.png"), full_page=True)
    ana.goto(url + "/me")
    ana.wait_for_selector("body[data-state='me']")
    ana.screenshot(path=str(out / "me.png"), full_page=True)


WIN_DAILY = """async ([mode, name, moves, hint]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  await post("/api/daily/name", {name});
  let t = await post("/api/daily/play", {mode});
  for (const [i, move] of moves.entries()) {
    if (hint && i === 1) t = await post(`/api/tables/${t.id}/hint`, {at: t.at, kind: "plain"});
    t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  }
  return t.outcome.won;
}"""
"""Play a day's deal through the API as a browser with a name: the moves given (a hint first)."""


def daily_shots(browser: Any, url: str, out: Path) -> None:
    """The daily page and a leaderboard: three browsers win today's Desturado (easy mode)
    deal (one with a hint); the one shown has also started Klondike's."""
    import cardtable
    from cardtable.web.daily import daily_deal, daily_mode, utc_day

    mode = "desturado-easy"
    key = daily_mode(mode)
    deal = daily_deal(utc_day(time.time()), mode)
    line = [str(m) for m in cardtable.solve(cardtable.new_game(key.game, deal=deal, **key.options()), seconds=60).moves]
    players = (("Chloé", line, True), ("Ben", line, False), ("Ana", line, False))
    pages = []
    for name, moves, hint in players:
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.goto(url + "/")
        page.wait_for_selector("body[data-state='home']")
        assert page.evaluate(WIN_DAILY, [mode, name, moves, hint])
        pages.append(page)
    ana = pages[-1]
    ana.goto(url + "/daily/play?mode=klondike-draw3")
    ana.wait_for_selector("body[data-state='playing']")
    play_some(ana, random.Random("daily"), 3)
    for width, height, suffix in ((1100, 800, ""), (360, 740, "-phone")):
        ana.set_viewport_size({"width": width, "height": height})
        ana.goto(url + "/daily")
        ana.wait_for_selector("body[data-state='daily']")
        ana.screenshot(path=str(out / f"daily{suffix}.png"), full_page=True)
        ana.goto(f"{url}/leaderboard?mode={mode}")
        ana.wait_for_selector("body[data-state='leaderboard']")
        ana.screenshot(path=str(out / f"leaderboard{suffix}.png"), full_page=True)


MINE = """() => {
  const room = window.cardtableRoom;
  const t = room && room.table && room.table.table;
  return t && t.to_move === t.seat ? t.legal : [];
}"""
"""The legal moves of the page's own seat when it is to move (else none)."""


if __name__ == "__main__":
    main()

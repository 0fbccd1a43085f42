"""The table's motion on the main thread: Chromium's long tasks while cards move.

Runs the real app under uvicorn on 127.0.0.1 and drives Debian's Chromium
(``/usr/bin/chromium``, headless) through Playwright. A ``PerformanceObserver`` on
``longtask`` entries (Chromium's Long Tasks API: every task that kept the main
thread busy 50 ms or more) is installed before the page's own scripts; for each
scene the bench reports how long the motion took, the steps it played, and the
long tasks seen while it ran (their count and the longest). The scenes:

* the deal of Klondike and of Demonthief (104 cards) dealt;
* single moves of Klondike, each played out (the solver's line, through the
  page's own ``send``);
* a refused drag sliding back (a real mouse drag onto a pile that does not take it);
* Klondike's autocomplete (deal 8: 8 moves; deal 34: 52 moves, the size of a
  whole deck's finish), and Demonthief's (a finish of well over 100 moves),
  played out card by card;
* a Devil's Square autocomplete (books made and removed, squares filled again).

The target (issue 29): no task of 50 ms or more during a move or an animation.

    .venv/bin/python bench/table_motion.py [--width 1100] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

import cardtable
from cardtable.web import SERVER_OPTIONS, create_app, table_hints
from cardtable.web.table_hints import TableHints

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

OBSERVE = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });
"""

TABLE_AT = """async ([game, deal, moves]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  let t = await post("/api/tables", {game, deal, options: {}});
  for (const move of moves) t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  return t.id;
}"""


def serve(data: Path) -> tuple[uvicorn.Server, str]:
    """The app on 127.0.0.1 and a free port, in a thread; the server and its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(data), host="127.0.0.1", port=port, **SERVER_OPTIONS))
    threading.Thread(target=lambda: server.run(sockets=[listener]), daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}"


def finish_point(name: str, deal: int) -> tuple[list[str], int]:
    """The solver's winning line of a deal and the first move of it where the table offers
    Autocomplete (the finish follows from the cards seen).

    >>> line, at = finish_point("devils-square", 2)
    >>> 0 < at < len(line)
    True
    """
    line = [str(m) for m in cardtable.solve(cardtable.new_game(name, deal=deal), seconds=30).moves]
    game = cardtable.new_game(name, deal=deal)
    hints = TableHints()
    for i, move in enumerate(line):
        if hints.finish(game):
            return line, i
        game.play(move, autoplay=False)
    return line, len(line)


class Scene:
    """One page under observation: marks a start, waits for the motion to end, and reads the
    long tasks of the scene and the steps the page played out."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def still(self) -> None:
        self.page.wait_for_function("() => document.body.dataset.motion === 'still'", timeout=60_000)

    def measure(self, name: str, act: Any, moves: bool = True, load: bool = False) -> dict[str, Any]:
        """Run ``act`` and wait until what it set moving is still: with ``moves``, until the
        page shows a new move count (drawn at the end of the motion). With ``load`` (``act``
        opens a page), the long tasks counted are those from the deal's first animation on
        (the page's loading before it is not motion)."""
        p = self.page
        p.wait_for_timeout(300)  # what came before has settled
        start = p.evaluate("performance.now()")
        steps = p.evaluate("window.cardtableTable ? window.cardtableTable.motion.steps : 0")
        at = p.evaluate("document.body.dataset.at || ''")
        act()
        if moves:
            p.wait_for_function(f"() => document.body.dataset.at !== {at!r}", timeout=60_000)
        if load:
            p.wait_for_selector("body[data-state='playing']")
        self.still()
        end = p.evaluate("performance.now()")
        if load:
            start = p.evaluate("window.cardtableTable.motion.started")
            steps = 0
        tasks = [t for t in p.evaluate("window.__long") if t["start"] + t["duration"] >= start and t["start"] <= end]
        played = p.evaluate("window.cardtableTable.motion.steps") - steps
        return {
            "scene": name,
            "ms": round(end - start),
            "steps": played,
            "long_tasks": len(tasks),
            "longest_ms": round(max((t["duration"] for t in tasks), default=0.0), 1),
        }


def run(width: int) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    # The autocomplete offer waits for the solver (0.03 s at the table); on a busy machine that
    # may run out, and the scenes need the offer: the server in this process gets 3 s.
    table_hints.FINISH_SECONDS = 3.0

    results = []
    with tempfile.TemporaryDirectory() as folder:
        server, url = serve(Path(folder) / "data")
        klondike, k_at = finish_point("klondike", 8)
        long_klondike, l_at = finish_point("klondike", 34)  # 52 moves left to Autocomplete
        demonthief, d_at = finish_point("demonthief", 0)  # 174 moves left to Autocomplete
        devils, s_at = finish_point("devils-square", 2)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(viewport={"width": width, "height": 900})
                context.add_init_script(OBSERVE)
                page = context.new_page()
                scene = Scene(page)
                page.goto(url + "/")
                page.wait_for_selector("body[data-state='home']")

                def open_table(game: str, deal: int, moves: list[str]) -> None:
                    table_id = page.evaluate(TABLE_AT, [game, deal, moves])
                    page.goto(f"{url}/play/{game}?id={table_id}")

                results.append(
                    scene.measure(
                        "deal: Klondike", lambda: page.goto(f"{url}/play/klondike?deal=8&new=1"), moves=False, load=True
                    )
                )
                for i, move in enumerate(klondike[:12]):
                    results.append(
                        scene.measure(
                            f"move {i + 1} of Klondike ({move})",
                            lambda move=move: page.evaluate("(m) => window.cardtableTable.send({ move: m })", move),
                        )
                    )

                def refused_drag() -> None:
                    # The top card of pile 1 dragged onto pile 2, which does not take it here.
                    card = page.locator(".card[data-pile='1']").last.bounding_box()
                    target = page.locator(".pile[data-pile='3']").bounding_box()
                    assert card is not None and target is not None
                    page.mouse.move(card["x"] + 20, card["y"] + 20)
                    page.mouse.down()
                    for k in range(1, 9):
                        page.mouse.move(
                            card["x"] + 20 + (target["x"] - card["x"]) * k / 8, card["y"] + 20 + 150 * k / 8
                        )
                    page.mouse.up()
                    page.wait_for_timeout(400)

                page.goto(f"{url}/play/klondike?deal=8&new=1")
                scene.still()
                results.append(scene.measure("refused drag, slid back", refused_drag, moves=False))
                for name, deal, line, at in (
                    ("klondike", 8, klondike, k_at),
                    ("klondike", 34, long_klondike, l_at),
                    ("demonthief", 0, demonthief, d_at),
                    ("devils-square", 2, devils, s_at),
                ):
                    open_table(name, deal, line[:at])
                    page.wait_for_selector("#finish:not([hidden])")
                    scene.still()
                    results.append(scene.measure(f"autocomplete: {name} deal {deal}", lambda: page.click("#finish")))
                page.goto(f"{url}/")
                results.append(
                    scene.measure(
                        "deal: Demonthief (104 cards)",
                        lambda: page.goto(f"{url}/play/demonthief?deal=1&new=1"),
                        moves=False,
                        load=True,
                    )
                )
                browser.close()
        finally:
            server.should_exit = True
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=1100, help="the window's width in pixels")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    results = run(args.width)
    print(f"{'scene':44} {'ms':>6} {'steps':>6} {'long tasks':>11} {'longest ms':>11}")
    for r in results:
        print(f"{r['scene']:44} {r['ms']:>6} {r['steps']:>6} {r['long_tasks']:>11} {r['longest_ms']:>11}")
    worst = max(r["longest_ms"] for r in results)
    print(f"tasks of 50 ms or more: {sum(r['long_tasks'] for r in results)}; longest: {worst} ms")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

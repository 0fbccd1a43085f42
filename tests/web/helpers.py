"""What the web tests share: a table opened at a position, moves played by keyboard alone, a
table's cards and marks where the page draws them, the API's table calls, a room's stored moves."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi.testclient import TestClient

from .conftest import Page

WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],  # the passes' nodes too would be a large answer to carry back
}
"""The rules axe runs: WCAG 2.0 and 2.1, levels A and AA."""

SETTLED = "() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')"
"""True once no CSS transition runs: a message fading in is measured at its full colour, not mid-blend."""


@cache
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    script: str = Axe().axe_script
    return script


def violations(p: Any) -> list[str]:
    """axe's WCAG 2.1 AA violations of the page once its transitions have settled: each rule
    with (up to five of) the elements it found. axe-core is put in a page once (a page
    loaded anew needs it again)."""
    p.wait_for_function(SETTLED, timeout=5000)
    if p.evaluate("typeof window.axe") == "undefined":
        p.evaluate(_axe_script())
    results = p.evaluate("(options) => axe.run(document, options)", WCAG_AA)
    found: list[str] = []
    for rule in results["violations"]:
        targets = [str(node["target"]) for node in rule["nodes"]][:5]
        found.append(f"{rule['id']} ({rule['impact']}): {rule['help']} -> {targets}")
    return found


NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
WIDE = {"width": 1100, "height": 800}
PHONE = {"width": 360, "height": 740}


def violations_wide_and_narrow(p: Any) -> list[str]:
    """axe's WCAG 2.1 AA violations of the page as it is, at a desktop's width and then at a
    phone's (the window resized, as a phone turned or a window narrowed: the table draws itself
    again), each said with its width; the window is left at the desktop's width. One page
    checked at both widths costs one load and one axe-core put in, not two."""
    found: list[str] = []
    for size in (WIDE, PHONE):
        p.set_viewport_size(size)
        p.evaluate(NEXT_FRAME)  # the resize event (the table drawn again) has been handled
        found += [f"{size['width']} px: {v}" for v in violations(p)]
    p.set_viewport_size(WIDE)
    return found


TABLE_AT = """async ([game, deal, moves, options]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  let t = await post("/api/tables", {game, deal, options});
  for (const move of moves) t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  return t.id;
}"""
"""Make a table of this browser (its cookie) and play moves on it through the API; its id."""

KEY_PLAN = """([text]) => {
  // The keys that play the shown table's legal move ``text`` from where the focus is, by the
  // page's own rules for the arrow keys (Table.neighbour), each walk found breadth first: to the
  // card picked up (or the stock) then Enter, to the place it goes then Enter. One call a move,
  // small answers: each call is a round trip and each answer is checked by Playwright.
  const t = window.cardtableTable;
  const move = t.table.legal.find((m) => m.move === text);
  if (!move) return {error: `${text} is not a legal move of the shown table`};
  const top = (name) => t.table.piles.find((p) => p.name === name).cards.length - 1;
  const id = ([p, i]) => `${p}|${i}`;
  const walk = (start, goal) => {
    const came = new Map([[id(start), null]]);
    const queue = [start];
    while (queue.length) {
      const here = queue.shift();
      if (here[0] === goal[0] && here[1] === goal[1]) {
        const keys = [];
        for (let step = came.get(id(here)); step; step = came.get(step[0])) keys.unshift(step[1]);
        return keys;
      }
      for (const key of ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]) {
        const next = t.neighbour(here[0], here[1], key);
        if (!came.has(id(next))) { came.set(id(next), [id(here), key]); queue.push(next); }
      }
    }
    return null;
  };
  const a = document.activeElement;
  const inBoard = Boolean(a && a.closest && a.closest(".board"));
  const first = inBoard ? a : t.board.querySelector(".card[tabindex='0']");  // ArrowDown enters the table there
  const start = [first.dataset.pile, first.dataset.index === undefined ? -1 : Number(first.dataset.index)];
  const kinds = Object.fromEntries(t.table.piles.map((p) => [p.name, p.kind]));
  const goals = move.index === null
    ? [[kinds[move.from] === "stock" ? move.from : move.to, null]]
    : [[move.from, move.index], [move.to, null]];
  const keys = inBoard ? [] : ["ArrowDown"];
  let here = start;
  for (const [pile, index] of goals) {
    const goal = [pile, index === null ? top(pile) : index];
    const path = walk(here, goal);
    if (path === null) return {error: `no arrow keys lead to ${goal}`};
    keys.push(...path, "Enter");
    here = goal;
  }
  return {keys, at: Number(document.body.dataset.at)};
}"""
"""The keys that play a legal move of the shown table, and the move count before it."""


def open_at(page: Page, game: str, deal: int, moves: list[str], options: dict[str, Any] | None = None) -> Any:
    """The table of ``game`` deal ``deal`` after ``moves``, open in the page."""
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    table_id = p.evaluate(TABLE_AT, [game, deal, moves, options or {}])
    p.goto(f"{page.live.url}/play/{game}?id={table_id}")
    p.wait_for_selector("body[data-state='playing']")
    return p


def shown_table(p: Any) -> dict[str, Any]:
    """The table the page shows (as the server sent it)."""
    data: dict[str, Any] = p.evaluate("window.cardtableTable.table")
    return data


def at(p: Any) -> int:
    return int(p.evaluate("document.body.dataset.at"))


def wait_at(p: Any, before: int) -> int:
    p.wait_for_function(f"() => Number(document.body.dataset.at) !== {before}")
    return at(p)


def play_by_keys(p: Any, text: str) -> int:
    """The shown table's legal move ``text`` played with the arrow keys and Enter only; the move count after it."""
    plan = p.evaluate(KEY_PLAN, [text])
    assert "error" not in plan, plan["error"]
    for key in plan["keys"]:
        p.keyboard.press(key)
    after = wait_at(p, plan["at"])
    # The keys played this move, not another legal one (the first step the server sent back).
    played = p.evaluate("(window.cardtableTable.table.steps || []).map((s) => s.move)")
    assert played[:1] == [text], (text, played)
    return after


def box(p: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = p.locator(selector).bounding_box()
    return found


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 0.5) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    """A new one-player table over the API (it must be made)."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, table: dict[str, Any], action: str, **body: Any) -> Any:
    """An action on a table over the API, made at its current move count."""
    return client.post(f"/api/tables/{table['id']}/{action}", json={"at": table["at"], **body})


def stored_moves(db: Any, code: str) -> set[tuple[Any, ...]]:
    """Every move row stored for room ``code``, of every game and epoch: (game, epoch, n, move)."""
    return set(db._read("SELECT game_no, epoch, n, move FROM room_moves WHERE code = ?", (code,)))

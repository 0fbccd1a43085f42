"""What the browser tests of issue 26 share: a table opened at a position, moves played by
keyboard alone, a table's cards and marks where the page draws them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import Page

WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
"""The rules axe runs: WCAG 2.0 and 2.1, levels A and AA."""

SETTLED = "() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')"
"""True once no CSS transition runs: a message fading in is measured at its full colour, not mid-blend."""


def violations(p: Any) -> list[str]:
    """axe's WCAG 2.1 AA violations of the page once its transitions have settled: each rule
    with (up to five of) the elements it found."""
    from axe_playwright_python.sync_playwright import Axe

    p.wait_for_function(SETTLED, timeout=5000)
    results = Axe().run(p, options=WCAG_AA)
    found: list[str] = []
    for rule in results.response["violations"]:
        targets = [str(node["target"]) for node in rule["nodes"]][:5]
        found.append(f"{rule['id']} ({rule['impact']}): {rule['help']} -> {targets}")
    return found


TABLE_AT = """async ([game, deal, moves, options]) => {
  const post = async (path, body) => (await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body) })).json();
  let t = await post("/api/tables", {game, deal, options});
  for (const move of moves) t = await post(`/api/tables/${t.id}/move`, {at: t.at, move});
  return t.id;
}"""
"""Make a table of this browser (its cookie) and play moves on it through the API; its id."""

KEY_PATH = """([toPile, toIndex]) => {
  // The arrow keys that take the focus from where it is to (toPile, toIndex), by the page's own
  // rules for them (Table.neighbour), found breadth first.
  const t = window.cardtableTable;
  const a = document.activeElement;
  const start = [a.dataset.pile, a.dataset.index === undefined ? -1 : Number(a.dataset.index)];
  const id = ([p, i]) => `${p}|${i}`;
  const came = new Map([[id(start), null]]);
  const queue = [start];
  while (queue.length) {
    const here = queue.shift();
    if (here[0] === toPile && here[1] === toIndex) {
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
}"""


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


def focus_by_keys(p: Any, pile: str, index: int) -> None:
    """Walk the focus to card ``index`` of ``pile`` (-1: the pile's place) with the arrow keys."""
    if not p.evaluate("Boolean(document.activeElement.closest && document.activeElement.closest('.board'))"):
        p.keyboard.press("ArrowDown")  # into the table: its first card that can be picked up
    keys = p.evaluate(KEY_PATH, [pile, index])
    assert keys is not None, f"no arrow keys lead to {pile} {index}"
    for key in keys:
        p.keyboard.press(key)
    focused = p.evaluate("[document.activeElement.dataset.pile, document.activeElement.dataset.index ?? '-1']")
    assert focused == [pile, str(index)], (focused, pile, index)


def top(table: dict[str, Any], pile: str) -> int:
    """The index of a pile's top card (-1: empty), as the arrow keys reach it."""
    return len(next(p for p in table["piles"] if p["name"] == pile)["cards"]) - 1


def play_by_keys(p: Any, move: dict[str, Any]) -> int:
    """A legal move of the shown table played with the arrow keys and Enter only."""
    table = shown_table(p)
    before = at(p)
    if move["index"] is None:  # the stock as a whole: Enter on it
        kinds = {x["name"]: x["kind"] for x in table["piles"]}
        stock = move["from"] if kinds[move["from"]] == "stock" else move["to"]
        focus_by_keys(p, stock, top(table, stock))
        p.keyboard.press("Enter")
    else:
        focus_by_keys(p, move["from"], move["index"])
        p.keyboard.press("Enter")
        focus_by_keys(p, move["to"], top(table, move["to"]))
        p.keyboard.press("Enter")
    return wait_at(p, before)


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

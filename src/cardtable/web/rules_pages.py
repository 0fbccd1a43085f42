"""The rules pages of the web app: each game's rulebook page rendered for players.

The rulebook (:mod:`cardtable.rulebook`) is Markdown; a player gets it as a page:
rendered on the server by ``markdown-it-py`` (raw HTML in the text is escaped),
with a link to another game's page turned into that page's address
(``/rules/demonthief``) and a link into the project's docs (``../deals.md``)
kept as its words only, since the app serves no docs. Each page opens with a
picture of the game's table (:func:`layout_svg`): every pile where the browser
puts it, named as the table names it, drawn from the game's declaration
(``TableSpec.place``) like the table itself.

>>> html = rules_html("desturado")
>>> "<h1>Desturado</h1>" in html, "../deals.md" in html, "<em>" in rules_html("klondike")
(True, False, True)
"""

from __future__ import annotations

from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..core.multiplayer import MultiplayerRules
from ..games import names, rules_for, spec_for
from ..rulebook import rules_page, rules_text
from .table_json import place_json, table_spec

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def _pages() -> dict[str, str]:
    """The rulebook page of each game, by the page's file name: the address of its page."""
    pages: dict[str, str] = {}
    for name in names():
        pages.setdefault(f"{rules_page(name)}.md", name)
    return pages


def _relink(tokens: list[Token], pages: dict[str, str]) -> None:
    for token in tokens:
        if token.children:
            _relink(token.children, pages)
        if token.type != "link_open":
            continue
        href = str(token.attrs.get("href", ""))
        if "://" in href or href.startswith(("#", "/")):
            continue
        page = href.rsplit("/", 1)[-1].split("#", 1)[0]
        if page in pages:
            token.attrs["href"] = f"/rules/{pages[page]}"
        else:  # a page of the project's docs, which the app does not serve: its words only
            token.type, token.tag, token.attrs = "html_inline", "", {}
            token.content = ""
            _unlink_close(tokens, token)


def _unlink_close(tokens: list[Token], opened: Token) -> None:
    """Drop the ``link_close`` that matches ``opened`` (turned into nothing)."""
    depth = 0
    for token in tokens[tokens.index(opened) + 1 :]:
        if token.type == "link_open":
            depth += 1
        elif token.type == "link_close":
            if depth == 0:
                token.type, token.tag, token.content = "html_inline", "", ""
                return
            depth -= 1


def rules_html(game: str) -> str:
    """The rules of ``game`` as HTML for a page (see the module docstring).

    >>> '<a href="/rules/demonthief">' in rules_html("klondike") or "demonthief" not in rules_text("klondike")
    True
    """
    tokens = _MARKDOWN.parse(rules_text(game))
    _relink(tokens, _pages())
    # A link's words that were a path ("../deals.md") read as the docs page they name.
    html: str = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    return html.replace("../deals.md", "the deal numbers (docs/deals.md)")


def layout(game: str) -> list[dict[str, Any]]:
    """The piles of a game's table with their places, as the browser lays them out: a
    one-player game's deal 1 with its default options (its piles aside too), a
    multi-player game's table seen from the first seat.

    >>> [(p["name"], p["area"]) for p in layout("klondike")][:3]
    [('stock', 'stock'), ('w', 'waste'), ('fc', 'foundations')]
    """
    table = table_spec(game)
    rules = rules_for(game)
    state = rules.deal(1)
    if isinstance(rules, MultiplayerRules):
        rows = rules.view_display(rules.view(state, 0, ()))
        places = [(name, table.place(name, 0, rules.players)) for row in rows for name, _ in row]
    else:
        piles = [(name, pile) for row in rules.display(state) for name, pile in row] + rules.aside(state)
        places = [(name, table.place(name)) for name, _ in piles]
    return [place_json(name, where, table) for name, where in places]


CARD_W, CARD_H, GAP = 60, 84, 10
"""The picture's card size and the space between piles and rows, in its pixels."""


def layout_svg(game: str) -> str:
    """A picture of the game's table (SVG): a card-sized box for each pile, a longer one
    for a pile spread downwards, each named as the table names it, the areas' names
    over them.

    >>> svg = layout_svg("devils-square")
    >>> svg.startswith("<svg") and ">a1</tspan>" in svg and "draw pile" in svg
    True
    """
    piles = layout(game)
    width = table_spec(game).width
    rows = sorted({p["y"] for p in piles})
    tall = {y: any(p["fan"] == "down" for p in piles if p["y"] == y) for y in rows}
    tops: dict[Any, float] = {}
    y: float = GAP
    for row in rows:
        tops[row] = y + 16
        y += 16 + CARD_H * (1.8 if tall[row] else 1) + GAP + 14
    total_w = int(width * (CARD_W + GAP) + GAP)
    title = f"The table of {escape(spec_for(game).title)}"
    parts = [
        f'<svg class="layout" viewBox="0 0 {total_w} {int(y)}" role="img" aria-label="{title}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<rect width="{total_w}" height="{int(y)}" rx="8" fill="#1f6b43"/>',
    ]
    labelled: set[str] = set()
    for p in piles:
        x = GAP + p["x"] * (CARD_W + GAP)
        top = tops[p["y"]]
        h = CARD_H * (1.8 if p["fan"] == "down" else 1)
        parts.append(
            f'<rect x="{x:g}" y="{top:g}" width="{CARD_W}" height="{h:g}" rx="5" fill="#faf7ef" '
            'stroke="#17543a" stroke-width="1.5"/>'
        )
        lines = "".join(
            f'<tspan x="{x + CARD_W / 2:g}" dy="{0 if i == 0 else 11}">{escape(word)}</tspan>'
            for i, word in enumerate(str(p["label"]).split())
        )
        parts.append(
            f'<text x="{x + CARD_W / 2:g}" y="{top + 15:g}" font-size="10" text-anchor="middle" fill="#1d1d1b">'
            f"{lines}</text>"
        )
        area = str(p["area"])
        if area and area not in labelled:
            labelled.add(area)
            parts.append(
                f'<text x="{x:g}" y="{top - 5:g}" font-size="11" font-weight="700" fill="#ffffff">{escape(area)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["layout", "layout_svg", "rules_html"]

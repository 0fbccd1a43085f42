"""What the browser is sent of a position: JSON built from what a seat may see.

Two game families, one function each:

* :func:`solitaire_position` for the one-player games, from the rules'
  ``display`` (named piles of ``(card, face_up)``): a face-down card is sent
  as ``{"up": false}`` and nothing else, so neither face-down cards nor the
  order of the stock ever leave the server.
* :func:`seat_position` for Deserto, from ``view(seat)`` only: the seat's
  own hand face up, every other hand as backs, the area's top cards.

Each pile carries where it lies on the table (``x``, ``y`` in card widths and
table rows), how its cards are spread (``fan``), what a player may pick up
from it (``grab``), and a label for screen readers. Each legal move is sent
as ``{"move", "from", "index", "to"}``: the pile it leaves, the position of
its lowest moving card there, the pile it goes to. The browser matches a drag
or a click against these and sends the move's notation; the engine's ``play``
decides.

>>> import cardtable
>>> data = solitaire_position(cardtable.new_game("klondike", deal=0))
>>> [p["name"] for p in data["piles"]][:3]
['stock', 'w', 'fc']
>>> data["piles"][0]["cards"][0]
{'up': False}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.cards import KK_COLOURS, KK_ITEMS, RANK, SUITS, kk_colour, kk_item, kk_number
from ..core.game import Game
from ..core.multiplayer import MultiplayerGame
from ..core.rules import Pile
from ..games.deserto import GIVE, KIND_NAMES, KINDS, DesertoView
from .story import captured


@dataclass(frozen=True)
class Place:
    """Where a pile lies and how it behaves: ``kind`` (stock, waste, foundation,
    tableau, reserve, hand, cell, draw, area, deck, won), grid ``x`` and row ``y``,
    ``fan`` (none, down, right, waste), ``grab`` (none; top: only the top card;
    group: any face-up card and those above it; unit: the whole face-up part;
    single: any one card) and the label read to a screen reader.

    >>> Place("tableau", 0, 1, "down", "group", "pile 1").fan
    'down'
    """

    kind: str
    x: float
    y: int
    fan: str
    grab: str
    label: str


def _klondike(name: str) -> Place:
    if name == "stock":
        return Place("stock", 0, 0, "none", "none", "stock")
    if name == "w":
        return Place("waste", 1, 0, "waste", "top", "waste")
    if name.startswith("f"):
        suit = "CDHS".index(name[1].upper())
        return Place(
            "foundation", 3 + suit, 0, "none", "top", f"{('clubs', 'diamonds', 'hearts', 'spades')[suit]} foundation"
        )
    return Place("tableau", int(name) - 1, 1, "down", "group", f"pile {name}")


def _demonthief(name: str) -> Place:
    if name == "stock":
        return Place("stock", 0, 0, "none", "none", "stock")
    if name == "w":
        return Place("waste", 1, 0, "waste", "top", "waste")
    if name == "x":
        return Place("reserve", 2, 0, "none", "top", "reserve")
    if name.startswith("f"):
        return Place("foundation", 2 + int(name[1:]), 0, "none", "none", f"foundation {name[1:]}")
    return Place("tableau", int(name) - 1 + 1, 1, "down", "group", f"pile {name}")


def _desturado(name: str) -> Place:
    if name.isdigit():
        return Place("hand", int(name) - 1, 1, "down", "unit", f"hand space {name}")
    return Place("tableau", "abcde".index(name), 0, "down", "unit", f"column {name}")


def _devils_square(name: str) -> Place:
    if name == "draw":
        return Place("draw", 4.25, 0, "none", "none", "draw pile")
    return Place("cell", "abcd".index(name[0]), int(name[1]) - 1, "down", "group", f"square {name}")


PLACES = {
    "klondike": _klondike,
    "demonthief": _demonthief,
    "demons-and-thieves": _demonthief,
    "desturado": _desturado,
    "devils-square": _devils_square,
}
"""For each one-player game: its piles' places on the table, by display name."""

WIDTH = {"klondike": 7, "demonthief": 11, "demons-and-thieves": 11, "desturado": 5, "devils-square": 5.25}
"""The table's width in card widths, per one-player game."""


def card_face(game: str, card: int, text: str) -> dict[str, Any]:
    """What the browser needs to draw a face-up card (see ``static/cards.js``).

    >>> card_face("klondike", 0, "AC")
    {'kind': 'french', 'rank': 1, 'suit': 'C', 'text': 'AC'}
    >>> card_face("devils-square", 63, "4BC")
    {'kind': 'kings-keys', 'number': 4, 'colour': 'B', 'item': 'C', 'text': '4BC'}
    """
    if game == "devils-square":
        return {
            "kind": "kings-keys",
            "number": kk_number(card),
            "colour": KK_COLOURS[kk_colour(card)],
            "item": KK_ITEMS[kk_item(card)],
            "text": text,
        }
    if game == "deserto":
        return {"kind": "deserto", "type": KINDS[card], "text": KINDS[card]}
    return {"kind": "french", "rank": RANK[card], "suit": SUITS[card // 13], "text": text}


def _pile_cards(game: Game[Any, Any], pile: Pile) -> list[dict[str, Any]]:
    name = game.name
    text = game.rules.card_text
    return [{"up": True, "face": card_face(name, c, text(c))} if up else {"up": False} for c, up in pile]


def legal_places(game: Game[Any, Any], piles: dict[str, Pile]) -> list[dict[str, Any]]:
    """The legal moves of a one-player game with the piles they join.

    ``index`` is the position in its pile of the lowest card that moves (None
    for drawing and redealing, which move the stock as a whole).

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0)
    >>> names = {n: p for row in g.rules.display(g.state) for n, p in row}
    >>> legal_places(g, names)[0]
    {'move': '3f', 'from': '3', 'index': 2, 'to': 'fs'}
    """
    moves = []
    for move in game.legal_moves():
        src, count, dst = move_places(game, move)
        index = None if count == 0 else len(piles[src]) - count
        moves.append({"move": str(move), "from": src, "index": index, "to": dst})
    return moves


def move_places(game: Game[Any, Any], move: Any) -> tuple[str, int, str]:
    """A legal move of a one-player game as (source pile, cards moved, target pile);
    0 cards for a draw or a redeal.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0)
    >>> move_places(g, g.parse_move("d"))
    ('stock', 0, 'w')
    """
    name = game.name
    before = {n: p for row in game.rules.display(game.state) for n, p in row}
    text = str(move)
    if text in ("d", "r"):
        return ("stock", 0, "w") if text == "d" else ("w", 0, "stock")
    if name == "desturado":
        src, dst = text[0], text[1]
        unit = sum(1 for _, up in before[src] if up)
        return src, unit, dst
    if name == "devils-square":
        return text[:2], move.n, text[2:4]
    if name == "klondike":
        src, dst = (text[:2], text[2:]) if text.startswith("f") else (text[0], text[1:])
        dst = dst.split(":")[0]
    else:
        src, dst = text[0], text[1:].split(":")[0]
    count = getattr(move, "n", 1) or 1
    if dst == "f":  # the foundation that takes it: the one that grows
        after = {n: p for row in game.rules.display(game.rules.apply(game.state, move)) for n, p in row}
        dst = next(n for n in after if n.startswith("f") and len(after[n]) > len(before[n]))
    return src, count, dst


def drop_text(game: Game[Any, Any], src: str, index: int, dst: str) -> str:
    """The notation of dropping the cards from ``index`` up of pile ``src`` on pile
    ``dst``: what the engine is asked to play (and to explain, when illegal).

    >>> import cardtable
    >>> drop_text(cardtable.new_game("klondike", deal=0), "3", 2, "fs")
    '3f'
    >>> drop_text(cardtable.new_game("devils-square", deal=0), "a1", 0, "b2")
    'a1b2'
    """
    name = game.name
    place = PLACES[name]
    piles = {n: p for row in game.rules.display(game.state) for n, p in row}
    count = len(piles[src]) - index
    target = "f" if place(dst).kind == "foundation" else dst
    grab = place(src).grab
    suffix = f":{count}" if grab == "group" and count > 1 else ""
    return f"{src}{target}{suffix}"


def solitaire_position(game: Game[Any, Any]) -> dict[str, Any]:
    """The table of a one-player game as the player sees it: piles, legal moves, status.

    >>> import cardtable
    >>> data = solitaire_position(cardtable.new_game("devils-square", deal=0))
    >>> data["width"], len(data["piles"]), data["legal"][0]["from"]
    (5.25, 17, 'c1')
    """
    place = PLACES[game.name]
    piles: list[dict[str, Any]] = []
    by_name: dict[str, Pile] = {}
    for row in game.rules.display(game.state):
        for name, pile in row:
            by_name[name] = pile
            where = place(name)
            fan = "none" if where.fan == "waste" and game.options.get("draw") == 1 else where.fan
            piles.append(
                {
                    "name": name,
                    "label": where.label,
                    "kind": where.kind,
                    "x": where.x,
                    "y": where.y,
                    "fan": fan,
                    "grab": where.grab,
                    "cards": _pile_cards(game, pile),
                }
            )
    return {
        "family": "solitaire",
        "width": WIDTH[game.name],
        "piles": piles,
        "legal": legal_places(game, by_name),
        "status": game.rules.status(game.state),
    }


def seat_position(game: MultiplayerGame[Any, Any], seat: int | None) -> dict[str, Any]:
    """A multi-player table (Deserto) as ``seat`` may see it, from ``view(seat)`` only;
    for a spectator (``seat`` None), the spectator's view, every hand face down.

    >>> import cardtable
    >>> data = seat_position(cardtable.new_game("deserto", deal=0, players=3), 0)
    >>> [p["name"] for p in data["piles"]]
    ['1', '2', '3', '4', 'deck', 'hand 0', 'won 0', 'hand 1', 'won 1', 'hand 2', 'won 2']
    >>> data["piles"][7]["cards"]
    [{'up': False}, {'up': False}, {'up': False}]
    >>> [c["up"] for c in seat_position(cardtable.new_game("deserto", deal=0), None)["piles"][5]["cards"]]
    [False, False, False]
    """
    view = game.view(seat)
    assert isinstance(view, DesertoView)
    players = len(view.hand_sizes)
    piles: list[dict[str, Any]] = []

    def add(
        name: str, label: str, kind: str, x: float, y: int, fan: str, grab: str, cards: list[dict[str, Any]]
    ) -> None:
        piles.append(
            {"name": name, "label": label, "kind": kind, "x": x, "y": y, "fan": fan, "grab": grab, "cards": cards}
        )

    for p, pile in enumerate(view.area):
        cards: list[dict[str, Any]] = []
        if pile.top is not None:
            cards = [{"up": False}] * (pile.size - 1) + [{"up": True, "face": card_face("deserto", pile.top, "")}]
        add(str(p + 1), f"area position {p + 1}", "area", 2.6 + p % 2 * 1.3, 1 + p // 2, "none", "none", cards)
    add("deck", "deck", "deck", 6.1, 1, "none", "none", [{"up": False}] * view.deck)
    # Seen from a seat: the others along the top, the seat's own hand at the bottom.
    # A spectator sees the table from seat 0's side, that hand face down too.
    others = [s for s in range(players) if s != (0 if seat is None else seat)]
    for s in range(players):
        mine = s == view.seat
        won = [{"up": False}] * view.won[s]
        if mine or (seat is None and s == 0):
            hand = (
                [{"up": True, "face": card_face("deserto", c, "")} for c in view.hand]
                if mine
                else [{"up": False}] * view.hand_sizes[s]
            )
            x, won_x, y, fan = 2.3, 5.8, 3, "right"
        else:
            hand = [{"up": False}] * view.hand_sizes[s]
            x = others.index(s) * 2.6 + (3 - len(others)) * 1.3 if s in others else 0.0
            won_x, y, fan = x + 1.15, 0, "none"
        who = "your" if mine else f"seat {s + 1}'s"
        add(f"hand {s}", f"{who} hand", "hand", x, y, fan, "single" if mine else "none", hand)
        add(f"won {s}", f"{who} winnings", "won", won_x, y, "none", "none", won)
    legal = []
    if seat is not None and view.to_move == seat:
        for move in game.legal_moves():
            kind, pos = move
            dst = f"won {(seat - 1) % players}" if pos == GIVE else str(pos + 1)
            for i, c in enumerate(view.hand):
                if c == kind:
                    legal.append({"move": str(move), "from": f"hand {seat}", "index": i, "to": dst})
    return {
        "family": "seats",
        "width": 7.3,
        "piles": piles,
        "legal": legal,
        "seat": seat,
        "to_move": view.to_move,
        "hand_sizes": list(view.hand_sizes),
        "won": list(view.won),
        "deck": view.deck,
        "history": [str(event) for event in view.history],
        "captured": captured(view.history, players),
        "kinds": {k: KIND_NAMES[i] for i, k in enumerate(KINDS)},
        "status": [],
    }


def seat_drop_text(game: MultiplayerGame[Any, Any], seat: int, index: int, dst: str) -> str:
    """The notation of dropping card ``index`` of ``seat``'s hand on pile ``dst``
    (an area position places it; the previous seat's winnings gives it).

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0)
    >>> seat_drop_text(g, 0, 0, "2")
    'T2'
    """
    view = game.view(seat)
    assert isinstance(view, DesertoView)
    if not 0 <= index < len(view.hand):
        return "?"
    kind = KINDS[view.hand[index]]
    return f"G{kind}" if dst.startswith("won") else f"{kind}{dst}"

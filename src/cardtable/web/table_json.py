"""What the browser is sent of a table: JSON built from what a seat may see.

One builder for every game, read from its declaration
(:func:`cardtable.games.spec_for`): the table's ``width``, where each pile lies
(``place``), the family of its card faces (``cards``) and the colour of its
backs (``back``) are the game's :class:`~cardtable.core.spec.TableSpec`; a game
whose declaration has no table is not offered in the browser (:func:`offered`).

* :func:`solitaire_table` for a one-player game, from the rules' ``display``
  (named piles of ``(card, face_up)``): a face-down card is sent as
  ``{"up": false}`` and nothing else, so neither face-down cards nor the
  order of the stock ever leave the server.
* :func:`seat_table` for a multi-player game, from ``game.view(seat)`` only,
  drawn by the rules' ``view_display`` (the cards the seat may not know are
  backs), with the rules' words for each seat (``lines``) and for the turn
  (``turn``); a spectator (``seat`` None) gets the public view.

Each pile carries where it lies on the table (``x``, ``y`` in card widths and
table rows), how its cards are spread (``fan``), what a player may pick up
from it (``grab``), and a label for screen readers. Each legal move is sent
as ``{"move", "from", "index", "to"}``, from the rules' ``move_places``: the
pile it leaves, the position of its lowest moving card there (None for a move
of the stock as a whole), the pile it goes to. The browser matches a drag or a
click against these and sends the move's own text (or, for a drop no legal
move matches, the drop: :mod:`cardtable.web.drops`); the engine's ``play``
decides.

>>> import cardtable
>>> data = solitaire_table(cardtable.new_game("klondike", deal=0))
>>> [p["name"] for p in data["piles"]][:3], data["cards"], data["back"]
(['stock', 'w', 'fc'], 'french', '#2a4d9b')
>>> data["piles"][0]["cards"][0]
{'up': False}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..core.cards import KK_COLOURS, KK_ITEMS, RANK, SUITS, kk_colour, kk_item, kk_number
from ..core.errors import OptionError
from ..core.game import Game
from ..core.multiplayer import MultiplayerGame, SeenPile
from ..core.rules import Rules
from ..core.spec import Place, TableSpec
from ..games import spec_for


def offered(name: str) -> bool:
    """Whether the browser offers a game: its declaration says how its table is drawn.

    >>> offered("klondike")
    True
    """
    return spec_for(name).table is not None


def table_spec(name: str) -> TableSpec:
    """How a game's table is drawn (its declaration's ``table``); an :class:`OptionError`
    for a game the browser does not offer.

    >>> table_spec("devils-square").width
    5.25
    """
    spec = spec_for(name)
    if spec.table is None:
        raise OptionError(f"{spec.title} is not offered in the browser")
    return spec.table


def card_face(family: str, card: int, text: str) -> dict[str, Any]:
    """What the browser needs to draw a face-up card of a card family (see
    ``static/cards.js``): its text, and for French cards their rank and suit, for
    King's Keys cards their number, colour and item.

    >>> card_face("french", 0, "AC")
    {'kind': 'french', 'rank': 1, 'suit': 'C', 'text': 'AC'}
    >>> card_face("kings-keys", 63, "4BC")
    {'kind': 'kings-keys', 'number': 4, 'colour': 'B', 'item': 'C', 'text': '4BC'}
    """
    if family == "french":
        return {"kind": family, "rank": RANK[card], "suit": SUITS[card // 13], "text": text}
    if family == "kings-keys":
        return {
            "kind": family,
            "number": kk_number(card),
            "colour": KK_COLOURS[kk_colour(card)],
            "item": KK_ITEMS[kk_item(card)],
            "text": text,
        }
    return {"kind": family, "text": text}


class LegalPlace(NamedTuple):
    """A legal move where it happens on the table a player sees: the pile it leaves
    (``src``), its lowest moving card's position there (``position``; None for a move of
    the stock as a whole), the pile it reaches (``dst``)."""

    move: Any
    src: str
    position: int | None
    dst: str


Piles = Mapping[str, Sequence[tuple[int | None, bool]]]
"""The piles of a table as a player sees them, by name (cards None where not known)."""


def legal_places(rules: Rules[Any, Any], state: Any, moves: Sequence[Any], piles: Piles) -> list[LegalPlace]:
    """The legal ``moves`` of ``state`` with the piles they join, as the rules say
    (``move_places``), on the table ``piles`` a player sees (by name): for a move of
    ``n`` cards, the index of the lowest of the top ``n``; for a move that takes a
    chosen card from a hand, one entry for each place of that card in it.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0)
    >>> legal_places(g.rules, g.state, g.legal_moves(), g.rules.piles(g.state))[0][1:]
    ('3', 2, 'fs')
    """
    found = []
    for move in moves:
        where = rules.move_places(state, move)
        pile = piles[where.src]
        if where.card is not None:
            found += [LegalPlace(move, where.src, i, where.dst) for i, (c, _) in enumerate(pile) if c == where.card]
        else:
            found.append(LegalPlace(move, where.src, None if where.n == 0 else len(pile) - where.n, where.dst))
    return found


def legal_json(places: Sequence[LegalPlace], words: Callable[[Any], str] | None = None) -> list[dict[str, Any]]:
    """The legal moves as the browser gets them; with ``words``, each move also in words
    (``words``: the rules' ``describe_move``), for hints and screen readers.

    >>> legal_json([LegalPlace("3f", "3", 2, "fs")])
    [{'move': '3f', 'from': '3', 'index': 2, 'to': 'fs'}]
    >>> legal_json([LegalPlace("3f", "3", 2, "fs")], words=lambda m: "Move A♠ home")[0]["words"]
    'Move A♠ home'
    """
    out = [{"move": str(p.move), "from": p.src, "index": p.position, "to": p.dst} for p in places]
    if words is not None:
        for entry, place in zip(out, places, strict=True):
            entry["words"] = words(place.move)
    return out


AREAS = {
    "stock": "stock",
    "waste": "waste",
    "foundation": "foundations",
    "tableau": "tableau",
    "reserve": "reserve",
    "hand": "hand",
    "cell": "square",
    "draw": "draw pile",
    "area": "square",
    "deck": "deck",
    "books": "books",
}
"""The words written over each area of a table, by pile kind (a game's ``TableSpec.areas``
names its own); a kind not here (a seat's winnings) gets none."""


def _cards(rules: Rules[Any, Any], family: str, pile: SeenPile) -> list[dict[str, Any]]:
    text = rules.card_text
    return [
        {"up": True, "face": card_face(family, c, text(c))} if up and c is not None else {"up": False} for c, up in pile
    ]


def place_json(name: str, where: Place, table: TableSpec) -> dict[str, Any]:
    """Where a pile lies on a game's table, as the browser and the rules page's picture read
    it: its name, label, kind, the words over its area, its place and its fan.

    >>> table = table_spec("klondike")
    >>> place_json("w", table.place("w"), table)["area"]
    'waste'
    """
    return {
        "name": name,
        "label": where.label,
        "kind": where.kind,
        "area": table.areas.get(where.kind, AREAS.get(where.kind, "")),
        "x": where.x,
        "y": where.y,
        "fan": where.fan,
    }


def _pile(name: str, where: Place, fan: str, cards: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    return {**place_json(name, where, table), "fan": fan, "grab": where.grab, "cards": cards}


def solitaire_table(game: Game[Any, Any]) -> dict[str, Any]:
    """The table of a one-player game as the player sees it: piles (each with its
    ``area``, the words over its part of the table, and a ``note`` the rules write on it,
    such as a base rank), the cards the rules show aside (``aside``: true; Devil's
    Square's books), the legal moves (each also in ``words``), status.

    >>> import cardtable
    >>> data = solitaire_table(cardtable.new_game("devils-square", deal=0))
    >>> data["width"], len(data["piles"]), data["legal"][0]["from"], data["piles"][-1]["name"]
    (5.25, 18, 'c1', 'books')
    >>> data["legal"][0]["words"]
    'Move green 2 of keys onto green 1 of axes'
    """
    table = table_spec(game.name)
    rules, state = game.rules, game.state
    notes = rules.pile_notes(state)
    piles: dict[str, SeenPile] = {}
    shown = []
    for row in rules.display(state):
        for name, pile in row:
            piles[name] = [(c, up) for c, up in pile]
            where = table.place(name)
            # A waste dealt to one card at a time shows its top card only.
            fan = "none" if where.fan == "waste" and game.options.get("draw") == 1 else where.fan
            shown.append(
                {**_pile(name, where, fan, _cards(rules, table.cards, piles[name]), table), "note": notes.get(name, "")}
            )
    for name, pile in rules.aside(state):
        where = table.place(name)
        cards = _cards(rules, table.cards, list(pile))
        shown.append({**_pile(name, where, where.fan, cards, table), "note": notes.get(name, ""), "aside": True})
    legal = legal_places(rules, state, game.legal_moves(), piles)
    return {
        "family": "solitaire",
        "width": table.width,
        "cards": table.cards,
        "back": table.back,
        "piles": shown,
        "legal": legal_json(legal, words=lambda move: rules.describe_move(state, move)),
        "status": rules.status(state),
    }


def _seen_cards(game: Game[Any, Any], state: Any) -> dict[str, list[dict[str, Any]]]:
    """Every pile's cards (the table's and those set aside) as a player sees them in ``state``."""
    table = table_spec(game.name)
    rules = game.rules
    piles = [pair for row in rules.display(state) for pair in row] + list(rules.aside(state))
    return {name: _cards(rules, table.cards, [(c, up) for c, up in pile]) for name, pile in piles}


def move_steps(game: Game[Any, Any], before: Any, moves: Sequence[Any]) -> list[dict[str, Any]]:
    """The ``moves`` played from position ``before``, one step a move, for the browser to
    play them out card by card: the move's text, the piles it leaves and reaches and how many
    cards it takes (``from``, ``to``, ``n``, from the rules' ``move_places``; ``n`` 0 for a move
    of the stock as a whole), and every pile it changed as the player sees it after the move
    (``piles``, by name: face-down cards stay ``{"up": false}``).

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0); s = g.state; _ = g.play("d", autoplay=True)
    >>> [(x["move"], x["from"], x["to"], x["n"], sorted(x["piles"])) for x in move_steps(g, s, g.moves)]
    [('d', 'stock', 'w', 0, ['stock', 'w']), ('3f', '3', 'fs', 1, ['3', 'fs'])]
    """
    rules = game.rules
    steps = []
    state = before
    seen = _seen_cards(game, state)
    for move in moves:
        src, dst, n, _ = rules.move_places(state, move)
        state = rules.apply(state, move)
        after = _seen_cards(game, state)
        changed = {name: cards for name, cards in after.items() if seen.get(name) != cards}
        steps.append({"move": str(move), "from": src, "to": dst, "n": n, "piles": changed})
        seen = after
    return steps


def seat_piles(game: MultiplayerGame[Any, Any], seat: int | None) -> dict[str, SeenPile]:
    """The piles of a multi-player table as ``seat`` sees them (the rules' ``view_display``
    of ``game.view(seat)``), by name.

    >>> import cardtable
    >>> several = next(s.name for s in cardtable.games.specs() if not s.one_player)
    >>> g = cardtable.new_game(several, deal=0)
    >>> [sum(c is not None for pile in seat_piles(g, seat).values() for c, _ in pile) for seat in (0, None)]
    [3, 0]
    """
    return {name: pile for row in game.rules.view_display(game.view(seat)) for name, pile in row}


def seat_legal(game: MultiplayerGame[Any, Any], seat: int | None, piles: Piles) -> list[LegalPlace]:
    """The legal moves of ``seat`` on the table it sees (none when another seat is to move).

    >>> import cardtable
    >>> several = next(s.name for s in cardtable.games.specs() if not s.one_player)
    >>> g = cardtable.new_game(several, deal=0)
    >>> len(seat_legal(g, 0, seat_piles(g, 0))) >= len(g.legal_moves()), seat_legal(g, 1, seat_piles(g, 1))
    (True, [])
    """
    if seat is None or game.to_move != seat:
        return []
    return legal_places(game.rules, game.state, game.legal_moves(), piles)


def _caption(where: Place, shown: Sequence[str]) -> str:
    """The words under a pile of a seats table: a seat's name under its hand, what its
    other piles are (its winnings), the deck's name; nothing under the others."""
    if where.seat is not None:
        return shown[where.seat] if where.kind == "hand" else where.kind
    return where.label if where.kind in ("deck", "area") else ""


def seat_table(game: MultiplayerGame[Any, Any], seat: int | None, names: Sequence[str]) -> dict[str, Any]:
    """A multi-player table as ``seat`` may see it, from ``view(seat)`` only; for a
    spectator (``seat`` None), the spectator's view, every hand face down. ``names``
    are the seats' names (the viewer's own is shown as "You").

    >>> import cardtable
    >>> several = next(s.name for s in cardtable.games.specs() if not s.one_player)
    >>> g = cardtable.new_game(several, deal=0)
    >>> mine, watching = seat_table(g, 0, ["Ana", "Ben"]), seat_table(g, None, ["Ana", "Ben"])
    >>> mine["family"], mine["seat"], mine["to_move"], watching["turn"], bool(mine["legal"]), watching["legal"]
    ('seats', 0, 0, 'Ana is to play.', True, [])
    >>> [sum(c["up"] for p in t["piles"] for c in p["cards"]) for t in (mine, watching)]
    [3, 0]
    """
    table = table_spec(game.name)
    rules = game.rules
    view = game.view(seat)
    shown = ["You" if i == seat else n for i, n in enumerate(names)]
    piles: dict[str, SeenPile] = {}
    drawn = []
    for row in rules.view_display(view):
        for name, pile in row:
            piles[name] = pile
            where = table.place(name, seat, game.players)
            drawn.append(
                {
                    **_pile(name, where, where.fan, _cards(rules, table.cards, pile), table),
                    "caption": _caption(where, shown),
                }
            )
    to_move = game.to_move
    if to_move is None:
        turn = "The game is over."
    elif to_move == seat:
        turn = rules.prompt(view, shown)
    else:
        turn = f"{shown[to_move]} is to play."
    return {
        "family": "seats",
        "width": table.width,
        "cards": table.cards,
        "back": table.back,
        "piles": drawn,
        "legal": legal_json(seat_legal(game, seat, piles), words=lambda move: rules.describe_move(game.state, move)),
        "seat": seat,
        "names": list(names),
        "to_move": to_move,
        "turn": turn,
        "lines": rules.seat_lines(view, shown),
        "history": [str(event) for event in game.history(seat)],
        "status": [],
    }


__all__ = [
    "AREAS",
    "LegalPlace",
    "Piles",
    "card_face",
    "legal_json",
    "legal_places",
    "move_steps",
    "offered",
    "seat_legal",
    "seat_piles",
    "seat_table",
    "solitaire_table",
    "table_spec",
]

"""Replays of the finished games of rooms, built by the engine from their stored moves.

When a room's game ends, the room keeps it (:meth:`cardtable.web.rooms.Rooms._finish`:
its game, options, deal number, seats and the text of its moves, under a long random
replay id). A replay is never a stored picture: :func:`replay` deals the game again
from its deal number and plays its moves through the rules, then shows the table after
move ``at`` (0: the deal) from one point of view: a seat's (what that seat saw then:
:func:`~cardtable.web.table_json.seat_table`), a spectator's, or ``all``, every card of
the game face up (the hands, the deck, the covered cards, the winnings: the game is
over, nothing is secret any more). Its moves are told in the game's own words (each
event's ``told``), as that point of view saw them (``all``: as the seat that moved saw
its move).

>>> from cardtable.web.database import Database, FinishedGame
>>> import cardtable, json
>>> g = cardtable.new_game("deserto", deal=7)
>>> while g.to_move is not None: _ = g.play(g.legal_moves()[0])
>>> seats = json.dumps([{"name": "Ana", "kind": "human", "bot": None}, {"name": "Ben", "kind": "human", "bot": None}])
>>> db = Database(":memory:")
>>> moves = json.dumps([str(m) for m in g.moves])
>>> rid = db.put_finished(FinishedGame("r1", "ABC-x", 0, "deserto", "{}", 7, seats, moves, "[1, 2]", True, 1.0))
>>> data = replay(db, rid, view="all", at=2)
>>> data["at"], data["moves"] == len(g.moves), data["log"][0].startswith("Ana put a")
(2, True, True)
"""

from __future__ import annotations

import json
from typing import Any, cast

from ..api import new_game
from ..core.errors import CardtableError
from ..core.inputs import is_decimal
from ..core.multiplayer import MultiplayerGame
from ..games import spec_for
from .database import Database
from .errors import TableError
from .table_json import card_face, seat_table, table_spec

VIEWS = "a seat's number (from 0), 'spectator' or 'all'"
"""The points of view a replay is shown from."""


def _view(view: Any, players: int) -> int | str:
    """A point of view from a request: a seat, ``spectator`` or ``all``; else a ``bad-request``."""
    if view in (None, "", "spectator"):
        return "spectator"
    if view == "all":
        return "all"
    text = str(view)
    if is_decimal(text) and len(text) < 3 and int(text) < players:
        return int(text)
    raise TableError("bad-request", f"no point of view {text[:20]!r}: {VIEWS}")


def revealed_table(game: MultiplayerGame[Any, Any], names: list[str]) -> dict[str, Any]:
    """The table with every card of the game face up: the spectator's table (where each pile
    lies), each pile's cards as the rules' ``display`` of the whole position has them.

    >>> import cardtable
    >>> t = revealed_table(cardtable.new_game("deserto", deal=0), ["Ana", "Ben"])
    >>> all(c["up"] for p in t["piles"] for c in p["cards"]), sum(len(p["cards"]) for p in t["piles"])
    (True, 51)
    """
    table = seat_table(game, None, names)
    family = table_spec(game.name).cards
    text = game.rules.card_text
    full = {name: pile for row in game.rules.display(game.state) for name, pile in row}
    for pile in table["piles"]:
        if pile["name"] in full:
            pile["cards"] = [{"up": True, "face": card_face(family, c, text(c))} for c, _ in full[pile["name"]]]
    return table


def replay(db: Database, replay_id: str, view: Any = None, at: Any = None) -> dict[str, Any]:
    """The replay ``replay_id`` at move ``at`` (0: the deal; None: the end) from ``view`` (see
    :func:`_view`): its game, seats, number of moves, every move in words (``log``), the table
    then (``table``, nothing to play on it) and the result. An unknown id is ``not-found``;
    a view or move number out of range a ``bad-request``."""
    kept = db.finished(replay_id) if isinstance(replay_id, str) and len(replay_id) <= 64 else None
    if kept is None:
        raise TableError("not-found", "no such replay")
    seats: list[dict[str, Any]] = json.loads(kept.seats)
    names = [str(s["name"]) for s in seats]
    moves: list[str] = json.loads(kept.moves)
    shown = _view(view, len(seats))
    if at in (None, ""):
        step = len(moves)
    elif is_decimal(str(at)) and len(str(at)) < 6 and int(str(at)) <= len(moves):
        step = int(str(at))
    else:
        raise TableError("bad-request", f"a move number from 0 to {len(moves)}")
    try:
        game = cast("MultiplayerGame[Any, Any]", new_game(kept.game, deal=kept.deal, **json.loads(kept.options)))
        movers = []
        for text in moves:
            movers.append(game.to_move)
            game.play(game.parse_move(text))
    except CardtableError as err:  # a kept game the rules no longer accept
        raise TableError("not-found", f"this replay cannot be played again: {err}") from None
    outcome = game.outcome
    if isinstance(shown, int) or shown == "spectator":
        seat = shown if isinstance(shown, int) else None
        history = game.history(seat)
        log = [event.told(names) for event in history]
    else:
        histories = {s: game.history(s) for s in sorted({m for m in movers if m is not None})}
        log = [histories[m][i].told(names) if m is not None else "" for i, m in enumerate(movers)]
    result = outcome.result
    ending = None
    if result is not None:
        ending = {
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "winners": list(result.winners),
            "reason": outcome.describe(names, None),
        }
    for _ in range(len(moves) - step):
        game.undo()
    if shown == "all":
        table = revealed_table(game, names)
    else:
        table = seat_table(game, shown if isinstance(shown, int) else None, names)
    table["legal"] = []
    return {
        "id": kept.id,
        "game": kept.game,
        "title": spec_for(kept.game).title,
        "seats": seats,
        "view": shown,
        "at": step,
        "moves": len(moves),
        "log": log,
        "table": table,
        "result": ending,
        "rated": kept.rated,
        "ended": kept.ended,
    }


__all__ = ["VIEWS", "replay", "revealed_table"]

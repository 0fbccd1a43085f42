"""What a move request at a one-player table asks the engine to play: a move in
notation, or cards dropped on a pile, as the browser sends them.

One entry point, :func:`move_text`: the notation to play, or a
:class:`~cardtable.web.errors.TableError` that says what is wrong with the
request (the engine itself judges the move when it is played).

>>> import cardtable
>>> move_text(cardtable.new_game("klondike", deal=0), None, {"from": "3", "index": 2, "to": "fs"})
'3f'
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CardtableError, MoveParseError
from ..core.game import Game
from .errors import TableError
from .positions import PLACES, drop_text, move_places

Piles = dict[str, list[tuple[int, bool]]]


def move_text(game: Game[Any, Any], move: Any, drop: dict[str, Any] | None) -> str:
    """The notation of a requested move: ``move`` as given, or the drop
    ``{"from", "index", "to"}`` (the cards from ``index`` up of pile ``from`` put on
    pile ``to``) translated. Exactly one of them is given.

    >>> import cardtable
    >>> move_text(cardtable.new_game("klondike", deal=0), None, {"from": "2", "index": 0, "to": "5"})
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: a face-down card cannot be moved
    """
    if (move is None) == (drop is None):
        raise TableError("bad-request", "give a move in notation ('move') or a drop ('from', 'index', 'to')")
    if move is not None:
        if not isinstance(move, str) or len(move) > 32:
            raise TableError("unparsable", f"not a {game.name} move: {move!r}")
        return move
    assert drop is not None
    src, index, dst = drop.get("from"), drop.get("index"), drop.get("to")
    if not isinstance(src, str) or not isinstance(dst, str) or isinstance(index, bool) or not isinstance(index, int):
        raise TableError("bad-request", "a drop names 'from' (a pile), 'index' (a card) and 'to' (a pile)")
    names: Piles = {n: p for row in game.rules.display(game.state) for n, p in row}
    if src not in names or dst not in names:
        raise TableError("bad-request", f"no pile {src if src not in names else dst!r} on this table")
    if src == dst:
        raise TableError("illegal", "the cards are already on that pile")
    if not 0 <= index < len(names[src]):
        raise TableError("bad-request", f"pile {src} has no card {index}")
    if not names[src][index][1]:
        raise TableError("illegal", "a face-down card cannot be moved")
    place = PLACES[game.name]
    if place(dst).kind in ("stock", "waste", "reserve", "draw"):
        raise TableError("illegal", f"illegal move: no card may be put on the {place(dst).label}")
    text = drop_text(game, src, index, dst)
    try:
        game.parse_move(text)
    except MoveParseError:
        raise TableError(
            "illegal", f"illegal move: cards do not go from the {place(src).label} to the {place(dst).label}"
        ) from None
    _check_foundation(game, text, dst, names)
    return text


def _check_foundation(game: Game[Any, Any], text: str, dst: str, names: Piles) -> None:
    """A drop on a foundation plays "to its foundation", which the rules choose: refuse
    it when the pile the card was dropped on is not one that takes it (an empty pile
    or one with the same top card as the chosen one is as good)."""
    try:
        move = game.parse_move(text)
    except CardtableError:
        return
    if not game.is_legal(move):
        return  # the engine explains
    real = move_places(game, move)[2]
    if real == dst:
        return
    top = names[dst][-1][0] if names[dst] else None
    real_top = names[real][-1][0] if names[real] else None
    if top == real_top or not names[dst]:
        return
    raise TableError("illegal", f"illegal move: that card goes to {PLACES[game.name](real).label}, not here")


__all__ = ["move_text"]

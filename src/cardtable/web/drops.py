"""What a move request asks the engine to play: a move in notation, or cards dropped
on a pile, as the browser sends them, at a one-player table or a seat of a room.

One entry point, :func:`requested_move`: the move to play (its notation as given,
or the move the drop means), or a :class:`~cardtable.web.errors.TableError` that
says what is wrong with the request. A drop is read on the table the player was
shown: a drop that a legal move sent to the browser matches is that move;
another is the move the rules say it means (``drop_move``), which the engine
then judges when it is played, and explains when it is illegal. Nothing here
reads or writes a move's notation.

>>> import cardtable
>>> str(requested_move(cardtable.new_game("klondike", deal=0), None, {"from": "3", "index": 2, "to": "fs"}))
'3f'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ..core.errors import IllegalMoveError, MoveParseError, NotYourTurnError
from ..core.game import Game
from ..core.multiplayer import MultiplayerGame
from ..core.rules import drop_count
from .errors import TableError
from .table_json import LegalPlace, Piles, legal_places, seat_legal, seat_piles, table_spec


def requested_move(game: Game[Any, Any], move: Any, drop: dict[str, Any] | None, seat: int | None = None) -> Any:
    """The move a request asks for: ``move`` in notation, as given (the engine reads it
    when it plays it), or the move of the drop ``{"from", "index", "to"}`` (the cards from
    ``index`` up of pile ``from`` put on pile ``to``) on the table the player sees (at a
    multi-player table, the one of ``seat``). Exactly one of them is given.

    >>> import cardtable
    >>> requested_move(cardtable.new_game("klondike", deal=0), None, {"from": "2", "index": 0, "to": "5"})
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: Not allowed: a face-down card cannot be moved.
    >>> several = next(s.name for s in cardtable.games.specs() if not s.one_player)
    >>> g = cardtable.new_game(several, deal=0); first = seat_legal(g, 0, seat_piles(g, 0))[0]
    >>> requested_move(g, None, {"from": first.src, "index": first.position, "to": first.dst}, seat=0) == first.move
    True
    """
    if (move is None) == (drop is None):
        raise TableError("bad-request", "give a move in notation ('move') or a drop ('from', 'index', 'to')")
    if move is not None:
        if not isinstance(move, str) or len(move) > 32:
            raise TableError("unparsable", f"not a {game.name} move: {move!r}")
        return move
    assert drop is not None
    table = table_spec(game.name)
    if isinstance(game, MultiplayerGame):
        piles: Piles = seat_piles(game, seat)
        legal = seat_legal(game, seat, piles)
        players = game.players

        def label(name: str) -> str:
            return table.place(name, seat, players).label

    else:
        piles = game.rules.piles(game.state)
        legal = legal_places(game.rules, game.state, game.legal_moves(), piles)

        def label(name: str) -> str:
            return table.place(name).label

    return dropped_move(game, drop, piles, legal, label)


def dropped_move(
    game: Game[Any, Any], drop: dict[str, Any], piles: Piles, legal: Sequence[LegalPlace], label: Callable[[str], str]
) -> Any:
    """The move of a drop on the table ``piles`` a player sees, whose legal moves are
    ``legal``; ``label(name)`` names a pile in a message. A drop of a shape no move has
    (a face-down card, the same pile, a pile nothing goes to...) is ``illegal``, in the
    rules' words; a drop from a seat that is not to move, ``not-your-turn``.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=0); piles = g.rules.piles(g.state)
    >>> dropped_move(g, {"from": "3", "index": 2, "to": "w"}, piles, [], str)
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: Not allowed: no card may be put on the waste.
    """
    src, index, dst = drop.get("from"), drop.get("index"), drop.get("to")
    if not isinstance(src, str) or not isinstance(dst, str) or isinstance(index, bool) or not isinstance(index, int):
        raise TableError("bad-request", "a drop names 'from' (a pile), 'index' (a card) and 'to' (a pile)")
    for name in (src, dst):
        if name not in piles:
            raise TableError("bad-request", f"no pile {name!r} on this table")
    if not 0 <= index < len(piles[src]):
        raise TableError("bad-request", f"pile {src} has no card {index}")
    for place in legal:
        if (place.src, place.position, place.dst) == (src, index, dst):
            return place.move
    try:
        return game.rules.drop_move(game.state, src, index, dst)
    except NotYourTurnError as err:
        raise TableError("not-your-turn", str(err)) from None
    except (MoveParseError, IllegalMoveError) as err:
        raise TableError("illegal", f"Not allowed: {game.rules.in_words(str(err))}.") from None
    except NotImplementedError:
        pass
    # A game that does not say which move a drop makes: only its legal moves are drops.
    try:
        drop_count(cast("Any", piles), src, index, dst)
    except MoveParseError as err:
        raise TableError("illegal", f"Not allowed: {game.rules.in_words(str(err))}.") from None
    raise TableError("illegal", f"Not allowed: cards do not go from the {label(src)} to the {label(dst)}.")


__all__ = ["dropped_move", "requested_move"]

"""The library's entry points: make a game, load a save file.

>>> import cardtable
>>> g = cardtable.new_game("klondike", deal=42)
>>> g2 = cardtable.load(g.save())
>>> g2.state == g.state
True
"""

from __future__ import annotations

import json
from typing import Any, Literal, overload

from .core.errors import CardtableError, SaveFileError
from .core.game import SAVE_FORMAT, SAVE_VERSION, Game
from .core.multiplayer import MultiplayerGame, MultiplayerRules
from .core.shuffle import check_deal
from .games import names, rules_for

GAMES: tuple[str, ...] = names()
"""The names of the games cardtable plays."""


@overload
def new_game(
    name: Literal["deserto"], deal: int | None = None, layout: str | None = None, **options: Any
) -> MultiplayerGame[Any, Any]: ...


@overload
def new_game(name: str, deal: int | None = None, layout: str | None = None, **options: Any) -> Game[Any, Any]: ...


def new_game(name: str, deal: int | None = None, layout: str | None = None, **options: Any) -> Game[Any, Any]:
    """A new game: from a deal number, or from a full position given as text.

    ``options`` are the game's options (see ``cardtable games`` or each game's
    docs). Exactly one of ``deal`` and ``layout`` must be given.

    >>> new_game("klondike", deal=5, draw=1).options["draw"]
    1
    """
    rules = rules_for(name, **options)
    if (deal is None) == (layout is None):
        raise CardtableError("give exactly one of deal=N or layout=TEXT")
    if layout is not None:
        if not isinstance(layout, str):
            raise CardtableError("layout must be text")
        start = rules.from_text(layout)
    else:
        deal = check_deal(deal)
        start = rules.deal(deal)
    if isinstance(rules, MultiplayerRules):
        return MultiplayerGame(rules, start, deal=deal, layout=layout)
    return Game(rules, start, deal=deal, layout=layout)


def load(text: str) -> Game[Any, Any]:
    """A game from save-file text (:meth:`Game.save`), replaying and checking every move.

    Raises :class:`~cardtable.core.errors.SaveFileError` for a file that is
    not a cardtable save, or whose moves do not replay.

    >>> load('{"format": "nope"}')
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: not a cardtable save file (format is 'nope')
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as err:
        raise SaveFileError(f"save file is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise SaveFileError("save file is not a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"not a cardtable save file (format is {data.get('format')!r})")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(f"save file version {data.get('version')!r} is not {SAVE_VERSION}")
    for key, kind in (("game", str), ("options", dict), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise SaveFileError(f"save file field {key!r} is missing or of the wrong type")
    clash = sorted(set(data["options"]) & {"name", "deal", "layout"})
    if clash:  # new_game's own parameters: no game has an option of that name
        raise SaveFileError(f"save file field 'options' holds {', '.join(clash)}, which are not game options")
    auto = data.get("auto", [])
    if not isinstance(auto, list) or not all(isinstance(i, int) for i in auto):
        raise SaveFileError("save file field 'auto' must be a list of move indices")
    try:
        game = new_game(data["game"], deal=data.get("deal"), layout=data.get("layout"), **data["options"])
    except SaveFileError:
        raise
    except CardtableError as err:
        raise SaveFileError(f"save file does not describe a game: {err}") from None
    if data.get("rules_version") != game.rules.RULES_VERSION:
        raise SaveFileError(
            f"save file was written for rules version {data.get('rules_version')!r} of {game.name}; "
            f"this is version {game.rules.RULES_VERSION}"
        )
    game._replay(data["moves"], set(auto))
    return game

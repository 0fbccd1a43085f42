"""The library's entry points: make a game, load a save file.

>>> import cardtable
>>> g = cardtable.new_game("klondike", deal=42)
>>> g2 = cardtable.load(g.save())
>>> g2.state == g.state
True
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any, Literal, overload

from .core.errors import CardtableError, LayoutError, SaveFileError
from .core.game import MAX_SAVE_MOVES, MAX_SAVE_SIZE, SAVE_FORMAT, SAVE_VERSION, Game
from .core.inputs import quote
from .core.layout import MAX_LAYOUT_SIZE
from .core.multiplayer import MultiplayerGame, MultiplayerRules
from .core.rules import Rules
from .core.shuffle import check_deal
from .games import names, rules_for

GAMES: tuple[str, ...] = names()
"""The names of the games cardtable plays."""


@overload
def new_game(
    name: Literal["deserto"], /, deal: int | None = None, layout: str | None = None, **options: Any
) -> MultiplayerGame[Any, Any]: ...


@overload
def new_game(name: str, /, deal: int | None = None, layout: str | None = None, **options: Any) -> Game[Any, Any]: ...


def new_game(name: str, /, deal: int | None = None, layout: str | None = None, **options: Any) -> Game[Any, Any]:
    """A new game: from a deal number, or from a full position given as text.

    ``options`` are the game's options (see ``cardtable games`` or each game's
    docs); any name the game does not declare (``self``, ``name``...) raises
    :class:`~cardtable.core.errors.OptionError`. Exactly one of ``deal`` (an int
    from 0 to 2**63 - 1, else :class:`~cardtable.core.errors.DealNumberError`)
    and ``layout`` (text, see each game's "Position text") must be given.

    >>> new_game("klondike", deal=5, draw=1).options["draw"]
    1
    >>> new_game("klondike", deal=5, self=1)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: klondike has no option 'self' (its options: draw, redeals, ...)
    """
    return _start(rules_for(name, **options), deal, layout)


def _start(rules: Rules[Any, Any], deal: Any, layout: Any) -> Game[Any, Any]:
    """The game of ``rules`` from deal number ``deal`` or position text ``layout`` (one of them)."""
    if (deal is None) == (layout is None):
        raise CardtableError("give exactly one of deal=N or layout=TEXT")
    if layout is not None:
        if not isinstance(layout, str):
            raise LayoutError(f"a layout is text (a str), not {type(layout).__name__}")
        if len(layout) > MAX_LAYOUT_SIZE:
            raise LayoutError(f"a layout is at most {MAX_LAYOUT_SIZE} characters, not {len(layout)}")
        start = rules.from_text(layout)
    else:
        deal = check_deal(deal)
        start = rules.deal(deal)
    if isinstance(rules, MultiplayerRules):
        return MultiplayerGame(rules, start, deal=deal, layout=layout)
    return Game(rules, start, deal=deal, layout=layout)


def load(text: str) -> Game[Any, Any]:
    """A game from save-file text (:meth:`Game.save`), replaying and checking every move.

    Raises :class:`~cardtable.core.errors.SaveFileError` for a text that is not a
    cardtable save (or longer than :data:`~cardtable.core.game.MAX_SAVE_SIZE`
    characters, or of more than :data:`~cardtable.core.game.MAX_SAVE_MOVES` moves), a
    save of a game cardtable cannot make (an unknown game or option, a bad deal number
    or layout), or whose moves do not replay as they were played
    (see :meth:`Game._replay <cardtable.core.game.Game>` for the automatic moves);
    ``TypeError`` for anything but text.

    >>> load('{"format": "nope"}')
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: not a cardtable save file (format is 'nope')
    >>> load("[" * 1000)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.SaveFileError: save file is not JSON: it nests too deeply
    """
    if not isinstance(text, str):
        raise TypeError(f"a save file is text (a str), not {type(text).__name__}")
    if len(text) > MAX_SAVE_SIZE:
        raise SaveFileError(f"a save file is at most {MAX_SAVE_SIZE} characters, not {len(text)}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise SaveFileError("save file is not JSON: it nests too deeply") from None
    except json.JSONDecodeError as err:
        raise SaveFileError(f"save file is not JSON: {err}") from None
    except ValueError:  # a number of more digits than Python reads
        raise SaveFileError("save file holds a number too long to read") from None
    if not isinstance(data, dict):
        raise SaveFileError("save file is not a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"not a cardtable save file (format is {quote(data.get('format'))})")
    if not _same_number(data.get("version"), SAVE_VERSION):
        raise SaveFileError(f"save file version {quote(data.get('version'))} is not {SAVE_VERSION}")
    for key, kind in (("game", str), ("options", dict), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise SaveFileError(f"save file field {key!r} is missing or of the wrong type")
    count = len(data["moves"])
    if count > MAX_SAVE_MOVES:
        raise SaveFileError(f"a save file holds at most {MAX_SAVE_MOVES:,} moves, not {count:,}")
    auto = _indices(data.get("auto", []), "auto", count)
    no_autoplay = _indices(data.get("no_autoplay", []), "no_autoplay", count)
    try:
        game = _start(rules_for(data["game"], **data["options"]), data.get("deal"), data.get("layout"))
    except CardtableError as err:
        raise SaveFileError(f"save file does not describe a game: {err}") from None
    if not _same_number(data.get("rules_version"), game.rules.RULES_VERSION):
        raise SaveFileError(
            f"save file was written for rules version {quote(data.get('rules_version'))} of {game.name}; "
            f"this is version {game.rules.RULES_VERSION}"
        )
    game._replay(data["moves"], auto, no_autoplay)
    return game


def _same_number(value: object, number: int) -> bool:
    """Whether a save file's ``value`` is the whole number ``number`` itself (``true`` and
    ``1.0`` equal 1 in Python, but they are not the version a save file writes).

    >>> _same_number(1, 1), _same_number(True, 1), _same_number(1.0, 1)
    (True, False, False)
    """
    return type(value) is int and value == number


def _indices(value: Any, field: str, count: int) -> set[int]:
    """A save's list of move indices (``auto``, ``no_autoplay``): distinct ints, in order, below ``count``."""
    if not isinstance(value, list) or not all(type(i) is int and 0 <= i < count for i in value):
        raise SaveFileError(f"save file field {field!r} must be a list of move indices (0 to {count - 1})")
    if any(a >= b for a, b in pairwise(value)):
        raise SaveFileError(f"save file field {field!r} must list move indices in increasing order, each once")
    return set(value)

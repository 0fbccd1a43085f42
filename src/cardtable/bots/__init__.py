"""Computer players for the multi-player games: ``make(name, seed=S, **budget)``.

A bot's ``choose(game, seat)`` returns a legal move for ``seat`` (the seat
to move), decided only from what that seat may know: the bot is handed a
:class:`Seat` (the seat's view, its own legal moves, samples of the game
consistent with its knowledge), never the game. See docs/bots.md.

Which built-in bots play a game is the game's to say: its declaration lists them
(:attr:`cardtable.core.spec.GameSpec.bots`), and a bot asked to play a game that
does not list it refuses with an :class:`~cardtable.core.errors.OptionError`
(``random`` plays anything; ``greedy`` plays by Deserto's tactics; ``ismcts``
models the other seats by the greedy bot where the game lists it, else at random).
A bot registered from outside (:func:`register`) plays whatever game it is given.

>>> import cardtable
>>> from cardtable import bots
>>> bots.BOTS
('random', 'greedy', 'ismcts')
>>> g = cardtable.new_game("deserto", deal=0)
>>> str(bots.make("greedy").choose(g, 0))
'G1'
"""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError
from .ismcts import IsmctsBot
from .players import Bot, GreedyBot, RandomBot
from .seat import Seat

_CLASSES: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, GreedyBot, IsmctsBot)}

BOTS: tuple[str, ...] = tuple(_CLASSES)
"""The names of the built-in bots, for :func:`make`."""


def register(cls: type[Bot]) -> type[Bot]:
    """Make a :class:`Bot` subclass known to :func:`make` (and so to tournaments) by its
    ``name``; returns the class, so it can decorate it. A name already taken by another
    class is an error. Tournament workers are forked: register at import time.

    >>> register(GreedyBot) is GreedyBot  # the same class again: nothing changes
    True
    >>> register(type("Other", (Bot,), {"name": "greedy"}))
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: a bot named 'greedy' is already registered
    """
    key = cls.name.strip().lower()
    if _CLASSES.get(key, cls) is not cls:
        raise OptionError(f"a bot named {cls.name!r} is already registered")
    _CLASSES[key] = cls
    return cls


def budget_keywords(name: str) -> tuple[str, ...]:
    """The budget keywords a bot takes (none for ``random`` and ``greedy``).

    >>> budget_keywords("ismcts"), budget_keywords("greedy")
    (('iterations', 'seconds'), ())
    """
    return _bot_class(name).BUDGET


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot by name (one of :data:`BOTS`), seeded; ``budget`` keywords as the bot takes them
    (``ismcts``: ``iterations=``, ``seconds=`` per move). Whether it plays a game:
    :meth:`Bot.check_game` (its :meth:`~Bot.choose` asks too).

    >>> make("ismcts", seed=1, iterations=20).iterations
    20
    >>> make("greedy", iterations=20)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: bot 'greedy' takes no budget keyword 'iterations' (it takes none)
    >>> make("random").check_game("klondike")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: the random bot does not play Klondike (draw three) (its bots: none)
    """
    cls = _bot_class(name)
    for key in budget:
        if key not in cls.BUDGET:
            takes = ", ".join(cls.BUDGET) or "none"
            raise OptionError(f"bot {cls.name!r} takes no budget keyword {key!r} (it takes {takes})")
    return cls(seed, **budget)


def _bot_class(name: str) -> type[Bot]:
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _CLASSES:
        raise OptionError(f"unknown bot {name!r} (bots: {', '.join(_CLASSES)})")
    return _CLASSES[key]


__all__ = ["BOTS", "Bot", "GreedyBot", "IsmctsBot", "RandomBot", "Seat", "budget_keywords", "make", "register"]

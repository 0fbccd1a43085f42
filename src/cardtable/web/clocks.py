"""The paces a room may be played at: how long a person has for a move.

A room chooses its pace when it is made (``POST /api/rooms`` ``"pace"``):
``casual`` has no clock; the others give each move a limit, from a quick
game (``30s``, ``2m``) to correspondence (``12h``, ``1d``). The server
enforces it: when a person's time runs out, a bot (:func:`stand_in`) plays
that turn for them and goes on playing their seat until they come back.

>>> PACES["2m"], limit_of("casual", PACES)
(120.0, None)
>>> describe(43200.0)
'12 h a move'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..core.spec import GameSpec
from .errors import TableError

PACES: Mapping[str, float | None] = MappingProxyType(
    {"casual": None, "30s": 30.0, "2m": 120.0, "12h": 12 * 3600.0, "1d": 24 * 3600.0}
)
"""The paces, each with the seconds a person has for a move (None: no clock)."""

DEFAULT_PACE = "casual"
"""The pace of a room made without one."""

STAND_IN = "greedy"
"""The bot that plays for a person whose time ran out (when the game declares it; else its first bot)."""


def limit_of(pace: Any, paces: Mapping[str, float | None]) -> float | None:
    """The seconds a move has at ``pace`` (None: no clock); an unknown pace is a ``bad-request``.

    >>> limit_of("1d", PACES)
    86400.0
    >>> limit_of("fast", PACES)
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: no pace 'fast' (paces: casual, 30s, 2m, 12h, 1d)
    """
    if not isinstance(pace, str) or pace not in paces:
        raise TableError("bad-request", f"no pace {pace!r} (paces: {', '.join(paces)})")
    return paces[pace]


def stand_in(spec: GameSpec) -> str:
    """The bot that plays a turn for a person out of time, in a game of ``spec``.

    >>> from cardtable.games import spec_for
    >>> stand_in(spec_for("deserto"))
    'greedy'
    """
    return STAND_IN if STAND_IN in spec.bots else spec.bots[0]


def describe(limit: float | None) -> str:
    """A move's limit in words.

    >>> describe(None), describe(30.0), describe(120.0), describe(86400.0)
    ('no clock', '30 s a move', '2 min a move', '1 day a move')
    """
    if limit is None:
        return "no clock"
    if limit >= 86400 and limit % 86400 == 0:
        days = int(limit // 86400)
        return f"{days} day{'s' if days > 1 else ''} a move"
    if limit >= 3600 and limit % 3600 == 0:
        return f"{int(limit // 3600)} h a move"
    if limit >= 60 and limit % 60 == 0:
        return f"{int(limit // 60)} min a move"
    return f"{limit:g} s a move"


__all__ = ["DEFAULT_PACE", "PACES", "STAND_IN", "describe", "limit_of", "stand_in"]

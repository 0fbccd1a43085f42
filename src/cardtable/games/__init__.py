"""The games: one module a game, each with a :class:`~cardtable.core.rules.Rules` subclass
and the :class:`~cardtable.core.spec.GameSpec` that tells every layer about it.

The one list of games is :func:`specs`; every layer's registry (the web's
catalogue, the level keys, the research environments, the solver's spaces...) is
built from it. :func:`register` adds a game defined elsewhere (a test's toy game, or
an outside user's).

>>> names()[:2]
('klondike', 'desturado')
>>> rules_for("klondike").name
'klondike'
"""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError, UnknownGameError
from ..core.inputs import quote
from ..core.rules import Rules
from ..core.spec import GameSpec
from . import demonthief, deserto, desturado, devils_square, klondike

_SPECS: list[GameSpec] = [
    klondike.GAME,
    desturado.GAME,
    demonthief.GAME,
    demonthief.DEMONS_AND_THIEVES,
    devils_square.GAME,
    deserto.GAME,
]


def specs() -> tuple[GameSpec, ...]:
    """The one list of games, in the order they are shown.

    >>> [s.name for s in specs()][-1]
    'deserto'
    """
    return tuple(_SPECS)


def names() -> tuple[str, ...]:
    """The names of the games, in the order of :func:`specs`.

    >>> "devils-square" in names()
    True
    """
    return tuple(s.name for s in _SPECS)


def spec_for(name: str) -> GameSpec:
    """The declaration of a game, by name (any case, spaces around ignored).

    >>> spec_for(" Klondike ").name
    'klondike'
    >>> spec_for("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.core.errors.UnknownGameError: unknown game 'chess' (games: klondike, desturado, ...)
    """
    if not isinstance(name, str):
        raise TypeError(f"a game's name is text (a str), not {type(name).__name__}")
    key = name.strip().lower()
    for spec in _SPECS:
        if spec.name == key:
            return spec
    raise UnknownGameError(f"unknown game {quote(name)} (games: {', '.join(names())})")


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the list (last); returns it. A name already taken by another
    declaration is an error; the same declaration again changes nothing.

    >>> register(spec_for("klondike")) is spec_for("klondike")
    True
    """
    for known in _SPECS:
        if known.name == spec.name:
            if known is not spec:
                raise OptionError(f"a game named {spec.name!r} is already registered")
            return spec
    _SPECS.append(spec)
    return spec


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (for tests).

    >>> unregister("no-such-game")
    """
    _SPECS[:] = [s for s in _SPECS if s.name != name]


def rules_class(name: str) -> type[Rules[Any, Any]]:
    """The rules class of a game, by name.

    >>> rules_class("klondike").title
    'Klondike (draw three)'
    """
    return spec_for(name).rules


def rules_for(name: str, /, **options: Any) -> Rules[Any, Any]:
    """The rules of a game with the given options (checked: any name the game does not
    declare, even ``name``, raises :class:`~cardtable.core.errors.OptionError`).

    >>> rules_for("klondike", draw=1).options["draw"]
    1
    """
    return rules_class(name)(**options)


__all__ = ["names", "register", "rules_class", "rules_for", "spec_for", "specs", "unregister"]

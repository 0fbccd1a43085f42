"""The games: one module a game, each defining a :class:`~cardtable.core.rules.Rules` subclass.

>>> sorted(GAME_CLASSES)[:1]
['demons-and-thieves']
>>> rules_for("klondike").name
'klondike'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core.errors import UnknownGameError
from ..core.rules import Rules

# name -> "module:Class"; modules are imported on first use.
GAME_CLASSES: dict[str, str] = {
    "klondike": "klondike:Klondike",
    "desturado": "desturado:Desturado",
    "demonthief": "demonthief:Demonthief",
    "demons-and-thieves": "demonthief:DemonsAndThieves",
    "devils-square": "devils_square:DevilsSquare",
    "deserto": "deserto:Deserto",
}


def rules_class(name: str) -> type[Rules[Any, Any]]:
    """The rules class of a game, by name.

    >>> rules_class("klondike").title
    'Klondike (draw three)'
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in GAME_CLASSES:
        raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(GAME_CLASSES)})")
    module, cls = GAME_CLASSES[key].split(":")
    found: type[Rules[Any, Any]] = getattr(import_module(f"{__name__}.{module}"), cls)
    return found


def rules_for(name: str, **options: Any) -> Rules[Any, Any]:
    """The rules of a game with the given options (checked).

    >>> rules_for("klondike", draw=1).options["draw"]
    1
    """
    return rules_class(name)(**options)

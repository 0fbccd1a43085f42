"""How good a position looks to a player who does not search: the *appeal* the
reference player (:mod:`cardtable.levels.reference`) and the heuristic hint use to
choose among the moves they may play.

An appeal is a number, higher is better, read off the position alone (no moves
are tried). The reference player plays, among its candidate moves, the one whose
resulting position has the highest appeal, the solver's move order breaking ties.
A game without its own appeal gets :func:`neutral`, so the solver's order alone
decides.

>>> from cardtable.games import rules_for
>>> r = rules_for("klondike")
>>> appeal_for(r)(r.deal(0))
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.rules import Rules
from ..games.demonthief import Demonthief
from ..games.desturado import Desturado
from .appeal_demonthief import demonthief_appeal
from .appeal_desturado import desturado_appeal

Appeal = Callable[[Any], float]


def neutral(state: Any) -> float:
    """The appeal of a game without its own: every position alike.

    >>> neutral(None)
    0.0
    """
    return 0.0


def appeal_for(rules: Rules[Any, Any]) -> Appeal:
    """The appeal function of a game's rules (:func:`neutral` when it has none).

    >>> from cardtable.games import rules_for
    >>> appeal_for(rules_for("devils-square")) is neutral
    True
    """
    if isinstance(rules, Demonthief):  # and Demons and Thieves, its subclass
        return demonthief_appeal
    if isinstance(rules, Desturado):
        return desturado_appeal
    return neutral

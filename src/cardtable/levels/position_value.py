"""How good a position looks to a player who does not search: the *appeal* the
reference player (:mod:`cardtable.levels.reference`) and the heuristic hint use to
choose among the moves they may play.

An appeal is a number, higher is better, read off the position alone (no moves
are tried). The reference player plays, among its candidate moves, the one whose
resulting position has the highest appeal, the solver's move order breaking ties.
A game names its own appeal in its declaration
(:attr:`~cardtable.core.spec.GameSpec.appeal`: :mod:`.position_value_demonthief`,
:mod:`.position_value_desturado`); a game without one gets :func:`neutral`, so the
solver's order alone decides.

>>> from cardtable.games import rules_for
>>> r = rules_for("klondike")
>>> appeal_for(r)(r.deal(0))
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.rules import Rules
from ..core.spec import resolve
from ..games import spec_for

Appeal = Callable[[Any], float]


def neutral(state: Any) -> float:
    """The appeal of a game without its own: every position alike.

    >>> neutral(None)
    0.0
    """
    return 0.0


def appeal_for(rules: Rules[Any, Any]) -> Appeal:
    """The appeal function of a game's rules: the one its declaration names
    (:attr:`~cardtable.core.spec.GameSpec.appeal`), else :func:`neutral`.

    >>> from cardtable.games import rules_for
    >>> appeal_for(rules_for("devils-square")) is neutral, appeal_for(rules_for("desturado")).__name__
    (True, 'desturado_appeal')
    """
    path = spec_for(rules.name).appeal
    if path is None:
        return neutral
    appeal: Appeal = resolve(path)
    return appeal

"""The appeal of a Desturado position (:mod:`cardtable.solve.appeal`).

>>> from cardtable.games import rules_for
>>> desturado_appeal(rules_for("desturado").deal(0))
0.0
"""

from __future__ import annotations

from ..games.desturado import DesturadoState


def desturado_appeal(state: DesturadoState) -> float:
    """How good the position looks to a player who does not search (higher is better).

    >>> from cardtable.games import rules_for
    >>> desturado_appeal(rules_for("desturado").deal(1))
    0.0
    """
    return 0.0

"""The appeal of a Demonthief position (:mod:`cardtable.solve.appeal`).

>>> from cardtable.games import rules_for
>>> demonthief_appeal(rules_for("demonthief").deal(0))
0.0
"""

from __future__ import annotations

from ..games.demonthief import DemonthiefState


def demonthief_appeal(state: DemonthiefState) -> float:
    """How good the position looks to a player who does not search (higher is better).

    >>> from cardtable.games import rules_for
    >>> demonthief_appeal(rules_for("demonthief").deal(1))
    0.0
    """
    return 0.0

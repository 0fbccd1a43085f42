"""A deal's grading measurements: how much the solver searches to win it (the effort),
whether the eager player's search and the reference player win it (tricky), and how
many noisy games of the reference player win it (the ease). See :mod:`cardtable.levels`.

>>> from cardtable.games import rules_for
>>> measure(rules_for("devils-square"), 1).solvable
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.rules import Rules
from ..solve.search import Budget, search
from ..solve.spaces import EagerSpace, equivalent_start, space_for
from .reference import noisy_wins, obvious_player_wins

GRADE_NODES = 100_000
"""The most positions either grading search may explore; a deal beyond it is not graded."""


def is_tricky(verdict: str, eager_verdict: str | None, obvious: bool | None) -> bool:
    """Whether a deal with these measurements is tricky (module docstring): the full
    search won it, the eager search did not (``"unsolvable"``: proved no eager line
    wins; ``"unknown"``: none found within the budget), and the reference player's game
    (``obvious``) lost. ``obvious`` None (not played) is not tricky.

    >>> is_tricky("solved", "unsolvable", False), is_tricky("solved", "unknown", False)
    (True, True)
    >>> is_tricky("solved", "unknown", True), is_tricky("solved", "solved", None), is_tricky("unknown", None, None)
    (False, False, False)
    """
    return needs_obvious(verdict, eager_verdict) and obvious is False


def needs_obvious(verdict: str, eager_verdict: str | None) -> bool:
    """Whether trickiness turns on the reference player's game: the full search won and
    the eager search did not.

    >>> needs_obvious("solved", "unknown"), needs_obvious("solved", "solved"), needs_obvious("unknown", None)
    (True, False, False)
    """
    return verdict == "solved" and eager_verdict in ("unsolvable", "unknown")


@dataclass(frozen=True)
class Measure:
    """A deal's raw grading measurements, independent of any scale: the full search's
    verdict and positions explored (``effort``), the eager search's (``eager_verdict``
    None: not run, as the deal is not solvable within the budget), the noisy games
    won (``ease`` None: not played, as the deal is not solvable or is tricky), and
    whether the reference player's own game won (``obvious`` None: not played, as the
    eager search won).

    >>> m = Measure("solved", 1141, "unsolvable", 207, obvious=False)
    >>> m.solvable, m.tricky
    (True, True)
    """

    verdict: str
    effort: int
    eager_verdict: str | None = None
    eager_effort: int = 0
    ease: int | None = None
    obvious: bool | None = None

    @property
    def solvable(self) -> bool:
        """Whether the full search won the deal.

        >>> Measure("unknown", 100_000).solvable
        False
        """
        return self.verdict == "solved"

    @property
    def tricky(self) -> bool:
        """Whether the deal is tricky (:func:`is_tricky`).

        >>> Measure("solved", 90, "unknown", 100_000, obvious=True).tricky
        False
        """
        return is_tricky(self.verdict, self.eager_verdict, self.obvious)


def measure(
    rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES, noisy: bool = True, within: int | None = None
) -> Measure:
    """The raw measurements of a deal (see the module docstring): the full search,
    then, if it won, the eager search, then, if that did not win, the reference
    player's game, then, if the deal is not tricky, the noisy games (``noisy`` False:
    not played). ``within``: the full search stops after that many
    positions, and a deal it has not won by then measures as unknown.

    >>> from cardtable.games import rules_for
    >>> measure(rules_for("klondike"), 7)
    Measure(verdict='solved', effort=1141, eager_verdict='unsolvable', eager_effort=207, ease=None, obvious=False)
    """
    # Graded under the equivalent rules the search space offers (Klondike with more redeals
    # than a deal's stock holds cards is unlimited Klondike); they deal the same start.
    rules, start = equivalent_start(rules, rules.deal(deal))
    full = search(space_for(rules), start, Budget(nodes=nodes if within is None else min(within, nodes)))
    if full.verdict != "solved":
        return Measure(full.verdict, full.nodes)
    eager = search(EagerSpace(rules), start, Budget(nodes=nodes))
    obvious = obvious_player_wins(rules, deal) if needs_obvious(full.verdict, eager.verdict) else None
    m = Measure(full.verdict, full.nodes, eager.verdict, eager.nodes, obvious=obvious)
    return m if m.tricky or not noisy else replace(m, ease=noisy_wins(rules, deal))

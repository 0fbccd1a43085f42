"""Deal levels: solvable deals graded by measured difficulty.

Every level but ``random`` deals only deals the solver has proved solvable.
The grade comes from two solver measurements:

- **effort**: how many positions the solver explores before it finds a win,
  searching in its human-like move order (safe and obvious moves first, see
  :mod:`cardtable.solve.spaces`). A deal where the obvious moves win needs
  little search; one where they keep leading astray needs a lot.
- **tricky**: the deal is winnable, but not by an *eager* player, one who,
  whenever a move that makes immediate progress is available (a card to a
  foundation or to the hand, a face-down or reserve card turned up, a book
  made, a card dealt), always makes such a move. ``klondike.md`` describes the
  Java program's tricky deals this way: winnable only by declining an available
  play at some point (holding back a 4 of clubs from the foundation so that a 3
  of hearts drawn later can go under it). It is decided by a second search in
  which the eager rule restricts every position; the deal is tricky when that
  search is complete and finds no win.

Levels: ``tricky`` (solvable, eager search proved unsolvable); otherwise by
effort: ``easy`` (at most the game's first threshold), ``normal`` (up to the
second), ``hard`` (above it). The thresholds per game and mode are in
:data:`THRESHOLDS`, set from the efforts of random solvable deals so that the
three levels hold roughly equal shares of them. They are provisional: measured
on 10 to 20 random solvable deals per game and mode (see ``docs/levels.md``),
to be recalibrated on a few hundred.

:func:`deal_for_level` walks a deterministic sequence of deal numbers drawn
from the seed (SplitMix64) and returns the first one of the level, so a
level's deals are reproducible.

>>> deal_for_level("desturado", "easy", seed=1) == deal_for_level("desturado", "easy", seed=1)
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError
from ..core.multiplayer import MultiplayerRules
from ..core.progress import is_progress
from ..core.rules import Rules
from ..core.shuffle import SplitMix64
from ..games import rules_for
from .search import Budget, depth_first
from .spaces import space_for

LEVELS = ("random", "easy", "normal", "hard", "tricky")

# Effort thresholds (positions explored to find a win): easy <= first < normal <= second < hard.
# Keys: game name and the option that changes the game's difficulty most (Klondike's draw,
# Desturado's mode). Provisional: measured on 10 to 20 random deals each (see docs/levels.md).
THRESHOLDS: dict[tuple[str, Any], tuple[int, int]] = {
    ("klondike", 3): (150, 3_000),
    ("klondike", 1): (120, 1_500),
    ("desturado", "easy"): (60, 2_000),
    ("desturado", "medium"): (300, 10_000),
    ("desturado", "hard"): (2_000, 40_000),
    ("demonthief", None): (2_000, 30_000),
    ("demons-and-thieves", None): (1_500, 15_000),
    ("devils-square", None): (300, 3_000),
}

GRADE_NODES = 300_000
"""The most positions either grading search may explore; a deal beyond it is not graded."""


@dataclass(frozen=True)
class Grade:
    """A deal's measurements and level (``level`` None: not solvable within the budget).

    >>> Grade(solvable=True, effort=10, tricky=False, level="easy").level
    'easy'
    """

    solvable: bool
    effort: int
    tricky: bool
    level: str | None


class EagerSpace:
    """A search space in which a move making immediate progress, when there is one,
    must be taken (the eager player of the module docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> [str(m[0]) for m, _ in EagerSpace(r).children(r.deal(0))]
    ['3f']
    """

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self.inner = space_for(rules)

    def key(self, state: Any) -> Hashable:
        """The inner space's key.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); EagerSpace(r).key(r.deal(0)) == r.deal(0)
        True
        """
        key: Hashable = self.inner.key(state)
        return key

    def is_won(self, state: Any) -> bool:
        """Whether the position is won.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); EagerSpace(r).is_won(r.deal(0))
        False
        """
        won: bool = self.inner.is_won(state)
        return won

    def children(self, state: Any) -> Iterator[tuple[Any, Any]]:
        """The progress-making single moves if there are any, else every edge.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado")
        >>> len(list(EagerSpace(r).children(r.deal(0)))) <= len(r.legal_moves(r.deal(0)))
        True
        """
        progress = self.rules.progress
        here = progress(state)
        edges = list(self.inner.children(state))
        eager = [(moves, after) for moves, after in edges if len(moves) == 1 and is_progress(progress(after), here)]
        return iter(eager or edges)


def _threshold(rules: Rules[Any, Any]) -> tuple[int, int]:
    name = rules.name
    for option in ("draw", "mode"):
        if option in rules.options:
            return THRESHOLDS[(name, rules.options[option])]
    return THRESHOLDS[(name, None)]


def grade(rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES) -> Grade:
    """Measure a deal and give its level (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> g = grade(rules_for("devils-square"), 1)
    >>> g.solvable, g.level
    (False, None)
    """
    start = rules.deal(deal)
    full = depth_first(space_for(rules), start, Budget(nodes=nodes))
    if full.verdict != "solved":
        return Grade(False, full.nodes, False, None)
    tricky = depth_first(EagerSpace(rules), start, Budget(nodes=nodes)).verdict == "unsolvable"
    return Grade(True, full.nodes, tricky, _level(rules, full.nodes, tricky))


def _level(rules: Rules[Any, Any], effort: int, tricky: bool) -> str:
    easy, normal = _threshold(rules)
    if tricky:
        return "tricky"
    return "easy" if effort <= easy else "normal" if effort <= normal else "hard"


def is_level(rules: Rules[Any, Any], deal: int, level: str) -> bool:
    """Whether a deal grades at ``level``: :func:`grade`, but stopping the solver as
    soon as the answer is known (an easy deal must be won within the easy threshold,
    so a longer search need not finish).

    >>> from cardtable.games import rules_for
    >>> is_level(rules_for("devils-square"), 1, "easy")
    False
    """
    easy, normal = _threshold(rules)
    cap = {"easy": easy, "normal": normal}.get(level, GRADE_NODES)
    start = rules.deal(deal)
    full = depth_first(space_for(rules), start, Budget(nodes=cap + 1))
    if full.verdict != "solved":
        return False
    if level != "tricky" and _level(rules, full.nodes, False) != level:
        return False
    tricky = depth_first(EagerSpace(rules), start, Budget(nodes=GRADE_NODES)).verdict == "unsolvable"
    return _level(rules, full.nodes, tricky) == level


def candidate_deals(seed: int) -> Iterator[int]:
    """The deal numbers tried for a seed, in order (SplitMix64 outputs below 2**32).

    >>> from itertools import islice
    >>> list(islice(candidate_deals(0), 2)) == list(islice(candidate_deals(0), 2))
    True
    """
    rng = SplitMix64(seed)
    while True:
        yield rng.next() >> 32


def deal_for_level(name: str, level: str, seed: int = 0, **options: Any) -> int:
    """A deal number of the level for the game and options, found from the seed.

    ``random`` gives the seed's first candidate as it is; other levels give the
    first candidate proved solvable and graded at that level.

    >>> deal = deal_for_level("devils-square", "easy", seed=3)
    >>> grade(rules_for("devils-square"), deal).level
    'easy'
    """
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    rules = rules_for(name, **options)
    if isinstance(rules, MultiplayerRules):
        raise OptionError(f"{name} has no deal levels (levels are for the one-player games)")
    for deal in candidate_deals(seed):
        if level == "random" or is_level(rules, deal, level):
            return deal
    raise AssertionError("unreachable")  # pragma: no cover - candidate_deals never ends

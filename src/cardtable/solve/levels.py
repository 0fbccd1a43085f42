"""Deal levels: solvable deals graded by measured difficulty.

Every level but ``random`` deals only deals the solver has proved solvable.
The grade comes from two solver measurements (:func:`measure`):

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

Both searches stop at :data:`GRADE_NODES` positions; a deal the full search
does not win within it is not graded (never dealt by a level).

Levels (:func:`level_of`): ``tricky`` (solvable, eager search proved
unsolvable); otherwise by effort: ``easy`` (at most the game's first
threshold), ``normal`` (up to the second), ``hard`` (above it).

Thresholds and deal tables, per game and mode (a :class:`LevelKey`: the game
and the option that changes its difficulty most, Klondike's draw and
Desturado's mode), are shipped in ``level_tables.json`` next to this module,
written by ``bench/level_tables.py`` from the grades of ``bench/grade_deals.py``
(``docs/levels.md``): the thresholds cut the graded solvable, non-tricky deals,
ordered by effort, into the least-effort fifth (easy), the next two fifths
(normal) and the top two fifths (hard), and each level's table lists every
graded deal of that level.
:func:`thresholds` are read from it (:data:`PROVISIONAL` only for a key the file
lacks).

:func:`deal_for_level` picks a table deal chosen by the seed (SplitMix64), with
no search at all, when the game's options other than the key's own are at their
defaults and the level's table is not empty (an empty table of a graded key is an
error: no deal is known at that level); otherwise it walks a deterministic
sequence of deal numbers drawn from the seed and returns the first one that
grades at the level, giving up after :data:`LIVE_CANDIDATES`. Either way a level's
deals are reproducible. Such live grading uses thresholds cut the same way from the
efforts of deals ``0..49`` under the same options (:func:`live_thresholds`), as a house
rule such as Klondike's three passes makes every deal need more search.

>>> deal_for_level("desturado", "easy", seed=1) == deal_for_level("desturado", "easy", seed=1)
True
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from itertools import islice
from typing import Any

from ..core.errors import NoLevelDealError, OptionError
from ..core.multiplayer import MultiplayerRules
from ..core.progress import is_progress
from ..core.rules import Rules
from ..core.shuffle import SplitMix64
from ..games import rules_for
from .search import Budget, search
from .spaces import space_for

LEVELS = ("random", "easy", "normal", "hard", "tricky")
GRADED_LEVELS = ("easy", "normal", "hard", "tricky")
"""The levels a deal can grade at (``random`` is any deal)."""

GRADE_NODES = 100_000
"""The most positions either grading search may explore; a deal beyond it is not graded."""

LIVE_CANDIDATES = 1_000
"""The most candidate deals :func:`deal_for_level` grades live before it gives up."""

CALIBRATION_DEALS = 50
"""Deals ``0..49`` under a game's options give its live thresholds when no shipped table
applies (:func:`live_thresholds`)."""

MIN_CALIBRATION = 5
"""The fewest solvable non-tricky calibration deals live thresholds are cut from (else
the key's shipped thresholds)."""

PLAY_ONLY_OPTIONS = frozenset({"autoplay"})
"""Options that change how moves are entered, never a position or a deal (``autoplay``
only makes safe moves for the player): the shipped tables apply whatever their value."""

TABLES_FILE = "level_tables.json"
"""The shipped thresholds and deal tables (package data of :mod:`cardtable.solve`)."""


@dataclass(frozen=True)
class LevelKey:
    """A game and mode that has its own thresholds and deal tables: the game, and the
    option that changes its difficulty most with its value (``option`` None: the
    game's difficulty has no such option). ``label`` names it in files.

    >>> KEYS[0].label, KEYS[0].options()
    ('klondike-draw3', {'draw': 3})
    """

    label: str
    game: str
    option: str | None = None
    value: Any = None

    def options(self) -> dict[str, Any]:
        """The key's option as keyword arguments for :func:`~cardtable.games.rules_for`.

        >>> KEYS[-1].options()
        {}
        """
        return {} if self.option is None else {self.option: self.value}


KEYS: tuple[LevelKey, ...] = (
    LevelKey("klondike-draw3", "klondike", "draw", 3),
    LevelKey("klondike-draw1", "klondike", "draw", 1),
    LevelKey("desturado-easy", "desturado", "mode", "easy"),
    LevelKey("desturado-medium", "desturado", "mode", "medium"),
    LevelKey("desturado-hard", "desturado", "mode", "hard"),
    LevelKey("demonthief", "demonthief"),
    LevelKey("demons-and-thieves", "demons-and-thieves"),
    LevelKey("devils-square", "devils-square"),
)
"""Every one-player game and mode with deal levels."""

# Effort thresholds (positions explored to find a win): easy <= first < normal <= second < hard.
# Measured on 10 to 20 random deals each before the tables existed; used only for a key
# that level_tables.json lacks.
PROVISIONAL: dict[str, tuple[int, int]] = {
    "klondike-draw3": (150, 3_000),
    "klondike-draw1": (120, 1_500),
    "desturado-easy": (60, 2_000),
    "desturado-medium": (300, 10_000),
    "desturado-hard": (2_000, 40_000),
    "demonthief": (2_000, 30_000),
    "demons-and-thieves": (1_500, 15_000),
    "devils-square": (300, 3_000),
}


SPLIT = ((1, 5), (3, 5))
"""Where the thresholds cut the graded solvable, non-tricky deals ordered by effort:
easy is the least-effort fifth, normal the next two fifths, hard the top two fifths.
Not thirds: the obvious-move player wins almost only deals of the least-effort
fifth (docs/levels.md, "Why fifths"), so with thirds normal and hard looked the
same to it."""


def split_thresholds(efforts: Sequence[int], split: Sequence[tuple[int, int]] = SPLIT) -> tuple[int, int]:
    """Thresholds ``(t1, t2)`` splitting the efforts into easy (at most ``t1``), normal
    (at most ``t2``) and hard with shares as near the ``split`` fractions as the ties
    allow: ``t1`` is the effort value whose count of efforts at most it is nearest to
    the first fraction of n (the smaller on a tie), ``t2`` the larger value nearest to
    the second.

    >>> split_thresholds([5, 1, 2, 3, 4, 6, 7, 8, 9, 10])
    (2, 6)
    >>> split_thresholds([5, 1, 2, 3, 4, 6, 7, 8, 9], ((1, 3), (2, 3)))
    (3, 6)
    >>> split_thresholds([1, 1, 1, 1, 2, 3], ((1, 3), (2, 3)))
    (1, 2)
    """
    ordered = sorted(efforts)
    n = len(ordered)
    if n == 0:
        raise ValueError("no efforts to split")
    values = sorted(set(ordered))
    (num1, den1), (num2, den2) = split

    def miss(t: int, num: int, den: int) -> tuple[int, int]:
        return abs(den * bisect_right(ordered, t) - num * n), t

    first = min(values, key=lambda t: miss(t, num1, den1))
    second = min([t for t in values if t > first] or [first], key=lambda t: miss(t, num2, den2))
    return first, second


@dataclass(frozen=True)
class LevelTable:
    """One key's entry of the shipped tables: its thresholds, whether they were
    calibrated (effort fifths of enough graded deals) or are the provisional
    ones, how many deals were graded, and each graded level's deal numbers, sorted.

    >>> table = level_tables()["klondike-draw3"]
    >>> table.key.game, len(table.thresholds)
    ('klondike', 2)
    """

    key: LevelKey
    thresholds: tuple[int, int]
    calibrated: bool
    graded: int
    levels: Mapping[str, tuple[int, ...]]


def key_of(rules: Rules[Any, Any]) -> LevelKey:
    """The level key of a one-player game's rules (whatever its other options).

    >>> key_of(rules_for("desturado", mode="hard")).label
    'desturado-hard'
    """
    for key in KEYS:
        if key.game == rules.name and (key.option is None or rules.options.get(key.option) == key.value):
            return key
    raise OptionError(f"{rules.name} has no deal levels (levels are for the one-player games)")


def _parse_tables(data: Mapping[str, Any]) -> dict[str, LevelTable]:
    """The tables of a loaded ``level_tables.json`` (every key it has)."""
    if data.get("grade_nodes") != GRADE_NODES:
        raise ValueError(f"{TABLES_FILE} was graded with {data.get('grade_nodes')} nodes, not {GRADE_NODES}")
    by_label = {key.label: key for key in KEYS}
    tables = {}
    for label, entry in data["keys"].items():
        key = by_label[label]
        low, high = entry["thresholds"]
        levels = {level: tuple(int(d) for d in entry["levels"].get(level, ())) for level in GRADED_LEVELS}
        tables[label] = LevelTable(key, (int(low), int(high)), bool(entry["calibrated"]), int(entry["graded"]), levels)
    return tables


@cache
def level_tables() -> dict[str, LevelTable]:
    """The shipped thresholds and deal tables by key label (read once).

    >>> sorted(level_tables()) == sorted(key.label for key in KEYS)
    True
    """
    text = files("cardtable.solve").joinpath(TABLES_FILE).read_text(encoding="utf-8")
    return _parse_tables(json.loads(text))


def thresholds_from(tables: Mapping[str, LevelTable]) -> dict[str, tuple[int, int]]:
    """Effort thresholds by key label: the tables', and the provisional ones for a key
    the tables lack.

    >>> thresholds_from({})["klondike-draw1"] == PROVISIONAL["klondike-draw1"]
    True
    """
    return {label: tables[label].thresholds if label in tables else p for label, p in PROVISIONAL.items()}


@cache
def thresholds() -> dict[str, tuple[int, int]]:
    """Effort thresholds by key label, from the shipped tables (read on first use, not
    on import: ``bench/level_tables.py`` imports this module to rewrite a stale file).

    >>> thresholds()["klondike-draw3"] == level_tables()["klondike-draw3"].thresholds
    True
    """
    return thresholds_from(level_tables())


@dataclass(frozen=True)
class Measure:
    """A deal's raw grading measurements, independent of any thresholds: the full
    search's verdict and positions explored (``effort``), and the eager search's
    (``eager_verdict`` None: not run, as the deal is not solvable within the budget).

    >>> m = Measure("solved", 1141, "unsolvable", 207)
    >>> m.solvable, m.tricky
    (True, True)
    """

    verdict: str
    effort: int
    eager_verdict: str | None = None
    eager_effort: int = 0

    @property
    def solvable(self) -> bool:
        """Whether the full search won the deal.

        >>> Measure("unknown", 100_000).solvable
        False
        """
        return self.verdict == "solved"

    @property
    def tricky(self) -> bool:
        """Solvable, and the eager search proved that the eager player cannot win it.

        >>> Measure("solved", 90, "unknown", 100_000).tricky
        False
        """
        return self.solvable and self.eager_verdict == "unsolvable"


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
    """The thresholds the rules' deals are graded with: the shipped table's when it
    applies, else :func:`live_thresholds`."""
    table = shipped_table(rules)
    return table.thresholds if table is not None else live_thresholds(rules)


def live_thresholds(rules: Rules[Any, Any]) -> tuple[int, int]:
    """Thresholds for options no shipped table applies to: :func:`split_thresholds` of the
    efforts of the solvable, non-tricky deals among deals ``0..CALIBRATION_DEALS - 1``
    under these options (measured once per process and options), or the key's shipped
    thresholds when fewer than :data:`MIN_CALIBRATION` of them are.

    >>> from cardtable.games import rules_for
    >>> live_thresholds(rules_for("desturado", mode="hard")) == thresholds()["desturado-hard"]
    True
    """
    if shipped_table(rules) is not None:
        return thresholds()[key_of(rules).label]
    return _calibrate(rules.name, tuple(sorted(rules.options.items())))


@cache
def _calibrate(name: str, options: tuple[tuple[str, Any], ...]) -> tuple[int, int]:
    """:func:`live_thresholds` measured (cached: options are the part that varies)."""
    rules = rules_for(name, **dict(options))
    measured = (measure(rules, deal) for deal in range(CALIBRATION_DEALS))
    efforts = [m.effort for m in measured if m.solvable and not m.tricky]
    if len(efforts) < MIN_CALIBRATION:
        return thresholds()[key_of(rules).label]
    return split_thresholds(efforts)


def measure(rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES) -> Measure:
    """The raw measurements of a deal (see the module docstring): the full search,
    then, if it won, the eager search.

    >>> from cardtable.games import rules_for
    >>> measure(rules_for("klondike"), 7)
    Measure(verdict='solved', effort=1141, eager_verdict='unsolvable', eager_effort=207)
    """
    start = rules.deal(deal)
    full = search(space_for(rules), start, Budget(nodes=nodes))
    if full.verdict != "solved":
        return Measure(full.verdict, full.nodes)
    eager = search(EagerSpace(rules), start, Budget(nodes=nodes))
    return Measure(full.verdict, full.nodes, eager.verdict, eager.nodes)


def level_of(effort: int, tricky: bool, thresholds: tuple[int, int]) -> str:
    """The level of a solvable deal from its effort, trickiness and the thresholds.

    >>> [level_of(e, False, (10, 100)) for e in (10, 11, 100, 101)], level_of(5, True, (10, 100))
    (['easy', 'normal', 'normal', 'hard'], 'tricky')
    """
    if tricky:
        return "tricky"
    easy, normal = thresholds
    return "easy" if effort <= easy else "normal" if effort <= normal else "hard"


def grade(rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES) -> Grade:
    """Measure a deal and give its level with the game's :func:`thresholds`.

    >>> from cardtable.games import rules_for
    >>> g = grade(rules_for("devils-square"), 1)
    >>> g.solvable, g.level
    (False, None)
    """
    m = measure(rules, deal, nodes)
    if not m.solvable:
        return Grade(False, m.effort, False, None)
    return Grade(True, m.effort, m.tricky, level_of(m.effort, m.tricky, _threshold(rules)))


def is_level(rules: Rules[Any, Any], deal: int, level: str) -> bool:
    """Whether a deal grades at ``level``: :func:`grade`, but stopping the solver as
    soon as the answer is known (an easy deal must be won within the easy threshold,
    so a longer search need not finish).

    >>> from cardtable.games import rules_for
    >>> is_level(rules_for("devils-square"), 1, "easy")
    False
    """
    thresholds = _threshold(rules)
    # The search is depth-first and deterministic: stopped at ``cap`` positions it has
    # explored exactly what the grading search explores first, so "won within cap"
    # is "effort at most cap".
    cap = {"easy": thresholds[0], "normal": thresholds[1]}.get(level, GRADE_NODES)
    start = rules.deal(deal)
    full = search(space_for(rules), start, Budget(nodes=cap))
    if full.verdict != "solved":
        return False
    if level != "tricky" and level_of(full.nodes, False, thresholds) != level:
        return False
    tricky = search(EagerSpace(rules), start, Budget(nodes=GRADE_NODES)).verdict == "unsolvable"
    return level_of(full.nodes, tricky, thresholds) == level


def at_key_defaults(rules: Rules[Any, Any]) -> bool:
    """Whether every option of the rules other than their key's own is at its default
    (the options the tables were graded at); :data:`PLAY_ONLY_OPTIONS` may have any value.

    >>> from cardtable.games import rules_for
    >>> at_key_defaults(rules_for("klondike", draw=1)), at_key_defaults(rules_for("klondike", redeals=2))
    (True, False)
    >>> at_key_defaults(rules_for("klondike", autoplay=True))
    True
    """
    key = key_of(rules)
    defaults = {o.name: o.default for o in type(rules).OPTIONS}
    return all(
        value == defaults[name]
        for name, value in rules.options.items()
        if name != key.option and name not in PLAY_ONLY_OPTIONS
    )


def shipped_table(rules: Rules[Any, Any]) -> LevelTable | None:
    """The shipped table of the rules' key, or None when the tables lack the key or an
    option other than the key's own is not at its default (the deals were graded at the
    defaults).

    >>> from cardtable.games import rules_for
    >>> shipped_table(rules_for("klondike", draw=1)).key.label, shipped_table(rules_for("klondike", redeals=2))
    ('klondike-draw1', None)
    """
    return level_tables().get(key_of(rules).label) if at_key_defaults(rules) else None


def table_deals(rules: Rules[Any, Any], level: str) -> tuple[int, ...]:
    """The shipped table's deals of ``level`` for these rules, sorted: empty when the
    tables have none, or when an option other than the key's own is not at its default
    (the deals were graded at the defaults).

    >>> from cardtable.games import rules_for
    >>> table_deals(rules_for("klondike", draw=1, redeals=2), "easy")
    ()
    """
    table = shipped_table(rules)
    return () if table is None else tuple(table.levels.get(level, ()))


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
    """A deal number of the level for the game and options, chosen by the seed.

    ``random`` gives the seed's first candidate as it is. Another level gives the
    deal of the shipped table at the index drawn from the seed
    (``SplitMix64(seed).next() % len(table)``), with no search. When the game and
    mode were graded but no graded deal is at the level (no Desturado deal is
    tricky), it raises :class:`~cardtable.core.errors.NoLevelDealError`. Without
    tables (an option other than the key's own is not at its default, or the key
    was not graded) it gives the first candidate proved solvable and graded at that
    level with :func:`live_thresholds`, among the first :data:`LIVE_CANDIDATES` (else
    ``NoLevelDealError``).

    >>> deal = deal_for_level("devils-square", "easy", seed=3)
    >>> grade(rules_for("devils-square"), deal).level
    'easy'
    """
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    rules = rules_for(name, **options)
    if isinstance(rules, MultiplayerRules):
        raise OptionError(f"{name} has no deal levels (levels are for the one-player games)")
    if level == "random":
        return next(candidate_deals(seed))
    graded = shipped_table(rules)
    table = () if graded is None else graded.levels.get(level, ())
    if table:
        return table[SplitMix64(seed).next() % len(table)]
    if graded is not None and graded.graded:
        raise NoLevelDealError(
            f"no {level} deal of {graded.key.label}: none of the {graded.graded} deals graded is {level}"
        )
    for deal in islice(candidate_deals(seed), LIVE_CANDIDATES):
        if is_level(rules, deal, level):
            return deal
    raise NoLevelDealError(f"no {level} deal among the first {LIVE_CANDIDATES} candidate deals of seed {seed}")

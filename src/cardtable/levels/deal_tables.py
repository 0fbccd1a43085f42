"""Deal levels: the scales, the shipped deal tables, and dealing by level
(:func:`deal_for_level`). See :mod:`cardtable.levels`.

>>> deal_for_level("desturado", "easy", seed=1) == deal_for_level("desturado", "easy", seed=1)
True
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from itertools import chain, islice
from typing import Any

from ..core.errors import NoLevelDealError, OptionError
from ..core.inputs import check_int, quote
from ..core.rules import Rules
from ..core.shuffle import SplitMix64
from ..core.spec import LevelKey as LevelKey  # re-exported (it was defined here before core.spec)
from ..games import rules_for, spec_for, specs
from ..solve.spaces import equivalent_start
from .measures import GRADE_NODES, Measure, measure
from .reference import NOISY_GAMES

LEVELS = ("random", "easy", "normal", "hard", "tricky")
GRADED_LEVELS = ("easy", "normal", "hard", "tricky")
"""The levels a deal can grade at (``random`` is any deal)."""

LIVE_CANDIDATES = 1_000
"""The most candidate deals :func:`deal_for_level` grades live before it gives up."""

CALIBRATION_DEALS = 50
"""Deals ``0..49`` under a game's options give its live scale when no shipped table
applies (:func:`scale_for`)."""

MIN_CALIBRATION = 5
"""The fewest solvable non-tricky calibration deals a live scale is measured on (else
the key's shipped scale)."""

PLAY_ONLY_OPTIONS = frozenset({"autoplay"})
"""Options that change how moves are entered, never a position or a deal (``autoplay``
only makes safe moves for the player): the shipped tables apply whatever their value."""

TABLES_FILE = "level_tables.json"
"""The shipped thresholds and deal tables (package data of :mod:`cardtable.levels`)."""


def level_keys() -> tuple[LevelKey, ...]:
    """Every one-player game and mode with deal levels: the keys the games declare
    (:meth:`~cardtable.core.spec.GameSpec.keys`), read from the one list of games now,
    so a game registered after import (a test's toy game) has its key.

    >>> [k.label for k in level_keys()][:3]
    ['klondike-draw3', 'klondike-draw1', 'desturado-easy']
    """
    return tuple(chain.from_iterable(spec.keys() for spec in specs()))


KEYS: tuple[LevelKey, ...] = level_keys()
"""The level keys of the games built in (:func:`level_keys` at import; a game registered
later is in :func:`level_keys` only).

>>> KEYS[0].label, KEYS[0].options()
('klondike-draw3', {'draw': 3})
"""


SPLIT = ((1, 5), (3, 5))
"""Where the thresholds cut a key's population ordered by score: easy is the easiest
fifth, normal the next two fifths, hard the top two fifths. Not thirds: with the
effort alone as the grade, the obvious-move player won almost only deals of the
least-effort fifth (docs/levels.md, "Why fifths"), so with thirds normal and hard
looked the same to it."""


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


def _rank2(values: Sequence[int], value: int) -> int:
    """Twice the mid-rank of ``value`` among the sorted ``values``: 2 for each value below
    it, 1 for each equal (an integer, so a score is the same on every machine)."""
    below = bisect_left(values, value)
    return below + bisect_right(values, value)


MAX_SEED = 2**64 - 1
"""The largest seed of a deal by level: a seed is the state of a 64-bit SplitMix64."""


@dataclass(frozen=True)
class Scale:
    """How a key's deals are scored: a population's efforts and misses (noisy games lost),
    each sorted, and the thresholds on the score. A deal's :meth:`score` is the sum of
    its effort's and its misses' mid-ranks among the population's (doubled, to stay an
    integer); lower is easier.

    >>> scale = Scale((10, 20, 30, 40), (0, 2, 5, 8), (6, 10))
    >>> scale.score(10, 8), scale.score(40, 0), scale.score(25, 5)
    (2, 14, 8)
    """

    efforts: tuple[int, ...]
    misses: tuple[int, ...]
    thresholds: tuple[int, int]

    def score(self, effort: int, ease: int) -> int:
        """The score of a deal of this effort and ease (noisy games won).

        >>> Scale((5,), (3,), (1, 2)).score(5, NOISY_GAMES - 3)
        2
        """
        return _rank2(self.efforts, effort) + _rank2(self.misses, NOISY_GAMES - ease)

    def level(self, m: Measure) -> str | None:
        """The level of a measured deal (None: not solvable within the budget).

        >>> Scale((5,), (3,), (1, 2)).level(Measure("solved", 4, "solved", 9, NOISY_GAMES))
        'easy'
        """
        if not m.solvable:
            return None
        if m.tricky:
            return "tricky"
        if m.ease is None:
            raise ValueError("a solvable, non-tricky deal is scored with its noisy games (measure(noisy=True))")
        return level_of(self.score(m.effort, m.ease), False, self.thresholds)

    def effort_bound(self, level: str) -> int | None:
        """The largest effort a deal of ``level`` can have on this scale (None: no bound,
        for hard and tricky): even with the fewest misses of the population, a larger
        effort scores above the level's threshold.

        >>> scale = Scale((10, 20, 30, 40), (0, 2, 5, 8), (6, 10))
        >>> scale.effort_bound("easy"), scale.effort_bound("hard")  # 30 + the fewest misses: 5 + 1
        (30, None)
        >>> scale.effort_bound("normal") == GRADE_NODES  # any effort may still be normal
        True
        """
        limit = {"easy": self.thresholds[0], "normal": self.thresholds[1]}.get(level)
        if limit is None:
            return None
        fewest = _rank2(self.misses, 0)
        # The effort's rank grows with the effort: the largest one within the limit.
        low, high = -1, GRADE_NODES
        while low < high:
            mid = (low + high + 1) // 2
            if _rank2(self.efforts, mid) + fewest <= limit:
                low = mid
            else:
                high = mid - 1
        return max(low, 0)


def scale_of(population: Sequence[tuple[int, int]]) -> Scale:
    """The scale of a population of (effort, ease) pairs: their sorted efforts and misses,
    and the thresholds cutting their scores at :data:`SPLIT`.

    >>> scale_of([(10, 8), (20, 6), (30, 8), (40, 0), (50, 1)]).thresholds  # scores 3, 8, 7, 16, 16
    (3, 8)
    """
    efforts = tuple(sorted(effort for effort, _ in population))
    misses = tuple(sorted(NOISY_GAMES - ease for _, ease in population))
    unscored = Scale(efforts, misses, (0, 0))
    return Scale(efforts, misses, split_thresholds([unscored.score(e, w) for e, w in population]))


@dataclass(frozen=True)
class LevelTable:
    """One key's entry of the shipped tables: its scale, how many deals were graded, and
    each graded level's deal numbers, sorted.

    >>> table = level_tables()["klondike-draw3"]
    >>> table.key.game, len(table.thresholds)
    ('klondike', 2)
    """

    key: LevelKey
    scale: Scale
    graded: int
    levels: Mapping[str, tuple[int, ...]]

    @property
    def thresholds(self) -> tuple[int, int]:
        """The scale's thresholds.

        >>> level_tables()["klondike-draw3"].thresholds == level_tables()["klondike-draw3"].scale.thresholds
        True
        """
        return self.scale.thresholds


def key_of(rules: Rules[Any, Any]) -> LevelKey:
    """The level key of a one-player game's rules (whatever its other options).

    >>> key_of(rules_for("desturado", mode="hard")).label
    'desturado-hard'
    """
    keys = spec_for(rules.name).keys()
    for key in keys:
        if key.game == rules.name and (key.option is None or rules.options.get(key.option) == key.value):
            return key
    raise OptionError(f"{rules.name} has no deal levels (levels are for the one-player games)")


def _parse_tables(data: Mapping[str, Any]) -> dict[str, LevelTable]:
    """The tables of a loaded ``level_tables.json`` (every key it has)."""
    if data.get("grade_nodes") != GRADE_NODES:
        raise ValueError(f"{TABLES_FILE} was graded with {data.get('grade_nodes')} nodes, not {GRADE_NODES}")
    if data.get("noisy_games") != NOISY_GAMES:
        raise ValueError(f"{TABLES_FILE} was graded with {data.get('noisy_games')} noisy games, not {NOISY_GAMES}")
    by_label = {key.label: key for key in level_keys()}
    tables = {}
    for label, entry in data["keys"].items():
        key = by_label[label]
        low, high = entry["thresholds"]
        scale = Scale(tuple(map(int, entry["efforts"])), tuple(map(int, entry["misses"])), (int(low), int(high)))
        levels = {level: tuple(int(d) for d in entry["levels"].get(level, ())) for level in GRADED_LEVELS}
        tables[label] = LevelTable(key, scale, int(entry["graded"]), levels)
    return tables


@cache
def level_tables() -> dict[str, LevelTable]:
    """The shipped thresholds and deal tables by key label (read once).

    >>> sorted(level_tables()) == sorted(key.label for key in KEYS)
    True
    """
    text = files("cardtable.levels").joinpath(TABLES_FILE).read_text(encoding="utf-8")
    return _parse_tables(json.loads(text))


@cache
def thresholds() -> dict[str, tuple[int, int]]:
    """Score thresholds by key label, from the shipped tables (read on first use, not
    on import: ``cardtable analyze tables`` imports this module to rewrite a stale file).

    >>> thresholds()["klondike-draw3"] == level_tables()["klondike-draw3"].thresholds
    True
    """
    return {label: table.thresholds for label, table in level_tables().items()}


@dataclass(frozen=True)
class Grade:
    """A deal's measurements and level (``level`` None: not solvable within the budget).

    >>> Grade(solvable=True, effort=10, tricky=False, level="easy", ease=8).level
    'easy'
    """

    solvable: bool
    effort: int
    tricky: bool
    level: str | None
    ease: int | None = None


def scale_for(rules: Rules[Any, Any]) -> Scale:
    """The scale the rules' deals are graded on: the shipped table's when it applies,
    else one measured on the solvable, non-tricky deals among deals
    ``0..CALIBRATION_DEALS - 1`` under these options (once per process and options; the
    key's shipped scale when fewer than :data:`MIN_CALIBRATION` of them are).

    >>> from cardtable.games import rules_for
    >>> scale_for(rules_for("desturado", mode="hard")) == level_tables()["desturado-hard"].scale
    True
    """
    rules = graded_rules(rules)
    table = shipped_table(rules)
    if table is not None:
        return table.scale
    return _calibrate(rules.name, tuple(sorted(rules.options.items())))


@cache
def _calibrate(name: str, options: tuple[tuple[str, Any], ...]) -> Scale:
    """:func:`scale_for` measured (cached: options are the part that varies)."""
    rules = rules_for(name, **dict(options))
    measured = (measure(rules, deal) for deal in range(CALIBRATION_DEALS))
    population = [(m.effort, m.ease) for m in measured if m.ease is not None]
    if len(population) >= MIN_CALIBRATION:
        return scale_of(population)
    table = level_tables().get(key_of(rules).label)
    if table is None:
        raise NoLevelDealError(f"too few solvable deals among the first {CALIBRATION_DEALS} to grade {name}")
    return table.scale


def level_of(score: int, tricky: bool, thresholds: tuple[int, int]) -> str:
    """The level of a solvable deal from its score, trickiness and the thresholds.

    >>> [level_of(e, False, (10, 100)) for e in (10, 11, 100, 101)], level_of(5, True, (10, 100))
    (['easy', 'normal', 'normal', 'hard'], 'tricky')
    """
    if tricky:
        return "tricky"
    if not (isinstance(thresholds, tuple) and len(thresholds) == 2):
        raise OptionError(f"thresholds are two scores (easy up to, normal up to), not {quote(thresholds)}")
    easy, normal = thresholds
    return "easy" if score <= easy else "normal" if score <= normal else "hard"


def grade(rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES) -> Grade:
    """Measure a deal and give its level on the game's scale (:func:`scale_for`).

    >>> from cardtable.games import rules_for
    >>> g = grade(rules_for("devils-square"), 1)
    >>> g.solvable, g.level
    (False, None)
    """
    m = measure(rules, deal, check_int(nodes, "nodes", OptionError, 1))
    if not m.solvable:
        return Grade(False, m.effort, False, None)
    return Grade(True, m.effort, m.tricky, scale_for(rules).level(m), m.ease)


def is_level(rules: Rules[Any, Any], deal: int, level: str) -> bool:
    """Whether a deal grades at ``level``: :func:`grade`, but without the noisy games when
    the question is whether it is tricky, and stopping the solver once the deal's effort
    is too large for the level (:meth:`Scale.effort_bound`).

    >>> from cardtable.games import rules_for
    >>> is_level(rules_for("devils-square"), 1, "easy")
    False
    """
    if level not in GRADED_LEVELS:
        raise OptionError(f"no level {quote(level)} to grade at ({', '.join(GRADED_LEVELS)})")
    scale = scale_for(rules)  # first: a live scale is measured before the deal
    # The search is depth-first and deterministic: stopped at the bound it has explored
    # exactly what the grading search explores first, so "won within the bound" is
    # "effort at most the bound", and a deal not won by then is not of the level.
    m = measure(rules, deal, noisy=level != "tricky", within=scale.effort_bound(level))
    return m.tricky if level == "tricky" else scale.level(m) == level


def graded_rules(rules: Rules[Any, Any]) -> Rules[Any, Any]:
    """The rules a game's deals are graded and dealt by level under: the equivalent rules
    its search space offers at its deals (:func:`cardtable.solve.spaces.equivalent_start`
    at deal 0; every deal of a game starts with the same counts), else ``rules``. Klondike
    with at least as many redeals as a deal's stock holds cards plays every deal as
    unlimited Klondike does, so it is graded as that, and uses its tables.

    >>> from cardtable.games import rules_for
    >>> graded_rules(rules_for("klondike", redeals=100_000)).options["redeals"] is None
    True
    >>> graded_rules(rules_for("klondike", redeals=2)).options["redeals"]
    2
    """
    return equivalent_start(rules, rules.deal(0))[0]


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
    mode were graded but no graded deal is at the level (no shipped table is
    empty), it raises :class:`~cardtable.core.errors.NoLevelDealError`. Without
    tables (an option other than the key's own is not at its default, or the key
    was not graded) it gives the first candidate proved solvable and graded at that
    level on :func:`scale_for`'s live scale, among the first :data:`LIVE_CANDIDATES` (else
    ``NoLevelDealError``).

    The seed is a whole number from 0 to 2**64 - 1 (the state of the seed's SplitMix64);
    any other seed raises :class:`~cardtable.core.errors.OptionError`.

    >>> deal = deal_for_level("devils-square", "easy", seed=3)
    >>> grade(rules_for("devils-square"), deal).level
    'easy'
    >>> deal_for_level("klondike", "easy", seed=-1)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: seed must be a whole number from 0 to 18446744073709551615, not -1
    """
    check_int(seed, "seed", OptionError, 0, MAX_SEED)
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    rules = graded_rules(rules_for(name, **options))
    if not spec_for(rules.name).keys():
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

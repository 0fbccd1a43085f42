"""Deal levels: solvable deals graded by measured difficulty.

Every level but ``random`` deals only deals the solver has proved solvable.
The grade comes from three measurements (:func:`measure`):

- **effort**: how many positions the solver explores before it finds a win,
  searching in its human-like move order (safe and obvious moves first, see
  :mod:`cardtable.solve.spaces`). A deal where the obvious moves win needs
  little search; one where they keep leading astray needs a lot.
- **ease**: how many of :data:`NOISY_GAMES` noisy
  games of the reference player (:mod:`cardtable.solve.reference`: no search,
  one move in twenty at random) win the deal. The effort measures the deal for
  the solver's move order; the ease measures it for a player who plays one move
  at a time, and how forgiving the deal is of a few odd moves.
- **tricky**: the deal is winnable, but not the obvious way. ``klondike.md``
  describes the Java program's tricky deals: winnable only by declining an
  available play at some point (holding back a 4 of clubs from the foundation so
  that a 3 of hearts drawn later can go under it). Two players stand for "the
  obvious way": the *eager* player, who whenever a move that makes immediate
  progress is available (a card to a foundation or to the hand, a face-down or
  reserve card turned up, a book made, a card dealt) always makes such a move, and
  the reference player (:mod:`cardtable.solve.reference`), who always makes the
  obvious play. A deal is tricky when the full search wins it, a second search in
  which the eager rule restricts every position finds no win (it proves there is
  none, or finds none within the budget the full search won in), and the
  reference player loses it (:func:`is_tricky`).

Both searches stop at :data:`GRADE_NODES` positions; a deal the full search
does not win within it is not graded (never dealt by a level).

Levels (:func:`level_of`): ``tricky`` (above); otherwise by the deal's **score** on its key's :class:`Scale`, the sum
of its effort's rank and its misses' rank (noisy games lost) among a population of
graded deals: ``easy`` (at most the first threshold), ``normal`` (up to the
second), ``hard`` (above it).

Scales and deal tables, per game and mode (a :class:`LevelKey`: the game and the
option that changes its difficulty most, Klondike's draw and Desturado's mode),
are shipped in ``level_tables.json`` next to this module, written by
``bench/level_tables.py`` from ``bench/grade_deals.py`` and ``bench/grade_ease.py``
(``docs/levels.md``): the population is the graded solvable, non-tricky deals with
an ease, the thresholds cut it, ordered by score, into the easiest fifth (easy),
the next two fifths (normal) and the top two fifths (hard), and each level's table
lists the deals of that level.

:func:`deal_for_level` picks a table deal chosen by the seed (SplitMix64), with
no search at all, when the game's options other than the key's own are at their
defaults and the level's table is not empty (an empty table of a graded key is an
error: no deal is known at that level); otherwise it walks a deterministic
sequence of deal numbers drawn from the seed and returns the first one that
grades at the level, giving up after :data:`LIVE_CANDIDATES`. Either way a level's
deals are reproducible. Such live grading uses a scale measured the same way on
deals ``0..49`` under the same options (:func:`scale_for`), as a house rule such
as Klondike's three passes changes every deal's difficulty.

>>> deal_for_level("desturado", "easy", seed=1) == deal_for_level("desturado", "easy", seed=1)
True
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
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

NOISY_GAMES = 8
"""Noisy games of the reference player per graded deal (the ease: how many win)."""

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
    for key in KEYS:
        if key.game == rules.name and (key.option is None or rules.options.get(key.option) == key.value):
            return key
    raise OptionError(f"{rules.name} has no deal levels (levels are for the one-player games)")


def _parse_tables(data: Mapping[str, Any]) -> dict[str, LevelTable]:
    """The tables of a loaded ``level_tables.json`` (every key it has)."""
    if data.get("grade_nodes") != GRADE_NODES:
        raise ValueError(f"{TABLES_FILE} was graded with {data.get('grade_nodes')} nodes, not {GRADE_NODES}")
    if data.get("noisy_games") != NOISY_GAMES:
        raise ValueError(f"{TABLES_FILE} was graded with {data.get('noisy_games')} noisy games, not {NOISY_GAMES}")
    by_label = {key.label: key for key in KEYS}
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
    text = files("cardtable.solve").joinpath(TABLES_FILE).read_text(encoding="utf-8")
    return _parse_tables(json.loads(text))


@cache
def thresholds() -> dict[str, tuple[int, int]]:
    """Score thresholds by key label, from the shipped tables (read on first use, not
    on import: ``bench/level_tables.py`` imports this module to rewrite a stale file).

    >>> thresholds()["klondike-draw3"] == level_tables()["klondike-draw3"].thresholds
    True
    """
    return {label: table.thresholds for label, table in level_tables().items()}


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


def scale_for(rules: Rules[Any, Any]) -> Scale:
    """The scale the rules' deals are graded on: the shipped table's when it applies,
    else one measured on the solvable, non-tricky deals among deals
    ``0..CALIBRATION_DEALS - 1`` under these options (once per process and options; the
    key's shipped scale when fewer than :data:`MIN_CALIBRATION` of them are).

    >>> from cardtable.games import rules_for
    >>> scale_for(rules_for("desturado", mode="hard")) == level_tables()["desturado-hard"].scale
    True
    """
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
    from .reference import noisy_wins, obvious_player_wins  # here: the reference player imports this module

    start = rules.deal(deal)
    full = search(space_for(rules), start, Budget(nodes=nodes if within is None else min(within, nodes)))
    if full.verdict != "solved":
        return Measure(full.verdict, full.nodes)
    eager = search(EagerSpace(rules), start, Budget(nodes=nodes))
    obvious = obvious_player_wins(rules, deal) if needs_obvious(full.verdict, eager.verdict) else None
    m = Measure(full.verdict, full.nodes, eager.verdict, eager.nodes, obvious=obvious)
    return m if m.tricky or not noisy else replace(m, ease=noisy_wins(rules, deal))


def level_of(score: int, tricky: bool, thresholds: tuple[int, int]) -> str:
    """The level of a solvable deal from its score, trickiness and the thresholds.

    >>> [level_of(e, False, (10, 100)) for e in (10, 11, 100, 101)], level_of(5, True, (10, 100))
    (['easy', 'normal', 'normal', 'hard'], 'tricky')
    """
    if tricky:
        return "tricky"
    easy, normal = thresholds
    return "easy" if score <= easy else "normal" if score <= normal else "hard"


def grade(rules: Rules[Any, Any], deal: int, nodes: int = GRADE_NODES) -> Grade:
    """Measure a deal and give its level on the game's scale (:func:`scale_for`).

    >>> from cardtable.games import rules_for
    >>> g = grade(rules_for("devils-square"), 1)
    >>> g.solvable, g.level
    (False, None)
    """
    m = measure(rules, deal, nodes)
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
    scale = scale_for(rules)  # first: a live scale is measured before the deal
    # The search is depth-first and deterministic: stopped at the bound it has explored
    # exactly what the grading search explores first, so "won within the bound" is
    # "effort at most the bound", and a deal not won by then is not of the level.
    m = measure(rules, deal, noisy=level != "tricky", within=scale.effort_bound(level))
    return m.tricky if level == "tricky" else scale.level(m) == level


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

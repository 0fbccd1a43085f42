"""Deal levels: solvable deals graded by measured difficulty (grading, apart from the solver).

The package depends on :mod:`cardtable.solve` (its searches and spaces), which
depends on the games; nothing in ``solve`` imports it. Modules: :mod:`.measures`
(a deal's measurements), :mod:`.deal_tables` (scales, the shipped tables, dealing by
level), :mod:`.reference` (the reference player), :mod:`.position_value` and its per-game
modules (how good a position looks to it), :mod:`.player_demonthief` (its
Demonthief move set).

Every level but ``random`` deals only deals the solver has proved solvable.
The grade comes from three measurements (:func:`measure`):

- **effort**: how many positions the solver explores before it finds a win,
  searching in its human-like move order (safe and obvious moves first, see
  :mod:`cardtable.solve.spaces`). A deal where the obvious moves win needs
  little search; one where they keep leading astray needs a lot.
- **ease**: how many of :data:`NOISY_GAMES` noisy
  games of the reference player (:mod:`cardtable.levels.reference`: no search,
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
  the reference player (:mod:`cardtable.levels.reference`), who always makes the
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
are shipped in ``level_tables.json`` in this package, written by
``cardtable analyze tables`` from the deals ``cardtable analyze grade`` graded
(``docs/levels.md``, :mod:`cardtable.analysis.level_tables`): the population is the graded
solvable, non-tricky deals with an ease, the thresholds cut it, ordered by score, into the easiest fifth (easy),
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

from .deal_tables import (
    GRADED_LEVELS,
    KEYS,
    LEVELS,
    Grade,
    LevelKey,
    Scale,
    deal_for_level,
    grade,
    is_level,
    key_of,
    level_keys,
    level_of,
    level_tables,
    scale_for,
)
from .measures import GRADE_NODES, Measure, is_tricky, measure, needs_obvious
from .reference import NOISY_GAMES, obvious_player_wins, obvious_step

__all__ = [
    "GRADED_LEVELS",
    "GRADE_NODES",
    "KEYS",
    "LEVELS",
    "NOISY_GAMES",
    "Grade",
    "LevelKey",
    "Measure",
    "Scale",
    "deal_for_level",
    "grade",
    "is_level",
    "is_tricky",
    "key_of",
    "level_keys",
    "level_of",
    "level_tables",
    "measure",
    "needs_obvious",
    "obvious_player_wins",
    "obvious_step",
    "scale_for",
]

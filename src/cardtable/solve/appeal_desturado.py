"""The appeal of a Desturado position (:mod:`cardtable.solve.appeal`).

The appeal is read off the position alone, in two layers.

**Always: the plain progress of the position** (the solver's own move order,
:class:`cardtable.solve.spaces.DesturadoSpace`, read as a position value):

- ``-TURN_UP`` per face-down card: turning a card up is the best thing a move
  can do (it frees the column and shows what lies under it).
- ``+IN_HAND`` per card in the hand: cards in the hand are home for good.
- ``+EMPTY_COLUMN`` per empty board column: an empty column takes any unit
  with a face-down card under it, so spending it costs something.

These terms alone play the solver's first line of search. The deal levels are
graded by the solver's effort in that very order, so keeping them as the main
terms keeps the player's wins tied to the levels.

**In the endgame (at most** :data:`ENDGAME_DOWN` **cards face down): the shape
of the hand and the board.** A hand stack's top rank can only fall (a unit
fits on a card of the same rank or of the same suit and a higher rank), and the
last units left on the board need a hand top they fit on or an empty hand
space. Early on these terms only distract from turning cards up; in the
endgame they decide whether the last units find a home:

- ``+HAND_TOP_RANK`` per rank of each hand stack's top card: a high top takes
  many cards (a ten takes every card of its suit and the other tens), an ace
  only the other aces.
- ``+SUIT_CEILING`` per rank of the highest hand top of each suit: every card of
  that suit up to that rank has a home.
- ``+MERGEABLE`` per hand stack whose bottom card fits on another stack's top:
  merging it frees a hand space, which takes any unit.
- ``+FREE_SPACE`` per empty hand space.
- ``+MOBILE`` per board unit that has somewhere to go (a hand top, another
  column's top, an empty hand space, or an empty column when a face-down card
  lies under it): a unit that fits nowhere blocks its column.
- ``+BOARD_TOP_RANK`` per rank of each column's top card: a high top can still
  take other units.
- ``-DEEP_COLUMN`` per face-down card of the deepest column, and
  ``-SPREAD_DOWN`` per square of each column's face-down count: the last hidden
  cards are better spread over columns than buried in one.

The weights were tuned on the first 100 deals of each shipped level table
(``bench/levels_reference.py``).

>>> from cardtable.games import rules_for
>>> desturado_appeal(rules_for("desturado").deal(0))
-595.0
"""

from __future__ import annotations

from ..core.cards import RANK, SUIT
from ..games.desturado import FITS_HAND, DesturadoState

TURN_UP = 20.0
"""Weight of each face-down card (negative: fewer is better)."""
IN_HAND = 1.0
"""Weight of each card in the hand."""
EMPTY_COLUMN = 3.0
"""Weight of each empty board column."""

ENDGAME_DOWN = 5
"""The endgame terms count when at most this many cards are face down."""
HAND_TOP_RANK = 0.7
"""Weight of each rank of each hand stack's top card."""
SUIT_CEILING = 0.3
"""Weight of each rank of the highest hand top of each suit."""
MERGEABLE = 2.0
"""Weight of each hand stack that can merge onto another."""
FREE_SPACE = 0.3
"""Weight of each empty hand space."""
MOBILE = 0.5
"""Weight of each board unit that has somewhere to go."""
BOARD_TOP_RANK = 0.15
"""Weight of each rank of each column's top card."""
DEEP_COLUMN = 1.0
"""Weight of the deepest column's face-down count (negative)."""
SPREAD_DOWN = 2.0
"""Weight of the sum of squared face-down counts (negative)."""


def desturado_appeal(state: DesturadoState) -> float:
    """How good the position looks to a player who does not search (higher is better):
    the progress terms, plus the endgame terms once few cards are face down (module
    docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("desturado", mode="hard")
    >>> desturado_appeal(r.deal(1))  # 33 face down, 4 cards in the hand
    -656.0
    """
    columns, down, hand = state
    face_down = sum(down)
    value = (
        -TURN_UP * face_down + IN_HAND * sum(map(len, hand)) + EMPTY_COLUMN * sum(1 for column in columns if not column)
    )
    if face_down <= ENDGAME_DOWN:
        value += endgame_shape(state)
    return value


def endgame_shape(state: DesturadoState) -> float:
    """The endgame terms of the appeal (module docstring): hand tops, merges, free
    hand spaces, mobile units, board tops and the spread of the face-down cards.

    >>> from cardtable.core.cards import parse_card as c
    >>> open_space = DesturadoState(((c("9C"),),), (0,), ((c("TS"),), ()))
    >>> used_space = DesturadoState(((),), (0,), ((c("TS"),), (c("9C"),)))
    >>> endgame_shape(open_space), endgame_shape(used_space)
    (12.15, 19.0)
    """
    columns, down, hand = state
    tops = [stack[-1] for stack in hand if stack]
    free = len(hand) - len(tops)
    ceiling = [0, 0, 0, 0]
    for top in tops:
        ceiling[SUIT[top]] = max(ceiling[SUIT[top]], RANK[top])
    top_ranks = {RANK[top] for top in tops}
    column_tops = [column[-1] for column in columns if column]
    empty_column = len(column_tops) < len(columns)
    mobile = 0
    for column, under in zip(columns, down, strict=True):
        if not column:
            continue
        bottom = column[under]
        fit = FITS_HAND[bottom]
        if (
            free
            or RANK[bottom] <= ceiling[SUIT[bottom]]
            or RANK[bottom] in top_ranks
            or any(fit[top] for top in column_tops if top != column[-1])
            or (empty_column and under)
        ):
            mobile += 1
    ends = [(stack[0], stack[-1]) for stack in hand if stack]
    mergeable = sum(
        1
        for k, (bottom, _) in enumerate(ends)
        if any(FITS_HAND[bottom][top] for j, (_, top) in enumerate(ends) if j != k)
    )
    return (
        HAND_TOP_RANK * sum(RANK[top] for top in tops)
        + SUIT_CEILING * sum(ceiling)
        + MERGEABLE * mergeable
        + FREE_SPACE * free
        + MOBILE * mobile
        + BOARD_TOP_RANK * sum(RANK[top] for top in column_tops)
        - DEEP_COLUMN * max(down)
        - SPREAD_DOWN * sum(d * d for d in down)
    )

"""The appeal of a Desturado position (:mod:`cardtable.levels.position_value`).

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

**In hard mode (3 columns of 12, 4 hand spaces), all game long: the shape of
the hand.** With 33 cards face down and only 4 hand spaces, the player that
only turns cards up fills its hand spaces early with units whose tops soon fall
to aces and twos, and the last long units find no home. A strong player keeps
the hand open from the start, so in hard mode (the position has
:data:`HARD_COLUMNS` columns) :func:`hard_shape` adds:

- ``+HARD_FREE_SPACE`` per empty hand space: it takes any unit, so filling it
  costs something.
- ``+HARD_TOP_RANK`` per rank of each hand stack's top card: a high top takes
  more cards.
- ``+HARD_MERGEABLE`` per hand stack whose bottom card fits on another stack's
  top: the merge frees a hand space.
- ``-HARD_LOW_BOTTOM`` per hand stack whose bottom card is at most
  :data:`LOW_RANK`: a low card started a stack that takes little and can only
  merge onto low tops.
- ``-HARD_HOMELESS`` per board unit whose bottom card fits on no hand top
  (neither the rank of a top nor under the highest top of its suit): it needs
  another column or an empty hand space.
- ``+HARD_BOARD_TOP_RANK`` per rank of each column's top card: a high top can
  still take other units, so long units grow on the board.
- ``-HARD_DEEP_COLUMN`` per face-down card of the deepest column and
  ``-HARD_SPREAD_DOWN`` per square of each column's face-down count: a column
  that is never dug out keeps its cards buried to the end.

These terms change the player's line from the solver's first one, so they cost
some of the tie between its wins and the levels; they are worth it only in hard
mode, where the plain player wins almost nothing past the easy level. In easy
and medium mode they are left out (the shares fall clearly without them).

The weights were tuned on the first 100 deals of each shipped level table (by a
bench script since replaced by ``cardtable analyze``); the hard-mode weights by a
random search, checked on the next 200 deals.

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

HARD_COLUMNS = 3
"""Board columns of hard mode: :func:`hard_shape` counts in positions with this many."""
LOW_RANK = 3
"""A hand stack whose bottom card is at most this rank counts as a low stack."""
HARD_FREE_SPACE = 2.0
"""Hard mode: weight of each empty hand space."""
HARD_TOP_RANK = 0.53
"""Hard mode: weight of each rank of each hand stack's top card."""
HARD_MERGEABLE = 5.5
"""Hard mode: weight of each hand stack that can merge onto another."""
HARD_LOW_BOTTOM = 1.3
"""Hard mode: weight of each hand stack with a low bottom card (negative)."""
HARD_HOMELESS = 4.24
"""Hard mode: weight of each board unit that fits on no hand top (negative)."""
HARD_BOARD_TOP_RANK = 0.4
"""Hard mode: weight of each rank of each column's top card."""
HARD_DEEP_COLUMN = 1.4
"""Hard mode: weight of the deepest column's face-down count (negative)."""
HARD_SPREAD_DOWN = 0.6
"""Hard mode: weight of the sum of squared face-down counts (negative)."""


def desturado_appeal(state: DesturadoState) -> float:
    """How good the position looks to a player who does not search (higher is better):
    the progress terms, plus the endgame terms once few cards are face down, plus the
    hard-mode terms in hard mode (module docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("desturado", mode="medium")
    >>> desturado_appeal(r.deal(1))  # 32 face down, 4 cards in the hand
    -636.0
    """
    columns, down, hand = state
    face_down = sum(down)
    value = (
        -TURN_UP * face_down + IN_HAND * sum(map(len, hand)) + EMPTY_COLUMN * sum(1 for column in columns if not column)
    )
    if face_down <= ENDGAME_DOWN:
        value += endgame_shape(state)
    if len(columns) == HARD_COLUMNS:
        value += hard_shape(state)
    return value


def hard_shape(state: DesturadoState) -> float:
    """The hard-mode terms of the appeal (module docstring): free hand spaces, hand
    tops, merges, low stacks, homeless board units, board tops and the spread of the
    face-down cards.

    >>> from cardtable.core.cards import parse_card as c
    >>> board = ((c("2C"), c("9H")), (c("8D"),), (c("5S"),))
    >>> open_space = DesturadoState(board, (1, 0, 0), ((c("TH"),), ()))
    >>> low_start = DesturadoState(board, (1, 0, 0), ((c("TH"),), (c("2D"),)))
    >>> hard_shape(open_space) > hard_shape(low_start)
    True
    """
    columns, down, hand = state
    tops = [stack[-1] for stack in hand if stack]
    ceiling = [0, 0, 0, 0]
    for top in tops:
        ceiling[SUIT[top]] = max(ceiling[SUIT[top]], RANK[top])
    top_ranks = {RANK[top] for top in tops}
    homeless = sum(
        1
        for column, under in zip(columns, down, strict=True)
        if column and RANK[column[under]] > ceiling[SUIT[column[under]]] and RANK[column[under]] not in top_ranks
    )
    ends = [(stack[0], stack[-1]) for stack in hand if stack]
    mergeable = sum(
        1
        for k, (bottom, _) in enumerate(ends)
        if any(FITS_HAND[bottom][top] for j, (_, top) in enumerate(ends) if j != k)
    )
    return (
        HARD_FREE_SPACE * (len(hand) - len(tops))
        + HARD_TOP_RANK * sum(RANK[top] for top in tops)
        + HARD_MERGEABLE * mergeable
        - HARD_LOW_BOTTOM * sum(1 for bottom, _ in ends if RANK[bottom] <= LOW_RANK)
        - HARD_HOMELESS * homeless
        + HARD_BOARD_TOP_RANK * sum(RANK[column[-1]] for column in columns if column)
        - HARD_DEEP_COLUMN * max(down)
        - HARD_SPREAD_DOWN * sum(d * d for d in down)
    )


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

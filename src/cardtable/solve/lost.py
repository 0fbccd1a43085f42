"""Proofs without search that a position can no longer be won.

Klondike (:func:`klondike_lost`): a *relaxed game* that forgets when things
happen. Every card of a winning line reaches its foundation at least once, and
in the real game:

- a card goes home only after the card below it in its suit, and only from
  where it can be reached: the stock and waste, a foundation, a face-up card;
- a face-down card is reached only after the card lying on it has left its pile.
  That card (the bottom of the face-up run, or the face-down card above) leaves
  either to its foundation, or onto a *parent* (a card one rank higher of the
  other colour) lying face up on the tableau at that moment, or, a king, into an
  empty pile;
- a card lies face up on the tableau only if it was dealt face up, was turned
  up, or was played there from the stock, the waste or a foundation, onto a
  parent lying there or, a king, into an empty pile.

The relaxed game keeps these conditions and nothing else: once a card may be
reached, or may lie on the tableau, it stays so for good, and a card that went
home may still serve as a parent. Its reachable cards, tableau cards and home
cards only grow, so it is worked out as a fixpoint, in time linear in the
moves of the fixpoint. Every event of a real winning line is allowed in the
relaxed game by the time it happens (by induction along the line), so if the
relaxed game cannot bring every card home, no real line can. The converse does
not hold: most lost deals pass the test and need the search.

Example: a pile holding, from the bottom, the 4 of hearts, the 4 of diamonds and
the 2 of spades face down under the 3 of spades. The 3 of spades can only leave
for its foundation (both its parents lie under it), which needs the 2 of spades,
which lies under it: no line wins. Of the first 12,000 Klondike draw 3 deals,
458 are proved lost this way (none of the 6,843 the grading search won);
``bench/klondike_lost.py`` counts them.

>>> from cardtable.games import rules_for
>>> klondike_lost(rules_for("klondike").deal(13))
True
>>> klondike_lost(rules_for("klondike").deal(0))
False
"""

from __future__ import annotations

from typing import Any

from ..core.rules import Rules
from ..core.spec import resolve
from ..games import spec_for
from ..games.klondike import GOES_ON, KlondikeState

PARENTS: tuple[tuple[int, ...], ...] = tuple(tuple(t for t in range(52) if c in GOES_ON[t]) for c in range(52))
"""The cards a card may lie on in the tableau (one rank higher, the other colour), the
rules' ``GOES_ON`` turned round; none for a king, which goes into an empty pile instead."""


def klondike_lost(state: KlondikeState) -> bool:
    """Whether the relaxed game of the module docstring proves that ``state`` can no
    longer be won (False: not proved, the search must tell).

    >>> from cardtable.games import rules_for
    >>> klondike_lost(rules_for("klondike").deal(48)), klondike_lost(rules_for("klondike").deal(1))
    (True, False)
    """
    home = [False] * 52
    for suit, height in enumerate(state.foundations):
        for rank in range(height):
            home[suit * 13 + rank] = True
    # Off the tableau: the stock, the waste and the foundations. These cards can be
    # reached (stock cycling, foundation tops), and lie on the tableau once played there.
    off_tableau = [*state.stock, *state.waste, *(c for c in range(52) if home[c])]
    reached = [False] * 52
    on_tableau = [False] * 52
    for c in off_tableau:
        reached[c] = True
    # Each pile's blockers, top first: the bottom card of its face-up run, then its
    # face-down cards from the top down. Each must leave before the next is reached.
    blockers: list[list[int]] = []
    for pile, down in zip(state.tableau, state.down, strict=True):
        for c in pile[down:]:
            reached[c] = on_tableau[c] = True
        blockers.append([pile[down], *reversed(pile[:down])] if pile else [])
    cleared = [0] * len(blockers)
    heights = list(state.foundations)

    def placeable(c: int) -> bool:
        """Whether ``c`` may be put on the tableau: a king, or a parent lies there."""
        return not PARENTS[c] or any(on_tableau[p] for p in PARENTS[c])

    changed = True
    while changed:
        changed = False
        for c in off_tableau:
            if not on_tableau[c] and placeable(c):
                on_tableau[c] = changed = True
        for suit in range(4):
            while heights[suit] < 13 and reached[suit * 13 + heights[suit]]:
                home[suit * 13 + heights[suit]] = True
                heights[suit] += 1
                changed = True
        for i, pile_blockers in enumerate(blockers):
            while cleared[i] < len(pile_blockers):
                c = pile_blockers[cleared[i]]
                if not (home[c] or placeable(c)):
                    break
                cleared[i] += 1
                changed = True
                if cleared[i] < len(pile_blockers):
                    below = pile_blockers[cleared[i]]
                    reached[below] = on_tableau[below] = True
    return sum(heights) < 52


def proved_lost(rules: Rules[Any, Any], state: Any) -> bool:
    """Whether a proof without search shows that ``state`` can no longer be won: the proof
    the game declares (:attr:`~cardtable.core.spec.GameSpec.lost`: the relaxed game,
    :func:`klondike_lost`, for Klondike, any options), False for a game without one.

    >>> from cardtable.games import rules_for
    >>> proved_lost(rules_for("klondike", draw=1), rules_for("klondike", draw=1).deal(13))
    True
    >>> proved_lost(rules_for("demonthief"), rules_for("demonthief").deal(0))
    False
    """
    lost = spec_for(rules.name).lost
    return lost is not None and bool(resolve(lost)(state))

"""The reference player of Demonthief and Demons and Thieves: single moves, as a person plays.

The reference player (:mod:`cardtable.levels.reference`) of the other games plays the
solver's moves, and the Demonthief solver's space offers "draw k cards, then play
the card now on top" as one move; forced to take any such move that puts a card
home, the player dug deep into the stock for one card and buried everything drawn
past it (Demonthief has no redeal). :class:`DemonthiefPlayer` plays the single
moves of the rules instead (:meth:`~cardtable.games.demonthief.Demonthief.legal_moves`,
one draw at a time), looking one move ahead and no further: it sorts the legal
moves into tiers and offers each tier's moves best first, the best by the
position each one leads to (:func:`~cardtable.levels.position_value_demonthief.demonthief_appeal`;
the rules' move order breaks ties):

1. **a safe move** (:meth:`~cardtable.games.demonthief.Demonthief.auto_move`), alone:
   a card nothing can ever be built on again goes home;
2. **a card to a foundation**, from the waste, the reserve or the tableau;
3. **a move that helps**:

   - the reserve's top card onto any tableau pile (the reserve shrinks and its
     next card turns up);
   - the waste's top card onto a tableau card (it is saved from being buried
     under the next draws), or into an empty pile when that lets a card go home
     or when the stock is empty (the waste can then only shrink from its top, and
     the solver's wins park waste cards in empty piles: in its wins of 20 easy
     deals 244 moves do so, and the player without this rule chose the same move
     at only 10 of those positions; the rule took the player from 9 to 17 wins in
     the first 100 easy deals);
   - a tableau move that achieves something visible in the position it leads to:
     it empties a pile, lets more top cards go home, lets the waste's or the
     reserve's top card be placed on a tableau card, or leaves fewer tableau
     cards off their proper predecessor (same suit one rank higher on the
     right, the other colour one rank higher on the left);

4. **draw one card**, when nothing above is left;
5. **redeal** (Demons and Thieves), when the stock is empty.

A tableau move that achieves none of these is never made, so the player does not
wander; the reference player also never returns to a position it has seen, so a
game ends.

>>> from cardtable.games import rules_for
>>> r = rules_for("demonthief")
>>> [str(m[0]) for m, _ in DemonthiefPlayer(r).children(r.deal(0))]  # deal 0: no card goes home
['42', 'x5', '81', '86', 'd']
"""

from __future__ import annotations

from collections.abc import Iterator

from ..games.demonthief import (
    DRAW,
    FOUNDATION,
    LEFT_TAKES,
    PREV,
    REDEAL,
    RESERVE,
    WASTE,
    Demonthief,
    DemonthiefMove,
    DemonthiefState,
    goes_home,
)
from .position_value_demonthief import demonthief_appeal

PlayerEdge = tuple[tuple[DemonthiefMove], DemonthiefState]
"""One move of the player and the position it leads to."""

HOME, HELPS, DRAWS, REDEALS = range(4)
"""The tiers after a safe move, in the player's order (module docstring)."""

LEFT_PILES = 4
"""Tableau piles ``0..3`` are the left side (alternate colour), the rest the right (in suit)."""


def tops_home(state: DemonthiefState) -> int:
    """How many top cards (waste, reserve, tableau piles) may go to a foundation now.

    >>> from cardtable.games import rules_for
    >>> tops_home(rules_for("demonthief").deal(0))
    0
    """
    found, base = state.foundations, state.base
    return sum(1 for pile in (state.waste, state.reserve, *state.tableau) if pile and goes_home(pile[-1], found, base))


def placeable(state: DemonthiefState) -> int:
    """How many of the waste's and the reserve's top cards fit on a tableau card.

    >>> from cardtable.games import rules_for
    >>> placeable(rules_for("demonthief").deal(0))  # the reserve's 4H on pile 5's 5H
    1
    """
    count = 0
    for stack in (state.waste, state.reserve):
        if stack and any(_fits(stack[-1], pile, j) for j, pile in enumerate(state.tableau) if pile):
            count += 1
    return count


def breaks(state: DemonthiefState) -> int:
    """How many tableau cards are not on their proper predecessor (the card the pile's
    rule lets them go on).

    >>> from cardtable.games import rules_for
    >>> breaks(rules_for("demonthief").deal(0))  # of the 35 cards above a pile's bottom
    35
    """
    count = 0
    for j, pile in enumerate(state.tableau):
        count += sum(1 for k in range(1, len(pile)) if not _fits(pile[k], pile[:k], j))
    return count


def empties(state: DemonthiefState) -> int:
    """How many tableau piles are empty.

    >>> from cardtable.games import rules_for
    >>> empties(rules_for("demonthief").deal(0))
    0
    """
    return sum(1 for pile in state.tableau if not pile)


def _fits(card: int, pile: tuple[int, ...], j: int) -> bool:
    """Whether ``card`` goes on the non-empty tableau pile ``j`` holding ``pile``."""
    top = pile[-1]
    return LEFT_TAKES[top * 52 + card] if j < LEFT_PILES else PREV[top] == card


def helps(state: DemonthiefState, move: DemonthiefMove, after: DemonthiefState) -> bool:
    """Whether a move to the tableau is one the player makes (tier 3 of the module docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("demonthief"); s = r.deal(0)
    >>> [str(m) for m in r.legal_moves(s) if m != DRAW and helps(s, m, r.apply(s, m))]
    ['42', '81', '86', 'x5']
    """
    if move.src == RESERVE:
        return True
    more_home = tops_home(after) > tops_home(state)
    if move.src == WASTE:
        return bool(state.tableau[move.dst]) or more_home or not state.stock
    return (
        more_home
        or empties(after) > empties(state)
        or placeable(after) > placeable(state)
        or breaks(after) < breaks(state)
    )


class DemonthiefPlayer:
    """The Demonthief reference player's moves (module docstring): ``children`` offers
    each position's candidate single moves in the player's order of preference.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("demons-and-thieves"); p = DemonthiefPlayer(r)
    >>> p.is_won(r.deal(0))
    False
    """

    def __init__(self, rules: Demonthief) -> None:
        self.rules = rules

    def is_won(self, state: DemonthiefState) -> bool:
        """Whether the position is won (all 104 cards home).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("demonthief"); DemonthiefPlayer(r).is_won(r.deal(1))
        False
        """
        return self.rules.is_won(state)

    def children(self, state: DemonthiefState) -> Iterator[PlayerEdge]:
        """The candidate moves, one each, with the positions they lead to, best first: a
        safe move alone if there is one, else the tiers of the module docstring, each
        sorted by the appeal of the position reached (the rules' order among equals).
        A tableau move that does not help is left out.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("demonthief"); s = r.deal(0)
        >>> [str(m[0]) for m, _ in DemonthiefPlayer(r).children(s)][-2:]
        ['86', 'd']
        """
        rules = self.rules
        safe = rules.auto_move(state)
        if safe is not None:
            yield (safe,), rules.apply(state, safe)
            return
        tiers: list[list[tuple[float, PlayerEdge]]] = [[] for _ in range(REDEALS + 1)]
        for move in rules.legal_moves(state):
            after = rules.apply(state, move)
            if move.dst == FOUNDATION:
                tier = HOME
            elif move == DRAW:
                tier = DRAWS
            elif move == REDEAL:
                tier = REDEALS
            elif helps(state, move, after):
                tier = HELPS
            else:
                continue
            tiers[tier].append((demonthief_appeal(after), ((move,), after)))
        for edges in tiers:
            # sorted() is stable: the rules' order breaks ties.
            for _, edge in sorted(edges, key=lambda e: -e[0]):
                yield edge

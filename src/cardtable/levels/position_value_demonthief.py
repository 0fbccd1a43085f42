"""The appeal of a Demonthief position (:mod:`cardtable.levels.position_value`), used for both
Demonthief and Demons and Thieves.

It reads the position as a player who does not search would, and sums weighted terms
(higher is better). A card's *distance* is how many cards of its suit must reach a
foundation before it can: 0 for a card that could go home now (a base-rank card
while a foundation of its suit is still unstarted, or the card just above a
foundation's top), more for later ones. The terms:

- **home** (``W_HOME`` per card on the foundations): the goal itself.
- **reserve** (``W_RESERVE`` per reserve card left): the reserve is a stack whose
  hidden cards only come out one at a time, so emptying it opens the game; but
  the reserve waits while the waste's top card is gone with the next draw, so a
  reserve card played counts for less than a waste card saved from burial
  (:mod:`cardtable.levels.player_demonthief` weighs the two by this term).
- **waste** (``W_WASTE`` per waste card): Demonthief has no redeal, so every card
  drawn past is buried under the ones drawn after it; a draw of many cards to reach
  one playable card costs one point per card buried.
- **waste order** (``W_WASTE_BLOCK`` per waste card lying above a card needed
  sooner): such a card must find a place in the tableau before the card under it
  can go home.
- **tableau order** (``W_BLOCK`` per tableau card above a card of its pile needed
  sooner, and ``W_BREAK`` per tableau card not on its proper predecessor, the
  same suit one rank higher on the right, the other colour one rank higher on the
  left): ordered piles go home from the top down and move as whole groups; every
  break is a unit that needs a place of its own.
- **empty piles** (``W_EMPTY`` per empty tableau pile): an empty pile takes any card
  or group, the most flexible resource of the game.
- **buried needed cards** (``W_NEED`` per card lying above a card of distance 0, in
  a tableau pile, the waste or the reserve): the next foundation cards should be
  dug out; this term gives the player a gradient towards freeing them one card at
  a time.

The stock's order is not read (its cards are face down): the cost of a draw is seen
only through the cards it leaves in the waste.

>>> from cardtable.games import rules_for
>>> r = rules_for("demonthief"); s = r.deal(0)
>>> demonthief_appeal(s) > demonthief_appeal(s._replace(waste=s.stock[-3:], stock=s.stock[:-3]))
True
"""

from __future__ import annotations

from ..core.cards import RANK, SUIT
from ..games.demonthief import LEFT_TAKES, PREV, DemonthiefState

W_HOME = 10.0
"""Per card on the foundations."""
W_RESERVE = 5.0
"""Per card left in the reserve (tuned on the reference player's wins: 15 and 0.5 did worse)."""
W_WASTE = 1.0
"""Per card in the waste."""
W_WASTE_BLOCK = 2.0
"""Per waste card above a card needed sooner."""
W_BLOCK = 1.0
"""Per tableau card above a card of its pile needed sooner."""
W_BREAK = 2.0
"""Per tableau card not on its proper predecessor (the pile's building rule)."""
W_EMPTY = 10.0
"""Per empty tableau pile."""
W_NEED = 3.0
"""Per card lying above a card that could go home now (tableau, waste, reserve)."""

_FAR = 99  # larger than any distance


def distances(state: DemonthiefState) -> list[int]:
    """Each card's distance (indexed by card, 0..51): how many cards of its suit must
    reach a foundation before it can (0: it could go home now). A card both copies
    of which are home gets ``_FAR``.

    >>> from cardtable.games import rules_for
    >>> from cardtable.core.cards import parse_card
    >>> s = rules_for("demonthief").deal(0)  # base rank T, f1 holds TH
    >>> d = distances(s)
    >>> d[parse_card("JH")], d[parse_card("TS")], d[parse_card("QH")], d[parse_card("9H")]
    (0, 0, 1, 11)
    """
    base = state.base
    levels = [[0, 0] for _ in range(4)]
    for t in state.foundations:
        if t >= 0:
            lv = levels[SUIT[t]]
            lv[0 if lv[0] == 0 else 1] = (RANK[t] - base) % 13 + 1
    out = []
    for c in range(52):
        p = (RANK[c] - base) % 13 + 1
        below = [x for x in levels[SUIT[c]] if x < p]
        out.append(p - 1 - max(below) if below else _FAR)
    return out


def _stack_terms(cards: tuple[int, ...], dist: list[int]) -> tuple[int, int]:
    """For a stack of cards (bottom first): how many lie above a card needed sooner,
    and how many lie above a card of distance 0 (counted once per such card)."""
    blocked = 0
    need = 0
    low = _FAR
    n = len(cards)
    for k, c in enumerate(cards):
        d = dist[c]
        if d > low:
            blocked += 1
        elif d < low:
            low = d
        if d == 0:
            need += n - 1 - k
    return blocked, need


def demonthief_appeal(state: DemonthiefState) -> float:
    """How good the position looks to a player who does not search (higher is better);
    the terms are those of the module docstring.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("demonthief"); s = r.deal(0)
    >>> demonthief_appeal(s)
    -222.0
    >>> demonthief_appeal(r.apply(s, r.parse_move("x5")))  # one reserve card fewer
    -212.0
    """
    dist = distances(state)
    home = sum((RANK[t] - state.base) % 13 + 1 for t in state.foundations if t >= 0)
    block = 0
    breaks = 0
    need = 0
    empty = 0
    for j, pile in enumerate(state.tableau):
        if not pile:
            empty += 1
            continue
        b, n = _stack_terms(pile, dist)
        block += b
        need += n
        left = j < 4
        for k in range(1, len(pile)):
            a, c = pile[k - 1], pile[k]
            if not (LEFT_TAKES[a * 52 + c] if left else PREV[a] == c):
                breaks += 1
    waste_block, waste_need = _stack_terms(state.waste, dist)
    need += waste_need + _stack_terms(state.reserve, dist)[1]
    return (
        W_HOME * home
        - W_RESERVE * len(state.reserve)
        - W_WASTE * len(state.waste)
        - W_WASTE_BLOCK * waste_block
        - W_BLOCK * block
        - W_BREAK * breaks
        + W_EMPTY * empty
        - W_NEED * need
    )

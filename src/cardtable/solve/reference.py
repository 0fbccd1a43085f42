"""The reference heuristic player: plays the obvious move, with no search.

At each position it looks at the moves in the solver's move order
(:func:`cardtable.solve.spaces.space_for`: a safe move alone when there is one,
else moves to a foundation and moves turning a card up first; in Klondike a card
the stock can bring to the waste is played by drawing to it and playing it):

1. its candidates are the single moves that make immediate progress
   (:func:`~cardtable.core.progress.is_progress` of the game's progress measure: a
   card to a foundation or to the hand, a card turned up, a book made, a card
   dealt) if there are any, else every move;
2. among the candidates that lead to a position not seen before in this game, it
   plays the one whose position has the highest appeal
   (:func:`cardtable.solve.appeal.appeal_for`, how good the position looks; the
   first in the solver's order among equals);
3. if there is no such move, it has lost (it never undoes).

These are the moves of :class:`~cardtable.solve.levels.EagerSpace` (the eager
player's), tried in order without going back, so a game the reference player
wins is a line the eager search would find: it can never win a deal graded
``tricky`` (the eager search proved that no eager line wins). Every position is
new, so a game ends.

It measures how far the levels differ: ``bench/levels_reference.py`` plays it on
the level tables' deals (``docs/levels.md``).

>>> from cardtable.games import rules_for
>>> obvious_player_wins(rules_for("klondike"), 7)  # tricky: the eager search proved it lost
False
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from ..core.rules import Rules
from .appeal import appeal_for
from .levels import EagerSpace


@dataclass(frozen=True)
class ObviousGame:
    """A game of the reference player: whether it won, and the moves it played.

    >>> ObviousGame(False).moves
    []
    """

    won: bool
    moves: list[Any] = field(default_factory=list)


def obvious_play(rules: Rules[Any, Any], state: Any) -> ObviousGame:
    """Play the reference player from ``state`` to a win or a loss (module docstring).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> game = obvious_play(r, r.deal(5))
    >>> game.won, len(game.moves) > 52
    (True, True)
    """
    space = EagerSpace(rules)
    appeal = appeal_for(rules)
    seen: set[Hashable] = {state}
    moves: list[Any] = []
    while not space.is_won(state):
        fresh = [(step, after) for step, after in space.children(state) if after not in seen]
        if not fresh:
            return ObviousGame(False, moves)
        # max() keeps the first of equals: the solver's order breaks ties.
        step, state = max(fresh, key=lambda edge: appeal(edge[1]))
        seen.add(state)
        moves.extend(step)
    return ObviousGame(True, moves)


def obvious_player_wins(rules: Rules[Any, Any], deal: int) -> bool:
    """Whether the reference player wins the deal.

    >>> from cardtable.games import rules_for
    >>> obvious_player_wins(rules_for("klondike"), 5), obvious_player_wins(rules_for("klondike"), 7)
    (True, False)
    """
    return obvious_play(rules, rules.deal(deal)).won

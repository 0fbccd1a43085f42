"""The reference heuristic player: plays the obvious move, with no search.

In every game but Demonthief and Demons and Thieves, at each position it looks at
the moves in the solver's move order
(:func:`cardtable.solve.spaces.space_for`: a safe move alone when there is one,
else moves to a foundation and moves turning a card up first; in Klondike a card
the stock can bring to the waste is played by drawing to it and playing it):

1. its candidates are the single moves that make immediate progress
   (:func:`~cardtable.core.progress.is_progress` of the game's progress measure: a
   card to a foundation or to the hand, a card turned up, a book made, a card
   dealt) if there are any, else every move;
2. among the candidates that lead to a position not seen before in this game, it
   plays the one whose position has the highest appeal
   (:func:`cardtable.levels.position_value.appeal_for`, how good the position looks; the
   first in the solver's order among equals);
3. if there is no such move, it has lost (it never undoes).

These are the moves of :class:`~cardtable.solve.spaces.EagerSpace` (the eager
player's), tried in order without going back, so a game the reference player
wins is a line the eager search could find.

In Demonthief and Demons and Thieves it plays single moves of the rules instead,
one card drawn at a time, as a person plays
(:class:`~cardtable.levels.player_demonthief.DemonthiefPlayer`): a safe move, else
a card to a foundation, else a move that visibly helps (a reserve card to the
tableau, the waste card onto a tableau card, a tableau move that empties a pile,
frees a card to go home or a place for the waste or reserve card, or joins cards
onto their proper predecessor), else a draw, else a redeal; the best of a tier by
the appeal of the position it leads to, the first new one taken.

In every game a deal it wins is not tricky: a tricky deal is one this player
loses and the eager search does not win (:func:`cardtable.levels.is_tricky`).

Every position the player reaches is new, so a game ends.

It measures how far the levels differ: ``cardtable analyze`` plays it on the
level tables' deals (its win share by level: ``docs/analysis.md``, ``docs/levels.md``).

>>> from cardtable.games import rules_for
>>> obvious_player_wins(rules_for("klondike"), 7)  # tricky: no eager line wins it
False
"""

from __future__ import annotations

from collections.abc import Container, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.rules import Rules
from ..core.shuffle import SplitMix64
from ..core.spec import resolve
from ..games import spec_for
from ..solve.spaces import EagerSpace, equivalent_start
from ..solve.types import Edge
from .position_value import Appeal, appeal_for


class PlayerSpace(Protocol):
    """The moves a reference player considers: :class:`EagerSpace` or
    the player a game declares (:attr:`~cardtable.core.spec.GameSpec.reference_player`,
    :class:`~cardtable.levels.player_demonthief.DemonthiefPlayer`)."""

    def is_won(self, state: Any) -> bool:
        """Whether the position is won."""

    def children(self, state: Any) -> Iterable[Edge]:
        """The candidate moves and the positions they lead to."""


NOISY_GAMES = 8
"""Noisy games of the reference player per graded deal (the ease: how many win)."""

NOISE = 20
"""In a noisy game, one move in this many (on average) is chosen at random."""


@dataclass(frozen=True)
class ObviousGame:
    """A game of the reference player: whether it won, and the moves it played.

    >>> ObviousGame(False).moves
    []
    """

    won: bool
    moves: list[Any] = field(default_factory=list)


def obvious_play(rules: Rules[Any, Any], state: Any, noise: SplitMix64 | None = None) -> ObviousGame:
    """Play the reference player from ``state`` to a win or a loss (module docstring).

    With ``noise`` it plays a *noisy game*: before each move it draws from ``noise``,
    and one time in :data:`NOISE` it plays a candidate chosen at random (uniformly,
    among those leading to a new position) instead of its own choice.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> game = obvious_play(r, r.deal(5))
    >>> game.won, len(game.moves) > 52
    (True, True)
    """
    # The equivalent rules the search space offers (Klondike's redeals beyond what can
    # matter: unlimited) make the same moves, each legal under ``rules``, and cost less.
    rules, state = equivalent_start(rules, state)
    space, appeal = _player(rules)
    seen: set[Hashable] = {state}
    moves: list[Any] = []
    while not space.is_won(state):
        chosen = _choose(space, appeal, state, seen, noise)
        if chosen is None:
            return ObviousGame(False, moves)
        step, state = chosen
        seen.add(state)
        moves.extend(step)
    return ObviousGame(True, moves)


def noisy_wins(rules: Rules[Any, Any], deal: int, games: int = NOISY_GAMES) -> int:
    """How many of ``games`` noisy games of the reference player (:func:`obvious_play`
    with noise) win the deal: game ``i`` draws its noise from ``SplitMix64(deal * 256 + i)``,
    so the count is the same on every machine.

    >>> from cardtable.games import rules_for
    >>> noisy_wins(rules_for("klondike"), 5) == noisy_wins(rules_for("klondike"), 5) <= NOISY_GAMES
    True
    """
    start = rules.deal(deal)
    return sum(obvious_play(rules, start, SplitMix64(deal * 256 + i)).won for i in range(games))


def _player(rules: Rules[Any, Any]) -> tuple[PlayerSpace, Appeal | None]:
    """The reference player's moves for a game, and the appeal that chooses among them
    (None: the first new one, they come best first).

    >>> from cardtable.games import rules_for
    >>> [type(s).__name__ for s, _ in (_player(rules_for("klondike")), _player(rules_for("demonthief")))]
    ['EagerSpace', 'DemonthiefPlayer']
    """
    player = spec_for(rules.name).reference_player
    if player is not None:  # the game's own move set (Demonthief's), best first
        space: PlayerSpace = resolve(player)(rules)
        return space, None
    return EagerSpace(rules), appeal_for(rules)


def _choose(
    space: PlayerSpace, appeal: Appeal | None, state: Any, seen: Container[Hashable], noise: SplitMix64 | None = None
) -> Edge | None:
    """The reference player's edge from ``state`` avoiding the positions ``seen``, or None;
    with ``noise``, one time in :data:`NOISE` a random one of them."""
    fresh = [(step, after) for step, after in space.children(state) if after not in seen]
    if not fresh:
        return None
    if noise is not None and noise.below(NOISE) == 0:
        return fresh[noise.below(len(fresh))]
    if appeal is None:
        return fresh[0]
    # max() keeps the first of equals: the solver's order breaks ties.
    return max(fresh, key=lambda edge: appeal(edge[1]))


def obvious_step(rules: Rules[Any, Any], state: Any) -> Edge | None:
    """The reference player's choice at ``state`` (module docstring): the moves it plays
    (in Klondike a play from the stock comes with the draws before it; in Demonthief
    one move) and the position they reach, or None when it has no move.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> [str(m) for m in obvious_step(r, r.deal(0))[0]]
    ['3f']
    >>> r = rules_for("klondike", redeals=10**6); s = r.apply(r.deal(1), r.parse_move("d"))
    >>> obvious_step(r, s)[1].redeals_used  # no redeal on the way
    0
    """
    # Chosen under the equivalent rules (as obvious_play plays), played under ``rules``.
    search_rules, search_state = equivalent_start(rules, state)
    step = _choose(*_player(search_rules), search_state, (search_state,))
    if step is None or search_rules is rules:
        return step
    after = state
    for move in step[0]:
        after = rules.apply(after, move)
    return step[0], after


def obvious_player_wins(rules: Rules[Any, Any], deal: int) -> bool:
    """Whether the reference player wins the deal.

    >>> from cardtable.games import rules_for
    >>> obvious_player_wins(rules_for("klondike"), 5), obvious_player_wins(rules_for("klondike"), 7)
    (True, False)
    """
    return obvious_play(rules, rules.deal(deal)).won

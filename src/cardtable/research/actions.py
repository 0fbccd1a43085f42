"""A fixed action space per game and mode: every move the game can ever have, numbered once.

Reinforcement-learning and game-theory libraries want actions as numbers
``0 .. n-1`` from a set that never changes during a game, plus a mask of the
legal ones. :func:`action_space` builds that list for a game's rules: the
moves are the rules' own move values (so ``str(move)`` is the notation), in
the documented order below, which is stable across releases (a change would
be a new environment version). ``action_to_move`` and ``move_to_action`` go
both ways; :meth:`ActionSpace.mask` marks the legal moves of a position,
from the game's one legal-move generator.

The numbering, per game (``n`` is a card count, ``i``, ``j`` piles):

===================== ====== ==========================================================
game (mode)           size   actions in order
===================== ====== ==========================================================
klondike              591    ``d``, ``r``, ``wf``, ``1f``..``7f``, ``w1``..``w7``,
                             ``fc1``..``fs7`` (foundation suit, then pile), then
                             ``ij:n`` for i, j in 1..7 (i != j), n in 1..13
demonthief,           7447   ``d``, ``r``, ``1f``..``9f``, ``wf``, ``xf``, ``w1``..``w9``,
demons-and-thieves           ``x1``..``x9``, then ``ij:n`` for i, j in 1..9 (i != j),
                             n in 1..103 (runs wrap from ace to king: no shorter bound)
desturado easy        65     column to any other place, then hand space to hand space,
desturado medium      40     each in the order of the places (columns ``a``.., hand
desturado hard        30     spaces ``1``..); a hand space never moves to a column
devils-square         720    ``xy`` (from, to) in reading order ``a1``..``d4``,
                             then n in 1..3
deserto               20     ``O1``..``O4``, ``V1``..``V4``, ``T1``..``T4``, ``G1``..``G4``,
                             then the gifts ``gO``, ``gV``, ``gT``, ``gG``
===================== ====== ==========================================================

OpenSpiel's own ``solitaire`` (Klondike draw 1) numbers 205 actions by card
pairs (which card goes onto which); ours number moves by piles and counts,
as the notation does, so one action is one notation text.

>>> import cardtable
>>> g = cardtable.new_game("klondike", deal=0)
>>> space = action_space(g.rules)
>>> space.size, space.move_to_action(g.parse_move("3f")), str(space.action_to_move(3 + 2))
(591, 5, '3f')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.rules import Rules
from ..games import demonthief, deserto, desturado, devils_square, klondike

KLONDIKE_MAX_RUN = 13
"""The longest face-up run that can move in Klondike: king down to ace."""


class ActionSpace:
    """The numbered moves of one game and mode (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> space = action_space(rules_for("deserto"))
    >>> space.size, [str(space.action_to_move(a)) for a in (0, 19)]
    (20, ['O1', 'gG'])
    """

    def __init__(self, key: str, moves: Sequence[Any]) -> None:
        self.key = key
        """The game and mode the space is for, e.g. ``desturado mode=hard``."""
        self.moves: tuple[Any, ...] = tuple(moves)
        """Every move, by action number."""
        self._index = {move: a for a, move in enumerate(self.moves)}
        if len(self._index) != len(self.moves):
            raise ValueError(f"{key}: a move is numbered twice")

    @property
    def size(self) -> int:
        """The number of actions.

        >>> from cardtable.games import rules_for
        >>> action_space(rules_for("devils-square")).size
        720
        """
        return len(self.moves)

    def action_to_move(self, action: int) -> Any:
        """The move of action number ``action``; ``ValueError`` outside ``0 .. size-1``.

        >>> from cardtable.games import rules_for
        >>> str(action_space(rules_for("desturado", mode="hard")).action_to_move(0))
        'ab'
        """
        a = int(action)
        if not 0 <= a < len(self.moves):
            raise ValueError(f"{self.key}: no action {action!r} (actions are 0 to {len(self.moves) - 1})")
        return self.moves[a]

    def move_to_action(self, move: Any) -> int:
        """The number of ``move``; ``ValueError`` for a value that is no move of this game.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("deserto")
        >>> action_space(r).move_to_action(r.parse_move("gT"))
        18
        """
        try:
            return self._index[move]
        except (KeyError, TypeError):
            raise ValueError(f"{self.key}: {move!r} is not a move of this game") from None

    def mask(self, legal: Sequence[Any]) -> npt.NDArray[np.int8]:
        """A 0/1 vector of ``size``: 1 for each move in ``legal``.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> space = action_space(g.rules)
        >>> int(space.mask(g.legal_moves()).sum()) == len(g.legal_moves())
        True
        """
        mask = np.zeros(len(self.moves), dtype=np.int8)
        index = self._index
        for move in legal:
            mask[index[move]] = 1
        return mask


def _klondike() -> list[Any]:
    k = klondike
    moves: list[Any] = [k.DRAW, k.REDEAL, k.WASTE_TO_FOUNDATION, *k.TAB_TO_FOUNDATION, *k.WASTE_TO_TAB]
    moves += [m for row in k.FOUNDATION_TO_TAB for m in row]
    moves += [k.TAB_TO_TAB[i][j][n] for i in k.TABLEAU for j in k.TABLEAU if i != j for n in range(1, 14)]
    return moves


def _demonthief() -> list[Any]:
    d = demonthief
    moves: list[Any] = [d.DRAW, d.REDEAL, *d.TO_FOUNDATION, *d.WASTE_TO_TAB, *d.RESERVE_TO_TAB]
    moves += [d.TAB_TO_TAB[i][j][n] for i in d.TABLEAU for j in d.TABLEAU if i != j for n in range(1, d.MAX_GROUP + 1)]
    return moves


def _desturado(rules: desturado.Desturado) -> list[Any]:
    columns = range(rules.columns)
    hands = range(desturado.HAND, desturado.HAND + rules.hand_spaces)
    places = (*columns, *hands)
    moves = [desturado.MOVES[i, j] for i in columns for j in places if j != i]
    return moves + [desturado.MOVES[i, j] for i in hands for j in hands if j != i]


def _devils_square() -> list[Any]:
    size = devils_square.SIZE
    return [devils_square.MOVES[i][j][n] for i in range(size) for j in range(size) if i != j for n in range(3)]


def _deserto() -> list[Any]:
    return [m for row in deserto.PLACE for m in row] + list(deserto.GIFT)


@cache
def _space(name: str, mode: str | None) -> ActionSpace:
    key = name if mode is None else f"{name} mode={mode}"
    if name == "klondike":
        return ActionSpace(key, _klondike())
    if name in ("demonthief", "demons-and-thieves"):
        return ActionSpace(key, _demonthief())
    if name == "desturado":
        return ActionSpace(key, _desturado(desturado.Desturado(mode=mode)))
    if name == "devils-square":
        return ActionSpace(key, _devils_square())
    if name == "deserto":
        return ActionSpace(key, _deserto())
    raise ValueError(f"no action space for game {name!r}")


def action_space(rules: Rules[Any, Any]) -> ActionSpace:
    """The action space of a game's rules (one object per game and mode, made once).

    >>> from cardtable.games import rules_for
    >>> [action_space(rules_for("desturado", mode=m)).size for m in ("easy", "medium", "hard")]
    [65, 40, 30]
    """
    return _space(rules.name, rules.options.get("mode") if rules.name == "desturado" else None)


def action_to_move(rules: Rules[Any, Any], action: int) -> Any:
    """The move numbered ``action`` in the game's action space.

    >>> from cardtable.games import rules_for
    >>> str(action_to_move(rules_for("klondike"), 0))
    'd'
    """
    return action_space(rules).action_to_move(action)


def move_to_action(rules: Rules[Any, Any], move: Any) -> int:
    """The action number of ``move`` (a move value, or its notation text).

    >>> from cardtable.games import rules_for
    >>> move_to_action(rules_for("devils-square"), "a1a2:2")
    10
    """
    if isinstance(move, str):
        move = rules.parse_move(move)
    return action_space(rules).move_to_action(move)


def play_step(rules: Rules[Any, Any], state: Any, move: Any, autoplay: bool) -> tuple[Any, float]:
    """One environment step of a one-player game: the position after ``move`` and, with
    ``autoplay`` on, the game's safe moves after it; and the change of the game's first
    progress number (cards to the foundations, into the hand, books made), the step's
    reward before any win bonus.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike", draw=1); s = r.deal(0)
    >>> after, gain = play_step(r, s, r.parse_move("3f"), autoplay=False)
    >>> gain, r.progress(after)[0]
    (1.0, 1)
    """
    before = rules.progress(state)[0]
    after = rules.apply(state, move)
    while autoplay and (auto := rules.auto_move(after)) is not None:
        after = rules.apply(after, auto)
    return after, float(rules.progress(after)[0] - before)

"""A fixed action space per game and mode: every move the game can ever have, numbered once.

Reinforcement-learning and game-theory libraries want actions as numbers
``0 .. n-1`` from a set that never changes during a game, plus a mask of the
legal ones. Each game declares that list once, in its own module: the
``action_moves`` of its :class:`~cardtable.core.spec.GameSpec`, called once per
value of the spec's ``action_options`` (Desturado's ``mode``); a game that
declares none has no action space. :func:`action_space` makes it for a game's
rules: the moves are the rules' own move values (so ``str(move)`` is the
notation), in the documented order below, which is stable across releases (a
change would be a new environment version). ``action_to_move`` and
``move_to_action`` go both ways; :meth:`ActionSpace.mask` marks the legal
moves of a position, from the game's one legal-move generator.

The numbering of the built-in games (``n`` is a card count, ``i``, ``j`` piles;
each game's ``action_moves`` docstring says the same):

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

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.errors import OptionError
from ..core.rules import Rules
from ..core.spec import GameSpec
from ..games import spec_for


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
        """The move of action number ``action``: a whole number (a Python or NumPy integer,
        not a bool); ``TypeError`` for anything else (``5.9`` is not action 5), ``ValueError``
        outside ``0 .. size-1``.

        >>> from cardtable.games import rules_for
        >>> str(action_space(rules_for("desturado", mode="hard")).action_to_move(0))
        'ab'
        >>> action_space(rules_for("klondike")).action_to_move(5.9)
        Traceback (most recent call last):
        ...
        TypeError: an action is a whole number, not float
        """
        if isinstance(action, bool | np.bool_):
            raise TypeError("an action is a whole number, not bool")
        try:
            a = operator.index(action)  # int, a NumPy integer or a 0-d integer array; never a float
        except TypeError:
            raise TypeError(f"an action is a whole number, not {type(action).__name__}") from None
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


_SPACES: dict[tuple[str, tuple[Any, ...]], tuple[GameSpec, ActionSpace]] = {}
"""The action spaces made so far, by game and the values of its ``action_options``
(with the declaration each was made from: a game registered anew gets a new space)."""


def action_space(rules: Rules[Any, Any]) -> ActionSpace:
    """The action space of a game's rules (one object per game and mode, made once), from
    the game's declaration (``action_moves`` of :func:`cardtable.games.spec_for`); an
    :class:`~cardtable.core.errors.OptionError` for a game that declares none.

    >>> from cardtable.games import rules_for
    >>> [action_space(rules_for("desturado", mode=m)).size for m in ("easy", "medium", "hard")]
    [65, 40, 30]
    """
    spec = spec_for(rules.name)
    values = tuple(rules.options.get(o) for o in spec.action_options)
    made = _SPACES.get((spec.name, values))
    if made is not None and made[0] is spec:
        return made[1]
    if spec.action_moves is None:
        raise OptionError(f"{spec.name} has no action space (its GameSpec declares no action_moves)")
    key = spec.name + "".join(f" {o}={v}" for o, v in zip(spec.action_options, values, strict=True))
    space = ActionSpace(key, spec.action_moves(rules))
    _SPACES[spec.name, values] = (spec, space)
    return space


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
    after = play_move(rules, state, move, autoplay)
    return after, float(rules.progress(after)[0] - before)


def play_move(rules: Rules[Any, Any], state: Any, move: Any, autoplay: bool) -> Any:
    """The position after ``move`` and, with ``autoplay`` on, the game's safe moves after it
    (:func:`play_step` without the reward).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike", draw=1); s = r.deal(0)
    >>> r.progress(play_move(r, s, r.parse_move("3f"), autoplay=False))
    (1, -20)
    """
    after = rules.apply(state, move)
    while autoplay and (auto := rules.auto_move(after)) is not None:
        after = rules.apply(after, auto)
    return after

"""A game in progress: one class for every one-player game.

:class:`Game` holds a game's rules, its starting position and the moves
played. It checks every move against the game's one legal-move generator,
keeps exact undo and redo (positions are immutable values, so undo restores
the very position), computes the outcome, and writes save files.

>>> import cardtable
>>> game = cardtable.new_game("klondike", deal=1)
>>> move = game.play("d")
>>> game.undo() == move
True
>>> game.outcome.won, game.outcome.over
(False, False)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, NamedTuple

from .errors import HistoryError, IllegalMoveError, MoveParseError, SaveFileError
from .progress import DEFAULT_LIMIT, can_progress
from .rules import M, Rules, S

SAVE_FORMAT = "cardtable-save"
SAVE_VERSION = 1


class Ending(Enum):
    """Why a game ended: the ``ending`` of an :class:`Outcome` or a
    :class:`~cardtable.core.multiplayer.MultiplayerOutcome` that is over.

    - ``WON``: the position is won.
    - ``NO_LEGAL_MOVE``: not won, and no move is legal at all.
    - ``NO_PROGRESS``: not won; legal moves remain, but no sequence of them can make
      progress (see :mod:`cardtable.core.progress`).
    - ``MOVE_LIMIT``: not won, and the game's move limit is reached
      (:meth:`~cardtable.core.rules.Rules.move_limit_reached`; no built-in game has one).
    - ``GAME_END``: a multi-player game reached its end; the ranking is its ``result``.

    The values are words for JSON and logs.

    >>> Ending.NO_PROGRESS.value, Ending("won")
    ('no-progress', Ending.WON)
    """

    WON = "won"
    NO_LEGAL_MOVE = "no-legal-move"
    NO_PROGRESS = "no-progress"
    MOVE_LIMIT = "move-limit"
    GAME_END = "game-end"

    def __repr__(self) -> str:
        return f"Ending.{self.name}"


_ENDING_TEXT = {
    Ending.WON: "You won!",
    Ending.NO_LEGAL_MOVE: "Game over: no move can make progress any more.",
    Ending.NO_PROGRESS: (
        "Game over: no move can make progress any more "
        "(some moves remain, but none of them can change anything that matters)."
    ),
    Ending.MOVE_LIMIT: "Game over: the move limit is reached.",
}


@dataclass(frozen=True)
class Outcome:
    """Where a game stands: ``won``; ``over`` (won, or no progress possible); ``score``;
    and, once it is over, why (``ending``, an :class:`Ending`; None while it goes on).

    >>> Outcome(won=False, over=True, score=3).lost
    True
    >>> Outcome(won=False, over=False, score=0)
    Outcome(won=False, over=False, score=0)
    >>> Outcome(won=True, over=True, score=52, ending=Ending.WON)
    Outcome(won=True, over=True, score=52, ending=Ending.WON)
    """

    won: bool
    over: bool
    score: int
    ending: Ending | None = None

    def __post_init__(self) -> None:
        ending = self.ending
        if ending is not None and (not self.over or self.won != (ending is Ending.WON) or ending is Ending.GAME_END):
            raise ValueError(f"an outcome with won={self.won}, over={self.over} cannot end with {ending!r}")

    def __repr__(self) -> str:
        ending = "" if self.ending is None else f", ending={self.ending!r}"
        return f"Outcome(won={self.won}, over={self.over}, score={self.score}{ending})"

    @property
    def lost(self) -> bool:
        """Over without being won.

        >>> Outcome(won=True, over=True, score=0).lost
        False
        """
        return self.over and not self.won

    def describe(self) -> str | None:
        """The sentence a player reads at the end (None while the game goes on).

        >>> Outcome(won=True, over=True, score=52, ending=Ending.WON).describe()
        'You won!'
        >>> Outcome(won=False, over=True, score=3, ending=Ending.NO_LEGAL_MOVE).describe()
        'Game over: no move can make progress any more.'
        >>> Outcome(won=False, over=False, score=3).describe() is None
        True
        """
        if not self.over:
            return None
        if self.ending is None:
            return "You won!" if self.won else "Game over."
        return _ENDING_TEXT[self.ending]


class _Step(NamedTuple, Generic[S, M]):
    """One played move, the position before it, and whether autoplay made it."""

    move: M
    before: S
    auto: bool


class Game(Generic[S, M]):
    """A game being played: a position, the moves that led to it, undo and redo.

    Make one with :func:`cardtable.new_game` or :func:`cardtable.load`.

    >>> import cardtable
    >>> g = cardtable.new_game("klondike", deal=7)
    >>> len(g.moves)
    0
    """

    def __init__(self, rules: Rules[S, M], start: S, deal: int | None = None, layout: str | None = None) -> None:
        self.rules = rules
        self.deal = deal
        self.layout = layout
        self._start = start
        self._state = start
        self._history: list[_Step[S, M]] = []
        self._redo: list[_Step[S, M]] = []
        self._legal: list[M] | None = None
        self._outcome: Outcome | None = None

    # --- what it is ---------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's name.

        >>> import cardtable
        >>> cardtable.new_game("klondike", deal=0).name
        'klondike'
        """
        return self.rules.name

    @property
    def options(self) -> dict[str, Any]:
        """The game's options (a copy).

        >>> import cardtable
        >>> cardtable.new_game("klondike", deal=0, draw=1).options["draw"]
        1
        """
        return dict(self.rules.options)

    @property
    def state(self) -> S:
        """The current position, an immutable value.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> g.state == g.rules.deal(0)
        True
        """
        return self._state

    @property
    def moves(self) -> list[M]:
        """The moves played so far, first first (a copy).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d")
        >>> [str(m) for m in g.moves]
        ['d']
        """
        return [step.move for step in self._history]

    def __repr__(self) -> str:
        source = f"deal={self.deal}" if self.deal is not None else "layout=..."
        return f"<Game {self.name} {source} {self.rules.option_text()} moves={len(self._history)}>"

    # --- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[M]:
        """The legal moves in the current position, in the game's documented order.

        A won game stays won: in a won position no move is legal (a won Klondike
        game could otherwise take cards back from its foundations).

        >>> import cardtable
        >>> "d" in [str(m) for m in cardtable.new_game("klondike", deal=0).legal_moves()]
        True
        """
        return list(self._legal_now())

    def _legal_now(self) -> list[M]:
        """The legal moves, computed once per position; none after a win."""
        if self._legal is None:
            self._legal = [] if self.rules.is_won(self._state) else self.rules.legal_moves(self._state)
        return self._legal

    def parse_move(self, text: str) -> M:
        """Read move text in the current position (see :meth:`Rules.resolve`).

        >>> import cardtable
        >>> str(cardtable.new_game("klondike", deal=0).parse_move(" D "))
        'd'
        """
        return self.rules.resolve(self._state, text)

    def is_legal(self, move: M) -> bool:
        """Whether ``move`` is legal now.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> g.is_legal(g.parse_move("d"))
        True
        """
        return move in self._legal_now()

    def play(self, move: M | str, *, autoplay: bool | None = None) -> M:
        """Play a move (a move value or its text) and return it.

        Raises :class:`MoveParseError` for text that is not a move and
        :class:`IllegalMoveError` (saying which rule) for an illegal move; in
        both cases the game is unchanged. With ``autoplay`` (default: the game's
        ``autoplay`` option), the automatic moves that follow are played too
        (and undone with it).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> str(g.play("d"))
        'd'
        >>> _ = g.undo(); _ = g.play("d", autoplay=True); [str(m) for m in g.moves]  # AS goes home
        ['d', '3f']
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        self._play(move, auto=False)
        if self.rules.options.get("autoplay") if autoplay is None else autoplay:
            while (auto := self.rules.auto_move(self._state)) is not None:
                self._play(auto, auto=True)
        self._redo.clear()
        return move

    def _play(self, move: M, auto: bool) -> None:
        if move not in self._legal_now():
            if self.rules.is_won(self._state):
                raise IllegalMoveError(f"illegal move {move}: the game is won, and a won game stays won")
            raise IllegalMoveError(f"illegal move {move}: {self.rules.explain_illegal(self._state, move)}")
        self._history.append(_Step(move, self._state, auto))
        self._set(self.rules.apply(self._state, move))

    def _set(self, state: S) -> None:
        self._state = state
        self._legal = None
        self._outcome = None

    def undo(self) -> M:
        """Take back the last move (and the automatic moves that followed it); return it.

        Raises :class:`HistoryError` when no move has been played.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); m = g.play("d")
        >>> g.undo() == m and g.state == g.rules.deal(0)
        True
        """
        if not self._history:
            raise HistoryError("nothing to undo")
        undone: list[_Step[S, M]] = []
        while True:
            step = self._history.pop()
            undone.append(step)
            if not step.auto or not self._history:
                break
        self._set(undone[-1].before)
        self._redo.append(undone[-1])
        return undone[-1].move

    def redo(self) -> M:
        """Play again the last move taken back; return it.

        Raises :class:`HistoryError` when there is nothing to redo.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); m = g.play("d"); _ = g.undo()
        >>> g.redo() == m
        True
        """
        if not self._redo:
            raise HistoryError("nothing to redo")
        step = self._redo.pop()
        redo = self._redo
        self._redo = []  # play() clears the redo list; keep ours
        try:
            self.play(step.move)
        finally:
            self._redo = redo
        return step.move

    def restart(self) -> None:
        """Go back to the starting position of the same deal; history is cleared.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d"); g.restart()
        >>> g.moves
        []
        """
        self._history.clear()
        self._redo.clear()
        self._set(self._start)

    # --- outcome ----------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        """Won, over, score and ending of the current position (computed once per position).

        ``over`` is exact: it is True only when the game is won, its move limit is
        reached, or no sequence of moves can make progress (see
        :mod:`cardtable.core.progress`); ``ending`` says which (an :class:`Ending`).

        >>> import cardtable
        >>> cardtable.new_game("klondike", deal=0).outcome
        Outcome(won=False, over=False, score=0)
        """
        if self._outcome is None:
            state = self._state
            ending: Ending | None = None
            if self.rules.is_won(state):
                ending = Ending.WON
            elif self.rules.move_limit_reached(state):
                ending = Ending.MOVE_LIMIT
            elif can_progress(self.rules, state, DEFAULT_LIMIT) is False:
                ending = Ending.NO_PROGRESS if self._legal_now() else Ending.NO_LEGAL_MOVE
            over = ending is not None
            self._outcome = Outcome(ending is Ending.WON, over, self.rules.score(state), ending)
        return self._outcome

    # --- text -------------------------------------------------------------------

    def to_text(self, format: str = "cardtable") -> str:
        """The full position as text; ``new_game(name, layout=...)`` reads it back.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> cardtable.new_game("klondike", layout=g.to_text()).state == g.state
        True
        """
        return self.rules.to_text(self._state, format)

    def save(self) -> str:
        """The game as JSON text: game, options, deal number or layout, rules version, moves.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=3); _ = g.play("d")
        >>> cardtable.load(g.save()).state == g.state
        True
        """
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.name,
            "rules_version": self.rules.RULES_VERSION,
            "options": self.rules.options,
            "deal": self.deal,
            "layout": self.layout,
            "moves": [str(step.move) for step in self._history],
            "auto": [i for i, step in enumerate(self._history) if step.auto],
        }
        return json.dumps(data, indent=1)

    def _replay(self, texts: list[str], auto: set[int]) -> None:
        """Play saved moves, checking each one; used by :func:`load_game`."""
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise SaveFileError(f"move {i + 1} is not text: {text!r}")
            try:
                move = self.rules.parse_move(text)
                self._play(move, auto=i in auto)
            except (MoveParseError, IllegalMoveError) as err:
                raise SaveFileError(f"move {i + 1} ({text!r}) does not replay: {err}") from None

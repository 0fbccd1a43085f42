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
from .inputs import quote
from .progress import DEFAULT_LIMIT, can_progress
from .rules import M, Rules, S

SAVE_FORMAT = "cardtable-save"
SAVE_VERSION = 1
MAX_SAVE_SIZE = 16 * 2**20
"""The longest save file read, in characters (16 MiB; a save of a million moves takes about
10 MiB): :func:`cardtable.load` refuses a longer text, and the CLI reads no more of a file."""
MAX_SAVE_MOVES = 1_000_000
"""The most moves a save file read may hold: :func:`cardtable.load` replays every one, so a
16 MiB file of four million draws took 49 s and 1.9 GB (found by the bad-input audit); a
million take about 12 s. No game played by a person comes near it."""


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
    Ending.NO_LEGAL_MOVE: "Game over: there are no more valid moves to play.",
    Ending.NO_PROGRESS: (
        "Game over: no move can change the position any more "
        "(the moves left only go back and forth, or round in a circle)."
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
        'Game over: there are no more valid moves to play.'
        >>> Outcome(won=False, over=False, score=3).describe() is None
        True
        """
        if not self.over:
            return None
        if self.ending is None:
            return "You won!" if self.won else "Game over."
        return _ENDING_TEXT[self.ending]


class _Step(NamedTuple, Generic[S, M]):
    """One played move, the position before it, whether autoplay made it (``auto``), and,
    for a move the player made, whether autoplay ran after it (``autoplay``)."""

    move: M
    before: S
    auto: bool
    autoplay: bool = False


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
        self._redo: list[list[_Step[S, M]]] = []  # each: the steps one undo took back, in play order
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
    def start(self) -> S:
        """The position the game started from (its deal, or the layout it was given).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d")
        >>> g.start == g.rules.deal(0)
        True
        """
        return self._start

    @property
    def moves(self) -> list[M]:
        """The moves played so far, first first (a copy).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d")
        >>> [str(m) for m in g.moves]
        ['d']
        """
        return [step.move for step in self._history]

    def positions(self) -> list[S]:
        """The positions the game went through, the start first and the current one last
        (what a player at the table has seen, face-down cards apart).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d")
        >>> [len(p.stock) for p in g.positions()]
        [24, 21]
        """
        return [step.before for step in self._history] + [self._state]

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

        Raises :class:`MoveParseError` for text that is not a move, and ``TypeError``
        for anything that is not text.

        >>> import cardtable
        >>> str(cardtable.new_game("klondike", deal=0).parse_move(" D "))
        'd'
        """
        if not isinstance(text, str):
            raise TypeError(f"move text is a str, not {type(text).__name__}")
        return self.rules.resolve(self._state, text)

    def is_legal(self, move: M) -> bool:
        """Whether ``move``, a move of this game, is legal now (False for any other value).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> g.is_legal(g.parse_move("d")), g.is_legal(tuple(g.parse_move("d")))
        (True, False)
        """
        kind = type(move)
        return any(m is move or (type(m) is kind and m == move) for m in self._legal_now())

    def play(self, move: M | str, *, autoplay: bool | None = None) -> M:
        """Play a move (a move of this game, or its text) and return it.

        Raises :class:`MoveParseError` for text that is not a move and
        :class:`IllegalMoveError` (saying which rule) for an illegal move, and
        ``TypeError`` for a value that is neither text nor one of this game's moves
        (a plain tuple equal to a move is not a move: see :meth:`Rules.move_of`); in
        every case the game is unchanged. With ``autoplay`` (default: the game's
        ``autoplay`` option), the automatic moves that follow are played too
        (and undone with it).

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0)
        >>> str(g.play("d"))
        'd'
        >>> _ = g.undo(); _ = g.play("d", autoplay=True); [str(m) for m in g.moves]  # AS goes home
        ['d', '3f']
        >>> g.play((7, 9, 1))
        Traceback (most recent call last):
        ...
        TypeError: klondike plays a KlondikeMove or the text of a move, not tuple (7, 9, 1)
        """
        if autoplay is not None and not isinstance(autoplay, bool):
            raise TypeError(f"autoplay is True, False or None, not {quote(autoplay)}")
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not any(m is move for m in self._legal_now()):
            move = self.rules.move_of(move)
        runs = bool(self.rules.options.get("autoplay")) if autoplay is None else autoplay
        self._play(move, auto=False, autoplay=runs)
        if runs:
            while (auto := self.rules.auto_move(self._state)) is not None:
                self._play(auto, auto=True)
        self._redo.clear()
        return move

    def _play(self, move: M, auto: bool, autoplay: bool = False) -> None:
        # ``move`` is one of the game's own moves here (read from text, or through Rules.move_of).
        if move not in self._legal_now():
            if self.rules.is_won(self._state):
                raise IllegalMoveError(f"illegal move {move}: the game is won, and a won game stays won")
            raise IllegalMoveError(f"illegal move {move}: {self.rules.explain_illegal(self._state, move)}")
        self._history.append(_Step(move, self._state, auto, autoplay))
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
        undone.reverse()
        self._set(undone[0].before)
        self._redo.append(undone)
        return undone[0].move

    def redo(self) -> M:
        """Play again the last move taken back, and exactly the automatic moves that were
        taken back with it; return the move.

        Raises :class:`HistoryError` when there is nothing to redo.

        >>> import cardtable
        >>> g = cardtable.new_game("klondike", deal=0); m = g.play("d", autoplay=True); _ = g.undo()
        >>> g.redo() == m, [str(m) for m in g.moves]
        (True, ['d', '3f'])
        """
        if not self._redo:
            raise HistoryError("nothing to redo")
        steps = self._redo[-1]
        for step in steps:
            self._play(step.move, step.auto, step.autoplay)
        self._redo.pop()
        return steps[0].move

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

    @property
    def seen_outcome(self) -> Outcome:
        """Where the game stands for a player at the table: won, or over as the rules end
        it, decided by nothing the player cannot see. Where :attr:`outcome`'s exact "over"
        never depends on a face-down card (:attr:`~cardtable.core.rules.Rules.OVER_SEES_HIDDEN`
        False: Desturado, Demonthief and Demons and Thieves, Devil's Square), it is
        :attr:`outcome`: over also when the moves left cannot change the position (which
        in Desturado, where every move changes it, is when no move is left). Elsewhere
        (Klondike, whose over search turns the stock round) over only when no legal move
        is left, which reads nothing hidden; the exact "over" is then for solvers and
        researchers.

        >>> import cardtable
        >>> cardtable.new_game("klondike", deal=0).seen_outcome
        Outcome(won=False, over=False, score=0)
        """
        if not self.rules.OVER_SEES_HIDDEN:
            return self.outcome
        rules, state = self.rules, self._state
        if rules.is_won(state):
            return Outcome(True, True, rules.score(state), Ending.WON)
        if rules.move_limit_reached(state):
            return Outcome(False, True, rules.score(state), Ending.MOVE_LIMIT)
        if not self._legal_now():
            return Outcome(False, True, rules.score(state), Ending.NO_LEGAL_MOVE)
        return Outcome(False, False, rules.score(state))

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
        """The game as JSON text: game, options, deal number or layout, rules version, moves,
        and which moves autoplay made (``auto``: their indices). In a game whose ``autoplay``
        option is on, ``no_autoplay`` lists the moves played with ``autoplay=False`` (only when
        there are any).

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
        if self.rules.options.get("autoplay"):
            skipped = [i for i, step in enumerate(self._history) if not step.auto and not step.autoplay]
            if skipped:
                data["no_autoplay"] = skipped
        return json.dumps(data, indent=1)

    def _replay(self, texts: list[Any], auto: set[int], no_autoplay: set[int]) -> None:
        """Play saved moves, checking each one; used by :func:`cardtable.load`.

        After a move the player made, autoplay ran when the game's ``autoplay`` option is
        on (unless ``no_autoplay`` lists the move) or when the save marks the next move
        automatic. Then the moves marked automatic that follow must be exactly the
        automatic moves the rules make, all of them (autoplay plays until none is left);
        a save whose automatic moves, or their marks, were removed or changed is refused.
        """
        on = bool(self.rules.options.get("autoplay"))
        i, count = 0, len(texts)
        while i < count:
            if i in auto:
                raise SaveFileError(f"move {i + 1} is marked automatic, but autoplay plays no move there")
            self._replay_one(texts, i, auto=False)
            runs = (on and i not in no_autoplay) or i + 1 in auto
            if i in no_autoplay and (not on or i + 1 in auto):
                raise SaveFileError(f"'no_autoplay' lists move {i + 1}, but autoplay ran after it or is off")
            self._history[-1] = self._history[-1]._replace(autoplay=runs)
            i += 1
            while runs and (expected := self.rules.auto_move(self._state)) is not None:
                if i not in auto:
                    raise SaveFileError(
                        f"autoplay ran after move {i}, so the automatic move {expected} follows it, "
                        "but the save does not have it (marked automatic)"
                    )
                move = self._replay_one(texts, i, auto=True)
                if move != expected:
                    raise SaveFileError(
                        f"move {i + 1} ({move}) is marked automatic, but autoplay plays {expected} here"
                    )
                i += 1

    def _replay_one(self, texts: list[Any], i: int, auto: bool) -> M:
        """Play saved move ``i``, or raise :class:`SaveFileError` saying why it does not replay."""
        text = texts[i]
        if not isinstance(text, str):
            raise SaveFileError(f"move {i + 1} is not text: {quote(text)}")
        try:
            move = self.rules.parse_move(text)
            self._play(move, auto=auto)
        except (MoveParseError, IllegalMoveError) as err:
            raise SaveFileError(f"move {i + 1} ({quote(text)}) does not replay: {err}") from None
        return move

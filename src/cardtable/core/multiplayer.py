"""Games for several seats with hidden information: the interface and the game.

A multi-player game's rules are a :class:`MultiplayerRules`: besides
everything :class:`~cardtable.core.rules.Rules` asks, they say whose turn it
is, what each seat may know (:meth:`MultiplayerRules.view`), what each seat
learns from each move (:meth:`MultiplayerRules.public_move`), how to sample a
full position consistent with one seat's knowledge, and the final scores.

:class:`MultiplayerGame` keeps, next to the positions, a log of what every
seat saw of every move, so that ``game.view(seat)`` holds the public move
history as that seat saw it, and a sampled game carries the same log.

>>> import cardtable
>>> issubclass(MultiplayerGame, cardtable.Game)
True
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic

from .errors import NotYourTurnError
from .game import Game
from .rules import M, Rules, S


@dataclass(frozen=True)
class Result:
    """The end of a multi-player game: each seat's score, rank (1 is best; equal
    scores share a rank) and the winning seats (all who share the top score).

    >>> Result.from_scores((5, 9, 9))
    Result(scores=(5, 9, 9), ranks=(3, 1, 1), winners=(1, 2))
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def from_scores(cls, scores: Sequence[int]) -> Result:
        """Ranks and winners from scores, higher is better, ties shared ("1, 1, 3").

        >>> Result.from_scores((4, 4)).winners
        (0, 1)
        """
        ranks = tuple(1 + sum(1 for other in scores if other > s) for s in scores)
        best = max(scores)
        return cls(tuple(scores), ranks, tuple(i for i, s in enumerate(scores) if s == best))


@dataclass(frozen=True)
class MultiplayerOutcome:
    """Where a multi-player game stands: ``over``, and when it is, the :class:`Result`.

    >>> MultiplayerOutcome(over=False, result=None).over
    False
    """

    over: bool
    result: Result | None


class MultiplayerRules(Rules[S, M]):
    """Rules of a game for several seats (0 to ``players - 1``) with hidden information.

    ``is_won``, ``progress`` and ``score`` of :class:`Rules` are for one-player
    games; a multi-player game's end is :meth:`result`.

    >>> from cardtable.games import rules_class
    >>> issubclass(rules_class("deserto"), MultiplayerRules)
    True
    """

    @property
    @abstractmethod
    def players(self) -> int:
        """The number of seats."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to play, or None when the game has ended."""

    @abstractmethod
    def public_move(self, state: S, move: M, seat: int) -> str:
        """What ``seat`` learns of ``move`` played in ``state`` (text for its history)."""

    @abstractmethod
    def view(self, state: S, seat: int, history: tuple[str, ...]) -> Hashable:
        """Exactly what ``seat`` may know: a value that compares with ``==`` and has
        ``to_json()``; ``history`` is the public move history as that seat saw it."""

    @abstractmethod
    def sample(self, state: S, seat: int, rng: random.Random) -> S:
        """A full position that ``seat`` cannot tell from ``state``: every card it
        cannot see re-dealt at random, respecting everything it has seen."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The final result, or None while the game goes on."""

    def is_won(self, state: S) -> bool:
        """Not used by multi-player games (see :meth:`result`): always False.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("deserto"); r.is_won(r.deal(0))
        False
        """
        return False

    def progress(self, state: S) -> tuple[int, ...]:
        """Not used by multi-player games: the game's length decides its end.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("deserto"); r.progress(r.deal(0))
        ()
        """
        return ()


class MultiplayerGame(Game[S, M], Generic[S, M]):
    """A multi-player game: a :class:`~cardtable.core.game.Game` that also knows whose
    turn it is, what each seat saw, and how to sample what a seat cannot see.

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=1, players=3)
    >>> g.to_move in (0, 1, 2)
    True
    """

    rules: MultiplayerRules[S, M]

    def __init__(
        self, rules: MultiplayerRules[S, M], start: S, deal: int | None = None, layout: str | None = None
    ) -> None:
        super().__init__(rules, start, deal=deal, layout=layout)
        # log[i][seat]: what seat saw of move i.
        self._log: list[tuple[str, ...]] = []

    @property
    def players(self) -> int:
        """The number of seats.

        >>> import cardtable
        >>> cardtable.new_game("deserto", deal=1, players=4).players
        4
        """
        return self.rules.players

    @property
    def to_move(self) -> int | None:
        """The seat to play, or None when the game has ended.

        >>> import cardtable
        >>> cardtable.new_game("deserto", deal=1).to_move
        0
        """
        return self.rules.to_move(self._state)

    def play(self, move: M | str, seat: int | None = None, *, autoplay: bool | None = None) -> M:
        """Play a move for the seat to play; with ``seat`` given, refuse it with
        :class:`NotYourTurnError` unless that seat is to play.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1)
        >>> g.play(g.legal_moves()[0], seat=1)
        Traceback (most recent call last):
        ...
        cardtable.core.errors.NotYourTurnError: it is seat 0's turn, not seat 1's
        """
        mover = self.to_move
        if seat is not None and seat != mover:
            if mover is None:
                raise NotYourTurnError("the game is over: nobody is to play")
            raise NotYourTurnError(f"it is seat {mover}'s turn, not seat {seat}'s")
        return super().play(move, autoplay=autoplay)

    def _play(self, move: M, auto: bool) -> None:
        # Every move goes through here (play, redo, loading a save): log what each seat saw.
        super()._play(move, auto)  # checks legality first; raises with nothing changed
        before = self._history[-1].before
        self._log.append(tuple(self.rules.public_move(before, move, s) for s in range(self.players)))

    def undo(self) -> M:
        """Take back the last move (see :meth:`Game.undo`).

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1); m = g.play(g.legal_moves()[0])
        >>> g.undo() == m and g.view(0) == cardtable.new_game("deserto", deal=1).view(0)
        True
        """
        move = super().undo()
        del self._log[len(self._history) :]
        return move

    def restart(self) -> None:
        """Back to the deal; history cleared.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1); _ = g.play(g.legal_moves()[0]); g.restart()
        >>> g.history(0)
        ()
        """
        super().restart()
        self._log.clear()

    def history(self, seat: int) -> tuple[str, ...]:
        """The moves so far as ``seat`` saw them.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1); _ = g.play(g.legal_moves()[0])
        >>> len(g.history(1))
        1
        """
        self._check_seat(seat)
        return tuple(entry[seat] for entry in self._log)

    def view(self, seat: int) -> Hashable:
        """Exactly what ``seat`` may know now (compares with ``==``; ``.to_json()``).

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1)
        >>> g.view(0) == g.view(0)
        True
        """
        self._check_seat(seat)
        return self.rules.view(self._state, seat, self.history(seat))

    def sample(self, seat: int, rng: random.Random) -> MultiplayerGame[S, M]:
        """A full game consistent with what ``seat`` knows: what it cannot see is
        re-dealt at random; its ``view(seat)`` equals this game's. For computer
        players, which must not look at the real hidden cards.

        >>> import cardtable, random
        >>> g = cardtable.new_game("deserto", deal=1)
        >>> g.sample(0, random.Random(2)).view(0) == g.view(0)
        True
        """
        self._check_seat(seat)
        sampled: MultiplayerGame[S, M] = MultiplayerGame(self.rules, self.rules.sample(self._state, seat, rng))
        sampled._log = list(self._log)
        return sampled

    @property
    def outcome(self) -> MultiplayerOutcome:  # type: ignore[override]
        """Whether the game is over and, if so, its :class:`Result`.

        >>> import cardtable
        >>> cardtable.new_game("deserto", deal=1).outcome.over
        False
        """
        result = self.rules.result(self._state)
        return MultiplayerOutcome(over=result is not None, result=result)

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurnError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")

"""Games for several seats with hidden information: the interface and the game.

A multi-player game's rules are a :class:`MultiplayerRules`: besides
everything :class:`~cardtable.core.rules.Rules` asks, they say whose turn it
is, what each seat may know (:meth:`MultiplayerRules.view`), what each seat
learns from each move (:meth:`MultiplayerRules.public_move`: an :class:`Event`,
a value whose ``str`` is the history line), how to sample a full position
consistent with one seat's knowledge, and the final scores.

:class:`MultiplayerGame` keeps, next to the positions, a log of what every
seat, and a spectator, saw of every move, so that ``game.view(seat)`` holds
the public move history as that seat saw it (``game.view(None)``: as a
spectator sees it), and a sampled game carries the same log.

For a board that draws the cards (the browser), the rules also say how a view
looks (:meth:`MultiplayerRules.view_display`: named piles, the cards the seat
may not know left out), and, in words, what the viewer sees of each seat
(:meth:`MultiplayerRules.seat_lines`) and what it is to do on its turn
(:meth:`MultiplayerRules.prompt`).

>>> import cardtable
>>> issubclass(MultiplayerGame, cardtable.Game)
True
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, runtime_checkable

from .errors import NotYourTurnError
from .game import Ending, Game
from .inputs import quote
from .rules import M, Rules, S

SeenPile = list[tuple[int | None, bool]]
"""A pile as a seat sees it, bottom first: each card ``(card, face_up)``, the card None
where the seat may not know it (a face-down card)."""


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
    """Where a multi-player game stands: ``over``, and when it is, the :class:`Result`
    and the ``ending`` (:attr:`Ending.GAME_END <cardtable.core.game.Ending.GAME_END>`;
    None while the game goes on); ``unit`` is what the scores count, for sentences
    (the rules' :attr:`MultiplayerRules.SCORE_UNIT`).

    >>> MultiplayerOutcome(over=False, result=None)
    MultiplayerOutcome(over=False, result=None)
    """

    over: bool
    result: Result | None
    ending: Ending | None = None
    unit: str = "points"

    def __post_init__(self) -> None:
        if self.ending is not None and (not self.over or self.ending is not Ending.GAME_END):
            raise ValueError(f"a multi-player outcome with over={self.over} cannot end with {self.ending!r}")

    def __repr__(self) -> str:
        ending = "" if self.ending is None else f", ending={self.ending!r}"
        unit = "" if self.unit == "points" else f", unit={self.unit!r}"
        return f"MultiplayerOutcome(over={self.over}, result={self.result!r}{ending}{unit})"

    def describe(self, names: Sequence[str], seat: int | None = None) -> str | None:
        """The sentence a player (``seat``; None: a spectator) reads at the end, the seats
        called by ``names`` (the player's own seat is addressed as "You" in the first
        words, whatever its name); None while the game goes on.

        >>> out = MultiplayerOutcome(True, Result.from_scores((12, 9)), Ending.GAME_END, "cards")
        >>> out.describe(["You", "Greedy (seat 2)"], 0)
        'You won! You: 12 cards, rank 1, Greedy (seat 2): 9 cards, rank 2.'
        >>> out.describe(["Ana", "Ben"])
        'Ana won. Ana: 12 cards, rank 1, Ben: 9 cards, rank 2.'
        """
        result = self.result
        if not self.over or result is None:
            return None
        winners = result.winners
        if seat is None:
            who = " and ".join(names[w] for w in winners)
            head = f"{who} won." if len(winners) == 1 else f"{who} share the win."
        elif seat in winners:
            head = "You won!" if len(winners) == 1 else "You share the win!"
        else:
            head = "Game over."
        ranking = ", ".join(
            f"{names[s]}: {score} {self.unit}, rank {rank}"
            for s, (score, rank) in enumerate(zip(result.scores, result.ranks, strict=True))
        )
        return f"{head} {ranking}."


@runtime_checkable
class Event(Protocol):
    """What a seat (or a spectator) learns of one move of a multi-player game: a
    hashable value, from :meth:`MultiplayerRules.public_move`, whose ``str`` is the
    line of the history (save files, logs and research strings use it) and whose
    fields say what happened. Each game has its own (Deserto's
    :class:`~cardtable.games.deserto.DesertoEvent`).

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0); _ = g.play("T1")
    >>> event = g.history(1)[0]
    >>> isinstance(event, Event), event.seat, str(event), event.told(["Ana", "Ben"])
    (True, 0, 'seat 0: T1', 'Ana put a thief at 1')
    """

    @property
    def seat(self) -> int:
        """The seat that moved."""

    def told(self, names: Sequence[str]) -> str:
        """The move as a sentence for a player, with the seats called by ``names``."""

    def __str__(self) -> str:
        """The history line."""

    def __hash__(self) -> int:
        """Events are hashable (views that hold them compare and hash)."""


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

    SCORE_UNIT: ClassVar[str] = "points"
    """What a seat's score counts, in the sentences of :meth:`MultiplayerOutcome.describe`."""

    @abstractmethod
    def public_move(self, state: S, move: M, seat: int | None) -> Event:
        """What ``seat`` learns of ``move`` played in ``state``: an :class:`Event` for its
        history. ``seat`` None (or any number that is not a seat of the move): what a
        spectator learns, the part every seat learns."""

    @abstractmethod
    def view(self, state: S, seat: int | None, history: tuple[Event, ...]) -> Hashable:
        """Exactly what ``seat`` may know: a value that compares with ``==`` and has
        ``to_json()``; ``history`` is the public move history as that seat saw it.
        ``seat`` None: a spectator's view, the public part only (no hand)."""

    @abstractmethod
    def sample(self, state: S, seat: int, rng: random.Random) -> S:
        """A full position that ``seat`` cannot tell from ``state``: every card it
        cannot see re-dealt at random, respecting everything it has seen."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The final result, or None while the game goes on."""

    def view_display(self, view: Hashable) -> list[list[tuple[str, SeenPile]]]:
        """The table as a :meth:`view` shows it, for a board that draws cards (the browser):
        rows of named piles, as :meth:`~cardtable.core.rules.Rules.display` names them,
        each card ``(card, face_up)``, ``card`` None where the view does not know it. A game
        with a :meth:`~cardtable.core.rules.Rules.drop_move` lists the viewer's own hand as
        ``display`` lists it to the seat to move, so that a card's place in it means the
        same to both. A game that does not say raises ``NotImplementedError``.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=0)
        >>> [(name, pile) for row in g.rules.view_display(g.view(1)) for name, pile in row][5]
        ('hand 0', [(None, False), (None, False), (None, False)])
        """
        raise NotImplementedError(f"{self.name} does not say how a seat's view is drawn")

    def seat_lines(self, view: Hashable, names: Sequence[str]) -> list[str]:
        """One line a seat, in seat order, of what the viewer of ``view`` sees of each seat
        (its hand size, its winnings...), the seats called by ``names``; ``[]`` (the
        default) when the game has nothing to say beyond its table.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=0)
        >>> g.rules.seat_lines(g.view(0), ["You", "Ben"])
        ['You: 3 in hand, 0 won', 'Ben: 3 in hand, 0 won']
        """
        return []

    def prompt(self, view: Hashable, names: Sequence[str]) -> str:
        """What the viewer of ``view`` is to do when it is its turn, in words (the seats
        called by ``names``). The default says how cards are played on a board.

        >>> from cardtable.games import rules_for
        >>> MultiplayerRules.prompt(rules_for("deserto"), None, [])
        'Your turn: drag a card to where it goes (or click it, then its place).'
        """
        return "Your turn: drag a card to where it goes (or click it, then its place)."

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
        # log[i][seat]: what seat saw of move i; log[i][players]: what a spectator saw.
        self._log: list[tuple[Event, ...]] = []

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
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise TypeError(f"seat is a whole number (an int) or None, not {type(seat).__name__}")
        if seat is not None:
            self._check_seat(seat)  # a seat the game does not have is named as such
        mover = self.to_move
        if seat is not None and seat != mover:
            if mover is None:
                raise NotYourTurnError("the game is over: nobody is to play")
            raise NotYourTurnError(f"it is seat {mover}'s turn, not seat {quote(seat)}'s")
        return super().play(move, autoplay=autoplay)

    def _play(self, move: M, auto: bool, autoplay: bool = False) -> None:
        # Every move goes through here (play, redo, loading a save): log what each seat saw.
        super()._play(move, auto, autoplay)  # checks legality first; raises with nothing changed
        before = self._history[-1].before
        seen = self.rules.public_move
        self._log.append(tuple(seen(before, move, s) for s in (*range(self.players), None)))

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

    def history(self, seat: int | None) -> tuple[Event, ...]:
        """The moves so far as ``seat`` saw them (None: as a spectator saw them), as
        :class:`Event` values (``str(event)`` is the history line).

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1); _ = g.play(g.legal_moves()[0])
        >>> [str(e) for e in g.history(1)], len(g.history(None))
        (['seat 0: V1'], 1)
        """
        column = self._column(seat)
        return tuple(entry[column] for entry in self._log)

    def view(self, seat: int | None) -> Hashable:
        """Exactly what ``seat`` may know now (compares with ``==``; ``.to_json()``);
        ``seat`` None: what a spectator sees, the public part only.

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1)
        >>> g.view(0) == g.view(0), g.view(None).hand
        (True, ())
        """
        self._column(seat)
        return self.rules.view(self._state, seat, self.history(seat))

    def sample(self, seat: int, rng: random.Random) -> MultiplayerGame[S, M]:
        """A full game consistent with what ``seat`` knows: what it cannot see is
        re-dealt at random; its ``view(seat)`` equals this game's. For computer
        players, which must not look at the real hidden cards. Its history is
        ``seat``'s for ``seat`` and the public record (the spectator's) for every
        other seat: what another seat saw beyond that (a gift between two others) is
        not ``seat``'s to know.

        >>> import cardtable, random
        >>> g = cardtable.new_game("deserto", deal=1)
        >>> g.sample(0, random.Random(2)).view(0) == g.view(0)
        True
        """
        self._check_seat(seat)
        sampled: MultiplayerGame[S, M] = MultiplayerGame(self.rules, self.rules.sample(self._state, seat, rng))
        public = self.players
        sampled._log = [
            tuple(entry[s] if s in (seat, public) else entry[public] for s in range(public + 1)) for entry in self._log
        ]
        return sampled

    @property
    def outcome(self) -> MultiplayerOutcome:  # type: ignore[override]
        """Whether the game is over and, if so, its :class:`Result`.

        >>> import cardtable
        >>> cardtable.new_game("deserto", deal=1).outcome.over
        False
        """
        result = self.rules.result(self._state)
        over = result is not None
        return MultiplayerOutcome(over, result, Ending.GAME_END if over else None, self.rules.SCORE_UNIT)

    @property
    def seen_outcome(self) -> MultiplayerOutcome:  # type: ignore[override]
        """As :attr:`outcome`: a multi-player game ends when every hand is empty, which
        every seat sees (no search over hidden cards decides it).

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=1); g.seen_outcome == g.outcome
        True
        """
        return self.outcome

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurnError(f"no seat {quote(seat)}: seats are 0 to {self.players - 1}")

    def _column(self, seat: int | None) -> int:
        """Where a seat's events are in each entry of the log (a spectator's last)."""
        if seat is None:
            return self.players
        self._check_seat(seat)
        return seat

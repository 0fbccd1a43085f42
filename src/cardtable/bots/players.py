"""The simple computer players: :class:`Bot` (the base), :class:`RandomBot` and :class:`GreedyBot`.

Every bot decides through :meth:`Bot.decide`, which is handed a
:class:`~cardtable.bots.seat.Seat` (the seat's view, its legal moves,
samples) and never the game: :meth:`Bot.choose` makes that window and is
the only place a bot touches the game.

>>> import cardtable
>>> g = cardtable.new_game("deserto", deal=0)
>>> str(GreedyBot().choose(g, 0))
'G1'
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ..core.errors import OptionError
from ..core.multiplayer import MultiplayerGame
from ..games import spec_for
from ..games.deserto import DesertoView
from . import tactics
from .seat import Seat


class Bot:
    """A computer player: ``choose(game, seat)`` returns a legal move for ``seat``, the seat to move.

    Subclasses implement :meth:`decide`, which sees only the seat's window.
    ``seed`` makes every choice reproducible.

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0)
    >>> RandomBot(seed=1).choose(g, 0) in g.legal_moves()
    True
    """

    name: ClassVar[str] = "bot"
    BUDGET: ClassVar[tuple[str, ...]] = ()
    """The budget keywords :func:`cardtable.bots.make` accepts for this bot."""
    LISTED: ClassVar[bool] = False
    """Whether the games' declarations name this bot (:attr:`GameSpec.bots
    <cardtable.core.spec.GameSpec.bots>`): a built-in bot plays only the games that list
    it; a bot registered from outside plays whatever it is given."""

    @classmethod
    def check_game(cls, game: str) -> None:
        """Refuse (:class:`OptionError`) a game whose declaration does not list this bot.

        >>> GreedyBot.check_game("deserto")
        >>> GreedyBot.check_game("devils-square")
        Traceback (most recent call last):
        ...
        cardtable.core.errors.OptionError: the greedy bot does not play Devil's Square (its bots: none)
        """
        spec = spec_for(game)
        if cls.LISTED and cls.name not in spec.bots:
            listed = ", ".join(spec.bots) or "none"
            raise OptionError(f"the {cls.name} bot does not play {spec.title} (its bots: {listed})")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.cancelled = False

    def cancel(self) -> None:
        """Ask a search under way (in another thread) to stop soon: its answer is then no
        longer wanted. A bot that does not search has nothing to stop.

        >>> bot = RandomBot(); bot.cancel(); bot.cancelled
        True
        """
        self.cancelled = True

    def choose(self, game: MultiplayerGame[Any, Any], seat: int) -> Any:
        """A legal move for ``seat``, decided from what that seat may know; a game that
        does not list this bot is refused (:meth:`check_game`).

        >>> import cardtable
        >>> g = cardtable.new_game("deserto", deal=0)
        >>> GreedyBot().choose(g, 1)
        Traceback (most recent call last):
        ...
        cardtable.core.errors.NotYourTurnError: it is seat 0's turn, not seat 1's
        """
        self.check_game(game.name)
        return self.decide(Seat(game, seat))

    def decide(self, seat: Seat) -> Any:
        """The move for the seat to move, from its window only (subclasses say how).

        >>> Bot().decide(None)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """A uniformly random legal move (seeded).

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0)
    >>> RandomBot(seed=3).choose(g, 0) == RandomBot(seed=3).choose(g, 0)
    True
    """

    name = "random"
    LISTED = True

    def decide(self, seat: Seat) -> Any:
        """One of the seat's legal moves, each as likely.

        >>> import cardtable
        >>> str(RandomBot(seed=0).decide(Seat(cardtable.new_game("deserto", deal=0), 0)))
        'G3'
        """
        moves = seat.legal_moves()
        return moves[self.rng.randrange(len(moves))]


def deserto_view(seat: Seat) -> DesertoView:
    """The seat's view, checked to be a Deserto view (the tactics are Deserto's).

    >>> import cardtable
    >>> deserto_view(Seat(cardtable.new_game("deserto", deal=0), 0)).deck
    45
    """
    view = seat.view()
    if not isinstance(view, DesertoView):
        raise OptionError(f"the greedy tactics play deserto only, not {seat.rules.name}")
    return view


class GreedyBot(Bot):
    """Deserto by rules of thumb, no search (see :func:`cardtable.bots.tactics.greedy_key`):

    1. win the most cards now;
    2. among equals, offer the next player the smallest capture (a thief a
       vizier could win, a treasure a thief could reach: the largest pile any
       one placement could win after this move);
    3. among equals, play the card least worth keeping (treasure, oasis, thief,
       vizier, in that order); a gift (rule 5) gives that card too: every gift
       is one card won by the previous player whatever its kind, so the only
       thing to spare is what the giver keeps;
    4. among equals, the first in legal-move order.

    It uses its own hand and the visible area only, so ``seed`` changes nothing.

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0)  # seat 0 holds T G G on an empty area
    >>> str(GreedyBot().choose(g, 0))
    'G1'
    """

    name = "greedy"
    LISTED = True

    def decide(self, seat: Seat) -> Any:
        """The best move by the rules above.

        >>> import cardtable
        >>> str(GreedyBot().decide(Seat(cardtable.new_game("deserto", deal=0), 0)))
        'G1'
        """
        tops, sizes = tactics.view_area(deserto_view(seat))
        return tactics.best(seat.legal_moves(), tops, sizes)

"""What a computer player may look at: :class:`Seat`, one seat's window on a game.

A bot is handed a :class:`Seat`, never the game itself. The window gives
the seat's own view (``game.view(seat)``), the legal moves when it is that
seat's turn (its own options), samples of the whole game consistent with
what the seat knows (``game.sample(seat, rng)``) and the rules (which hold
no position). Nothing else of the real game is reachable through it: the
game is kept in a name-mangled attribute that the bots never touch.

>>> import cardtable
>>> seat = Seat(cardtable.new_game("deserto", deal=1), 0)
>>> seat.view() == seat.sample(random.Random(1)).view(0)
True
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ..core.errors import NotYourTurnError
from ..core.multiplayer import MultiplayerGame, MultiplayerRules


class Seat:
    """One seat's window on a multi-player game: :meth:`view`, :meth:`legal_moves`, :meth:`sample`.

    >>> import cardtable
    >>> Seat(cardtable.new_game("deserto", deal=1, players=3), 2).seat
    2
    """

    __slots__ = ("__game", "seat")

    def __init__(self, game: MultiplayerGame[Any, Any], seat: int) -> None:
        game.view(seat)  # checks the seat
        self.__game = game
        self.seat = seat

    @property
    def rules(self) -> MultiplayerRules[Any, Any]:
        """The game's rules (options and move logic; they hold no position).

        >>> import cardtable
        >>> Seat(cardtable.new_game("deserto", deal=1), 0).rules.players
        2
        """
        return self.__game.rules

    def view(self) -> Hashable:
        """Exactly what the seat may know (``game.view(seat)``).

        >>> import cardtable
        >>> Seat(cardtable.new_game("deserto", deal=0), 1).view().hand
        (0, 1, 2)
        """
        return self.__game.view(self.seat)

    def legal_moves(self) -> list[Any]:
        """The seat's own legal moves; :class:`NotYourTurnError` when another seat is to move.

        >>> import cardtable
        >>> [str(m) for m in Seat(cardtable.new_game("deserto", deal=0), 0).legal_moves()][:2]
        ['T1', 'T2']
        >>> Seat(cardtable.new_game("deserto", deal=0), 1).legal_moves()
        Traceback (most recent call last):
        ...
        cardtable.core.errors.NotYourTurnError: it is seat 0's turn, not seat 1's
        """
        mover = self.__game.to_move
        if mover != self.seat:
            who = "nobody" if mover is None else f"seat {mover}"
            raise NotYourTurnError(f"it is {who}'s turn, not seat {self.seat}'s")
        return self.__game.legal_moves()

    def sample(self, rng: random.Random) -> MultiplayerGame[Any, Any]:
        """A whole game the seat cannot tell from the real one (``game.sample(seat, rng)``).

        >>> import cardtable
        >>> seat = Seat(cardtable.new_game("deserto", deal=0), 0)
        >>> seat.sample(random.Random(3)).view(0) == seat.view()
        True
        """
        return self.__game.sample(self.seat, rng)

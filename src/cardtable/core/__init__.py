"""The rules core: cards, deals, options, the Rules interface, Game, errors. No I/O, no UI.

>>> from cardtable.core import Game, Outcome
>>> Outcome(won=True, over=True, score=0).won
True
"""

from .errors import (
    CardtableError,
    DealNumberError,
    HistoryError,
    IllegalMoveError,
    LayoutError,
    MoveParseError,
    NoLevelDealError,
    NotYourTurnError,
    OptionError,
    SaveFileError,
    UnknownGameError,
)
from .game import Ending, Game, Outcome
from .multiplayer import Event, MultiplayerGame, MultiplayerOutcome, MultiplayerRules, Result
from .rules import MovePlaces, Rules

__all__ = [
    "CardtableError",
    "DealNumberError",
    "Ending",
    "Event",
    "Game",
    "HistoryError",
    "IllegalMoveError",
    "LayoutError",
    "MoveParseError",
    "MovePlaces",
    "MultiplayerGame",
    "MultiplayerOutcome",
    "MultiplayerRules",
    "NoLevelDealError",
    "NotYourTurnError",
    "OptionError",
    "Outcome",
    "Result",
    "Rules",
    "SaveFileError",
    "UnknownGameError",
]

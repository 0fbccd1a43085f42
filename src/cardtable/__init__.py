"""cardtable: five card games, correct to the letter of their rules, for players and researchers.

>>> import cardtable
>>> "klondike" in cardtable.GAMES
True
"""

from .api import GAMES, load, new_game
from .core import (
    CardtableError,
    DealNumberError,
    Ending,
    Game,
    HistoryError,
    IllegalMoveError,
    LayoutError,
    MoveParseError,
    MultiplayerGame,
    MultiplayerOutcome,
    MultiplayerRules,
    NoLevelDealError,
    NotYourTurnError,
    OptionError,
    Outcome,
    Result,
    Rules,
    SaveFileError,
    UnknownGameError,
)
from .games import rules_for
from .hints import Hint, hint
from .levels import deal_for_level
from .solve import SolveResult, solve

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "CardtableError",
    "DealNumberError",
    "Ending",
    "Game",
    "Hint",
    "HistoryError",
    "IllegalMoveError",
    "LayoutError",
    "MoveParseError",
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
    "SolveResult",
    "UnknownGameError",
    "deal_for_level",
    "hint",
    "load",
    "new_game",
    "rules_for",
    "solve",
]

"""Exceptions raised by cardtable, one class per kind of failure.

Every exception derives from :class:`CardtableError`, so a caller can catch
them all at once; the more specific classes say what went wrong. None of them
is raised after the game state changed: a failing call leaves the game as it
was.

>>> issubclass(IllegalMoveError, CardtableError)
True
"""

from __future__ import annotations

from typing import Any

from .inputs import short


class CardtableError(ValueError):
    """Base class of every error cardtable raises on bad input.

    Its message is one short line: it quotes at most a short excerpt of the input
    (:func:`~cardtable.core.inputs.quote`), and a message longer than
    :data:`~cardtable.core.inputs.MAX_MESSAGE` characters is cut there.

    >>> isinstance(CardtableError("x"), ValueError), len(str(CardtableError("x" * 10**6)))
    (True, 280)
    """

    def __init__(self, message: Any = "", *rest: Any) -> None:
        super().__init__(short(message) if isinstance(message, str) else message, *rest)


class UnknownGameError(CardtableError):
    """A game name that cardtable does not know.

    >>> str(UnknownGameError("unknown game 'x'"))
    "unknown game 'x'"
    """


class OptionError(CardtableError):
    """An unknown game option, or a value the option does not accept.

    >>> str(OptionError("bad"))
    'bad'
    """


class NoLevelDealError(CardtableError):
    """No deal of the asked level: the level's table is empty although the game and mode
    were graded (e.g. no Desturado deal is tricky), or a live search for it gave up.

    >>> str(NoLevelDealError("none"))
    'none'
    """


class DealNumberError(CardtableError):
    """A deal number outside the accepted range (0 to 2**63 - 1).

    >>> str(DealNumberError("bad"))
    'bad'
    """


class MoveParseError(CardtableError):
    """Move text that is not a move in the game's notation at all.

    >>> str(MoveParseError("bad"))
    'bad'
    """


class IllegalMoveError(CardtableError):
    """A well-formed move that the rules do not allow in this position.

    >>> str(IllegalMoveError("bad"))
    'bad'
    """


class NotYourTurnError(IllegalMoveError):
    """A move made for a seat that is not the one to play.

    >>> issubclass(NotYourTurnError, IllegalMoveError)
    True
    """


class LayoutError(CardtableError):
    """Position text (a layout) that cannot be read or is not a valid position.

    >>> str(LayoutError("bad"))
    'bad'
    """


class SaveFileError(CardtableError):
    """A save file that cannot be read, or whose moves do not replay.

    >>> str(SaveFileError("bad"))
    'bad'
    """


class HistoryError(CardtableError):
    """Undo with nothing to undo, or redo with nothing to redo.

    >>> str(HistoryError("nothing to undo"))
    'nothing to undo'
    """

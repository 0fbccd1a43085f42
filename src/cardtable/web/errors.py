"""The one error vocabulary of the web app, for HTTP and WebSocket alike.

Whatever the server refuses, at a one-player table (HTTP) or in a room
(WebSocket), it refuses with a :class:`TableError`: a ``kind`` a program can
test, from :data:`KINDS`, and one line for the player. Both wires send it as
``{"error": line, "kind": kind}`` (a WebSocket message adds ``"type":
"error"``); over HTTP the kind decides the status code, here and nowhere else.

>>> err = TableError("stale", "the table has changed")
>>> err.status, err.json()
(409, {'error': 'the table has changed', 'kind': 'stale'})
"""

from __future__ import annotations

from types import MappingProxyType

KINDS: MappingProxyType[str, int] = MappingProxyType(
    {
        "bad-request": 400,  # a malformed request or message
        "unparsable": 400,  # a move that is not in the game's notation
        "spectator": 403,  # a spectator of a room tried to play
        "forbidden": 403,  # a request from another site (Origin) or for another host name (Host)
        "not-found": 404,  # no such table, room, game, level deal or action
        "stale": 409,  # made on an older position than the table's (``at``)
        "finished": 409,  # the game is over (or a won game stays won)
        "not-your-turn": 409,  # another seat is to play
        "not-ready": 409,  # a room's game has not started, or only its creator may do that
        "seat-taken": 409,  # a seat of a room that someone holds
        "unavailable": 409,  # an action this table does not offer (undo in a room with another person)
        "not-allowed": 405,  # a method a path does not answer (GET for POST)
        "too-slow": 408,  # a request body that did not arrive in time
        "too-large": 413,  # a request body or WebSocket message over its size cap
        "illegal": 422,  # an illegal move, or nothing to undo, redo or finish
        "too-many": 429,  # over a cap: rooms, spectators, messages a second, room lookups that miss
    }
)
"""Every kind of refusal, with the HTTP status code it is answered with."""


MAX_MESSAGE = 280
"""The longest error line (under 300 characters): a longer one (quoting a huge input) is cut."""


class TableError(Exception):
    """A request the server refuses (see the module docstring): ``kind`` (one of
    :data:`KINDS`) and ``message``, a line for the player.

    >>> TableError("illegal", "nothing to undo").status
    422
    >>> len(TableError("bad-request", "x" * 10**6).message)
    280
    >>> TableError("oops", "?")
    Traceback (most recent call last):
    ...
    ValueError: unknown error kind 'oops'
    """

    def __init__(self, kind: str, message: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown error kind {kind!r}")
        if len(message) > MAX_MESSAGE:  # never the whole of a huge input
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.kind = kind
        self.message = message

    @property
    def status(self) -> int:
        """The HTTP status code of the refusal.

        >>> TableError("not-found", "no such game").status
        404
        """
        return KINDS[self.kind]

    def json(self) -> dict[str, str]:
        """The refusal as sent on both wires.

        >>> TableError("bad-request", "no seat 9").json()["kind"]
        'bad-request'
        """
        return {"error": self.message, "kind": self.kind}


__all__ = ["KINDS", "MAX_MESSAGE", "TableError"]

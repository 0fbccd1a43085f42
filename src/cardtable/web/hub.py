"""What the rooms of one server process need to know of the other processes sharing their database.

A :class:`Hub` tells the rooms when another process changed a room (``changed(code,
rev)``: the room's change count, -1 when it was removed) and which rooms this process
holds the lease of: the timed work of a room (its bots, its clock, the sweep of idle
rooms) is done by the one process holding its lease, and ``gained(code)`` says this
process has just taken one over (a new room, or a room whose process died).

:class:`LocalHub` is the hub of one process alone (the SQLite default): it holds every
lease and nobody else changes anything. PostgreSQL's, where several processes share
one database, is :class:`cardtable.web.postgres.PostgresHub`.

>>> hub = LocalHub()
>>> hub.shared, hub.holds("ABC"), hub.want("ABC")
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Changed = Callable[[str, int], None]
"""Called (in the event loop) when another process changed a room: its code and change count (-1: removed)."""

Gained = Callable[[str], None]
"""Called (in the event loop) when this process took the lease of a room."""


class Hub(Protocol):
    """The other processes, as the rooms see them (see the module docstring). ``shared``:
    whether there may be any; ``process``: this process's number (in who is where)."""

    shared: bool
    process: int

    def start(self, changed: Changed, gained: Gained) -> None:
        """Start listening and taking leases (call from the running event loop)."""

    def holds(self, code: str) -> bool:
        """Whether this process holds the lease of room ``code``."""

    def want(self, code: str) -> bool:
        """Take the lease of room ``code`` now if nobody holds it; whether this process holds it."""

    def release(self, code: str) -> None:
        """Give the lease of room ``code`` up (the room was removed)."""

    def close(self) -> None:
        """Stop (the leases held go)."""


class LocalHub:
    """The hub of a process alone (see the module docstring).

    >>> LocalHub().process
    0
    """

    shared = False
    process = 0

    def start(self, changed: Changed, gained: Gained) -> None:
        """Nothing to listen to.

        >>> LocalHub().start(lambda code, rev: None, lambda code: None)
        """

    def holds(self, code: str) -> bool:
        """Every lease is this process's.

        >>> LocalHub().holds("XYZ")
        True
        """
        return True

    def want(self, code: str) -> bool:
        """Every lease is this process's.

        >>> LocalHub().want("XYZ")
        True
        """
        return True

    def release(self, code: str) -> None:
        """Nothing to give up.

        >>> LocalHub().release("XYZ")
        """

    def close(self) -> None:
        """Nothing to stop.

        >>> LocalHub().close()
        """


__all__ = ["Changed", "Gained", "Hub", "LocalHub"]

"""How uvicorn serves the app: connections that hold the server without asking anything.

A socket that connects and sends nothing, or sends a request's headers a byte at a time,
holds one of the server's file handles for as long as it likes: uvicorn closes a
connection that waits between requests (``timeout_keep_alive``), but not one that has
not finished its first request's headers. Enough such sockets and the process can take
no other client (a "slowloris"). So the server speaks HTTP through
:class:`IdleClosingHttp`, uvicorn's own protocol with one more rule: a connection with no
request under way for :attr:`IdleClosingHttp.idle_seconds` is closed. A request whose
headers are in is then the app's: :class:`~cardtable.web.guard.Guard` gives its body
:attr:`~cardtable.web.limits.Limits.body_seconds` to arrive (408 after). And uvicorn
answers 503 to a request made while :data:`MAX_CONNECTIONS` connections are open
(``limit_concurrency``), so that the work in hand stays bounded. It still accepts the
connections themselves: what frees their files is the idle rule above.

>>> IdleClosingHttp.idle_seconds
10.0
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

try:  # uvicorn's fast parser when it is installed (uvicorn[standard]), as uvicorn itself chooses
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Http
except ImportError:  # pragma: no cover - httptools is a dependency of uvicorn[standard]
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Http  # type: ignore[assignment]

MAX_CONNECTIONS = 500
"""uvicorn's ``limit_concurrency``: a request made while this many connections (WebSockets
included) or requests are open is answered 503."""


class IdleClosingHttp(_Http):
    """uvicorn's HTTP protocol, closing a connection that has had no request under way
    (none yet, or the last one answered) for :attr:`idle_seconds`. A connection upgraded
    to a WebSocket is the WebSocket protocol's from then on, and is not watched.

    >>> issubclass(IdleClosingHttp, asyncio.Protocol)
    True
    """

    idle_seconds: ClassVar[float] = 10.0
    """How long a connection may go without a request under way."""

    _idle_since: float = 0.0
    _watch: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        """Start watching the new connection (see the class docstring)."""
        super().connection_made(transport)
        self._idle_since = self.loop.time()
        self._watch = self.loop.call_later(self.idle_seconds, self._check_idle)

    def on_response_complete(self) -> None:
        """A request answered: the connection waits again from now."""
        super().on_response_complete()
        self._idle_since = self.loop.time()

    def handle_websocket_upgrade(self, *args: Any) -> None:
        """Stop watching: the connection becomes a WebSocket."""
        self._stop_watching()
        super().handle_websocket_upgrade(*args)

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop watching a closed connection."""
        self._stop_watching()
        super().connection_lost(exc)

    def _stop_watching(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    def _check_idle(self) -> None:
        self._watch = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        busy = cycle is not None and not cycle.response_complete
        waited = self.loop.time() - self._idle_since
        if not busy and waited >= self.idle_seconds:
            self.transport.close()
            return
        self._watch = self.loop.call_later(self.idle_seconds if busy else self.idle_seconds - waited, self._check_idle)


__all__ = ["MAX_CONNECTIONS", "IdleClosingHttp"]

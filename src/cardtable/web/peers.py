"""One WebSocket of a room, as the server keeps it: its own bounded outbox and writer, and the
checks on what it sends (size, rate, text).

A room never waits for a socket. Whatever the room sends a socket is put in
that socket's outbox (:meth:`Peer.put`, which never blocks) and a writer task
of the socket's own sends it, each frame within ``send_timeout`` seconds: a
socket that does not read (its buffers full) is dropped with close code
:data:`CLOSE_SLOW` and a log line, and comes back by reconnecting (it is then
sent a fresh snapshot). A snapshot is the whole room, so only the newest is
worth sending to a socket that is behind: a new snapshot replaces the ones
still waiting in the outbox; other frames (errors, a hint, ``joined``) keep
their place, and an outbox that still grows past ``limits.queue`` frames
drops its socket.

What a socket sends is read by :meth:`Peer.read`: at most
``limits.message_burst`` messages at once and ``limits.messages_per_second``
after that (over it: an error frame and close code :data:`CLOSE_TOO_MANY`), at
most ``limits.message_bytes`` a message (over it: close code 1009), and text
only (a binary frame gets an error frame, and the socket stays). Each refusal
writes one log line, never a traceback.

Frames are JSON with every non-ASCII character escaped: whatever text a frame
holds, it can always be sent.

>>> encode({"type": "error", "error": "M\\ud800"})
'{"type":"error","error":"M\\\\ud800"}'
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable
from typing import Any, Protocol

from .errors import TableError
from .limits import Bucket, Limits

log = logging.getLogger("cardtable.web.peers")

CLOSE_BAD_HELLO = 4400
"""Close code: the first message was not a ``hello``."""
CLOSE_FORBIDDEN = 4403
"""Close code: the socket may not do that (refused before or after its hello)."""
CLOSE_NOT_FOUND = 4404
"""Close code: no such room, or not with that key or token (the same answer for both)."""
CLOSE_NO_HELLO = 4408
"""Close code: no ``hello`` came within ``limits.hello_seconds``."""
CLOSE_SLOW = 4410
"""Close code: the socket did not read what it was sent (dropped; reconnect for a fresh snapshot)."""
CLOSE_TOO_MANY = 4429
"""Close code: over a cap (messages a second, spectators, one person's sockets, lookups that missed)."""
CLOSE_TOO_BIG = 1009
"""Close code: a message over ``limits.message_bytes`` (WebSocket's own "message too big")."""


class Socket(Protocol):
    """What a :class:`Peer` needs of a WebSocket (Starlette's has it)."""

    async def send_text(self, data: str) -> None:
        """Send one text frame."""

    async def receive(self) -> Any:
        """The next ASGI message (``websocket.receive`` or ``websocket.disconnect``)."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close with a code."""


def encode(data: dict[str, Any]) -> str:
    """A frame's text: compact JSON, every non-ASCII character escaped.

    >>> encode({"a": "é"})
    '{"a":"\\\\u00e9"}'
    """
    return json.dumps(data, separators=(",", ":"))


class Peer:
    """One socket (see the module docstring): ``address`` is its network address, ``holder``
    stands for its browser (a hash of its cookie, or None), ``label`` names it in log lines.
    Make it in a running event loop: its writer starts at once."""

    def __init__(self, socket: Socket, address: str, holder: str | None, limits: Limits) -> None:
        self.socket = socket
        self.address = address
        self.holder = holder
        self.limits = limits
        self.label = f"socket from {address}"
        self.outbox: deque[tuple[bool, str]] = deque()
        self.closing: tuple[int, str] | None = None
        self.lost: str | None = None
        self.sent = 0
        self._ready = asyncio.Event()
        self._gone = asyncio.Event()
        self._bucket = Bucket(limits.message_burst, limits.messages_per_second)
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._gone_wait = asyncio.get_running_loop().create_task(self._gone.wait())

    # --- what the server sends ----------------------------------------------------------

    def put(self, data: dict[str, Any]) -> None:
        """Queue one message for the socket (never blocks)."""
        self.put_text(encode(data), snapshot=data.get("type") == "snapshot")

    def put_text(self, text: str, snapshot: bool = False) -> None:
        """Queue one encoded frame; a snapshot replaces the snapshots still waiting."""
        if self.closing is not None or self.lost is not None:
            return
        if snapshot and any(s for s, _ in self.outbox):
            self.outbox = deque(item for item in self.outbox if not item[0])
        self.outbox.append((snapshot, text))
        if len(self.outbox) > self.limits.queue:
            self.outbox.clear()
            self.drop(f"{self.limits.queue} frames waiting", CLOSE_SLOW)
            return
        self._ready.set()

    async def _write(self) -> None:
        try:
            while True:
                if not self.outbox:
                    if self.closing is not None:
                        break
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                _, text = self.outbox.popleft()
                await self._within(self.socket.send_text(text))
                self.sent += 1
            code, reason = self.closing
            await self._within(self.socket.close(code, reason))
        except TimeoutError:
            self._lose(f"dropped: a frame took over {self.limits.send_timeout:g} s to go out (not reading)")
        except Exception as err:  # gone: Starlette says so in several ways
            if self.closing is None or self.closing[0] != CLOSE_SLOW:
                self._lose(f"gone: sending failed ({type(err).__name__})", quiet=self.closing is not None)
        finally:
            self._gone.set()

    async def _within(self, sending: Awaitable[None]) -> None:
        """Send within ``send_timeout`` seconds, else TimeoutError. A send that does not end
        in time is left to end with its connection: it is not waited for, not even to
        cancel it (a send blocked on a full socket may not answer a cancellation at once)."""
        task = asyncio.ensure_future(sending)
        done, _ = await asyncio.wait({task}, timeout=self.limits.send_timeout)
        if not done:
            task.cancel()
            task.add_done_callback(_settled)
            raise TimeoutError
        task.result()

    def _lose(self, why: str, quiet: bool = False) -> None:
        if self.lost is None:
            self.lost = why
            if not quiet:
                log.info("%s %s", self.label, why)

    def drop(self, why: str, code: int = CLOSE_SLOW) -> None:
        """Stop sending to the socket and close it with ``code`` (one log line)."""
        if self.lost is None and self.closing is None:
            log.info("%s dropped: %s (close %d)", self.label, why, code)
            self.lost = why
            self.outbox.clear()
            self.closing = (code, why[:100])
            self._ready.set()

    async def finish(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with ``code``; waits (at most about two send
        timeouts) until the writer is done."""
        if self.closing is None:
            self.closing = (code, reason[:100])
        self._ready.set()
        with _quiet():
            await asyncio.wait_for(asyncio.shield(self._gone.wait()), 2 * self.limits.send_timeout + 1)
        self._writer.cancel()
        self._gone_wait.cancel()

    @property
    def gone(self) -> bool:
        """Whether the socket is closed, closing or dropped (nothing more is sent).

        >>> async def main():
        ...     class Dummy:
        ...         async def send_text(self, data): pass
        ...         async def receive(self): return {"type": "websocket.disconnect"}
        ...         async def close(self, code=1000, reason=None): pass
        ...     peer = Peer(Dummy(), "127.0.0.1", None, Limits())
        ...     await peer.finish()
        ...     return peer.gone
        >>> asyncio.run(main())
        True
        """
        return self.closing is not None or self.lost is not None or self._gone.is_set()

    # --- what the socket sends -----------------------------------------------------------

    async def receive(self, timeout: float | None = None) -> Any:
        """The next ASGI message, or None when the socket was dropped or ``timeout`` passed."""
        if self.gone:
            return None
        receiving = asyncio.ensure_future(self.socket.receive())
        done, _ = await asyncio.wait({receiving, self._gone_wait}, timeout=timeout, return_when="FIRST_COMPLETED")
        if receiving not in done:
            receiving.cancel()
            receiving.add_done_callback(_settled)
            return None
        try:
            return receiving.result()
        except Exception:  # Starlette's "not connected": the socket is gone
            return None

    async def read(self, timeout: float | None = None) -> str | None:
        """The next text message that passes the checks (see the module docstring); None
        when the socket is gone, dropped, closed for a refusal or ``timeout`` passed (in all:
        refused frames do not start it again)."""
        clock = asyncio.get_running_loop().time
        deadline = None if timeout is None else clock() + timeout
        while True:
            left = None if deadline is None else deadline - clock()
            if left is not None and left <= 0:
                return None
            message = await self.receive(left)
            if message is None or message.get("type") != "websocket.receive":
                return None
            if not self._bucket.take():
                self.refuse(
                    TableError("too-many", f"over {self.limits.messages_per_second:g} messages a second"),
                    CLOSE_TOO_MANY,
                )
                return None
            text = message.get("text")
            if text is None:
                self.refuse(TableError("bad-request", "a message is JSON text, not binary"))
                continue
            if len(text) > self.limits.message_bytes or (
                4 * len(text) > self.limits.message_bytes
                and len(text.encode("utf-8", "replace")) > self.limits.message_bytes
            ):
                self.refuse(
                    TableError("too-large", f"a message has at most {self.limits.message_bytes} bytes"), CLOSE_TOO_BIG
                )
                return None
            return str(text)

    def refuse(self, err: TableError, code: int | None = None) -> None:
        """Answer the socket with an error frame and one log line; with ``code``, close it too."""
        log.info("%s refused (%s): %s", self.label, err.kind, err.message[:120])
        self.put({"type": "error", **err.json()})
        if code is not None and self.closing is None:
            self.closing = (code, err.message[:100])
            self._ready.set()


def _settled(future: asyncio.Future[Any]) -> None:
    """Retrieve what a cancelled receive ended with, so that nothing is reported as lost."""
    if not future.cancelled():
        future.exception()


class _quiet:
    """Swallow what waiting on a closing socket can raise (a timeout, a cancellation of the
    wait itself is not swallowed)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: Any) -> bool:
        return kind is not None and issubclass(kind, (TimeoutError, ConnectionError, OSError, RuntimeError))


__all__ = [
    "CLOSE_BAD_HELLO",
    "CLOSE_FORBIDDEN",
    "CLOSE_NOT_FOUND",
    "CLOSE_NO_HELLO",
    "CLOSE_SLOW",
    "CLOSE_TOO_BIG",
    "CLOSE_TOO_MANY",
    "Peer",
    "encode",
]

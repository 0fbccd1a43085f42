"""HTTP hygiene, before any route runs: the security headers, the ``Host`` and ``Origin``
checks, and the size cap on request bodies.

:class:`Guard` wraps the app (ASGI):

- every HTTP answer carries :data:`HEADERS`: a Content-Security-Policy that lets the
  page load only its own files and talk only to its own server, never be framed
  (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for older browsers),
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``;
- a request whose ``Host`` is not this server's is refused (403, ``forbidden``): an IP
  address, ``localhost`` and the names the server was told (``--allow-host``) are
  accepted, so a site whose name an attacker points at 127.0.0.1 (DNS rebinding)
  cannot reach it;
- a WebSocket, or a request that changes something (POST), whose ``Origin`` is another
  site's is refused the same way (a client that sends no ``Origin``, not a browser, is
  let through: it could send anything anyway);
- a request body over ``body_bytes`` is refused (413, ``too-large``) without being read
  further.

Each refusal is one log line.

>>> host_allowed("127.0.0.1:8000", ()), host_allowed("[::1]:80", ()), host_allowed("evil.example", ())
(True, True, False)
>>> same_origin("http://localhost:8000", "localhost:8000"), same_origin("https://evil.example", "localhost:8000")
(True, False)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from ..core.inputs import is_decimal
from .errors import TableError

log = logging.getLogger("cardtable.web.guard")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy: the page's own scripts, styles and images (and ``data:``
images), its own server to talk to, nothing else; never framed."""

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
"""The headers every HTTP answer carries."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: no ``Origin`` check, no body read."""


def host_allowed(host: str, names: Iterable[str]) -> bool:
    """Whether a ``Host`` header names this server: an IP address (any port), ``localhost``,
    or one of ``names`` (any case).

    >>> host_allowed("LocalHost:8000", ()), host_allowed("cards.example:443", ["cards.example"])
    (True, True)
    >>> host_allowed("", ())
    False
    """
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    if not name:
        return False
    if name == "localhost" or name in {n.lower() for n in names}:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def same_origin(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header is this server's own (its host and port are the request's ``Host``).

    >>> same_origin("null", "localhost:8000")
    False
    """
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


class Guard:
    """The ASGI middleware (see the module docstring): ``hosts`` are the host names accepted
    besides IP addresses and ``localhost``; ``body_bytes`` caps a request body, and
    ``body_seconds`` the time its whole body may take to arrive (408 ``too-slow`` after: a
    client sending a byte at a time would otherwise hold the request for ever).

    >>> Guard(None, hosts=["cards.example"]).hosts
    ('cards.example',)
    """

    def __init__(
        self, app: Any, hosts: Iterable[str] = (), body_bytes: int = 16384, body_seconds: float = 10.0
    ) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.body_bytes = body_bytes
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        origin = headers.get("origin")
        websocket = scope["type"] == "websocket"
        refusal = None
        if not host_allowed(host, self.hosts):
            refusal = TableError("forbidden", f"this server does not answer for the host {host[:60]!r}")
        elif (
            origin is not None
            and (websocket or scope.get("method") not in SAFE_METHODS)
            and not same_origin(origin, host)
        ):
            refusal = TableError("forbidden", f"requests from another site ({origin[:60]!r}) are refused")
        if refusal is not None:
            client = scope.get("client") or ("?", 0)
            log.info(
                "refused %s %s from %s: %s", scope.get("method", "WEBSOCKET"), scope.get("path"), client[0], refusal
            )
            if websocket:
                await send({"type": "websocket.close", "code": 4403})  # before the handshake: HTTP 403
            else:
                await _answer(send, refusal)
            return
        if websocket:
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in HEADERS if h[0] not in present]
            await send(message)

        if scope.get("method") in SAFE_METHODS and "content-length" not in headers:
            await self.app(scope, receive, send_with_headers)
            return
        declared = headers.get("content-length", "0").strip()
        too_large = TableError("too-large", f"a request body has at most {self.body_bytes} bytes")
        if not is_decimal(declared) or len(declared) > 12 or int(declared) > self.body_bytes:
            await _answer(send_with_headers, too_large)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.body_seconds
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                slow = TableError("too-slow", f"a request body must arrive within {self.body_seconds:g} seconds")
                await _answer(send_with_headers, slow)
                return
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.body_bytes:
                await _answer(send_with_headers, too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


async def _answer(send: Send, err: TableError) -> None:
    body = json.dumps(err.json()).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": err.status, "headers": headers + list(HEADERS)})
    await send({"type": "http.response.body", "body": body})


__all__ = ["CSP", "HEADERS", "Guard", "host_allowed", "same_origin"]

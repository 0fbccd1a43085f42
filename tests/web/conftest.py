"""Fixtures of the web tests: a live server on loopback and Debian's Chromium through Playwright.

The server is the real app under uvicorn, in a thread, on 127.0.0.1 and a free
port; it can be stopped and started again on the same data folder (a server
restart). The browser is Debian's ``/usr/bin/chromium`` (``make test`` installs
it): Playwright's own browser download cannot work on this machine.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from cardtable.web import SERVER_OPTIONS, create_app

from .pg_cluster import Cluster

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class LiveServer:
    """The app served by uvicorn in a thread on 127.0.0.1 (``url``), with uvicorn's options
    of ``cardtable serve`` and ``create_app`` keywords ``options`` (limits, paces);
    ``restart()`` stops it and serves the same data folder again, as after a server restart."""

    def __init__(self, data: Path, sndbuf: int | None = None, **options: Any) -> None:
        self.data = data
        self.sndbuf = sndbuf
        self.options = options
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.app: Any = None
        self.start()

    def start(self) -> None:
        # The listening socket is made here: a small send buffer (``sndbuf``), which the
        # accepted sockets inherit, lets a test fill a socket that does not read.
        listener = socket.socket()
        if self.sndbuf is not None:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.sndbuf)
        listener.bind(("127.0.0.1", 0))
        self.port = listener.getsockname()[1]
        self.app = create_app(self.data, hint_seconds=0.5, bot_pause=0.05, **self.options)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, **SERVER_OPTIONS)
        self.server = uvicorn.Server(config)
        server = self.server
        self.thread = threading.Thread(target=lambda: server.run(sockets=[listener]), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self, wait: bool = True) -> None:
        """Stop serving and close the data; with ``wait=False`` return at once and leave the
        waiting to a thread of its own (uvicorn notices the request within its 0.1 s tick and
        then shuts down: a test's tear-down need not sit through it)."""
        server, thread, app = self.server, self.thread, self.app
        assert server is not None and thread is not None
        server.should_exit = True

        def finish() -> None:
            thread.join(timeout=10)
            app.state.db.close()

        if wait:
            finish()
        else:
            threading.Thread(target=finish, daemon=True).start()

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data")
    yield server
    server.stop(wait=False)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # One Chromium a module, not a session: Playwright's sync API keeps an event loop running
    # in the thread while it is open, and tests after it (asyncio.run in doctests) need none.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Page:
    """A browser page that records console errors and page errors (checked at the end)."""

    def __init__(self, page: Any, live: LiveServer) -> None:
        self.page = page
        self.live = live
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    # Cards move on the page (issue 29); the tests that look at where things are and how they
    # are read run as a player who asked for reduced motion, so every drawing is final at once.
    # The tests of the motion itself (test_motion.py) make contexts with motion on.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context: Any, live: LiveServer) -> Iterator[Page]:
    wrapped = Page(context.new_page(), live)
    yield wrapped
    # Refused moves answer 4xx on purpose; the browser logs those as failed loads. Anything else is a fault.
    faults = [e for e in wrapped.errors if "the server responded with a status of 4" not in e]
    assert faults == [], faults


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster (:mod:`tests.web.pg_cluster`) for a test module."""
    running = Cluster()
    try:
        running.start()
        yield running
    finally:
        running.stop()

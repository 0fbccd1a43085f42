"""The threads the rooms' searching bots think in: a bounded pool, fair between owners,
where a search can be cancelled.

A bot with a budget (``ismcts``) searches in one of ``workers`` threads, never
more. Waiting searches are taken in turn by owner (a room's creator's network
address): an owner with many rooms waits behind its own searches, and another
owner's search goes next, so hostile budgets in one client's rooms cannot hold
back another client's bot for longer than one capped search. A search whose
room ends is cancelled: a waiting one is dropped, a running one is asked to
stop (:meth:`cardtable.bots.Bot.cancel`) and its answer is ignored.

>>> import asyncio
>>> async def main():
...     pool = BotPool(1)
...     answer = await pool.run("127.0.0.1", lambda: 6 * 7)
...     pool.close()
...     return answer
>>> asyncio.run(main())
42
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import deque
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class BotPool:
    """``workers`` threads for searches, handed out in turn by owner (see the module docstring).

    >>> BotPool(2).workers
    2
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="cardtable-bot")
        self._free = workers
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}  # in arrival order of owners: their turn

    @property
    def busy(self) -> int:
        """Searches running now.

        >>> BotPool(3).busy
        0
        """
        return self.workers - self._free

    @property
    def queued(self) -> int:
        """Searches waiting for a thread.

        >>> BotPool(3).queued
        0
        """
        return sum(len(q) for q in self._waiting.values())

    async def run(self, owner: str, work: Callable[[], T], cancel: Callable[[], None] | None = None) -> T:
        """Run ``work`` in a thread when ``owner``'s turn comes; its answer. If the waiting
        task is cancelled, a search not yet started never starts, and one running is asked
        to stop by ``cancel`` (its thread is counted busy until it has)."""
        loop = asyncio.get_running_loop()
        gate: asyncio.Future[None] = loop.create_future()
        self._waiting.setdefault(owner, deque()).append(gate)
        self._dispatch()
        try:
            await gate
        except asyncio.CancelledError:
            if gate.done() and not gate.cancelled():  # granted just as the task was cancelled
                self._release()
            else:
                gate.cancel()
                self._forget(owner, gate)
            raise
        future = self._executor.submit(work)
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._release))
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if cancel is not None:
                cancel()
            raise

    def _forget(self, owner: str, gate: asyncio.Future[None]) -> None:
        queue = self._waiting.get(owner)
        if queue is not None and gate in queue:
            queue.remove(gate)
            if not queue:
                del self._waiting[owner]

    def _release(self) -> None:
        self._free += 1
        self._dispatch()

    def _dispatch(self) -> None:
        while self._free > 0 and self._waiting:
            owner = next(iter(self._waiting))
            queue = self._waiting.pop(owner)
            gate = queue.popleft()
            if queue:
                self._waiting[owner] = queue  # to the back of the line: the next owner goes first
            if gate.done():
                continue
            self._free -= 1
            gate.set_result(None)

    def close(self) -> None:
        """Stop taking searches (running ones finish in their threads)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["BotPool"]

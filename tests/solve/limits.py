"""Measuring a solve's time and memory in a child process (the "solve limits" checks of issue
27: ``tests/solve/test_fuzz_limits.py``, ``tests/solve/test_limits.py`` and
``bench/fuzz_solve_limits.py``).

A :class:`Case` is a game, options, a deal, a random mid-game position reached from it and
the limits. A :class:`Worker` is a child process, a fresh interpreter started by ``spawn``
and reused from case to case, that builds each case's position, solves it and measures the
solve (:func:`measure`): its wall and CPU time, the time it then waited for a CPU after
its limit had passed (the kernel's run-queue delay of the solving thread,
``/proc/self/task/TID/schedstat``, read when the limit passes and at the end), and its peak
resident size (the kernel's high-water mark, reset before the solve) against the size just
before. :func:`failures` says what a case broke: more time past the limit than
:func:`cardtable.solve.solver.slack` (the time waiting for a CPU after the limit left out:
other processes held the machine, not the solve), more memory than
:func:`cardtable.solve.solver.memory_budget_mb`, an error, or no answer at all (a child
that hangs is ended and replaced). :func:`checked` measures a case that took too long up to
twice more: a process can also be held up otherwise for a moment (waiting for memory or the
disk: 1.6 s was seen once with other helpers' test runs on the machine's two cores), and a
solve that overshoots by its own work does it again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import re
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from cardtable.core.game import Game
from cardtable.games import rules_for
from cardtable.solve.memory import reset_peak
from cardtable.solve.solver import memory_budget_mb, slack, solve

HANG_SECONDS = 30.0
"""How long past the limit and its slack the parent waits before it calls a case hung (the
first case also waits for the child to start)."""
STATUS = Path("/proc/self/status")


@dataclass(frozen=True)
class Case:
    """A solve to measure: the game, its options (name, value pairs), the deal, the random
    play before the solve (up to ``steps`` legal moves drawn with ``random.Random(seed)``),
    and the limits (``seconds``; ``memory`` as ``solve`` takes it)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    deal: int
    seed: int
    steps: int
    seconds: float | None
    memory: int | str | None = "auto"


@dataclass
class Measured:
    """What the child measured of a case: the solve's wall and CPU seconds, the seconds it
    waited for a CPU after its limit had passed, its process's resident size just before it
    and the peak during it (MB; both 0 where the peak cannot be measured per solve), the
    memory budget (None: none), the result, or the error that ended it."""

    wall: float = 0.0
    cpu: float = 0.0
    waited: float = 0.0
    base_mb: float = 0.0
    peak_mb: float = 0.0
    budget_mb: float | None = None
    verdict: str = ""
    nodes: int = 0
    moves: int = 0
    error: str = ""


def position(case: Case) -> Game[Any, Any]:
    """The case's game: its deal, then up to ``steps`` random legal moves (fewer when the game
    ends first)."""
    rules = rules_for(case.game, **dict(case.options))
    state = rules.deal(case.deal)
    rng = random.Random(case.seed)
    for _ in range(case.steps):
        legal = rules.legal_moves(state)
        if not legal or rules.is_won(state):
            break
        state = rules.apply(state, rng.choice(legal))
    return Game(rules, state)


def resident_mb() -> float:
    """The process's resident size now, in MB (0 where it cannot be read)."""
    try:
        found = re.search(r"^VmRSS:\s+(\d+) kB", STATUS.read_text(), re.MULTILINE)
    except OSError:
        return 0.0
    return int(found.group(1)) / 1024 if found else 0.0


def run_delay(thread: int) -> float | None:
    """The seconds the thread ``thread`` (a native id) has waited on a run queue for a CPU,
    None where the kernel does not say (``schedstat``'s second field, in nanoseconds)."""
    try:
        return int(Path(f"/proc/self/task/{thread}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def measure(case: Case) -> Measured:
    """Solve the case here and measure it (what the child runs)."""
    measured = Measured()
    try:
        game = position(case)
        measured.budget_mb = memory_budget_mb(game, case.memory)
        per_solve = reset_peak()
        measured.base_mb = resident_mb() if per_solve else 0.0
        solving = threading.get_native_id()
        at_limit: list[float | None] = []
        timer = None
        if case.seconds is not None and case.seconds > 0:
            timer = threading.Timer(case.seconds, lambda: at_limit.append(run_delay(solving)))
            timer.start()
        began, cpu = time.perf_counter(), time.process_time()
        result = solve(game, seconds=case.seconds, memory=case.memory)
        measured.wall, measured.cpu = time.perf_counter() - began, time.process_time() - cpu
        at_end = run_delay(solving)
        if timer is not None:
            timer.cancel()
            timer.join()
        if at_limit and at_limit[0] is not None and at_end is not None:
            measured.waited = at_end - at_limit[0]
        measured.peak_mb = result.peak_mb if per_solve else 0.0
        measured.verdict, measured.nodes, measured.moves = result.verdict, result.nodes, len(result.moves)
    except Exception as error:
        measured.error = f"{type(error).__name__}: {error}"[:300]
    return measured


def _serve(conn: Connection) -> None:
    """The child's loop: measure each case the parent sends, until it sends None."""
    while True:
        case = conn.recv()
        if case is None:
            return
        conn.send(measure(case))


class Worker:
    """A child process (a fresh interpreter, started by ``spawn``) that measures cases one at a
    time; one that hangs or dies is ended and replaced. ``environment``: variables the child
    runs with (e.g. ``CARDTABLE_PURE``)."""

    def __init__(self, environment: dict[str, str] | None = None) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._environment = environment or {}
        self._start()

    def _start(self) -> None:
        self._conn, child = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(child,), daemon=True)
        saved = {name: os.environ.get(name) for name in self._environment}
        os.environ.update(self._environment)  # the child copies the environment as it starts
        try:
            self._process.start()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        child.close()

    def _end(self) -> None:
        self._process.kill()
        self._process.join()
        self._conn.close()

    def send(self, case: Case) -> None:
        """Start measuring ``case`` without waiting for it (the next :meth:`run` waits behind it)."""
        self._conn.send(case)

    def run(self, case: Case, hang_seconds: float = HANG_SECONDS) -> Measured:
        """Measure ``case`` in the child; a hang (no answer ``hang_seconds`` after the limit and
        its slack) or a death is a :class:`Measured` error, and the child is replaced."""
        self._conn.send(case)
        wait = hang_seconds + (0.0 if case.seconds is None else max(0.0, case.seconds) + slack(case.seconds))
        try:
            if self._conn.poll(wait):
                measured: Measured = self._conn.recv()
                return measured
            error = f"no answer within {wait:.1f} s"
        except (EOFError, OSError):
            error = f"the child died (exit code {self._process.exitcode})"
        self._end()
        self._start()
        return Measured(error=error)

    def close(self) -> None:
        """Stop the child."""
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._process.join(5)
        if self._process.is_alive():
            self._end()


def failures(case: Case, measured: Measured) -> list[str]:
    """What the case broke: an error, more time than the limit and its slack (less the time it
    waited for a CPU after the limit), or more memory than its budget (empty: it honoured its
    limits)."""
    found = []
    if measured.error:
        found.append(measured.error)
    elif case.seconds is not None and measured.wall - measured.waited > max(0.0, case.seconds) + slack(case.seconds):
        found.append(
            f"took {measured.wall:.3f} s ({measured.cpu:.3f} s of CPU, {measured.waited:.3f} s waiting for one "
            f"after the limit) for a limit of {case.seconds:.3f} s"
        )
    if measured.budget_mb is not None and measured.peak_mb - measured.base_mb > measured.budget_mb:
        grew = measured.peak_mb - measured.base_mb
        found.append(f"grew by {grew:.1f} MB for a budget of {measured.budget_mb:.1f} MB")
    return found


def checked(worker: Worker, case: Case) -> tuple[Measured, list[str], bool]:
    """Measure ``case`` (:meth:`Worker.run`) and say what it broke (:func:`failures`); a case
    that only took too long is measured up to twice more and judged by the last (module docstring).
    Also whether it was measured again."""
    measured = worker.run(case)
    found = failures(case, measured)
    if not found or measured.error or any("MB for a budget" in failure for failure in found):
        return measured, found, False
    for _ in range(2):  # a test worker beside it may have held the CPU: at most two more tries
        measured = worker.run(case)
        found = failures(case, measured)
        if not found:
            break
    return measured, found, True

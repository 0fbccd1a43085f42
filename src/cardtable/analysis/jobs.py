"""What one analysis does to a deal: :func:`run_batch` solves or grades a batch of deals.

A :class:`Job` is the question (task, game, options, budget) without the deals;
it is small and picklable, so the same job goes to a local process or to a
Dask worker with a batch of deal numbers, and :func:`run_batch` answers with
one :class:`~cardtable.analysis.results.Row` per deal.

- ``solve``: :func:`cardtable.solve` with the job's ``seconds``, ``nodes`` and
  ``memory`` (None: fitted to the worker's machine, the solver's default share of
  its available memory divided among its cores, as a worker may run one solve a
  core); the row has the verdict, the winning line's length, the positions
  explored, the seconds and the solve's peak memory.
- ``grade``: the level measures of :func:`cardtable.levels.measure` (full
  search, eager search, the reference player's and the noisy games, each at
  most ``nodes`` positions, default the grading budget), the level on the
  game's scale, and whether the reference player wins the deal; ``nodes`` is
  what the searches explored, ``moves`` is 0.

>>> job = make_job("solve", "devils-square", {}, nodes=2000)
>>> [r.verdict for r in run_batch(job, [1])]
['unsolvable']
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..api import new_game
from ..core.errors import OptionError
from ..core.inputs import is_decimal, quote, read_int
from ..games import rules_for, spec_for
from ..solve.memory import peak_mb, reset_peak
from .results import TASKS, Row, RunKey

MAX_DEALS = 2**32
"""Deal numbers run from 0 to 2**32 - 1 in every game."""

MAX_RUN_DEALS = 1_000_000
"""The most deals one run takes (a bigger one is split into runs into the same store)."""


@dataclass(frozen=True)
class Job:
    """One analysis question without its deals (see the module docstring).

    >>> make_job("solve", "desturado", {"mode": "hard"}, seconds=5).key.label
    'solve desturado mode=hard (memory=auto, seconds=5)'
    """

    task: str
    game: str
    options: tuple[tuple[str, Any], ...]
    seconds: float | None = None
    nodes: int | None = None
    memory: int | None = None

    @property
    def key(self) -> RunKey:
        """The store key of the job's rows: task, game, resolved options, budget."""
        budget: dict[str, Any] = {"seconds": self.seconds, "nodes": self.nodes}
        if self.task == "solve":
            budget["memory"] = "auto" if self.memory is None else self.memory
        return RunKey(self.task, self.game, dict(self.options), budget)


def make_job(
    task: str,
    game: str,
    options: Mapping[str, Any],
    seconds: float | None = None,
    nodes: int | None = None,
    memory: int | None = None,
) -> Job:
    """A checked job: a known task, a one-player game, its options resolved (text values
    read as the CLI reads them), a budget that makes sense.

    >>> make_job("grade", "desturado", {"mode": "hard"}).options
    (('mode', 'hard'),)
    >>> make_job("solve", "deserto", {})
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: deserto is a game for several players: analyze takes a one-player game
    """
    if task not in TASKS:
        raise OptionError(f"unknown analysis {task!r} (analyses: {', '.join(TASKS)})")
    rules = rules_for(game, **options)
    if not spec_for(rules.name).one_player:
        raise OptionError(f"{rules.name} is a game for several players: analyze takes a one-player game")
    if seconds is not None and seconds <= 0:
        raise OptionError(f"--seconds must be more than 0, not {seconds}")
    for name, value in (("nodes", nodes), ("memory", memory)):
        if value is not None and value < 1:
            raise OptionError(f"--{name} must be at least 1, not {value}")
    if task == "grade":
        if memory is not None:
            raise OptionError("grading searches by positions: it takes --nodes, not --memory")
        if seconds is not None:
            raise OptionError("grading counts positions, not seconds (so that it is the same everywhere): use --nodes")
        from ..levels.measures import GRADE_NODES

        nodes = GRADE_NODES if nodes is None else nodes
    elif seconds is None and nodes is None:
        raise OptionError("give a budget: --seconds and/or --nodes")
    return Job(task, rules.name, tuple(sorted(rules.options.items())), seconds, nodes, memory)


def parse_deals(text: str) -> list[int]:
    """Deal numbers from text: ``A:B`` (A to B-1), ``N``, or several of those separated by
    commas, in ASCII digits; sorted, each once; at most :data:`MAX_RUN_DEALS` of them.

    >>> parse_deals("0:3,10"), parse_deals(" 5 ")
    ([0, 1, 2, 10], [5])
    >>> parse_deals("3:1")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: deal range '3:1' is empty (A:B runs from A to B-1)
    >>> parse_deals("0:4294967296")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: a run takes at most 1,000,000 deals, not 4,294,967,296 (split it into runs)
    """
    ranges: list[range] = []
    for part in text.split(","):
        part = part.strip()
        ends = part.split(":", 1)
        if not all(is_decimal(end.strip()) for end in ends):
            raise OptionError(f"deals are written A:B, N or a list of those, in digits 0-9, not {quote(text)}")
        low, high = (read_int(end.strip(), "a deal number", OptionError, 0, MAX_DEALS) for end in (ends[0], ends[-1]))
        numbers = range(low, high + (1 if len(ends) == 1 else 0))
        if not numbers:
            raise OptionError(f"deal range {part!r} is empty (A:B runs from A to B-1)")
        if numbers.stop > MAX_DEALS:
            raise OptionError(f"deal numbers run from 0 to {MAX_DEALS - 1}: {part!r} is outside")
        ranges.append(numbers)
    asked = sum(len(r) for r in ranges)  # counted before any set is built
    if asked > MAX_RUN_DEALS:
        raise OptionError(f"a run takes at most {MAX_RUN_DEALS:,} deals, not {asked:,} (split it into runs)")
    return sorted({deal for numbers in ranges for deal in numbers})


def run_batch(job: Job, deals: Sequence[int]) -> list[Row]:
    """Answer ``job`` for each deal of ``deals`` (in this process), a row each.

    >>> rows = run_batch(make_job("grade", "devils-square", {}, nodes=3000), [0])
    >>> rows[0].measures["level"] in (None, "easy", "normal", "hard", "tricky")
    True
    """
    worker = f"{socket.gethostname()}:{os.getpid()}"
    options = dict(job.options)
    if job.task == "solve":
        from ..solve import solve
        from ..solve.memory import MEMORY_SHARE, default_memory

        memory = job.memory
        if memory is None:
            memory = default_memory(MEMORY_SHARE / (os.cpu_count() or 1))
        rows = []
        for deal in deals:
            result = solve(new_game(job.game, deal=deal, **options), job.seconds, job.nodes, memory)
            rows.append(
                Row(deal, result.verdict, len(result.moves), result.nodes, result.seconds, result.peak_mb, None, worker)
            )
        return rows
    return [_grade(job, deal, worker) for deal in deals]


def _grade(job: Job, deal: int, worker: str) -> Row:
    from ..levels.deal_tables import scale_for
    from ..levels.measures import measure
    from ..levels.reference import obvious_player_wins

    rules = rules_for(job.game, **dict(job.options))
    assert job.nodes is not None
    reset_peak()
    began = time.perf_counter()
    m = measure(rules, deal, job.nodes)
    measures: dict[str, Any] = {
        "effort": m.effort,
        "eager_verdict": m.eager_verdict,
        "eager_effort": m.eager_effort,
        "ease": m.ease,
        "obvious": m.obvious,
        "tricky": m.tricky,
        "level": scale_for(rules).level(m) if m.solvable else None,
        "reference_win": (m.obvious if m.obvious is not None else obvious_player_wins(rules, deal))
        if m.solvable
        else None,
    }
    seconds = time.perf_counter() - began
    return Row(deal, m.verdict, 0, m.effort + m.eager_effort, seconds, peak_mb(), measures, worker)

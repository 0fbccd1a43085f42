"""Running an analysis: the deals not yet in the store, in batches, on a local pool or a
Dask cluster, each finished batch written to the store at once.

- **Resuming.** The deals already stored for the job's key are skipped, so a
  rerun of the same command finishes an interrupted one, and a larger ``--deals``
  only adds the new deals.
- **Local** (default): ``workers`` processes of this machine
  (:class:`concurrent.futures.ProcessPoolExecutor`; one worker: this process).
- **Dask** (``scheduler``): the address of a Dask scheduler (``tcp://HOST:8786``) or
  a ``dask.distributed.Client``. Each batch is one task (``retries`` 3): when a
  worker dies, Dask runs its batches again elsewhere. Rows are keyed by deal, so a
  batch that ends up answered twice is written once.
- **Interrupted** (Ctrl+C, a killed client): the batches already written stay;
  nothing is half written (one transaction a batch). Pending work is cancelled.

>>> import tempfile, os
>>> from cardtable.analysis.results import ResultStore
>>> from cardtable.analysis.jobs import make_job
>>> store = ResultStore(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> job = make_job("solve", "devils-square", {}, nodes=500)
>>> run(job, [0, 1, 2], store).added, run(job, [0, 1, 2, 3], store).added
(3, 1)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError
from .jobs import Job, run_batch
from .results import ResultStore, Row

Progress = Callable[[int, int], None]
"""Called with (deals done in this run, deals to do in this run): once before the first
batch, then after each batch is stored."""

MAX_BATCH = 50
"""The largest batch a run makes by itself."""
BATCHES_PER_WORKER = 4
"""A run makes at least this many batches per worker (if it has the deals), so that the
last batches do not leave workers idle for long."""


@dataclass(frozen=True)
class RunResult:
    """What a run did: deals asked, already stored before it, answered and newly written.

    >>> RunResult(10, 4, 6, 6).complete
    True
    """

    asked: int
    skipped: int
    answered: int
    added: int

    @property
    def complete(self) -> bool:
        """Whether every deal asked is now in the store."""
        return self.skipped + self.answered >= self.asked


def batch_size(todo: int, workers: int) -> int:
    """Deals per batch: enough batches for every worker to take several, at most
    :data:`MAX_BATCH` deals each.

    >>> batch_size(20_000, 2), batch_size(10, 2), batch_size(0, 1)
    (50, 1, 1)
    """
    return max(1, min(MAX_BATCH, todo // (workers * BATCHES_PER_WORKER)))


def batches(deals: Sequence[int], size: int) -> list[list[int]]:
    """``deals`` cut into batches of ``size`` (the last may be shorter).

    >>> batches([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [list(deals[i : i + size]) for i in range(0, len(deals), size)]


def run(
    job: Job,
    deals: Sequence[int],
    store: ResultStore,
    workers: int = 1,
    scheduler: Any = None,
    batch: int | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Answer ``job`` for every deal of ``deals`` not yet in ``store`` (see the module docstring)."""
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if batch is not None and batch < 1:
        raise OptionError(f"--batch must be at least 1, not {batch}")
    key = job.key
    done = store.done(key)
    todo = [d for d in deals if d not in done]
    answered = added = 0
    if not todo:
        return RunResult(len(deals), len(deals), 0, 0)
    client = None if scheduler is None else _client(scheduler)
    if progress is not None:
        progress(0, len(todo))
    try:
        slots = workers if client is None else max(1, _cluster_threads(client))
        parts = batches(todo, batch or batch_size(len(todo), slots))
        if client is not None:
            results = _on_dask(client, job, parts)
        elif workers == 1:
            results = (run_batch(job, part) for part in parts)
        else:
            results = _on_pool(job, parts, workers)
        for rows in results:
            added += store.add(key, rows)
            answered += len(rows)
            if progress is not None:
                progress(answered, len(todo))
    finally:
        if client is not None and client is not scheduler:  # a client of our own: closed with the run
            client.close()
    return RunResult(len(deals), len(deals) - len(todo), answered, added)


def _on_pool(job: Job, parts: list[list[int]], workers: int) -> Iterator[list[Row]]:
    """Each batch's rows as it finishes, from a pool of ``workers`` processes."""
    pool = ProcessPoolExecutor(max_workers=min(workers, len(parts)))  # never more than batches
    pending: set[Future[list[Row]]] = {pool.submit(run_batch, job, part) for part in parts}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    finally:
        # Stopped early (Ctrl+C, an error): drop the batches not started; those running
        # are lost with the pool, and a rerun does them again.
        pool.shutdown(wait=not pending, cancel_futures=True)


def _dask() -> Any:
    """``dask.distributed``, or a clear error when the ``analysis`` extra is not installed."""
    try:
        import dask.distributed
    except ImportError:
        raise OptionError("running on a Dask cluster needs the analysis extra: pip install -e '.[analysis]'") from None
    return dask.distributed


def check_scheduler(scheduler: Any) -> None:
    """Refuse what is neither a Dask client nor a scheduler address (``tcp://HOST:PORT``...).

    >>> check_scheduler("tcp://127.0.0.1:8786")
    >>> check_scheduler("nowhere")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: --scheduler takes a Dask scheduler address such as tcp://HOST:8786, not 'nowhere'
    """
    if isinstance(scheduler, str) and "://" in scheduler:
        return
    Client = _dask().Client

    if not isinstance(scheduler, Client):
        raise OptionError(f"--scheduler takes a Dask scheduler address such as tcp://HOST:8786, not {scheduler!r}")


def _client(scheduler: Any) -> Any:
    """A Dask client: the one given, or one connected to the scheduler's address."""
    Client = _dask().Client

    check_scheduler(scheduler)
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise OptionError(f"cannot reach the Dask scheduler at {scheduler} ({error})") from None


def _cluster_threads(client: Any) -> int:
    """How many tasks the cluster runs at once (its workers' threads)."""
    return sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values())


def _on_dask(client: Any, job: Job, parts: list[list[int]]) -> Iterator[list[Row]]:
    """Each batch's rows as it finishes, from the Dask cluster of ``client``."""
    as_completed = _dask().as_completed
    run_id = uuid.uuid4().hex[:12]
    futures = [
        client.submit(run_batch, job, part, key=f"cardtable-analyze-{run_id}-{i}", retries=3, pure=False)
        for i, part in enumerate(parts)
    ]
    try:
        for future in as_completed(futures):
            rows: list[Row] = future.result()
            future.release()
            yield rows
    finally:
        client.cancel([f for f in futures if not f.done()])


def local_cluster(workers: int) -> Any:
    """A Dask ``LocalCluster`` on loopback with ``workers`` worker processes of one thread
    each (what the tests and ``bench/analyze.py`` run on; use it as a context manager).
    """
    import logging

    return _dask().LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )

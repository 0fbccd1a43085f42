"""Runs: resumed, interrupted, in a local pool and on a Dask cluster (LocalCluster on
loopback, 2 worker processes) with a worker killed in the middle; every deal ends up in
the store exactly once with the answers of a one-process run."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.analysis import Job, ResultStore, make_job, run, run_batch
from cardtable.analysis.runner import batch_size, batches, local_cluster
from cardtable.core.errors import OptionError

from ..cli.runner import run as cli_run

# Deterministic answers (positions counted, not seconds), each deal a few hundredths of a second.
JOB = make_job("solve", "desturado", {"mode": "hard"}, nodes=20_000, memory=200_000)
DEALS = list(range(40))


@pytest.fixture(scope="module")
def reference() -> dict[int, tuple[str, int, int]]:
    """The answers of a one-process run, by deal."""
    return answers(run_batch(JOB, DEALS))


def answers(rows: Any) -> dict[int, tuple[str, int, int]]:
    return {r.deal: (r.verdict, r.moves, r.nodes) for r in rows}


def stored(store: ResultStore, job: Job = JOB) -> list[Any]:
    return list(store.rows(job.key))


def test_batches() -> None:
    assert batches(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert batch_size(1_000_000, 8) == 50 and batch_size(12, 3) == 1
    with pytest.raises(OptionError):
        run(JOB, [1], ResultStore(":memory:"), workers=0)


def test_a_rerun_resumes_and_never_doubles(tmp_path: Path, reference: dict[int, tuple[str, int, int]]) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        first = run(JOB, DEALS[:15], store)
        assert (first.asked, first.skipped, first.answered, first.added) == (15, 0, 15, 15)
        again = run(JOB, DEALS, store, workers=2)
        assert (again.skipped, again.answered, again.added) == (15, 25, 25) and again.complete
        assert run(JOB, DEALS, store).answered == 0
        rows = stored(store)
        assert [r.deal for r in rows] == DEALS and answers(rows) == reference


def test_an_interrupted_run_keeps_its_finished_batches(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    """Ctrl+C in the middle of a pool run: the batches written stay, whole; the rerun
    finishes the rest."""
    with ResultStore(tmp_path / "r.sqlite") as store:
        seen: list[int] = []

        def stop(done: int, total: int) -> None:
            seen.append(done)
            if done >= 10:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            run(JOB, DEALS, store, workers=2, batch=5, progress=stop)
        kept = store.done(JOB.key)
        assert len(kept) == seen[-1] and 10 <= len(kept) < len(DEALS) and len(kept) % 5 == 0
        result = run(JOB, DEALS, store, workers=2, batch=5)
        assert result.skipped == len(kept) and result.complete
        assert answers(stored(store)) == reference


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask cluster on loopback: 2 worker processes of one thread each."""
    from dask.distributed import Client

    with (
        local_cluster(2) as local,
        Client(local) as client,  # type: ignore[no-untyped-call]
    ):
        yield client


@pytest.mark.dask
def test_a_killed_dask_worker_loses_nothing(
    tmp_path: Path, cluster: Any, reference: dict[int, tuple[str, int, int]]
) -> None:
    client = cluster
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if not killed and done >= 6:
            pids = client.run(os.getpid)  # the worker processes, by address
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    with ResultStore(tmp_path / "r.sqlite") as store:
        result = run(JOB, DEALS, store, scheduler=client, batch=2, progress=kill_one)
        assert killed, "the run should have finished batches before the kill"
        assert result.complete and result.added == len(DEALS)
        rows = stored(store)
        assert [r.deal for r in rows] == DEALS  # every deal once
        assert answers(rows) == reference
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the killed worker


@pytest.mark.dask
def test_the_command_line_runs_on_the_cluster_by_address(tmp_path: Path, cluster: Any) -> None:
    store = str(tmp_path / "r.sqlite")
    address = cluster.scheduler.address
    args = ["analyze", "solve", "devils-square", "--deals", "0:12", "--nodes", "3000", "--store", store]
    result = cli_run([*args, "--scheduler", address, "--quiet"])
    assert result.exit_code == 0 and result.stdout.startswith("12 deals: 0 already in the store, 12 answered")
    local = cli_run([*args, "--workers", "1", "--quiet"])
    assert local.stdout.startswith("12 deals: 12 already in the store, 0 answered")

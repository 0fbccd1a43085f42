"""``cardtable analyze``: solve or grade ranges of deals into a results store, and report.

>>> from click.testing import CliRunner
>>> from cardtable.cli.main import cli
>>> "solve" in CliRunner().invoke(cli, ["analyze", "--help"]).output
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from ..analysis.jobs import MAX_RUN_DEALS
from ..core.inputs import MAX_INT, quote  # a limit's count: a 64-bit counter in the cores
from .common import (
    GAME_OPTIONS,
    MAX_WORKERS,
    CardtableGroup,
    CommandError,
    Number,
    WholeNumber,
    parse_game_options,
    write_whole,
)
from .render import make_console

DEFAULT_STORE = "cardtable-analysis.sqlite"
"""The results store when ``--store`` is not given (in the current folder)."""

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl+C (what was finished is kept)."""


class RateColumn(ProgressColumn):
    """Deals a second, for rich's progress bar."""

    def render(self, task: Task) -> Text:
        """The task's speed as deals a second."""
        speed = task.finished_speed or task.speed
        return Text("-- deals/s" if speed is None else f"{speed:,.1f} deals/s")


@click.group("analyze", cls=CardtableGroup)
def analyze_group() -> None:
    """Solve or grade many deals into a results store that a rerun resumes, on this
    machine's cores or a Dask cluster, then report (docs/analysis.md)."""


def _budget_options(command: Any) -> Any:
    for option in reversed(
        [
            click.option(
                "--deals",
                "deals_text",
                required=True,
                metavar="A:B",
                help="Deal numbers: A:B (A to B-1), N, or a list.",
            ),
            click.option(
                "--store",
                "store_path",
                default=DEFAULT_STORE,
                show_default=True,
                metavar="FILE",
                help="Results store (SQLite).",
            ),
            click.option(
                "--workers",
                type=WholeNumber(1, MAX_WORKERS),
                default=None,
                help="Local processes (default: this machine's cores).",
            ),
            click.option(
                "--scheduler",
                metavar="ADDRESS",
                help="A Dask scheduler, e.g. tcp://HOST:8786, instead of local processes.",
            ),
            click.option(
                "--batch",
                type=WholeNumber(1, MAX_RUN_DEALS),
                default=None,
                help="Deals per task (default: chosen from the run's size).",
            ),
            click.option("--quiet", is_flag=True, help="No progress bar and no summary."),
        ]
    ):
        command = option(command)
    return command


@analyze_group.command("solve", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option("--seconds", type=Number(0), default=None, help="Time limit per deal.")
@click.option("--nodes", type=WholeNumber(0, MAX_INT), default=None, help="Limit on positions explored per deal.")
@click.option(
    "--memory",
    type=WholeNumber(0, MAX_INT),
    default=None,
    help="Limit on positions remembered per deal (default: fitted to each worker's machine).",
)
@_budget_options
@click.pass_context
def solve_command(
    ctx: click.Context, /, game: str, seconds: float | None, nodes: int | None, memory: int | None, **run: Any
) -> None:
    """Solve deals of a one-player GAME ("thoughtful") into the results store.

    A deal already in the store (same game, options and budget) is not solved
    again: run the same command again to finish an interrupted run. Game options
    follow the game as --name value.
    \f

    >>> import tempfile, os
    >>> from click.testing import CliRunner
    >>> from cardtable.cli.main import cli
    >>> store = os.path.join(tempfile.mkdtemp(), "r.sqlite")
    >>> args = ["analyze", "solve", "devils-square", "--deals", "0:3", "--nodes", "500", "--workers", "1"]
    >>> args += ["--store", store]
    >>> CliRunner().invoke(cli, args).output.splitlines()[0]
    '3 deals: 0 already in the store, 3 answered now (3 new rows) -> ...r.sqlite'
    """
    from ..analysis import make_job

    job = make_job("solve", game, parse_game_options(ctx.args), seconds=seconds, nodes=nodes, memory=memory)
    _run(job, **run)


@analyze_group.command("grade", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option(
    "--nodes",
    type=WholeNumber(0, MAX_INT),
    default=None,
    help="Positions each grading search may explore (default: the levels').",
)
@_budget_options
@click.pass_context
def grade_command(ctx: click.Context, /, game: str, nodes: int | None, **run: Any) -> None:
    """Grade deals of a one-player GAME for the levels into the results store: the level
    measures, the level, and whether the reference player wins.

    Grading counts positions, not seconds, so a grade is the same on every machine.
    \f

    >>> import tempfile, os
    >>> from click.testing import CliRunner
    >>> from cardtable.cli.main import cli
    >>> store = os.path.join(tempfile.mkdtemp(), "r.sqlite")
    >>> args = ["analyze", "grade", "devils-square", "--deals", "4", "--nodes", "2000", "--workers", "1"]
    >>> args += ["--store", store]
    >>> CliRunner().invoke(cli, args).exit_code
    0
    """
    from ..analysis import make_job

    job = make_job("grade", game, parse_game_options(ctx.args), nodes=nodes)
    _run(job, **run)


def _run(
    job: Any,
    deals_text: str,
    store_path: str,
    workers: int | None,
    scheduler: str | None,
    batch: int | None,
    quiet: bool,
) -> None:
    from ..analysis import ResultStore, parse_deals, run
    from ..analysis.report import summarize, text_report
    from ..analysis.runner import check_scheduler

    deals = parse_deals(deals_text)
    if scheduler is not None and workers is not None:
        raise CommandError("give --workers (local processes) or --scheduler (a Dask cluster), not both")
    workers = workers or os.cpu_count() or 1
    if scheduler is not None:
        check_scheduler(scheduler)
    console = make_console(stderr=True)
    with ResultStore(store_path) as store:
        try:
            if quiet or not console.is_terminal:  # a bar only where someone watches
                result = run(job, deals, store, workers, scheduler, batch)
            else:
                columns = (
                    TextColumn("{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    RateColumn(),
                    TimeRemainingColumn(),
                )
                with Progress(*columns, console=console, transient=True) as bar:
                    task = bar.add_task(job.key.label, total=None)

                    def advance(done: int, total: int) -> None:
                        bar.update(task, completed=done, total=total)

                    result = run(job, deals, store, workers, scheduler, batch, advance)
        except KeyboardInterrupt:
            stored = len(store.done(job.key).intersection(deals))
            click.echo(
                f"interrupted: {stored} of {len(deals)} deals are in {store_path}; the same command goes on", err=True
            )
            raise SystemExit(EXIT_INTERRUPTED) from None
        click.echo(
            f"{result.asked} deals: {result.skipped} already in the store, {result.answered} answered now "
            f"({result.added} new rows) -> {store_path}"
        )
        if not quiet:
            asked = set(deals)
            rows = [r for r in store.rows(job.key) if r.deal in asked]
            click.echo(text_report([summarize(job.key, rows)]))


@analyze_group.command("tables")
@click.argument("store_path", metavar="STORE", default=DEFAULT_STORE)
@click.option(
    "--out", "out_path", default="level_tables.json", show_default=True, metavar="FILE", help="Tables file to write."
)
@click.option(
    "--min-deals", type=WholeNumber(1, MAX_RUN_DEALS), default=None, help="Fewest deals a key's scale is made from."
)
@click.option(
    "--table-size", type=WholeNumber(1, MAX_RUN_DEALS), default=None, help="Most deals kept in a level's table."
)
def tables_command(store_path: str, out_path: str, min_deals: int | None, table_size: int | None) -> None:
    """Build the level tables (scales and deals of each level, per game and mode) from the
    graded deals in STORE: those of 'cardtable analyze grade' at each level key's options
    and the grading budget. Copy the file to src/cardtable/levels/level_tables.json to ship it.
    \f

    >>> from click.testing import CliRunner
    >>> from cardtable.cli.main import cli
    >>> CliRunner().invoke(cli, ["analyze", "tables", "/nonexistent/x.sqlite"]).output
    'cardtable: error: no results store at /nonexistent/x.sqlite\\n'
    """
    from ..analysis import ResultStore
    from ..analysis.level_tables import level_entries
    from ..levels.build import MIN_DEALS, TABLE_SIZE, shares_report, tables_text

    with ResultStore(store_path, create=False) as store:
        entries = level_entries(store, min_deals or MIN_DEALS, table_size or TABLE_SIZE)
    if not entries:
        raise CommandError(f"{store_path} has too few graded deals at the level keys' options for any table")
    for label, entry in entries.items():
        click.echo(shares_report(label, entry))
    try:
        write_whole(out_path, tables_text(entries))  # a tables file already there is never left half written
    except OSError as err:
        raise CommandError(f"cannot write {out_path}: {err.strerror or err}") from None
    click.echo(f"wrote {out_path}")


@analyze_group.command("report")
@click.argument("store_path", metavar="STORE", default=DEFAULT_STORE)
@click.option("--plots", "plots_dir", metavar="DIR", help="Write the plots (PNG) into this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print the summaries as JSON.")
@click.option("--markdown", is_flag=True, help="Print the summaries as Markdown tables.")
def report_command(store_path: str, plots_dir: str | None, as_json: bool, markdown: bool) -> None:
    """Summarise a results store: winnable shares with 95% (Wilson) intervals, unknowns,
    solve times, peak memory; the levels of graded deals; with --plots, the plots.
    \f

    >>> from click.testing import CliRunner
    >>> from cardtable.cli.main import cli
    >>> CliRunner().invoke(cli, ["analyze", "report", "/nonexistent/x.sqlite"]).output
    'cardtable: error: no results store at /nonexistent/x.sqlite\\n'
    """
    from ..analysis import ResultStore
    from ..analysis.report import markdown_report, summaries, text_report, write_plots

    with ResultStore(store_path, create=False) as store:
        found = summaries(store)
    if as_json and markdown:
        raise CommandError("give --json or --markdown, not both")
    folder = None if plots_dir is None else _plots_folder(plots_dir)  # before anything is printed
    if as_json:
        click.echo(json.dumps([s.to_json() for s in found], indent=1))
    elif markdown:
        click.echo(markdown_report(found))
    else:
        click.echo(text_report(found))
    if folder is not None:
        try:
            written = write_plots(found, folder)
        except OSError as err:
            raise CommandError(f"cannot write the plots into {quote(str(folder))}: {err.strerror or err}") from None
        for path in written:
            click.echo(f"plot: {path}", err=as_json)


def _plots_folder(text: str) -> Path:
    """The folder ``--plots`` names, made if missing; a one-line error if it cannot be written.

    >>> _plots_folder("/proc/nope")
    Traceback (most recent call last):
    ...
    cardtable.cli.common.CommandError: cannot write the plots into '/proc/nope': No such file or directory
    """
    folder = Path(text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CommandError(f"cannot write the plots into {quote(text)}: {err.strerror or err}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CommandError(f"cannot write the plots into {quote(text)}: not writable")
    return folder

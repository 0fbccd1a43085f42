"""Reading a results store: summaries with 95% intervals, and the plots.

For each key of ``solve`` rows (:func:`solve_summary`): deals, solved, proved
unsolvable, unknown; the winnable share as an interval, from solved/n (every
unknown deal lost) to (solved + unknown)/n (every unknown deal won); its 95%
interval, from the Wilson low of the solved share to the Wilson high of solved
+ unknown (the Wilson interval when nothing is unknown); seconds per deal
(median, 95th percentile by nearest rank, mean, max); the largest peak memory.

For each key of ``grade`` rows (:func:`grade_summary`): the deals of each level
(solvable deals only; ``tricky`` included), the tricky share of the solvable
deals, and the reference player's win share per level with its Wilson interval.
A deal's level is worked out from its stored measures on the scale of the level
tables shipped now (:func:`level_now`), not read from the row: the row's ``level``
is the one of the tables when it was graded, and ``cardtable analyze tables``
may since have rebuilt them from these very rows.

Plots (:func:`write_plots`, matplotlib, PNG): ``winnable.png`` (the winnable
share of every solved game and mode, with its interval), ``levels.png`` (the
reference player's win share by level) and ``solve_times.png`` (the share of
deals answered within t seconds, per game and mode, t on a log scale).

>>> wilson(16, 20)
(0.584, 0.9193)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.tournament import Z95
from ..core.errors import OptionError
from ..games import rules_for
from ..levels.deal_tables import GRADED_LEVELS, Scale, level_keys, scale_for
from ..levels.measures import Measure
from .results import ResultStore, Row, RunKey, StoreError


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (95% with the default ``z``), rounded
    to 4 places; ``(0, 1)`` when n is 0. Unlike the normal approximation it stays inside
    0..1 and is not empty at 0 or n successes.

    >>> wilson(0, 20)
    (0.0, 0.1611)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by nearest rank; 0 for no values.

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 95), percentile([], 50)
    (2, 4, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class SolveSummary:
    """One key of solve rows, summed up (see the module docstring).

    >>> rows = [Row(0, "solved", 5, 9, 0.1, 50.0), Row(1, "unknown", 0, 9, 2.0, 60.0)]
    >>> s = solve_summary(RunKey("solve", "x", {}, {}), rows)
    >>> s.winnable, s.ci95, s.seconds_median
    ((0.5, 1.0), (0.0945, 1.0), 0.1)
    """

    key: RunKey
    deals: int
    solved: int
    unsolvable: int
    unknown: int
    winnable: tuple[float, float]
    ci95: tuple[float, float]
    seconds_median: float
    seconds_p95: float
    seconds_mean: float
    seconds_max: float
    peak_mb: float
    seconds: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (without the per-deal seconds)."""
        return {
            **_key_json(self.key),
            "deals": self.deals,
            "solved": self.solved,
            "unsolvable": self.unsolvable,
            "unknown": self.unknown,
            "winnable": list(self.winnable),
            "ci95": list(self.ci95),
            "seconds": {
                "median": self.seconds_median,
                "p95": self.seconds_p95,
                "mean": self.seconds_mean,
                "max": self.seconds_max,
            },
            "peak_mb": self.peak_mb,
        }


def _key_json(key: RunKey) -> dict[str, Any]:
    """The key's fields as JSON-ready data."""
    return {
        "key": key.label,
        "task": key.task,
        "game": key.game,
        "options": dict(key.options),
        "budget": dict(key.budget),
    }


def solve_summary(key: RunKey, rows: Sequence[Row]) -> SolveSummary:
    """Sum up the solve rows of one key."""
    n = len(rows)
    solved = sum(r.verdict == "solved" for r in rows)
    unsolvable = sum(r.verdict == "unsolvable" for r in rows)
    unknown = n - solved - unsolvable
    seconds = tuple(r.seconds for r in rows)
    low, _ = wilson(solved, n)
    _, high = wilson(solved + unknown, n)
    return SolveSummary(
        key,
        n,
        solved,
        unsolvable,
        unknown,
        (round(solved / n, 4), round((solved + unknown) / n, 4)) if n else (0.0, 1.0),
        (low, high),
        round(percentile(seconds, 50), 4),
        round(percentile(seconds, 95), 4),
        round(sum(seconds) / n, 4) if n else 0.0,
        round(max(seconds, default=0.0), 4),
        round(max((r.peak_mb for r in rows), default=0.0), 1),
        seconds,
    )


@dataclass(frozen=True)
class GradeSummary:
    """One key of grade rows, summed up: deals per level, tricky share, the reference
    player's wins per level.

    >>> m = {"effort": 1141, "eager_verdict": "unsolvable", "eager_effort": 207, "ease": None, "obvious": False}
    >>> rows = [Row(7, "solved", 0, 1348, 0.1, 50.0, {**m, "reference_win": False})]
    >>> grade_summary(RunKey("grade", "klondike", {"draw": 3}, {}), rows).levels["tricky"]
    (1, 0)
    """

    key: RunKey
    deals: int
    solvable: int
    tricky: int
    levels: dict[str, tuple[int, int]]
    """Per level: (deals, deals the reference player wins)."""

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data, with the win shares and their intervals."""
        return {
            **_key_json(self.key),
            "deals": self.deals,
            "solvable": self.solvable,
            "tricky": self.tricky,
            "tricky_share": round(self.tricky / self.solvable, 4) if self.solvable else 0.0,
            "levels": {
                level: {
                    "deals": n,
                    "reference_wins": wins,
                    "win_share": round(wins / n, 4) if n else None,
                    "ci95": list(wilson(wins, n)),
                }
                for level, (n, wins) in self.levels.items()
            },
        }


def level_now(key: RunKey, row: Row) -> str | None:
    """The level of a graded deal (a grade row of ``key``) on the scale of the level tables
    shipped now (:func:`cardtable.levels.deal_tables.scale_for`), from the row's measures;
    None when the deal is not solvable within the grading budget.

    >>> m = {"effort": 1141, "eager_verdict": "unsolvable", "eager_effort": 207, "ease": None, "obvious": False}
    >>> level_now(RunKey("grade", "klondike", {}, {}), Row(7, "solved", 0, 1348, 0.1, 50.0, m, None))
    'tricky'
    """
    return _scale_now(key).level(_measure(row))


def _scale_now(key: RunKey) -> Scale:
    """The scale shipped now for the game and options of ``key``."""
    return scale_for(rules_for(key.game, **key.options))


def _measure(row: Row) -> Measure:
    """A grade row's measures, as :func:`cardtable.levels.measures.measure` gave them."""
    m = row.measures or {}
    return Measure(
        row.verdict,
        int(m.get("effort", row.nodes)),
        m.get("eager_verdict"),
        int(m.get("eager_effort", 0)),
        m.get("ease"),
        m.get("obvious"),
    )


def grade_summary(key: RunKey, rows: Sequence[Row]) -> GradeSummary:
    """Sum up the grade rows of one key (levels as :func:`level_now` gives them)."""
    scale = _scale_now(key)  # once for all the rows
    levels = {level: [0, 0] for level in GRADED_LEVELS}
    tricky = solvable = 0
    for row in rows:
        m = row.measures or {}
        try:
            level = scale.level(_measure(row))
        except ValueError:  # measures no grading writes: a damaged row
            raise StoreError(
                f"the results store holds a damaged row (deal {row.deal} of {key.label}: its measures)"
            ) from None
        if level is None:
            continue
        solvable += 1
        tricky += bool(m.get("tricky"))
        levels[level][0] += 1
        levels[level][1] += bool(m.get("reference_win"))
    return GradeSummary(key, len(rows), solvable, tricky, {k: (v[0], v[1]) for k, v in levels.items()})


def summaries(store: ResultStore) -> list[SolveSummary | GradeSummary]:
    """A summary of every key in the store, in the store's order.

    >>> import tempfile, os
    >>> summaries(ResultStore(os.path.join(tempfile.mkdtemp(), "empty.sqlite")))
    []
    """
    return [summarize(key, list(store.rows(key))) for key, _ in store.run_keys()]


def summarize(key: RunKey, rows: Sequence[Row]) -> SolveSummary | GradeSummary:
    """The summary of one key's rows, as its task asks (:func:`solve_summary` or
    :func:`grade_summary`).

    >>> summarize(RunKey("solve", "x", {}, {}), [Row(0, "solved", 5, 9, 0.1, 50.0)]).solved
    1
    """
    return solve_summary(key, rows) if key.task == "solve" else grade_summary(key, rows)


def text_report(found: Sequence[SolveSummary | GradeSummary]) -> str:
    """The summaries as a plain-text report.

    >>> print(text_report([]))
    (the store is empty)
    """
    if not found:
        return "(the store is empty)"
    lines: list[str] = []
    solves = [s for s in found if isinstance(s, SolveSummary)]
    grades = [s for s in found if isinstance(s, GradeSummary)]
    if solves:
        lines.append(
            f"{'solve':<52} {'deals':>7} {'solved':>7} {'unsolv':>7} {'unknown':>7}  {'winnable':<15} "
            f"{'95% CI':<15} {'median s':>8} {'p95 s':>7} {'max s':>7} {'peak MB':>7}"
        )
        for s in solves:
            win = f"{s.winnable[0]:.1%}-{s.winnable[1]:.1%}"
            ci = f"{s.ci95[0]:.1%}-{s.ci95[1]:.1%}"
            lines.append(
                f"{_short(s.key):<52} {s.deals:>7} {s.solved:>7} {s.unsolvable:>7} {s.unknown:>7}  {win:<15} "
                f"{ci:<15} {s.seconds_median:>8.3f} {s.seconds_p95:>7.2f} {s.seconds_max:>7.2f} {s.peak_mb:>7.0f}"
            )
    if grades:
        if lines:
            lines.append("")
        lines.append(f"{'grade':<52} {'deals':>7} {'solvable':>8} {'tricky':>7}  reference player's wins by level")
        for g in grades:
            by_level = "  ".join(
                f"{level} {wins}/{n}" + (f" {wins / n:.0%}" if n else "") for level, (n, wins) in g.levels.items()
            )
            lines.append(f"{_short(g.key):<52} {g.deals:>7} {g.solvable:>8} {g.tricky:>7}  {by_level}")
    return "\n".join(lines)


def markdown_report(found: Sequence[SolveSummary | GradeSummary]) -> str:
    """The summaries as Markdown tables (for docs).

    >>> rows = [Row(0, "solved", 5, 9, 0.1, 50.0), Row(1, "unknown", 0, 9, 2.0, 60.0)]
    >>> print(markdown_report([solve_summary(RunKey("solve", "klondike", {}, {"seconds": 10}), rows)]).splitlines()[2])
    | klondike [seconds=10] | 2 | 1 | 0 | 1 | 50.0%-100.0% | 9.4%-100.0% | 0.100 | 2.00 | 2.00 | 60 |
    """
    lines: list[str] = []
    solves = [s for s in found if isinstance(s, SolveSummary)]
    grades = [s for s in found if isinstance(s, GradeSummary)]
    if solves:
        lines.append(
            "| game, options [budget] | deals | solved | unsolvable | unknown | winnable | 95% CI "
            "| median s | p95 s | max s | peak MB |"
        )
        lines.append("|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|")
        for s in solves:
            lines.append(
                f"| {_short(s.key)} | {s.deals:,} | {s.solved:,} | {s.unsolvable:,} | {s.unknown:,} "
                f"| {s.winnable[0]:.1%}-{s.winnable[1]:.1%} | {s.ci95[0]:.1%}-{s.ci95[1]:.1%} "
                f"| {s.seconds_median:.3f} | {s.seconds_p95:.2f} | {s.seconds_max:.2f} | {s.peak_mb:.0f} |"
            )
    if grades:
        if lines:
            lines.append("")
        head = " | ".join(f"{level}: deals, reference wins" for level in GRADED_LEVELS)
        lines.append(f"| game, options [budget] | deals | solvable | tricky | {head} |")
        lines.append("|---|---:|---:|---:|" + "---|" * len(GRADED_LEVELS))
        for g in grades:
            cells = " | ".join(_wins_cell(n, wins) for n, wins in g.levels.values())
            lines.append(f"| {_short(g.key)} | {g.deals:,} | {g.solvable:,} | {g.tricky:,} | {cells} |")
    return "\n".join(lines)


def _wins_cell(n: int, wins: int) -> str:
    """A level's Markdown cell: deals, the reference player's win share and its interval."""
    if not n:
        return "0"
    low, high = wilson(wins, n)
    return f"{n:,}, {wins / n:.0%} [{low:.0%}, {high:.0%}]"


def _short(key: RunKey) -> str:
    """The key's game, the options that differ from the game's defaults, and its budget."""
    defaults = rules_for(key.game).options
    shown = {k.option for k in level_keys()}  # the option that makes a game's mode is always named
    opts = " ".join(f"{k}={v}" for k, v in sorted(key.options.items()) if k in shown or defaults.get(k) != v)
    budget = ",".join(f"{k}={v}" for k, v in sorted(key.budget.items()) if v is not None)
    return " ".join(w for w in (key.game, opts, f"[{budget}]") if w)


def write_plots(found: Sequence[SolveSummary | GradeSummary], folder: str | Path) -> list[Path]:
    """Write the plots of the summaries into ``folder`` (made if missing); the files written.

    >>> import tempfile
    >>> write_plots([], tempfile.mkdtemp())
    []
    """
    try:
        import matplotlib
    except ImportError:
        raise OptionError("plots need matplotlib, in the analysis extra: pip install -e '.[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    solves = [s for s in found if isinstance(s, SolveSummary) and s.deals]
    grades = [s for s in found if isinstance(s, GradeSummary) and s.solvable]
    if solves:
        fig, ax = plt.subplots(figsize=(9, 0.5 * len(solves) + 1.5))
        names = [_short(s.key) for s in solves]
        for i, s in enumerate(solves):
            ax.plot([s.ci95[0], s.ci95[1]], [i, i], color="tab:blue", linewidth=1.5)
            ax.plot([s.winnable[0], s.winnable[1]], [i, i], color="tab:blue", linewidth=7, solid_capstyle="butt")
            ax.plot([s.winnable[0]], [i], marker="|", color="tab:blue", markersize=12)  # seen when the bar is empty
            ax.annotate(f"n={s.deals}", (s.ci95[1], i), xytext=(4, -3), textcoords="offset points", fontsize=8)
        ax.set_yticks(range(len(solves)), names, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.08)
        ax.set_xlabel("winnable share: thick, solved to solved + unknown; thin, 95% interval")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        written.append(_save(fig, out / "winnable.png"))
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for s in solves:
            times = sorted(max(t, 1e-4) for t in s.seconds)
            ax.step(times, [(i + 1) / len(times) for i in range(len(times))], where="post", label=_short(s.key))
        ax.set_xscale("log")
        ax.set_xlabel("seconds per deal (log scale)")
        ax.set_ylabel("share of deals answered within")
        ax.set_ylim(0, 1.01)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        written.append(_save(fig, out / "solve_times.png"))
    if grades:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        width = 0.8 / len(grades)
        for j, g in enumerate(grades):
            xs, ys, lows, highs = [], [], [], []
            for i, (n, wins) in enumerate(g.levels.values()):
                if not n:
                    continue
                low, high = wilson(wins, n)
                xs.append(i - 0.4 + width * (j + 0.5))
                ys.append(wins / n)
                lows.append(wins / n - low)
                highs.append(high - wins / n)
            ax.errorbar(xs, ys, yerr=[lows, highs], fmt="o", capsize=3, label=_short(g.key))
        ax.set_xticks(range(len(GRADED_LEVELS)), list(GRADED_LEVELS))
        ax.set_ylabel("reference player's win share (95% interval)")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        written.append(_save(fig, out / "levels.png"))
    return written


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

"""The long run of the "solve limits" fuzz: ``solve`` honours its time and memory limits.

The same strategy and checks as ``tests/solve/test_fuzz_limits.py`` (a one-player game,
options from its declaration, a random mid-game position, a time limit of 0.01 to 0.5 s, a
memory limit), each case solved in a child process reused from case to case, for as long as
asked; a case that takes too long is measured once more, as in the test
(``tests/solve/limits.py``: ``checked``), and the run says how many were. It prints the
inputs tried, the failures (each case and what it broke), the worst overshoot (wall time
over the limit: the largest ratio, and the largest excess over the limit plus its slack,
less the time waiting for a CPU after the limit, and that longest wait),
and the peak memory (the largest peak, the most a solve added, and its largest share of its
budget), then the verdicts and the cases by game.

Run: ``.venv/bin/python bench/fuzz_solve_limits.py --minutes 10`` (``--seed`` picks
another sequence of cases; ``--verbose`` prints every case). Exits non-zero on a failure.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: its tests

from tests.solve.limits import Case, Measured, Worker, checked
from tests.solve.test_fuzz_limits import cases

from cardtable.solve.solver import slack


class _TimeUp(BaseException):
    """Raised through hypothesis (which catches only ``Exception``) when the run's time is up."""


class Tally:
    """The figures of a run."""

    def __init__(self) -> None:
        self.tried = 0
        self.again = 0
        self.waited = (0.0, "")
        self.failed: list[tuple[Case, list[str]]] = []
        self.worst_ratio = (0.0, "")
        self.worst_excess = (-1e9, "")
        self.peak = (0.0, "")
        self.grew = (0.0, "")
        self.budget_share = (0.0, "")
        self.verdicts: Counter[str] = Counter()
        self.games: Counter[str] = Counter()
        self.seconds = 0.0

    def add(self, case: Case, measured: Measured, found: list[str], again: bool, verbose: bool) -> None:
        """Count one case, its measurements, what it broke, and whether it was measured again."""
        self.tried += 1
        self.again += again
        self.games[case.game] += 1
        self.verdicts[measured.verdict or "error"] += 1
        self.seconds += measured.wall
        label = f"{case} -> {measured.verdict} {measured.nodes} nodes {measured.moves} moves"
        if found:
            self.failed.append((case, found))
        if not measured.error and case.seconds:
            self.worst_ratio = max(self.worst_ratio, (measured.wall / case.seconds, label))
            excess = measured.wall - measured.waited - case.seconds - slack(case.seconds)
            self.waited = max(self.waited, (measured.waited, label))
            self.worst_excess = max(self.worst_excess, (excess, label))
            self.peak = max(self.peak, (measured.peak_mb, label))
            grew = measured.peak_mb - measured.base_mb
            self.grew = max(self.grew, (grew, label))
            if measured.budget_mb:
                self.budget_share = max(self.budget_share, (grew / measured.budget_mb, label))
        if verbose or found or again:
            status = "FAIL " + "; ".join(found) if found else "ok when measured again" if again else "ok"
            print(
                f"{self.tried}: {status}: {label}, {measured.wall:.3f} s ({measured.cpu:.3f} s CPU, "
                f"{measured.waited:.3f} s waiting after the limit), "
                f"peak {measured.peak_mb:.0f} MB (+{measured.peak_mb - measured.base_mb:.1f})",
                flush=True,
            )

    def report(self, minutes: float) -> None:
        """Print the figures."""
        print(f"inputs tried: {self.tried} in {minutes:.1f} min ({self.seconds:.0f} s of solving)")
        print(f"failures: {len(self.failed)} (measured again after taking too long: {self.again})")
        for case, found in self.failed:
            print(f"  {case}: {'; '.join(found)}")
        print(f"worst overshoot ratio (wall / limit): {self.worst_ratio[0]:.2f}  [{self.worst_ratio[1]}]")
        print(f"worst excess over limit + slack: {self.worst_excess[0]:+.3f} s  [{self.worst_excess[1]}]")
        print(f"longest wait for a CPU after a limit: {self.waited[0]:.3f} s  [{self.waited[1]}]")
        print(f"peak memory: {self.peak[0]:.0f} MB resident  [{self.peak[1]}]")
        print(f"most added by a solve: {self.grew[0]:.1f} MB  [{self.grew[1]}]")
        print(f"largest share of a memory budget: {self.budget_share[0]:.1%}  [{self.budget_share[1]}]")
        print("verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(self.verdicts.items())))
        print("games: " + ", ".join(f"{g} {n}" for g, n in sorted(self.games.items())))


def main() -> None:
    """Run the strategy until the time is up, then print the figures; exit 1 on a failure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to run (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the cases (default 0)")
    parser.add_argument("--verbose", action="store_true", help="print every case")
    args = parser.parse_args()
    tally = Tally()
    worker = Worker()
    began = time.monotonic()
    end = began + args.minutes * 60

    @seed(args.seed)
    @settings(
        max_examples=10**9,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases())
    def run(case: Case) -> None:
        if time.monotonic() > end:
            raise _TimeUp
        tally.add(case, *checked(worker, case), args.verbose)

    try:
        run()
    except _TimeUp:
        pass
    finally:
        worker.close()
    tally.report((time.monotonic() - began) / 60)
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()

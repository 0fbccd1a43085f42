"""Deep searches for wins of the Demonthief deals ``solve`` leaves undecided.

``solve`` remembers every position exactly (about 150 bytes each), so on the last
undecided Demonthief deals its phases stop at the memory there is, not at the clock
(``docs/analysis.md``, "The last unknown deals": 60 to 100 million positions a phase, 8 to
14 GB). This script runs ``solve``'s phases one at a time (the narrow widths of
``DemonthiefSolverSpace``, then the complete search) with the compiled core's lossy memory
(``cardtable.solve.native.demonthief.search(..., exact=False)``: 63-bit fingerprints,
about 24 bytes a position), so a phase can go six times as far. It looks for wins only:
a win found is replayed through the rules (``cardtable.solve.solver.replay``) before it is
counted, and a phase that ends without one proves nothing.

Each phase's line is printed as it ends (verdict, positions, seconds, peak resident
memory) and appended as a JSON line to ``--out``; phases already in ``--out`` with the same
settings are not run again (their lines are printed, and a logged win is read back from its
notation and replayed again), and a deal stops at its first win.

``--split D`` searches a phase from each position ``D`` steps into it
(:func:`cardtable.solve.types.starts`: the phase's own children, in its order, each
position once) in turn, each with the whole ``--positions``
and ``--seconds``, instead of from the deal: a depth-first search spends its budget under
its first few choices, and this gives the others their turn. A win found from a position
is the moves that led there and the moves found from it, replayed from the deal.

Run (two processes on two cores, each under half the memory; the deals one after another):
``nice -n 10 .venv/bin/python bench/demonthief_deep.py 8 553 1127 --positions 250000000
--seconds 420 --out bench/results/demonthief-deep.jsonl``; ``--phases 3`` runs only the
width-3 phase.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from cardtable import new_game
from cardtable.core.errors import CardtableError
from cardtable.solve.native import demonthief as core
from cardtable.solve.search import Pruned
from cardtable.solve.solver import replay, solver_space
from cardtable.solve.types import Budget, pruned_widths, starts


def phases(space: Any) -> list[tuple[str, Any]]:
    """``solve``'s phases of ``space``: each narrow width, then the complete search."""
    return [(f"width {k}", Pruned(space, k)) for k in pruned_widths(space)] + [("complete", space)]


def peak_gb() -> float:
    """This process's peak resident memory so far, in GB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def done(out: Path) -> dict[tuple[str, int, str, int, float], dict[str, Any]]:
    """The phases already in ``out``, by (game, deal, phase, positions, seconds)."""
    rows: dict[tuple[str, int, str, int, float], dict[str, Any]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            rows[(row["game"], row["deal"], row["phase"], row["positions"], row["seconds"])] = row
    return rows


def replays(game_name: str, deal: int, line: list[str]) -> bool:
    """Whether a logged line (the moves' notation) plays the deal to a win through the game."""
    game = new_game(game_name, deal=deal)
    try:
        return replay(game.rules, game.state, [game.rules.parse_move(text) for text in line])
    except (CardtableError, AssertionError):  # not the notation; illegal, or not a win
        return False


def deep(
    game_name: str,
    deal: int,
    positions: int,
    seconds: float,
    out: Path,
    only: list[str] | None = None,
    split: int = 0,
) -> bool:
    """Search one deal phase by phase (those named in ``only``, else every one) until a win,
    each phase from the deal or (``split``) from each position that many steps into it;
    whether a win was found (and replayed)."""
    game = new_game(game_name, deal=deal)
    space = solver_space(game.rules)
    seen = done(out)
    for name, searched in phases(space):
        if only is not None and name.removeprefix("width ") not in only:
            continue
        begins = starts(searched, game.state, split) if split else [([], game.state)]
        for i, (prefix, start) in enumerate(begins):
            phase = name if not split else f"{name}, start {i + 1} of {len(begins)} at depth {split}"
            row = seen.get((game_name, deal, phase, positions, seconds))
            if row is None:
                row = run(game, searched, prefix, start, positions, seconds)
                row.update(game=game_name, deal=deal, phase=phase)
                with out.open("a") as log:
                    log.write(json.dumps(row) + "\n")
            elif row["verdict"] == "won" and not replays(game_name, deal, row["line"]):
                raise SystemExit(f"{game_name} {deal} {phase}: the line in {out} does not replay to a win")
            print(
                f"{game_name} {deal} {phase}: {row['verdict']}, {row['nodes']:,} positions, "
                f"{row['cpu']} s CPU, {row['moves']} moves, peak {row['peak_gb']} GB",
                flush=True,
            )
            if row["verdict"] == "won":
                return True
    return False


def run(game: Any, searched: Any, prefix: list[Any], start: Any, positions: int, seconds: float) -> dict[str, Any]:
    """One lossy search of ``searched`` from ``start`` (reached from the deal by ``prefix``):
    its log row, the win's whole line from the deal only once it replays to a win."""
    began = time.process_time()
    found = core.search(searched, start, Budget(None, seconds, positions, 256), exact=False)
    assert found is not None, "main checked that the core takes the search"
    line = [*prefix, *found.moves]
    won = found.verdict == "solved" and replay(game.rules, game.state, line)
    return {
        "positions": positions,
        "seconds": seconds,
        "verdict": "won" if won else "unknown",
        "nodes": found.nodes,
        "moves": len(line) if won else 0,
        "cpu": round(time.process_time() - began, 1),
        "peak_gb": round(peak_gb(), 2),
        "line": [str(m) for m in line] if won else [],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the deals asked, print each phase and the deals won."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", type=int, nargs="+")
    parser.add_argument("--game", default="demonthief", choices=("demonthief", "demons-and-thieves"))
    parser.add_argument("--positions", type=int, default=100_000_000, help="positions remembered a phase")
    parser.add_argument("--seconds", type=float, default=600.0, help="seconds a phase")
    parser.add_argument("--out", type=Path, default=Path("demonthief-deep.jsonl"))
    parser.add_argument("--phases", help="only these phases, by width or 'complete' (e.g. 3,4,complete)")
    parser.add_argument("--split", type=int, default=0, help="search from each position this many steps in")
    args = parser.parse_args(argv)
    only = None if args.phases is None else args.phases.split(",")
    first = new_game(args.game, deal=args.deals[0])
    if not core.takes(solver_space(first.rules), first.state):
        print("the compiled Demonthief core is not built (or CARDTABLE_PURE is set)", file=sys.stderr)
        return 1
    won = [
        deal for deal in args.deals if deep(args.game, deal, args.positions, args.seconds, args.out, only, args.split)
    ]
    print(f"won {len(won)} of {len(args.deals)}: {won}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How many Klondike deals the relaxed game (cardtable.solve.lost) proves lost without
search, checked against the search's verdicts of the same deals.

It reads every Klondike key of a results store written by ``cardtable analyze``
(``solve`` rows: the solver at its time budget; ``grade`` rows: the grading's complete
depth-first search of up to 100,000 positions), runs
:func:`cardtable.solve.lost.klondike_lost` on each deal, and prints how many it proves
lost among the deals the search won (there must be none), proved unsolvable, and left
unknown, with the seconds per check.

Run: ``.venv/bin/python bench/klondike_lost.py STORE`` (for example the store of
``cardtable analyze grade klondike --draw 3 --deals 0:3500 --store grades.sqlite``).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from cardtable.analysis.results import ResultStore
from cardtable.games import rules_for
from cardtable.solve.lost import klondike_lost
from cardtable.solve.solver import VERDICTS


def main() -> None:
    """Print one line per Klondike key of the store; exit non-zero if a won deal is proved lost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", help="a results store of cardtable analyze")
    store = ResultStore(parser.parse_args().store, create=False)
    bad = 0
    for key, _ in store.run_keys():
        if key.game != "klondike":
            continue
        rules = rules_for(key.game, **key.options)
        rows = list(store.rows(key))
        counts: Counter[tuple[str, bool]] = Counter()
        start = time.perf_counter()
        for row in rows:
            counts[(row.verdict, klondike_lost(rules.deal(row.deal)))] += 1
        per_check = (time.perf_counter() - start) / len(rows)
        lost = sum(n for (_, flagged), n in counts.items() if flagged)
        parts = [f"{counts[(v, True)]} of {counts[(v, True)] + counts[(v, False)]} {v}" for v in VERDICTS]
        print(
            f"{key.label}: {len(rows)} deals, {lost} proved lost: {', '.join(parts)}; "
            f"{per_check * 1e6:.0f} us per deal (deal and check)"
        )
        bad += counts[("solved", True)]
    if bad:
        raise SystemExit(f"{bad} deals won by the search were proved lost: the relaxed game is wrong")


if __name__ == "__main__":
    main()

"""How many Klondike deals the relaxed game (cardtable.solve.lost) proves lost without
search, checked against the search's verdicts of the same deals.

It reads every Klondike key of a results store written by ``cardtable analyze``
(``solve`` rows: the solver at its time budget; ``grade`` rows: the grading's complete
depth-first search of up to 100,000 positions), runs
:func:`cardtable.solve.lost.klondike_lost` on each deal (through ``proved_lost``, with the
key's draw), and prints how many it proves lost among the deals the search won (there
must be none), proved unsolvable, and left unknown, with the seconds per check.

Run: ``.venv/bin/python bench/klondike_lost.py STORE`` (for example the store of
``cardtable analyze grade klondike --draw 3 --deals 0:3500 --store grades.sqlite``).

Without a store: ``.venv/bin/python bench/klondike_lost.py --deals 0:12000`` counts the
deals of that range the relaxed game proves lost and searches each of them completely
with the solver's class space (which does not ask the relaxed game), ``--seconds`` each
(20): none may be won.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from cardtable.analysis.results import ResultStore
from cardtable.games import rules_for
from cardtable.games.klondike import Klondike
from cardtable.solve.lost import proved_lost
from cardtable.solve.search import search
from cardtable.solve.solver import VERDICTS
from cardtable.solve.spaces import KlondikeClassSpace
from cardtable.solve.types import Budget


def main() -> None:
    """Print one line per Klondike key of the store (or the deals' counts); exit non-zero
    if a won deal is proved lost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", nargs="?", help="a results store of cardtable analyze")
    parser.add_argument("--deals", help="A:B, draw-3 deals A to B-1, without a store")
    parser.add_argument("--seconds", type=float, default=20.0, help="the complete search's time a proved deal")
    args = parser.parse_args()
    if args.deals:
        return by_search(range(*map(int, args.deals.split(":"))), args.seconds)
    if args.store is None:
        parser.error("a store, or --deals")
    store = ResultStore(args.store, create=False)
    bad = 0
    for key, _ in store.run_keys():
        if key.game != "klondike":
            continue
        rules = rules_for(key.game, **key.options)
        rows = list(store.rows(key))
        counts: Counter[tuple[str, bool]] = Counter()
        start = time.perf_counter()
        for row in rows:
            counts[(row.verdict, proved_lost(rules, rules.deal(row.deal)))] += 1
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


def by_search(deals: range, seconds: float) -> None:
    """Count the deals proved lost, and search each of them completely (``seconds`` each)."""
    rules = Klondike()
    start = time.perf_counter()
    proved = [deal for deal in deals if proved_lost(rules, rules.deal(deal))]
    per_check = (time.perf_counter() - start) / len(deals)
    verdicts = Counter(
        search(KlondikeClassSpace(rules), rules.deal(d), Budget(seconds=seconds)).verdict for d in proved
    )
    print(
        f"klondike draw 3, deals {deals.start}-{deals.stop - 1}: {len(proved)} proved lost "
        f"({per_check * 1e6:.0f} us per deal, deal and check); the complete search of each, "
        f"{seconds:g} s: {dict(sorted(verdicts.items()))}"
    )
    if verdicts["solved"]:
        raise SystemExit(f"{verdicts['solved']} deals won by the search were proved lost: the relaxed game is wrong")


if __name__ == "__main__":
    main()

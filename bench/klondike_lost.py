"""How many Klondike deals the relaxed game (cardtable.solve.lost) proves lost without
search, checked against the grading search's verdicts of the same deals.

For each Klondike key it reads the graded deals of ``bench/results/grades/<key>.jsonl``
(``bench/grade_deals.py``: a complete depth-first search of up to 100,000 positions
(300,000 before 2026-11-21) per deal), runs :func:`cardtable.solve.lost.klondike_lost`
on each deal, and prints how many it proves lost among the deals the search won (there
must be none), proved unsolvable, and left unknown, with the seconds per check.

Run: ``.venv/bin/python bench/klondike_lost.py``
"""

from __future__ import annotations

import time
from collections import Counter

from grade_deals import grades_file, read_grades

from cardtable.games import rules_for
from cardtable.levels.tables import KEYS
from cardtable.solve.lost import klondike_lost
from cardtable.solve.solver import VERDICTS


def main() -> None:
    """Print one line per Klondike key; exit non-zero if a won deal is proved lost."""
    bad = 0
    for key in KEYS:
        if key.game != "klondike":
            continue
        rules = rules_for(key.game, **key.options())
        rows = list(read_grades(grades_file(key.label), raw=True)[0].values())  # verdicts as graded
        counts: Counter[tuple[str, bool]] = Counter()
        start = time.perf_counter()
        for row in rows:
            counts[(row["verdict"], klondike_lost(rules.deal(row["deal"])))] += 1
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

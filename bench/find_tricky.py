"""Look for tricky deals beyond the graded ones, where they are rare.

A deal is tricky when the full search wins it, the eager search (a progress move must be
taken when there is one: :class:`cardtable.solve.spaces.EagerSpace`) does not, both
within ``GRADE_NODES`` positions, and the reference player loses it
(:func:`cardtable.levels.is_tricky`, ``docs/levels.md``). This script runs two
cheap tests first on each deal of ``--start`` .. ``--stop`` - 1: the reference player's
game (a win: not tricky), then the eager search within ``--eager-nodes`` positions (a
win: not tricky, as the longer search explores the same positions first). Only a deal
that passes both is graded in full (``bench/grade_deals.py``'s ``grade_one``); a deal
that grades tricky gets its grades line appended to ``bench/results/grades/<key>.jsonl``
(unless the file has it), where ``bench/level_tables.py`` takes the tricky deals from.
Both tests only rule out deals that cannot be tricky, so it finds every tricky deal of
the range.

Prints, per key, the deals tried, the player's wins, the eager verdicts of the rest, the
candidates graded and the tricky deals found, with the seconds taken.

Run: ``nice -n 10 .venv/bin/python bench/find_tricky.py --key desturado-easy --start 12000 --stop 24000``
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence

from grade_deals import grade_one, grades_file, key_named, read_grades

from cardtable.games import rules_for
from cardtable.levels.measures import GRADE_NODES
from cardtable.levels.reference import obvious_player_wins
from cardtable.solve.search import Budget, search
from cardtable.solve.spaces import EagerSpace

EAGER_NODES = 20_000
"""The eager search's budget in the cheap test (the grading's is ``GRADE_NODES``)."""


def find_tricky(label: str, start: int, stop: int, eager_nodes: int = EAGER_NODES) -> tuple[Counter[str], list[int]]:
    """How deals ``start`` .. ``stop`` - 1 of a key fared in the cheap tests (``"player
    won"`` or the eager search's verdict), and the tricky deals among the candidates, their
    grades lines appended to the key's grades file.

    >>> verdicts, tricky = find_tricky("klondike-draw3", 5, 8)  # deal 7 is tricky, already graded
    >>> dict(verdicts), tricky
    ({'player won': 1, 'solved': 1, 'unsolvable': 1}, [7])
    """
    key = key_named(label)
    rules = rules_for(key.game, **key.options())
    space = EagerSpace(rules)
    verdicts: Counter[str] = Counter()
    tricky = []
    path = grades_file(label)
    done, _ = read_grades(path)
    for deal in range(start, stop):
        if obvious_player_wins(rules, deal):
            verdicts["player won"] += 1
            continue
        verdict = search(space, rules.deal(deal), Budget(nodes=min(eager_nodes, GRADE_NODES))).verdict
        verdicts[verdict] += 1
        if verdict == "solved":
            continue
        row = done.get(deal) or grade_one(label, deal)
        if row["tricky"]:
            tricky.append(deal)
            if deal not in done:
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    return verdicts, tricky


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--key", action="append", required=True, help="a key label (may be given more than once)")
    parser.add_argument("--start", type=int, default=12_000, help="first deal (default 12000)")
    parser.add_argument("--stop", type=int, default=24_000, help="one past the last deal (default 24000)")
    parser.add_argument("--eager-nodes", type=int, default=EAGER_NODES, help="the cheap test's budget")
    args = parser.parse_args(argv)
    for label in args.key:
        began = time.perf_counter()
        verdicts, tricky = find_tricky(label, args.start, args.stop, args.eager_nodes)
        print(
            f"{label}: deals {args.start}..{args.stop - 1}, eager search {dict(sorted(verdicts.items()))}, "
            f"candidates graded {verdicts['unsolvable'] + verdicts['unknown']}, tricky {len(tricky)} "
            f"({', '.join(map(str, tricky[:10]))}{', ...' if len(tricky) > 10 else ''}), "
            f"{time.perf_counter() - began:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()

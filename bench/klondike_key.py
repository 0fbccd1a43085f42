"""The Klondike solver's position key: the compact bytes key against the plain tuple form,
on the same searches in one run. Prints, for each, the seconds for the searches and the
peak memory traced during one of them.

Run: ``.venv/bin/python bench/klondike_key.py [NODES]`` (default 60,000 positions on
draw-3 deals 0 and 11, both left unknown at that budget, so each explores all of it).
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from collections.abc import Hashable

from cardtable.games import rules_for
from cardtable.games.klondike import Klondike, KlondikeState
from cardtable.solve.search import Budget, depth_first
from cardtable.solve.spaces import KlondikeSpace, klondike_plain_key

DEALS = (0, 11)


class PlainKeySpace(KlondikeSpace):
    """The same space with the plain tuple key."""

    def key(self, s: KlondikeState) -> Hashable:
        """:func:`cardtable.solve.spaces.klondike_plain_key`."""
        return klondike_plain_key(s)


def measure(space_class: type[KlondikeSpace], rules: Klondike, nodes: int) -> tuple[float, float]:
    """Seconds for the searches of :data:`DEALS`, and the peak MB traced during the first."""
    start = time.perf_counter()
    for deal in DEALS:
        depth_first(space_class(rules), rules.deal(deal), Budget(nodes=nodes))
    seconds = time.perf_counter() - start
    tracemalloc.start()
    depth_first(space_class(rules), rules.deal(DEALS[0]), Budget(nodes=nodes))
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return seconds, peak


def main() -> None:
    """Print the figures of both keys."""
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 60_000
    rules = rules_for("klondike", draw=3)
    assert isinstance(rules, Klondike)
    print(f"Klondike draw 3, deals {DEALS}, {nodes} positions each")
    for name, space_class in (("plain tuple key", PlainKeySpace), ("compact bytes key", KlondikeSpace)):
        seconds, peak = measure(space_class, rules, nodes)
        print(f"{name:18} {seconds:6.2f} s   peak {peak:6.1f} MB (one search, traced)")


if __name__ == "__main__":
    main()

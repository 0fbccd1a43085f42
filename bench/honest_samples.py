"""What the honest player's samples know at the start of a deal: the share of samples the
all-seeing solver wins, leaves undecided and proves lost within each node budget.

For each deal, the honest player first takes its free look through the stock (where the
rules offer one); then every candidate of the position is played on ``--samples`` samples
of the unseen cards (:func:`cardtable.bots.honest.sample_outcomes`, the game's compiled
sampler where it has one) and each position after it solved within ``--nodes`` positions.
An undecided sample weighs nothing in the player's race (``DOUBT`` 0), so the undecided
share is the part of the samples a decision cannot use.

Run: ``.venv/bin/python bench/honest_samples.py GAME [--option NAME=VALUE] [--deals A-B]
[--samples K] [--nodes N,N,...]``, e.g. ``.venv/bin/python bench/honest_samples.py klondike
--deals 300000-300009 --nodes 1000,3000,10000``.

>>> shares(b"\\x01\\x01\\x00\\x02")
(0.5, 0.25, 0.25)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from cardtable.bots import honest
from cardtable.games import rules_for
from cardtable.solve.types import SampleBatch


def shares(outcomes: bytes) -> tuple[float, float, float]:
    """The shares of ``outcomes`` won, undecided and lost (:data:`~cardtable.bots.honest.WON`...).

    >>> shares(b"\\x00"), shares(b"\\x01\\x02\\x20\\x00")  # 0x20: undecided, 29 cards home
    ((0.0, 1.0, 0.0), (0.25, 0.5, 0.25))
    """
    count = Counter(outcomes)
    won, lost = count[honest.WON] / len(outcomes), count[honest.LOST] / len(outcomes)
    return won, 1 - won - lost, lost  # undecided: UNKNOWN, or PROGRESS + the cards home


def after_the_look(rules: Any, deal: int) -> tuple[Any, honest.HonestPlayer]:
    """Deal ``deal`` after a free look through the stock (:meth:`~cardtable.core.rules.Rules.look_through`,
    none where the rules offer none), and the player that saw it."""
    player = honest.HonestPlayer(rules, seed=0)
    state = rules.deal(deal)
    player.memory.see(rules, state)
    for move in rules.look_through(state):
        state = rules.apply(state, move)
        player.memory.see(rules, state)
    return state, player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--deals", default="0-9")
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--nodes", default="1000,3000,10000")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    rules = rules_for(args.game, **options)
    first, _, last = args.deals.partition("-")
    deals = range(int(first), int(last or first) + 1)
    budgets = [int(n) for n in args.nodes.split(",")]
    starts = []
    for deal in deals:
        state, player = after_the_look(rules, deal)
        down, known = player.memory.known(rules, state)
        unseen = tuple(not k for k in known)
        cards = Counter(card for card, u in zip(down, unseen, strict=True) if u)
        lines = [line for line, _ in honest.candidate_lines(rules, state, cards, player.space)]
        starts.append((state, unseen, lines))
    print(f"{args.game} {options}: deals {args.deals}, {args.samples} samples of each candidate")
    for nodes in budgets:
        outcomes = bytearray()
        began = time.perf_counter()
        for state, unseen, lines in starts:
            for row in honest.sample_outcomes(rules, state, SampleBatch(unseen, lines, 0, args.samples, 1234, nodes)):
                outcomes += row
        took = time.perf_counter() - began
        won, undecided, lost = shares(bytes(outcomes))
        print(
            f"{nodes:>7} nodes: {len(outcomes)} samples, won {won:.1%}, undecided {undecided:.1%}, "
            f"proved lost {lost:.1%}; {took / len(outcomes) * 1e6:.0f} us a sample"
        )


if __name__ == "__main__":
    main()

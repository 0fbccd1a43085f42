"""Deserto bot variants for tuning ``ismcts`` (docs/bots.md, "Tuning"): a tournament in
which, besides the shipped bots, these variants may play:

- ``ismcts-win``: the shipped ismcts with the earlier reward, 0.9 win share and 0.1
  score margin (``margin_weight`` 0.1; the shipped bot uses 0.5);
- ``flat-win``, ``flat-margin``, ``flat-mix``: flat Monte Carlo on shared
  determinizations. For each of ``iterations / moves`` samples of the seat's
  knowledge, every legal move is played and the game played out by the greedy bot
  for every seat; the move with the best mean reward is played. Rewards: ``win``, the
  shipped reward with margin weight 0.1; ``margin``, the score margin over the best
  other seat in cards / 51; ``mix``, ``win`` plus half of ``margin``;
- ``flat-margin-d``, ``flat-mix-d``: the same, but keeping greedy's move unless the
  best move beats it, sample by sample, by more than two standard errors.

Run: ``nice .venv/bin/python bench/bot_variants.py --players greedy,flat-mix,random,random
--games 240 --seed 11 --workers 2 [--budget iterations=2000]``. Prints each entry's win
share, its 95% interval and mean score (the tournament's own figures). Workers are
forked processes, which inherit the variants registered here.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from cardtable import bots
from cardtable.bots.ismcts import IsmctsBot, greedy_choice, reward
from cardtable.bots.players import Bot, deserto_view
from cardtable.bots.seat import Seat
from cardtable.bots.tactics import best, view_area
from cardtable.bots.tournament import run_tournament
from cardtable.core.multiplayer import MultiplayerRules, Result

CARDS = 51
"""Deserto's cards: the margin reward's scale."""


def margin_reward(result: Result, seat: int) -> float:
    """The seat's score margin over the best other seat, in cards / 51.

    >>> margin_reward(Result.from_scores((10, 4, 7)), 0) == 3 / 51
    True
    """
    best_other = max(s for i, s in enumerate(result.scores) if i != seat)
    return (result.scores[seat] - best_other) / CARDS


REWARDS: dict[str, Callable[[Result, int], float]] = {
    "win": lambda result, seat: reward(result, seat, 0.1),
    "margin": margin_reward,
    "mix": lambda result, seat: reward(result, seat, 0.1) + 0.5 * margin_reward(result, seat),
}
"""The flat variants' rewards by name."""


def playout(rules: MultiplayerRules[Any, Any], state: Any) -> Result:
    """The result of the game played out by the greedy bot for every seat.

    >>> from cardtable.games.deserto import Deserto
    >>> r = Deserto(); sum(playout(r, r.deal(0)).scores) <= 51
    True
    """
    while rules.to_move(state) is not None:
        state = rules.apply(state, greedy_choice(state, rules.legal_moves(state)))
    result = rules.result(state)
    assert result is not None
    return result


class IsmctsWin(IsmctsBot):
    """The shipped ismcts with the earlier reward (margin weight 0.1)."""

    name = "ismcts-win"
    margin_weight = 0.1


class FlatBot(Bot):
    """Flat Monte Carlo on shared determinizations (see the module docstring).

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0, players=3)
    >>> FlatBot(seed=1, iterations=30).choose(g, g.to_move) in g.legal_moves()
    True
    """

    name = "flat-win"
    BUDGET = ("iterations",)
    rewarded: ClassVar[str] = "win"
    keep_greedy: ClassVar[bool] = False

    def __init__(self, seed: int = 0, iterations: int = 1000) -> None:
        super().__init__(seed)
        self.iterations = iterations

    def decide(self, seat: Seat) -> Any:
        """The move with the best mean reward over the shared samples (see the module docstring)."""
        legal = seat.legal_moves()
        if len(legal) == 1:
            return legal[0]
        rules, me, worth = seat.rules, seat.seat, REWARDS[self.rewarded]
        samples = max(1, self.iterations // len(legal))
        rewards: list[list[float]] = [[] for _ in legal]
        for _ in range(samples):
            state = seat.sample(self.rng).state
            for i, move in enumerate(legal):
                rewards[i].append(worth(playout(rules, rules.apply(state, move)), me))
        top = max(range(len(legal)), key=lambda i: (sum(rewards[i]), -i))
        if not self.keep_greedy:
            return legal[top]
        tops, sizes = view_area(deserto_view(seat))
        greedy = legal.index(best(legal, tops, sizes))
        gains = [a - b for a, b in zip(rewards[top], rewards[greedy], strict=True)]
        mean = sum(gains) / samples
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, samples - 1) / samples)
        return legal[top] if mean > 2 * spread else legal[greedy]


def _flat(name: str, rewarded: str, keep_greedy: bool) -> type[Bot]:
    return type(name, (FlatBot,), {"name": name, "rewarded": rewarded, "keep_greedy": keep_greedy})


VARIANTS: tuple[type[Bot], ...] = (
    IsmctsWin,
    FlatBot,
    _flat("flat-margin", "margin", False),
    _flat("flat-mix", "mix", False),
    _flat("flat-margin-d", "margin", True),
    _flat("flat-mix-d", "mix", True),
)
for _variant in VARIANTS:
    bots.register(_variant)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", required=True, help="bots, comma separated")
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", action="append", default=[], metavar="KEY=VALUE", help="e.g. iterations=2000")
    args = parser.parse_args(argv)
    budget = {k: int(v) for k, v in (item.split("=", 1) for item in args.budget)}
    players = args.players.split(",")
    stats = run_tournament("deserto", players, args.games, args.seed, budget=budget, workers=args.workers)
    print(f"{args.players}, {args.games} games, seed {args.seed}, budget {budget or 'default'}:")
    for s in stats:
        low, high = s.ci95
        print(f"  {s.name}: win share {s.win_share:.3f} [{low:.3f}, {high:.3f}], mean score {s.mean_score:.1f}")


if __name__ == "__main__":
    main()

"""Tournaments: bots play many games of a multi-player game, seats rotating.

Game ``i`` (from 0) of a tournament with seed ``S`` for ``n`` players deals
deal number :func:`deal_number` ``(S, i // n)`` (so each block of ``n``
games plays one deal ``n`` times) and seats the entries rotated by ``i % n``
round the table. The order round the table changes from block to block
(:func:`table_orders`): in Deserto a seat receives the area its predecessor
leaves and gives to it, so with fixed neighbours the seating, not the
player, would decide much of the result. With a number of games that is a
multiple of ``n`` every entry sits in every seat equally often and plays
every deal from every seat; with a multiple of ``n!`` (2, 6 or 24 games for
2, 3 or 4 players) every entry also sits right after every other entry
equally often. Each entry's bot is made afresh for each game
with the seed :func:`bot_seed` ``(S, i, entry)``. Everything is reproducible
from the seed (unless a bot has a time budget), whether the games run in one
process or several.

>>> stats = run_tournament("deserto", ["greedy", "random"], games=2, seed=1)
>>> [s.name for s in stats], len(stats[0].shares)
(['greedy', 'random'], 2)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..api import new_game
from ..core.errors import OptionError
from ..core.inputs import check_int, quote
from ..core.multiplayer import MultiplayerGame
from . import budget_keywords, make

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""


def deal_number(seed: int, block: int) -> int:
    """The deal played by block ``block`` of a tournament seeded ``seed`` (0 to 2**32 - 1).

    >>> deal_number(1, 0) == deal_number(1, 0) != deal_number(1, 1)
    True
    """
    return random.Random(f"cardtable tournament deal {seed} {block}").randrange(2**32)


def bot_seed(seed: int, game: int, entry: int) -> int:
    """The seed of entry ``entry``'s bot in game ``game`` of a tournament seeded ``seed``.

    >>> bot_seed(1, 0, 0) != bot_seed(1, 0, 1)
    True
    """
    return random.Random(f"cardtable tournament bot {seed} {game} {entry}").randrange(2**63)


def table_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """The ``(n - 1)!`` orders of ``n`` entries round the table, entry 0 first, in
    lexicographic order: block ``b`` of a tournament uses order ``b % (n - 1)!``.

    >>> table_orders(2), table_orders(3)
    (((0, 1),), ((0, 1, 2), (0, 2, 1)))
    """
    return tuple((0, *rest) for rest in itertools.permutations(range(1, n)))


@dataclass(frozen=True)
class GameSpec:
    """Everything one game of a tournament needs (picklable, for worker processes).

    >>> GameSpec("deserto", ("greedy", "random"), (), {}, 1, 0).seating()
    (0, 1)
    """

    game: str
    players: tuple[str, ...]
    budget: tuple[tuple[str, Any], ...]
    options: dict[str, Any]
    seed: int
    index: int

    def seating(self) -> tuple[int, ...]:
        """The entry playing each seat: the block's order round the table
        (:func:`table_orders`), rotated by ``index % n``.

        >>> [GameSpec("deserto", ("a", "b", "c"), (), {}, 1, i).seating() for i in (0, 1, 3, 4)]
        [(0, 1, 2), (1, 2, 0), (0, 2, 1), (2, 1, 0)]
        """
        n = len(self.players)
        orders = table_orders(n)
        order = orders[(self.index // n) % len(orders)]
        return tuple(order[(s + self.index) % n] for s in range(n))


@dataclass
class EntryStats:
    """One ``--players`` entry's results: per game, its win share (1/k for a k-way win) and score.

    >>> e = EntryStats("greedy", [1.0, 0.5], [20, 18]); e.win_share, e.mean_score
    (0.75, 19.0)
    """

    name: str
    shares: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    @property
    def win_share(self) -> float:
        """The mean win share.

        >>> EntryStats("x", [1.0, 0.0, 0.0, 0.0], [1, 1, 1, 1]).win_share
        0.25
        """
        return sum(self.shares) / len(self.shares)

    @property
    def mean_score(self) -> float:
        """The mean score.

        >>> EntryStats("x", [0.0], [7]).mean_score
        7.0
        """
        return sum(self.scores) / len(self.scores)

    @property
    def ci95(self) -> tuple[float, float]:
        """A 95% confidence interval for the win share: the mean plus or minus 1.96
        standard errors (normal approximation, sample standard deviation), clipped to
        0..1; ``(0, 1)`` with fewer than two games.

        >>> EntryStats("x", [1.0, 0.0] * 50, [0] * 100).ci95
        (0.4015, 0.5985)
        """
        n = len(self.shares)
        if n < 2:
            return (0.0, 1.0)
        mean = self.win_share
        variance = sum((x - mean) ** 2 for x in self.shares) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        return (round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4))

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON-ready data (rounded to 4 decimals).

        >>> EntryStats("x", [1.0, 0.0], [3, 4]).to_json()
        {'name': 'x', 'win_share': 0.5, 'mean_score': 3.5, 'ci95': [0.0, 1.0]}
        """
        low, high = self.ci95
        return {
            "name": self.name,
            "win_share": round(self.win_share, 4),
            "mean_score": round(self.mean_score, 4),
            "ci95": [low, high],
        }


def play_one(spec: GameSpec) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Play one game of a tournament: each entry's win share and score (in entry order).

    >>> shares, scores = play_one(GameSpec("deserto", ("greedy", "random"), (), {}, 1, 0))
    >>> sum(shares)
    1.0
    """
    seating = spec.seating()
    n = len(seating)
    budget = dict(spec.budget)
    game = new_game(spec.game, deal=deal_number(spec.seed, spec.index // n), players=n, **spec.options)
    assert isinstance(game, MultiplayerGame)
    bots = [
        _make_entry(spec.players[seating[s]], bot_seed(spec.seed, spec.index, seating[s]), budget, spec.game)
        for s in range(n)
    ]
    while (seat := game.to_move) is not None:
        game.play(bots[seat].choose(game, seat), seat=seat)
    result = game.outcome.result
    assert result is not None
    shares = [0.0] * n
    scores = [0] * n
    for s in range(n):
        shares[seating[s]] = 1 / len(result.winners) if s in result.winners else 0.0
        scores[seating[s]] = result.scores[s]
    return tuple(shares), tuple(scores)


def _make_entry(name: str, seed: int, budget: dict[str, Any], game: str) -> Any:
    """A bot for an entry that plays ``game``, given the budget keywords it takes."""
    takes = budget_keywords(name)
    bot = make(name, seed=seed, **{k: v for k, v in budget.items() if k in takes})
    bot.check_game(game)
    return bot


def check_lineup(game: str, players: Sequence[str], budget: dict[str, Any], options: dict[str, Any]) -> None:
    """Check a tournament before playing: a multi-player game for that many players,
    known bots, and budget keywords that some entry takes (raises a CardtableError).

    >>> check_lineup("deserto", ["greedy", "nobody"], {}, {})
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: unknown bot 'nobody' (bots: random, greedy, ismcts...)
    """
    made = new_game(game, deal=0, **options)
    if not isinstance(made, MultiplayerGame):
        raise OptionError(f"{made.name} is a one-player game: a tournament needs a multi-player game (e.g. deserto)")
    taken: set[str] = set()
    for name in players:  # unknown bots first: "--players 3" names a bot "3", not a count
        taken.update(budget_keywords(name))
    new_game(game, deal=0, players=len(players), **options)  # the player count must be one the game has
    for key in budget:
        if key not in taken:
            raise OptionError(f"no player takes the budget keyword {key!r} (--players {','.join(players)})")
    for name in players:
        _make_entry(name, 0, budget, game)  # bad budget values, and bots the game does not list, fail here


def game_specs(
    game: str, players: Sequence[str], games: int, seed: int, budget: dict[str, Any], options: dict[str, Any]
) -> list[GameSpec]:
    """The games of a tournament, in order.

    >>> [s.index for s in game_specs("deserto", ["a", "b"], 3, 0, {}, {})]
    [0, 1, 2]
    """
    frozen = tuple(sorted(budget.items()))
    return [GameSpec(game, tuple(players), frozen, dict(options), seed, i) for i in range(games)]


def run_tournament(
    game: str,
    players: Sequence[str],
    games: int,
    seed: int,
    budget: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[], None] | None = None,
) -> list[EntryStats]:
    """Play ``games`` games and return each entry's results (in ``players`` order).

    ``workers`` > 1 plays games in that many processes (the results are the
    same); ``progress()`` is called after each game.

    >>> stats = run_tournament("deserto", ["greedy", "greedy"], games=2, seed=3)
    >>> sum(s.win_share for s in stats)
    1.0
    """
    budget = budget or {}
    options = options or {}
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"the number of games must be a whole number of at least 1, not {games!r}")
    check_int(seed, "seed", OptionError, 0)
    check_int(workers, "workers", OptionError, 1)
    if progress is not None and not callable(progress):
        raise OptionError(f"progress must be a function called after each game, or None, not {quote(progress)}")
    if isinstance(players, str) or not all(isinstance(name, str) for name in players):
        raise OptionError(f"players are a list of bot names (one a seat), not {quote(players)}")
    if not isinstance(options, dict) or {"players", "deal"} & set(options):
        raise OptionError("options are the game's own: the players and the deals are the tournament's")
    check_lineup(game, players, budget, options)
    stats = [EntryStats(name) for name in players]
    for shares, scores in _results(game_specs(game, players, games, seed, budget, options), workers):
        for entry, share, score in zip(stats, shares, scores, strict=True):
            entry.shares.append(share)
            entry.scores.append(score)
        if progress is not None:
            progress()
    return stats


def _results(specs: list[GameSpec], workers: int) -> Iterator[tuple[tuple[float, ...], tuple[int, ...]]]:
    """Each game's results, in game order."""
    if workers <= 1 or len(specs) < 2:
        yield from map(play_one, specs)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(specs))) as pool:  # never more than games
        yield from pool.map(play_one, specs, chunksize=1)

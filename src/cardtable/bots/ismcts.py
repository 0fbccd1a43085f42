"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).

Each iteration draws a *determinization*: a whole game the searching seat
cannot tell from the real one (``seat.sample(rng)``, made from the seat's own
knowledge; the real hidden cards are never read). One tree is shared by all
iterations; its nodes are the searching seat's own move sequences from its
information set. The other seats are not searched: in every determinization
they play the playout policy (the greedy bot's move in a game whose declaration
lists the greedy bot, Deserto; a random one in other games), which is the
search's *model of the opponents*. An
iteration walks down the tree at the seat's own turns, choosing among the
moves legal in this determinization by UCB1 with *availability counts* (a
child's exploration term counts the visits of its parent in which it was
legal), expands one untried move (the one the playout policy prefers), plays
the game out to the end with the policy, and credits every node on the path
with the seat's reward.

Why the opponents are not in the tree: in a tree over every seat's moves,
each opponent node learns its own best reply from a few visits of sampled
hands; with three opponents the search spent most iterations on their
replies and misjudged them (see docs/bots.md, "Tuning"). Measured against
greedy opponents, the own-moves tree won more in two- and four-player games.

>>> import cardtable
>>> g = cardtable.new_game("deserto", deal=0)
>>> IsmctsBot(seed=1, iterations=50).choose(g, 0) in g.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar

from ..core.errors import OptionError
from ..core.inputs import check_time
from ..core.multiplayer import MultiplayerRules, Result
from ..games import spec_for
from ..games.deserto import DesertoState
from . import tactics
from .players import Bot
from .seat import Seat

DEFAULT_ITERATIONS = 1000
"""Iterations per move when no budget is given (see docs/bots.md for the time this takes)."""
EXPLORATION = 0.7
"""The UCB1 exploration constant (rewards lie in 0..1)."""
MARGIN_WEIGHT = 0.5
"""The share of the reward given by the score margin (the rest is the win share).
With four players a playout's win share alone is a noisy signal (a move changes
who wins in few playouts); the margin moves with every card (docs/bots.md, "Tuning")."""
BEST_CACHE_SIZE = 200_000
"""How many greedy choices are remembered, by area and moves."""

Policy = Callable[[MultiplayerRules[Any, Any], Any, list[Any], random.Random], Any]
"""A playout policy: ``policy(rules, state, legal_moves, rng)`` returns one of the legal moves."""


def random_policy(rules: MultiplayerRules[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> Any:
    """A uniformly random legal move (the playout policy of games without tactics).

    >>> random_policy(None, None, ["a", "b"], random.Random(0))
    'b'
    """
    return moves[rng.randrange(len(moves))]


def greedy_policy(rules: MultiplayerRules[Any, Any], state: DesertoState, moves: list[Any], rng: random.Random) -> Any:
    """Deserto playouts and opponents: the greedy bot's move (:func:`cardtable.bots.tactics.best`).

    >>> from cardtable.games.deserto import Deserto
    >>> r = Deserto(); s = r.deal(0)
    >>> str(greedy_policy(r, s, r.legal_moves(s), random.Random(0)))
    'G1'
    """
    return greedy_choice(state, moves)


def greedy_choice(state: DesertoState, moves: list[Any]) -> Any:
    """The greedy bot's move among ``moves`` (:func:`cardtable.bots.tactics.best`), remembered
    by area and moves: playouts meet the same few positions again and again.

    >>> from cardtable.games.deserto import Deserto
    >>> r = Deserto(); s = r.deal(0)
    >>> str(greedy_choice(s, r.legal_moves(s)))
    'G1'
    """
    return _greedy_choice(state.area, tuple(moves))


@lru_cache(maxsize=BEST_CACHE_SIZE)
def _greedy_choice(area: Any, moves: tuple[Any, ...]) -> Any:
    tops, sizes = tactics.state_area(area)
    return tactics.best(list(moves), tops, sizes)


def playout_policy(rules: MultiplayerRules[Any, Any]) -> Policy:
    """The playout policy for a game's rules: :func:`greedy_policy` where the game's
    declaration lists the greedy bot (Deserto), else :func:`random_policy`.

    >>> from cardtable.games.deserto import Deserto
    >>> playout_policy(Deserto()) is greedy_policy
    True
    """
    return greedy_policy if "greedy" in spec_for(rules.name).bots else random_policy


def reward(result: Result, seat: int, margin_weight: float = MARGIN_WEIGHT) -> float:
    """A finished game's worth to ``seat``, in 0..1: ``1 - margin_weight`` times its
    win share (1 alone, 1/k in a k-way tie, else 0) plus ``margin_weight`` times its
    margin over the best other seat, scaled from -all..+all cards won to 0..1.

    >>> reward(Result.from_scores((10, 6)), 0), reward(Result.from_scores((5, 5)), 1)
    (0.8125, 0.5)
    """
    scores = result.scores
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    total = max(1, sum(scores))
    margin = 0.5 + 0.5 * (scores[seat] - best_other) / total
    return (1 - margin_weight) * share + margin_weight * margin


class Node:
    """A tree node: the searching seat's own move sequence to it from its information set.

    ``mover`` is the searching seat (the seat whose moves the tree holds);
    ``total`` sums that seat's rewards;
    ``available`` counts the parent's visits in which the move was legal.

    >>> n = Node(0); n.visits, n.available, n.children
    (0, 0, {})
    """

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Any, Node] = {}

    def ucb(self) -> float:
        """The UCB1 value with availability: mean reward plus ``EXPLORATION * sqrt(ln(available) / visits)``.

        >>> n = Node(0); n.visits, n.available, n.total = 4, 4, 2.0; round(n.ucb(), 3)
        0.912
        """
        return self.total / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


class IsmctsBot(Bot):
    """Single-observer ISMCTS with a budget of ``iterations`` and/or ``seconds`` per move
    (the first reached stops the search; default :data:`DEFAULT_ITERATIONS` iterations).
    An iterations budget is reproducible for a seed; a time budget is not.

    The move played is the root move visited most (ties: the higher mean
    reward, then legal-move order).

    >>> import cardtable
    >>> g = cardtable.new_game("deserto", deal=0)
    >>> str(IsmctsBot(seed=0, iterations=100).choose(g, 0)) in {str(m) for m in g.legal_moves()}
    True
    """

    name = "ismcts"
    LISTED = True
    BUDGET = ("iterations", "seconds")
    margin_weight: ClassVar[float] = MARGIN_WEIGHT
    """The reward's margin weight (:func:`reward`); a subclass may change it."""

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)):
            raise OptionError(f"ismcts budget iterations must be a whole number, not {iterations!r}")
        if iterations is not None and iterations < 1:
            raise OptionError(f"ismcts budget iterations must be at least 1, not {iterations}")
        if seconds is not None:
            seconds = check_time(seconds, "ismcts budget seconds", OptionError)  # inf: a search without end
        self.iterations = iterations
        self.seconds = seconds

    def decide(self, seat: Seat) -> Any:
        """Search from the seat's information set; the root move visited most.

        >>> import cardtable
        >>> from cardtable.bots.seat import Seat
        >>> g = cardtable.new_game("deserto", deal=0)
        >>> IsmctsBot(seed=2, iterations=30).decide(Seat(g, 0)) in g.legal_moves()
        True
        """
        legal = seat.legal_moves()
        if len(legal) == 1:
            return legal[0]
        root = self.search(seat)
        visited = [(root.children[m], i, m) for i, m in enumerate(legal) if m in root.children]
        if not visited:  # cancelled before its first iteration (else every legal root move is tried first)
            return legal[0]
        _, _, move = max(visited, key=lambda c: (c[0].visits, c[0].total / max(1, c[0].visits), -c[1]))
        return move

    def search(self, seat: Seat) -> Node:
        """Run the iterations; the root of the tree.

        >>> import cardtable
        >>> from cardtable.bots.seat import Seat
        >>> root = IsmctsBot(seed=2, iterations=30).search(Seat(cardtable.new_game("deserto", deal=0), 0))
        >>> sum(child.visits for child in root.children.values())
        30
        """
        rng = self.rng
        rules = seat.rules
        policy = playout_policy(rules)
        root = Node(seat.seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (
            not self.cancelled  # asked to stop (cancel(), from another thread): the answer is not wanted
            and (self.iterations is None or done < self.iterations)
            and (deadline is None or done == 0 or time.perf_counter() < deadline)
        ):
            self._iterate(root, rules, seat.sample(rng).state, policy, rng)
            done += 1
        return root

    def _iterate(
        self, root: Node, rules: MultiplayerRules[Any, Any], state: Any, policy: Policy, rng: random.Random
    ) -> None:
        """One iteration on one determinization: select and expand at the searching seat's
        own turns (the other seats play the policy), play out, back up."""
        me = root.mover
        node = root
        path: list[Node] = []
        expanded = False
        while (mover := rules.to_move(state)) is not None:
            moves = rules.legal_moves(state)
            if mover != me or expanded:  # an opponent's turn, or past the tree: the policy plays
                state = rules.apply(state, policy(rules, state, moves, rng))
                continue
            children = node.children
            untried = [m for m in moves if m not in children]
            for m in moves:
                if m in children:
                    children[m].available += 1
            if untried:
                move = policy(rules, state, untried, rng)  # the untried move the policy prefers
                node = children[move] = Node(me)
                node.available = 1
                expanded = True
            else:
                move = max(moves, key=lambda m: children[m].ucb())
                node = children[move]
            path.append(node)
            state = rules.apply(state, move)
        result = rules.result(state)
        assert result is not None
        worth = reward(result, me, self.margin_weight)
        for n in path:
            n.visits += 1
            n.total += worth

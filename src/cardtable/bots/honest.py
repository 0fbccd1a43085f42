"""The honest player: plays a one-player game seeing only what a person at the table sees.

It sees the face-up cards, how many cards lie face down and where, and what it has
turned up before (the stock's cards seen on an earlier pass: it remembers every card
it has seen). It never sees a face-down card and it never undoes.

**How it decides.** It keeps ``samples`` *determinizations*: deals of the cards it has
not seen into the places they may be, consistent with everything it has seen (each
unseen card equally likely in each unseen place: :func:`determinize`, built on the
game's :meth:`~cardtable.core.rules.Rules.face_down` and
:meth:`~cardtable.core.rules.Rules.with_face_down`). Each sample is solved by the
all-seeing solver (:func:`cardtable.solve.solve`) within ``nodes`` positions (and
``seconds``, if given); each winning line votes for its first move. One voted move is
played at once; when the lines disagree, each voted move is weighed in hindsight: the
samples still won after it (a sample whose line starts with it is; the others are solved
again after it), then its votes, then the rules' move order. A safe move of the rules
(:meth:`~cardtable.core.rules.Rules.auto_move`) that a line plays comes first. Moves back
to a position of this game are not played: the solver, free to turn the stock over again,
would put a needed move off for ever. A sample's line is
kept from move to move while the sample stays consistent with what the table shows, so
a sample is solved again only when a card turns up that it had placed otherwise
(it is then *repaired*: the card seen goes where it was seen, the card the sample had
put there takes its place) or when the move played is not its line's. When no sample is
winnable, it plays the first move that makes progress (or else the first move) to a
position it has not been in. Where the rules offer a free look at the stock
(:meth:`~cardtable.core.rules.Rules.look_through`: Klondike with unlimited redeals), it
first draws through the stock and back, as a person would.

**What it remembers** (:class:`Memory`): how many copies of each card it has seen at
once, face up or on a foundation (with one deck: which cards it has seen). A face-down
card it has seen before (a stock turned over) is known; with two decks a copy is taken
for the stock's first, where seen cards go face down again.

**Its budget**: ``samples`` (8) determinizations, ``nodes`` (20,000) positions per
solve of one; ``seconds`` (None) also limits each solve (a time limit makes it depend on
the machine's speed: without one, the player is deterministic for a seed).

>>> from cardtable.games import rules_for
>>> result = play(rules_for("devils-square"), 3, seed=0, samples=2, nodes=2_000)
>>> result.moves > 0, result.won in (True, False)
(True, True)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.rules import Rules
from ..games import spec_for
from ..solve.solver import solve

SAMPLES = 8
"""Determinizations kept by default."""
NODES = 20_000
"""Positions each solve of a determinization may explore, by default."""
CIRCLE_CANDIDATES = 6
"""When every winning line would go back to a position of the game, the new positions'
moves weighed instead (the first this many in the rules' order)."""
MOVE_LIMIT = 2_000
"""The most moves :func:`play` plays in a game before it gives up."""
REPEATS = 3
"""A position reached this many times in a game: :func:`play` gives up (the player goes round in circles)."""


def up_cards(rules: Rules[Any, Any], state: Any) -> Counter[int]:
    """The cards not face down, as a multiset: face up on the table or on a foundation
    (the deck less :meth:`~cardtable.core.rules.Rules.face_down`).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); sum(up_cards(r, r.deal(0)).values())
    7
    """
    return Counter(rules.deck()) - Counter(rules.face_down(state))


class Memory:
    """What the player has seen: for each card, the most copies of it it has seen at once
    not face down (:func:`up_cards`). :meth:`see` a position to remember it.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); m = Memory(); m.see(r, r.deal(0)); sum(m.seen.values())
    7
    """

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()

    def see(self, rules: Rules[Any, Any], state: Any) -> None:
        """Remember the cards of ``state`` that are not face down.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("devils-square"); m = Memory(); m.see(r, r.deal(0)); len(m.seen)
        16
        """
        seen = self.seen
        for card, n in up_cards(rules, state).items():
            if n > seen[card]:
                seen[card] = n

    def known(self, rules: Rules[Any, Any], state: Any) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The face-down cards of ``state`` (:meth:`~cardtable.core.rules.Rules.face_down`)
        and, for each, whether the player knows it: a card seen before that is not face up
        now (its first copies in face-down order, the stock's).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); s = r.deal(0); m = Memory(); m.see(r, s)
        >>> any(m.known(r, s)[1])
        False
        """
        down = rules.face_down(state)
        left = self.seen - up_cards(rules, state)
        known = []
        for card in down:
            if left[card] > 0:
                left[card] -= 1
                known.append(True)
            else:
                known.append(False)
        return down, tuple(known)


def determinize(rules: Rules[Any, Any], state: Any, memory: Memory, rng: random.Random) -> Any:
    """A deal of ``state``'s unseen cards into its unseen face-down places, each arrangement
    equally likely, the known ones where they are. The result depends only on what the
    player sees (the unseen cards are sorted before they are shuffled).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); s = r.deal(0); m = Memory(); m.see(r, s)
    >>> t = determinize(r, s, m, random.Random(1))
    >>> t.tableau[0] == s.tableau[0], sorted(r.face_down(t)) == sorted(r.face_down(s))
    (True, True)
    """
    down, known = memory.known(rules, state)
    pool = sorted(card for card, k in zip(down, known, strict=True) if not k)
    rng.shuffle(pool)
    cards = [card if k else pool.pop() for card, k in zip(down, known, strict=True)]
    return rules.with_face_down(state, cards)


def _repair(
    rules: Rules[Any, Any], state: Any, memory: Memory, sample: Any, rng: random.Random
) -> tuple[Any, bool] | None:
    """``sample`` made consistent with ``state``: the known face-down cards where they are,
    the sample's other face-down cards kept where they are still unseen, the rest dealt
    at random; and whether it changed. None when the two do not have the same places."""
    down, known = memory.known(rules, state)
    mine = rules.face_down(sample)
    if len(mine) != len(down):
        return None
    need = Counter(card for card, k in zip(down, known, strict=True) if not k)
    cards: list[int] = []
    holes: list[int] = []
    for i, (card, k) in enumerate(zip(down, known, strict=True)):
        if k:
            cards.append(card)
        elif need[mine[i]] > 0:
            need[mine[i]] -= 1
            cards.append(mine[i])
        else:
            holes.append(i)
            cards.append(-1)
    if holes:
        rest = sorted(need.elements())
        rng.shuffle(rest)
        for i, card in zip(holes, rest, strict=True):
            cards[i] = card
    repaired = rules.with_face_down(state, cards)
    return repaired, repaired != sample


@dataclass
class _Sample:
    """A determinization, its winning line from there (None: not solved yet) and the verdict."""

    state: Any
    line: list[Any] | None = None
    verdict: str = "todo"


class HonestPlayer:
    """The honest player for one game of ``rules`` (see the module docstring): call
    :meth:`choose` with each position of the game in turn.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); p = HonestPlayer(r, seed=1, samples=2, nodes=5_000)
    >>> str(p.choose(r.deal(0)))  # first, a free look through the stock
    'd'
    >>> HonestPlayer(rules_for("deserto"))
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: the honest player plays one-player games, not deserto
    """

    def __init__(
        self,
        rules: Rules[Any, Any],
        seed: int = 0,
        samples: int = SAMPLES,
        nodes: int | None = NODES,
        seconds: float | None = None,
    ) -> None:
        if samples < 1:
            raise OptionError("samples must be at least 1")
        if not spec_for(rules.name).one_player:
            raise OptionError(f"the honest player plays one-player games, not {rules.name}")
        self.rules = rules
        self.samples = samples
        self.nodes = nodes
        self.seconds = seconds
        self.memory = Memory()
        self.rng = random.Random(seed)
        self.solves = 0
        self._samples: list[_Sample] = []
        self._last: tuple[Any, Any] | None = None
        self._queue: list[Any] = []
        self._looked: set[Hashable] = set()
        self._visited: set[Hashable] = set()
        self._deadline: float | None = None
        self._forget = False
        self.wins = (0, 0)
        """After :meth:`choose` by vote: the samples won after the move chosen, and the samples solved."""

    def choose(self, state: Any, seconds: float | None = None) -> Any:
        """The move to play in ``state`` (a legal one), or None when there is none. The
        player remembers what ``state`` shows; when ``state`` follows from the position and
        move of the previous call, its samples carry over. With ``seconds``, it solves no new
        sample once that much time has passed (the wait is then about ``seconds`` plus one
        solve; the choice depends on the machine's speed).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado"); s = r.deal(0)
        >>> HonestPlayer(r, samples=2, nodes=2_000).choose(s) in r.legal_moves(s)
        True
        """
        rules = self.rules
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        self.memory.see(rules, state)
        if self._forget:  # the positions of a free look are not a circle to avoid
            self._visited, self._forget = set(), False
        self._visited.add(_key(state))
        follows = self._last is not None and rules.apply(*self._last) == state
        if not follows:
            self._samples, self._queue = [], []
        if rules.is_won(state):
            return None
        legal = rules.legal_moves(state)
        if not legal:
            return None
        if follows and self._last is not None:
            self._advance(state, self._last[1])
        if self._queue and follows:
            move = self._queue.pop(0)
            self._forget = not self._queue
        else:
            self._queue = []
            move = self._look(state)
            if move is None:
                move = self._vote(state, legal)
        self._last = (state, move)
        return move

    def _advance(self, state: Any, move: Any) -> None:
        """Play ``move`` in every sample and make the samples consistent with ``state``."""
        kept: list[_Sample] = []
        for sample in self._samples:
            after = self.rules.apply(sample.state, move)
            fixed = _repair(self.rules, state, self.memory, after, self.rng)
            if fixed is None:
                continue
            new, changed = fixed
            if changed:
                kept.append(_Sample(new))
            elif sample.verdict == "solved" and sample.line and sample.line[0] == move:
                kept.append(_Sample(new, sample.line[1:], "solved"))
            elif sample.verdict == "unsolvable":
                kept.append(_Sample(new, [], "unsolvable"))  # a lost position stays lost
            else:
                kept.append(_Sample(new))
        self._samples = kept

    def _look(self, state: Any) -> Any:
        """The first move of a free look through the face-down cards (queueing the others)
        when the rules offer one and it would show a card not seen yet; else None."""
        rules = self.rules
        key = _key(state)
        if key in self._looked or not any(not k for k in self.memory.known(rules, state)[1]):
            return None
        moves = rules.look_through(state)
        if not moves:
            return None
        self._looked.add(key)
        # Whether the look shows something new does not depend on the unseen cards: try it on a sample.
        probe = determinize(rules, state, self.memory, random.Random(0))
        seen = Counter(self.memory.seen)
        new = False
        for move in moves:
            probe = rules.apply(probe, move)
            if any(n > seen[card] for card, n in up_cards(rules, probe).items()):
                new = True
                break
        if not new:
            return None
        self._samples = []
        self._queue = list(moves[1:])
        return moves[0]

    def _solve(self, state: Any) -> tuple[str, list[Any]]:
        """The solver's verdict on a determinization and its winning line (empty unless solved)."""
        seconds = self.seconds
        if self._deadline is not None:
            left = self._deadline - time.perf_counter()
            if left <= 0:
                return "todo", []  # out of time: not solved (a later call may)
            seconds = left if seconds is None else min(seconds, left)
        result = solve(Game(self.rules, state), seconds=seconds, nodes=self.nodes)
        self.solves += 1
        return result.verdict, list(result.moves)

    def _vote(self, state: Any, legal: list[Any]) -> Any:
        """The move after which the most samples are still won (see the module docstring)."""
        rules = self.rules
        while len(self._samples) < self.samples:
            self._samples.append(_Sample(determinize(rules, state, self.memory, self.rng)))
        votes: Counter[Any] = Counter()
        for sample in self._samples:
            if sample.verdict == "todo":
                sample.verdict, sample.line = self._solve(sample.state)
            if sample.verdict == "solved" and sample.line:
                votes[sample.line[0]] += 1
        order = {move: i for i, move in enumerate(legal)}
        # A move back to a position of this game goes round in circles (the solver, free to
        # turn the stock over again, would put off a move for ever): moves to new positions only.
        new = [m for m in legal if _key(rules.apply(state, m)) not in self._visited]
        if not new:
            return None
        votes = Counter({m: n for m, n in votes.items() if m in new})
        if not votes and any(s.verdict == "solved" for s in self._samples):
            # Every winning line goes back to a position of this game: weigh the moves to new ones.
            return self._hindsight(state, new[:CIRCLE_CANDIDATES], votes, order)
        safe = rules.auto_move(state)
        if safe is not None and safe in votes:
            self.wins = (votes[safe], len(self._samples))
            return safe  # a move the game itself would make: never worse
        if len(votes) > 1:
            return self._hindsight(state, list(votes), votes, order)
        if votes:
            only = next(iter(votes))
            self.wins = (votes[only], len(self._samples))
            return only
        self.wins = (0, len(self._samples))
        return self._fallback(state, new)

    def _hindsight(self, state: Any, moves: list[Any], votes: Counter[Any], order: dict[Any, int]) -> Any:
        """The move of ``moves`` after which the most samples are won (hindsight: a sample
        whose line starts with the move is won after it; the others are solved after it),
        the most voted, then the first in the rules' order, among equals. A move that can
        no longer catch up with the best is not weighed further."""
        rules = self.rules
        live = [s for s in self._samples if s.verdict != "unsolvable"]
        ranked = sorted(moves, key=lambda m: (-votes[m], order.get(m, len(order))))
        best, best_wins = ranked[0], -1
        best_lines: list[tuple[_Sample, list[Any]]] = []
        for move in ranked:
            wins = 0
            lines: list[tuple[_Sample, list[Any]]] = []
            for k, sample in enumerate(live):
                if wins + len(live) - k <= best_wins:
                    break  # cannot beat the best (equals lose to it: it is earlier)
                if sample.verdict == "solved" and sample.line and sample.line[0] == move:
                    wins += 1
                    continue
                verdict, line = self._solve(rules.apply(sample.state, move))
                if verdict == "solved":
                    wins += 1
                    lines.append((sample, [move, *line]))
            if wins > best_wins:
                best, best_wins, best_lines = move, wins, lines
        for sample, line in best_lines:
            sample.verdict, sample.line = "solved", line
        self.wins = (best_wins, len(self._samples))
        return best

    def _fallback(self, state: Any, legal: list[Any]) -> Any:
        """No sample is won: the first of the ``legal`` moves (those to new positions) that
        makes progress (:meth:`~cardtable.core.rules.Rules.progress` grows), else the first."""
        rules = self.rules
        now = rules.progress(state)
        for move in legal:
            if any(a > b for a, b in zip(rules.progress(rules.apply(state, move)), now, strict=True)):
                return move
        return legal[0]


def _key(state: Any) -> Hashable:
    """A position as a dictionary key (positions are immutable values)."""
    key: Hashable = state
    return key


@dataclass(frozen=True)
class Played:
    """What :func:`play` did: the game ``won``, ``moves`` played, ``solves`` made (of
    determinizations), the ``seconds`` it took, the ``decisions`` (moves the player chose
    with more than one legal) and the longest decision (``slowest``, seconds).

    >>> Played(True, 90, 200, 3.0, 80, 0.2).won
    True
    """

    won: bool
    moves: int
    solves: int
    seconds: float
    decisions: int
    slowest: float


def play(
    rules: Rules[Any, Any],
    deal: int,
    seed: int = 0,
    samples: int = SAMPLES,
    nodes: int | None = NODES,
    seconds: float | None = None,
) -> Played:
    """Play deal ``deal`` of ``rules`` with the honest player to its end: won, no move, the
    player out of moves, a position reached :data:`REPEATS` times or :data:`MOVE_LIMIT` moves.

    >>> from cardtable.games import rules_for
    >>> play(rules_for("klondike"), 8, samples=2, nodes=5_000).moves > 50
    True
    """
    player = HonestPlayer(rules, seed=seed, samples=samples, nodes=nodes, seconds=seconds)
    state = rules.deal(deal)
    visits: Counter[Hashable] = Counter()
    began = time.perf_counter()
    moves = decisions = 0
    slowest = 0.0
    while moves < MOVE_LIMIT:
        visits[_key(state)] += 1
        if visits[_key(state)] >= REPEATS:
            break
        many = len(rules.legal_moves(state)) > 1
        t = time.perf_counter()
        move = player.choose(state)
        if move is None:
            break
        if many:
            decisions += 1
            slowest = max(slowest, time.perf_counter() - t)
        state = rules.apply(state, move)
        moves += 1
    return Played(rules.is_won(state), moves, player.solves, time.perf_counter() - began, decisions, slowest)


__all__ = ["NODES", "SAMPLES", "HonestPlayer", "Memory", "Played", "determinize", "play", "up_cards"]

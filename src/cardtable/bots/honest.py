"""The honest player: plays a one-player game seeing only what a person at the table sees.

It sees the face-up cards, how many cards lie face down and where, and what it has
turned up before (the stock's cards seen on an earlier pass: it remembers every card
it has seen). It never sees a face-down card and it never undoes.

**How it decides** (the method of lonelybot's "hop" player). The moves of the game are
of two kinds: those that show no unseen card and that one move undoes, either
*reversible* ones (:meth:`~cardtable.core.rules.Rules.reversible`; in Klondike a tableau
move that turns up nothing, or a draw when the stock comes round again) or ones that
change progress but are *taken back* as easily (:meth:`~cardtable.core.rules.Rules.takes_back`;
in Klondike a card back from its foundation, or sent home from a face-up card), and the
others (a card turned up, a card played from the stock, a card home from the waste...).
A move of the first kind is never weighed alone: on samples whose solver sees every card,
a move that can be undone at once is worth exactly what the position itself is, so it
would win every close race as a free pass (until 2026-11-28 such moves were candidates,
and the player went round a card sent home and brought back until its circle rule made
it give up a game the solver still won). Below, "reversible" means either. From the
position at hand it goes through every position its reversible moves reach (breadth
first, over the edges of the solver's space, :func:`cardtable.solve.solver.solver_space`:
in Klondike its class space, where positions that differ only in where hanging cards lie
are one, and a card played from the stock is one edge with the draws before it), and
each irreversible move met there makes a *candidate*: the reversible moves that lead to
it, then it (:func:`candidate_lines`; candidates that end in the same position count once;
those that end in a position of this game already seen race only when all do, the
least seen first, and never one seen :data:`REPEATS` - 1 times). When the space's edges
give no candidate while a move that cannot be taken back is legal (the space is a
solver's: in a sample whose last stock cards have no place to go, Demonthief's draws are
no edge of it), the legal moves that cannot be taken back are the candidates, each
alone: the player never gives up while such a move is legal. Each candidate is
weighed on *samples*: deals of the cards it has not seen into the places they may be
(each unseen card equally likely in each unseen place), in which the candidate is
played and the position after it solved by the all-seeing solver within ``nodes``
positions (:func:`sample_outcomes`: the game's compiled core when it has a sampler, else
:func:`cardtable.solve.solve`). Every candidate meets the same samples. With few unseen
cards the samples repeat (4 cards make at most 24 deals): a candidate's sample whose deal an
earlier sample had is not solved again but given that sample's outcome (a solve depends only
on the position and ``nodes``, so the outcomes, and the choice, are those of solving every
sample; since 2026-11-28, :func:`distinct_deals`). The candidates
race: all are weighed on :data:`FIRST` samples, then the samples double, up to
``samples``; after each round a candidate is dropped when the best one's weight is ahead
of its own by more than :data:`RACE` times the square root of the samples on which the
two disagree (a paired test). A candidate's weight is its samples won (a sample the
solver left undecided weighs :data:`DOUBT`; where the solver space tells how far an
undecided sample's search got, :func:`~cardtable.solve.types.sample_progress`, as in
Demonthief, whose won games take 250 moves or more, it weighs :data:`ADVANCE` more for every card
home of those left, in proportion), plus
:data:`REVEAL` of the samples for each unseen card it turns up (its sample solves knew
that card already; the player will know it only then, and plays on knowing it), unless
its last move is a draw that cannot be taken back (Demonthief's stock, gone through once:
there the bonus would buy looks at the stock with the stock itself). The
candidate of most weight (then of fewest samples proved lost, then the first found) is
played: its reversible moves and its last move in turn (nothing is learnt before its
last move). Candidates that only take progress back (a card from a foundation, then one
from the stock onto it) race only when there is no other, or when the best other one wins
less than :data:`BACK_BELOW` of its samples: then they race it, on the same samples (it comes
first in the race's order, so it wins a tie; its outcomes are not solved again). When
nothing is hidden, the position is solved (:data:`EXACT_NODES`) and a winning line followed.
Where the rules offer a free look at the stock
(:meth:`~cardtable.core.rules.Rules.look_through`: Klondike with unlimited redeals), it
first draws through the stock and back, as a person would.

**What it remembers** (:class:`Memory`): how many copies of each card it has seen at
once, face up or on a foundation (with one deck: which cards it has seen). A face-down
card it has seen before (a stock turned over) is known; with two decks a copy is taken
for the stock's first, where seen cards go face down again.

**Its budget**: ``samples`` (:data:`SAMPLES`) samples at most per candidate, ``nodes``
(:data:`NODES`) positions per solve of a sample; ``seconds`` (None) limits each decision
(it then weighs no further round once that much time has passed: the choice depends on
the machine's speed; without it, the player is deterministic for a seed).

>>> from cardtable.games import rules_for
>>> result = play(rules_for("devils-square"), 3, seed=0, samples=4, nodes=500)
>>> result.moves > 0, result.won in (True, False)
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.inputs import check_int, check_time
from ..core.rules import Rules
from ..games import spec_for
from ..solve.native import native_function
from ..solve.solver import solve, solver_space
from ..solve.types import SampleBatch, sample_progress

SAMPLES = 1024
"""The most samples a candidate is weighed on, by default."""
NODES = 3_000
"""Positions each solve of a sample may explore, by default."""
FIRST = 32
"""The samples of the race's first round (fewer when ``samples`` is smaller)."""
SHORT = 8
"""The samples of the first round when the decision has a time limit (a short first round keeps to it)."""
RACE = 1.0
"""A candidate more than this many times the square root of the samples behind the best is dropped."""
REVEAL = 0.05
"""The share of the samples a candidate's weight gains for each unseen card it turns up (a
player who sees a card turned up plays on knowing it; a sample's solver knew it already)."""
DOUBT = 0.0
"""What a sample the solver left undecided (out of nodes) weighs, a won one weighing 1."""
ADVANCE = 0.5
"""What an undecided sample weighs on top of :data:`DOUBT`, times the share of the cards not
yet home that its search brought home (where the sample tells it: :data:`PROGRESS`), so a
win outweighs any undecided sample."""
BACK_BELOW = 0.5
"""Candidates that only take progress back (a card from a foundation, then one from the stock
onto it) race the best of the others only when it wins less than this share of its samples."""
ONCE_BELOW = 16
"""The race solves each deal of the unseen cards once (:func:`distinct_deals`) when they have
fewer than this many times the samples' deals: 7 cards make 5,040 deals, so that 1,024
samples of them repeat about one in ten."""
REACH = 200
"""The most positions the reversible moves are followed to in one decision."""
EXACT_NODES = 200_000
"""Positions the solve of a position with nothing hidden may explore."""
MOVE_LIMIT = 2_000
"""The most moves :func:`play` plays in a game before it gives up."""
REPEATS = 3
"""A position reached this many times in a game: :func:`play` gives up (the player goes round in circles)."""
MASK = 2**64 - 1


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


# --- the samples ---------------------------------------------------------------------------


def _splitmix64(x: int) -> tuple[int, int]:
    """splitmix64's next state and number (the compiled samplers' generator)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def sample_cards(cards: Sequence[int], seed: int, k: int) -> list[int]:
    """Sample ``k`` of ``seed``'s deal of ``cards``: a Fisher-Yates shuffle by splitmix64
    started at ``seed ^ (k * 0xD1B54A32D192ED03)`` (the compiled samplers deal the same).

    >>> sample_cards([1, 2, 3, 4], 7, 0) == sample_cards([1, 2, 3, 4], 7, 0) != sample_cards([1, 2, 3, 4], 7, 1)
    True
    """
    out = list(cards)
    x = (seed ^ (k * 0xD1B54A32D192ED03)) & MASK
    for i in range(len(out) - 1, 0, -1):
        x, z = _splitmix64(x)
        j = z % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


Sampler = Callable[[Rules[Any, Any], Any, SampleBatch], Any]


def _native_sampler(rules: Rules[Any, Any]) -> Sampler | None:
    """The ``sample_outcomes`` of the game's compiled core module (its spec's ``native``), if it has one."""
    found: Sampler | None = native_function(rules, "sample_outcomes")
    return found


WON, LOST, UNKNOWN = 1, 2, 0
"""A sample's outcome in :func:`sample_outcomes`' bytes."""
PROGRESS = 3
"""An undecided sample whose search brought ``b`` cards home at most is ``PROGRESS + b``
where the solver space tells it (:func:`~cardtable.solve.types.sample_progress`; else
:data:`UNKNOWN`)."""


def sample_outcomes(rules: Rules[Any, Any], state: Any, batch: SampleBatch) -> list[bytes]:
    """For each of the ``batch``'s lines (legal moves from ``state`` that turn up no card
    before their last), the outcomes of its samples, one byte each (:data:`WON`,
    :data:`LOST`: proved lost, :data:`UNKNOWN`; where the game's solver space tells progress,
    :func:`~cardtable.solve.types.sample_progress`, an undecided sample is :data:`PROGRESS`
    plus the most cards home in a position its search took): in sample ``k``, the cards of ``state``'s
    face-down places marked unseen (in :meth:`~cardtable.core.rules.Rules.face_down`'s
    order) are dealt among those places (:func:`sample_cards`), the line is played and the
    position after it solved within the batch's ``nodes`` positions (as
    :func:`cardtable.solve.solve` does). By the game's compiled core when its module has a
    ``sample_outcomes`` that takes the position, else here (:func:`python_sample_outcomes`).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square"); s = r.deal(1); unseen = [False] * len(r.face_down(s))
    >>> sample_outcomes(r, s, SampleBatch(unseen, [[]], first=0, count=2, seed=5, nodes=1_000))
    [b'\\x02\\x02']
    """
    native = _native_sampler(rules)
    if native is not None:
        found: list[bytes] | None = native(rules, state, batch)
        if found is not None:
            return found
    return python_sample_outcomes(rules, state, batch)


def python_sample_outcomes(rules: Rules[Any, Any], state: Any, batch: SampleBatch) -> list[bytes]:
    """:func:`sample_outcomes` in Python, through :func:`cardtable.solve.solve` without its
    restart phases (the reference of the compiled samplers: the same samples; the same wins,
    and a loss wherever they prove one: ``solve`` also proves some positions lost before it
    searches). Where the solver space tells progress
    (:func:`~cardtable.solve.types.sample_progress`), ``solve`` watches its search (in
    Python, then) for the most cards home (the rules' ``score``) in a position it took.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); s = r.deal(8); unseen = [False] * 24 + [True] * 21
    >>> len(python_sample_outcomes(r, s, SampleBatch(unseen, [[]], first=0, count=2, seed=1, nodes=2_000))[0])
    2
    """
    down = rules.face_down(state)
    places = [i for i, u in enumerate(batch.unseen) if u]
    out = [bytearray() for _ in batch.lines]
    told = sample_progress(solver_space(rules))
    best = 0

    def watch(position: Any) -> None:
        nonlocal best
        best = max(best, rules.score(position))

    for k in range(batch.first, batch.first + batch.count):
        cards = list(down)
        for i, card in zip(places, sample_cards([down[i] for i in places], batch.seed, k), strict=True):
            cards[i] = card
        sample = rules.with_face_down(state, cards)
        for j, line in enumerate(batch.lines):
            position = sample
            for move in line:
                position = rules.apply(position, move)
            best = 0
            verdict = solve(
                Game(rules, position),
                seconds=None,
                nodes=batch.nodes,
                memory=None,
                restarts=False,
                watch=watch if told else None,
            ).verdict
            undecided = PROGRESS + min(best, 255 - PROGRESS) if told else UNKNOWN
            out[j].append(WON if verdict == "solved" else LOST if verdict == "unsolvable" else undecided)
    return [bytes(b) for b in out]


def distinct_deals(cards: Sequence[int]) -> int:
    """How many different deals of ``cards`` into their places there are (copies of a card
    are alike): with few unseen cards, fewer than the samples a candidate is weighed on.

    >>> distinct_deals([1, 2, 3, 4]), distinct_deals([1, 1, 2]), distinct_deals([])
    (24, 3, 1)
    """
    n = math.factorial(len(cards))
    for copies in Counter(cards).values():
        n //= math.factorial(copies)
    return n


# --- the candidates --------------------------------------------------------------------------


def reveals(rules: Rules[Any, Any], before: Any, after: Any, unseen: Counter[int]) -> bool:
    """Whether ``after`` shows face up a card of ``unseen`` (the cards in the places the
    player has not seen) that ``before`` did not.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); s = r.deal(0); hidden = Counter(r.face_down(s))
    >>> reveals(r, s, r.apply(s, r.parse_move("d")), hidden), reveals(r, s, s, hidden)
    (True, False)
    """
    return any(unseen[card] > 0 for card in up_cards(rules, after) - up_cards(rules, before))


def candidate_lines(
    rules: Rules[Any, Any], state: Any, unseen: Counter[int], space: Any = None, reach: int = REACH
) -> list[tuple[list[Any], Any]]:
    """The candidates of ``state`` (see the module docstring): each a line of reversible
    moves (or moves the rules take back, :meth:`~cardtable.core.rules.Rules.takes_back`)
    that show none of the ``unseen`` cards, then one move that is not, and the
    position after it, in the order found (breadth first, each position's edges in the
    space's order); a line ending in the position of an earlier one is left out. The
    positions reached by reversible moves are followed up to ``reach`` of them. When the
    space's edges give none, each legal move of ``state`` that is not reversible or shows an
    unseen card is a candidate alone: the space is a solver's, and it leaves out a move that
    cannot help in the position at hand (in a sample whose last stock cards have no place
    to go, Demonthief's draws are no edge of it), while the player, who does not know those
    cards, may make it (which moves are legal does not depend on the face-down cards).

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); s = r.deal(0)
    >>> [" ".join(map(str, line)) for line, _ in candidate_lines(r, s, Counter(r.face_down(s)))]
    ['3f']
    """

    def ends_a_line(before: Any, move: Any, after: Any) -> bool:
        if reveals(rules, before, after, unseen):
            return True
        return not (rules.reversible(before, move) or rules.takes_back(before, move))

    space = solver_space(rules) if space is None else space
    key = space.key
    seen = {key(state)}
    frontier: list[tuple[Any, list[Any]]] = [(state, [])]
    found: list[tuple[list[Any], Any]] = []
    ends: set[Hashable] = set()
    for position, path in frontier:  # the list grows as it is read: breadth first
        for moves, _ in space.children(position):
            here, line, last = position, list(path), False
            for move in moves:
                after = rules.apply(here, move)
                line.append(move)
                last = ends_a_line(here, move, after)
                here = after
                if last:
                    break
            k = key(here)
            if last:
                if k not in ends:
                    ends.add(k)
                    found.append((line, here))
            elif k not in seen and len(seen) < reach:
                seen.add(k)
                frontier.append((here, line))
    if not found:
        for move in rules.legal_moves(state):
            after = rules.apply(state, move)
            if ends_a_line(state, move, after):
                found.append(([move], after))
    return found


def spends_the_stock(rules: Rules[Any, Any], state: Any, line: Sequence[Any]) -> bool:
    """Whether the last move of a candidate's ``line`` (played from ``state``) is a move of
    the stock that cannot be taken back (a draw in Demonthief, which has no redeal): such a
    candidate earns no reveal bonus (module docstring).

    >>> from cardtable.games import rules_for
    >>> r, k = rules_for("demonthief"), rules_for("klondike")
    >>> spends_the_stock(r, r.deal(0), [r.parse_move("d")]), spends_the_stock(k, k.deal(0), [k.parse_move("d")])
    (True, False)
    """
    if not line:
        return False
    before = state
    for move in line[:-1]:
        before = rules.apply(before, move)
    try:
        stock = rules.move_places(before, line[-1]).n == 0
    except NotImplementedError:  # a game that does not say: no move is known to be one
        return False
    return stock and not rules.reversible(before, line[-1])


def view(rules: Rules[Any, Any], state: Any) -> Hashable:
    """What a player sees of ``state``: its :meth:`~cardtable.core.rules.Rules.display`,
    face-down cards as None.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); s = r.deal(0)
    >>> view(r, s) == view(r, r.with_face_down(s, r.face_down(s)[::-1]))
    True
    """
    return tuple(
        tuple((name, tuple(card if up else None for card, up in pile)) for name, pile in row)
        for row in rules.display(state)
    )


class HonestPlayer:
    """The honest player for one game of ``rules`` (see the module docstring): call
    :meth:`choose` with each position of the game in turn.

    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike"); p = HonestPlayer(r, seed=1, samples=4, nodes=500)
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
        if not spec_for(rules.name).one_player:
            raise OptionError(f"the honest player plays one-player games, not {rules.name}")
        self.rules = rules
        self.samples = check_int(samples, "samples", OptionError, 1)
        self.nodes = NODES if nodes is None else check_int(nodes, "nodes", OptionError, 1)
        self.seconds = None if seconds is None else check_time(seconds, "seconds", OptionError)
        self.memory = Memory()
        self.rng = random.Random(seed)
        self.space = solver_space(rules)
        self.solves = 0
        self._last: tuple[Any, Any] | None = None
        self._queue: list[Any] = []
        self._looked: set[Hashable] = set()
        self._visited: Counter[Hashable] = Counter()
        self._forget = False
        self._forget_after_queue = False
        self.wins = (0, 0)
        """After :meth:`choose`: the samples won after the move chosen, and the samples it was weighed on."""

    def choose(self, state: Any, seconds: float | None = None) -> Any:
        """The move to play in ``state`` (a legal one), or None when there is none (or none
        leads anywhere new). The player remembers what ``state`` shows; when ``state``
        follows from the position and move of the previous call, the rest of the line
        chosen then is played. With ``seconds`` (else the player's own ``seconds``), it
        weighs no further round of samples once that much time has passed (the choice then
        depends on the machine's speed).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado"); s = r.deal(0)
        >>> HonestPlayer(r, samples=2, nodes=500).choose(s) in r.legal_moves(s)
        True
        """
        rules = self.rules
        seconds = self.seconds if seconds is None else check_time(seconds, "seconds", OptionError)
        deadline = None if seconds is None else time.perf_counter() + seconds
        self.memory.see(rules, state)
        if self._forget:  # the positions of a free look are not a circle to avoid
            self._visited, self._forget = Counter(), False
        self._visited[view(rules, state)] += 1
        follows = self._last is not None and rules.apply(*self._last) == state
        if rules.is_won(state) or not rules.legal_moves(state):
            return None
        if self._queue and follows:
            move = self._queue.pop(0)
            self._forget = self._forget_after_queue and not self._queue
        else:
            self._queue = []
            move = self._look(state)
            if move is None:
                line = self._decide(state, deadline)
                if not line:
                    self._last = None
                    return None
                move, self._queue = line[0], line[1:]
                self._forget_after_queue = False
        self._last = (state, move)
        return move

    def _look(self, state: Any) -> Any:
        """The first move of a free look through the face-down cards (queueing the others)
        when the rules offer one and it would show a card not seen yet; else None."""
        rules = self.rules
        key = view(rules, state)
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
        self._queue = list(moves[1:])
        self._forget_after_queue = True
        self.wins = (0, 0)
        return moves[0]

    def _decide(self, state: Any, deadline: float | None) -> list[Any]:
        """The line to play: a winning line when nothing is hidden and the solver finds
        one, else the best candidate's (empty: no candidate)."""
        rules = self.rules
        base = determinize(rules, state, self.memory, self.rng)
        seed = self.rng.getrandbits(64)
        _, known = self.memory.known(rules, state)
        unseen_places = tuple(not k for k in known)
        samples = self.samples
        if not any(unseen_places):
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            result = solve(Game(rules, state), seconds=left, nodes=EXACT_NODES)
            self.solves += 1
            if result.solved and result.moves:
                self.wins = (1, 1)
                return list(result.moves)
            samples = 1  # every sample is the position itself
        unseen = Counter(card for card, u in zip(rules.face_down(base), unseen_places, strict=True) if u)
        now = rules.progress(base)
        # (times its position was seen, whether it only takes progress back, line, unseen cards it shows)
        found: list[tuple[int, bool, list[Any], int]] = []
        for line, after in candidate_lines(rules, base, unseen, self.space):
            seen = self._visited[view(rules, after)]
            if seen >= REPEATS - 1:
                continue
            gained = rules.progress(after)
            back = any(a < b for a, b in zip(gained, now, strict=True))
            shown = sum(n for card, n in (up_cards(rules, after) - up_cards(rules, base)).items() if unseen[card])
            if shown and spends_the_stock(rules, base, line):
                shown = 0
            found.append((seen, back and not any(a > b for a, b in zip(gained, now, strict=True)), line, shown))
        if not found:
            return []
        least = min(seen for seen, *_ in found)
        fresh = [(back, line, shown) for seen, back, line, shown in found if seen == least]
        ahead = [(line, shown) for back, line, shown in fresh if not back]
        behind = [(line, shown) for back, line, shown in fresh if back]
        earlier: dict[int, bytes] = {}
        if ahead:
            best, outcomes = self._race(base, unseen_places, ahead, seed, samples, deadline)
            line, shown = ahead[best]
            won, tried = self.wins
            if not behind or won >= BACK_BELOW * tried:
                return line
            # The best forward candidate wins too few samples: the ones that take progress
            # back race it (on the same samples; first in the order, it wins a tie). Its
            # outcomes so far are known: the same samples give the same outcomes.
            behind = [(line, shown), *behind]
            earlier = {0: outcomes}
        return behind[self._race(base, unseen_places, behind, seed, samples, deadline, earlier)[0]][0]

    def _race(
        self,
        base: Any,
        unseen: Sequence[bool],
        candidates: list[tuple[list[Any], int]],
        seed: int,
        samples: int,
        deadline: float | None,
        known: dict[int, bytes] | None = None,
    ) -> tuple[int, bytes]:
        """The index of the line the race picks (see the module docstring), and its samples'
        outcomes: after each round, a line is dropped when the best one's weight (its
        samples won, plus :data:`REVEAL` of the samples for each unseen card it turns up,
        ``shown``) is ahead of its own by more than :data:`RACE` times the square root of
        the samples the two disagree on (the same samples for every line: a paired test).
        ``candidates``: each line with the unseen cards it turns up; ``known``: the
        outcomes of the first samples of some lines, by index, from an earlier race of
        this decision (they are not solved again)."""
        lines = [line for line, _ in candidates]
        shown = [n for _, n in candidates]
        home = self.rules.score(base)
        left = max(1, len(self.rules.deck()) - home)
        value = [0.0] * 256  # what a sample of each outcome byte weighs
        value[WON] = 1.0
        value[UNKNOWN] = DOUBT
        for b in range(PROGRESS, 256):
            value[b] = DOUBT + ADVANCE * max(0, b - PROGRESS - home) / left
        outcomes = [bytearray() for _ in lines]
        known = known or {}
        alive = list(range(len(lines)))
        pool = [card for card, u in zip(self.rules.face_down(base), unseen, strict=True) if u]
        # With few unseen cards the samples repeat (4 cards: at most 24 deals; 7 cards: about one
        # sample in ten of 1,024): each deal is then solved once, at its first sample number,
        # and its outcome copied to the others.
        firsts: dict[tuple[int, ...], int] | None = {} if distinct_deals(pool) < ONCE_BELOW * samples else None
        done = 0
        step = min(FIRST if deadline is None else SHORT, samples)
        while True:
            solved = [i for i in alive if len(known.get(i, b"")) < done + step]
            so_far = [(lines[i], outcomes[i]) for i in solved]
            rows = dict(zip(solved, self._round(base, unseen, pool, so_far, done, step, seed, firsts), strict=True))
            for i in alive:
                outcomes[i] += rows[i] if i in rows else known[i][done : done + step]
            done += step
            weight = {i: sum(value[o] for o in outcomes[i]) + REVEAL * done * shown[i] for i in alive}
            top = max(alive, key=lambda i: (weight[i], -i))
            mine = [o == WON for o in outcomes[top]]
            kept = []
            for i in alive:
                differ = sum(1 for a, o in zip(mine, outcomes[i], strict=True) if a != (o == WON))
                if weight[top] - weight[i] <= RACE * math.sqrt(differ):
                    kept.append(i)
            alive = kept
            if len(alive) == 1 or done >= samples or (deadline is not None and time.perf_counter() > deadline):
                break
            step = min(done, samples - done)
        best = min(alive, key=lambda i: (-weight[i], outcomes[i].count(LOST), i))
        self.wins = (outcomes[best].count(WON), done)
        return best, bytes(outcomes[best])

    def _round(
        self,
        base: Any,
        unseen: Sequence[bool],
        pool: Sequence[int],
        lines: list[tuple[list[Any], bytearray]],
        first: int,
        count: int,
        seed: int,
        firsts: dict[tuple[int, ...], int] | None,
    ) -> list[bytes]:
        """The outcomes of samples ``first`` to ``first + count - 1`` of each of ``lines``
        (each with its outcomes of the samples before ``first``), as :func:`sample_outcomes`
        gives them. With ``firsts`` (the first sample number of each deal of the unseen cards,
        ``pool``, met so far; updated here), each deal is solved only once: a sample whose
        deal was met before gets the outcome of that first sample. A solve of a sample depends
        only on its deal (the position after the line and ``nodes``), so the outcomes are the
        same as if every sample were solved. The samples whose deals are new are solved in
        batches of consecutive numbers (without ``firsts``, one batch)."""
        end = first + count
        numbers = range(first, end)
        met = numbers if firsts is None else [firsts.setdefault(tuple(sample_cards(pool, seed, k)), k) for k in numbers]
        fresh: dict[int, list[int]] = {}
        k = first
        while k < end and lines:
            if met[k - first] != k:  # a deal met before
                k += 1
                continue
            run = k  # the samples from k on whose deals are new, solved in one batch
            while run < end and met[run - first] == run:
                run += 1
            batch = SampleBatch(unseen, [line for line, _ in lines], k, run - k, seed, self.nodes)
            rows = sample_outcomes(self.rules, base, batch)
            self.solves += (run - k) * len(lines)
            if run - k == count:  # every sample new: the batch is the round
                return rows
            for i in range(k, run):
                fresh[i] = [row[i - k] for row in rows]
            k = run
        return [bytes(fresh[n][j] if n >= first else earlier[n] for n in met) for j, (_, earlier) in enumerate(lines)]


ENDS = ("won", "no-move", "gave-up", "repeats", "move-limit")
"""How a game of :func:`play` ends (:attr:`Played.end`): won; no legal move; the player
chose none while moves were legal; a position reached :data:`REPEATS` times; the move limit."""


@dataclass(frozen=True)
class Played:
    """What :func:`play` did: the game ``won``, ``moves`` played, ``solves`` made (of
    samples), the ``seconds`` it took, the ``decisions`` (moves the player chose
    with more than one legal), the longest decision (``slowest``, seconds), how the game
    ``end``-ed (one of :data:`ENDS`) and its ``line`` of moves.

    >>> Played(True, 90, 200, 3.0, 80, 0.2, "won", ()).won
    True
    """

    won: bool
    moves: int
    solves: int
    seconds: float
    decisions: int
    slowest: float
    end: str
    line: tuple[Any, ...]


def play(
    rules: Rules[Any, Any],
    deal: int,
    seed: int = 0,
    samples: int = SAMPLES,
    nodes: int | None = NODES,
    seconds: float | None = None,
    move_limit: int = MOVE_LIMIT,
) -> Played:
    """Play deal ``deal`` of ``rules`` with the honest player to its end: won, no move, the
    player out of moves, a position reached :data:`REPEATS` times or ``move_limit`` moves.

    >>> from cardtable.games import rules_for
    >>> p = play(rules_for("klondike"), 8, samples=8, nodes=500)
    >>> p.moves > 50, p.moves == len(p.line), p.end in ENDS
    (True, True, True)
    """
    player = HonestPlayer(rules, seed=seed, samples=samples, nodes=nodes, seconds=seconds)
    state = rules.deal(deal)
    visits: Counter[Hashable] = Counter()
    began = time.perf_counter()
    line: list[Any] = []
    decisions = 0
    slowest = 0.0
    end = "move-limit"
    while len(line) < move_limit:
        visits[state] += 1
        if visits[state] >= REPEATS:
            end = "repeats"
            break
        legal = rules.legal_moves(state)
        t = time.perf_counter()
        move = player.choose(state)
        if move is None:
            end = "gave-up" if legal else "no-move"  # (a won position: "won" below)
            break
        if len(legal) > 1:
            decisions += 1
            slowest = max(slowest, time.perf_counter() - t)
        state = rules.apply(state, move)
        line.append(move)
    won = rules.is_won(state)
    took = time.perf_counter() - began
    return Played(won, len(line), player.solves, took, decisions, slowest, "won" if won else end, tuple(line))


__all__ = [
    "ENDS",
    "NODES",
    "SAMPLES",
    "HonestPlayer",
    "Memory",
    "Played",
    "candidate_lines",
    "determinize",
    "distinct_deals",
    "play",
    "python_sample_outcomes",
    "reveals",
    "sample_cards",
    "sample_outcomes",
    "up_cards",
    "view",
]

"""What every search of the solver shares: the :class:`SearchSpace` a search walks, its
:class:`Budget`, what it :class:`Found`, :class:`Pruned`, a space cut down to its most
promising children, the widths of ``solve``'s phases in such spaces (:func:`pruned_widths`),
and a :class:`SampleBatch`, the samples the honest player asks to be solved in one call.

Both the Python search (:mod:`cardtable.solve.search`) and the compiled cores
(:mod:`cardtable.solve.native`) use these, and this module imports neither: the
search imports the cores, and both import this.

>>> Budget(nodes=10).memory, Found("unsolvable", nodes=3).moves
(2000000, [])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

Edge = tuple[Sequence[Any], Any]
"""A step of a search space: the real moves it stands for, and the position they reach."""


PRUNED_WIDTHS: tuple[int, ...] = (2, 3)
"""Children kept per position in the solver's first, incomplete phases, one phase per
width in turn (iterative broadening). A solver space may name its own
(``PRUNED_WIDTHS`` on the space: :class:`~cardtable.solve.spaces.DemonthiefSolverSpace`)."""


def pruned_widths(space: Any) -> tuple[int, ...]:
    """The widths of ``solve``'s incomplete phases in ``space``: its ``PRUNED_WIDTHS``, else
    :data:`PRUNED_WIDTHS`. Each phase gets at most one part in ``len(widths) + 1`` of the
    seconds and nodes (``+ len(pruned_restarts(space))`` with the restart phases), and the
    complete search the rest (at least one part; in Klondike
    the phases end in under a second on the slowest deals, so its proofs keep nearly all
    the time). The compiled cores' samplers take them from here too.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.solver import solver_space
    >>> pruned_widths(solver_space(rules_for("klondike"))), pruned_widths(solver_space(rules_for("demonthief")))
    ((2, 3), (2, 3, 4, 5))
    """
    widths = getattr(space, "PRUNED_WIDTHS", PRUNED_WIDTHS)
    return tuple(widths)


def pruned_restarts(space: Any) -> tuple[tuple[int, int], ...]:
    """``solve``'s *restart* phases in ``space``, after its narrow phases: ``(width, depth)``
    pairs, each a search of the space cut to ``width`` children (:class:`Pruned`) from every
    position ``depth`` steps in (:func:`starts`), in turn, each with an equal share of the
    phase's budget. A depth-first search spends its budget under its first few choices; these
    give the others their turn. The space's ``PRUNED_RESTARTS``, else none.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.solver import solver_space
    >>> pruned_restarts(solver_space(rules_for("klondike"))), pruned_restarts(solver_space(rules_for("demonthief")))
    ((), ((3, 2), (3, 3)))
    """
    return tuple(getattr(space, "PRUNED_RESTARTS", ()))


def sample_progress(space: Any) -> bool:
    """Whether the honest player's samples solved in ``space`` tell, when undecided, how far
    their search got: the most cards home (the rules' ``score``) in a position it took
    (:data:`cardtable.bots.honest.PROGRESS`). The space's ``SAMPLE_PROGRESS``, else False
    (an undecided sample is then only undecided). The compiled samplers take it from here too.

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.solver import solver_space
    >>> sample_progress(solver_space(rules_for("klondike"))), sample_progress(solver_space(rules_for("demonthief")))
    (False, True)
    """
    return bool(getattr(space, "SAMPLE_PROGRESS", False))


def starts(space: SearchSpace, state: Any, depth: int) -> list[tuple[list[Any], Any]]:
    """The positions ``depth`` steps into ``space`` from ``state``, each key once, in the
    space's order, with the moves that lead to each (fewer steps where a line ends).

    >>> from cardtable.games import rules_for
    >>> from cardtable.solve.solver import solver_space
    >>> r = rules_for("demonthief")
    >>> found = starts(Pruned(solver_space(r), 2), r.deal(0), 2)
    >>> [" ".join(map(str, moves)) for moves, _ in found]  # 42 x5 is x5 42 again
    ['x5 42', 'x5 81', '42 x4']
    """
    level: list[tuple[list[Any], Any]] = [([], state)]
    for _ in range(depth):
        seen: set[Hashable] = set()
        deeper: list[tuple[list[Any], Any]] = []
        for moves, here in level:
            children = [([*moves, *step], child) for step, child in space.children(here)]
            for line, child in children or [(moves, here)]:
                key = space.key(child)
                if key not in seen:
                    seen.add(key)
                    deeper.append((line, child))
        level = deeper
    return level


class SearchSpace(Protocol):
    """What the engine needs to know about a game's positions.

    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.games import rules_for
    >>> isinstance(space_for(rules_for("klondike")).key(rules_for("klondike").deal(0)), Hashable)
    True
    """

    def children(self, state: Any) -> Iterable[Edge]:
        """The positions that follow ``state``, best first: ``(moves, next state)``."""

    def is_won(self, state: Any) -> bool:
        """Whether ``state`` is won."""

    def key(self, state: Any) -> Hashable:
        """A key equal for positions that are equally winnable (the same up to symmetry)."""


@dataclass
class Budget:
    """Limits of a search: positions expanded, seconds, and positions remembered.

    ``None`` means no limit. ``memory`` bounds the transposition table (one entry
    per position explored), which bounds memory. ``clock_every``: the Python search
    reads the clock once every that many positions (the compiled cores always every
    256, the default, where a position costs a microsecond; ``solve`` asks for every
    position, as a Python position can cost a millisecond).

    >>> Budget(nodes=5).nodes, Budget().clock_every
    (5, 256)
    """

    nodes: int | None = None
    seconds: float | None = None
    memory: int | None = 2_000_000
    clock_every: int = 256


@dataclass
class Found:
    """The end of a search: verdict, the winning moves (if solved), and the work done.

    >>> Found("unknown", [], 0, 0.0).verdict
    'unknown'
    """

    verdict: str
    moves: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class Watched:
    """A space that tells ``watch`` of every position whose children are asked for (in a
    depth-first search: its start, and each position it goes on from, in the search's order),
    and is otherwise ``space`` (its other attributes, such as ``PRUNED_WIDTHS``, are the
    space's). No compiled core takes it: a search of it runs in Python.

    >>> from cardtable.solve.search import depth_first
    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.games import rules_for
    >>> r = rules_for("devils-square"); taken = []
    >>> found = depth_first(Watched(space_for(r), taken.append), r.deal(0), Budget(nodes=50))
    >>> len(taken) == found.nodes, taken[0] == r.deal(0)
    (True, True)
    """

    def __init__(self, space: SearchSpace, watch: Callable[[Any], object]) -> None:
        self.space = space
        self.watch = watch
        self.key = space.key
        self.is_won = space.is_won

    def children(self, state: Any) -> Iterable[Edge]:
        """The inner space's children of ``state``, once ``watch`` has been told of it."""
        self.watch(state)
        return self.space.children(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.space, name)


class Pruned:
    """A space cut down to the ``k`` most promising children of every position: a fast
    way to find wins, but no proof of anything when it finds none.

    >>> from cardtable.solve.spaces import space_for
    >>> from cardtable.games import rules_for
    >>> r = rules_for("klondike")
    >>> len(list(Pruned(space_for(r), 1).children(r.deal(3)))) <= 1
    True
    """

    def __init__(self, space: SearchSpace, k: int) -> None:
        self.space = space
        self.k = k
        self.key = space.key
        self.is_won = space.is_won

    def children(self, state: Any) -> Iterable[Edge]:
        """The first ``k`` children of the inner space.

        >>> from cardtable.solve.spaces import space_for
        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado")
        >>> len(list(Pruned(space_for(r), 2).children(r.deal(0))))
        2
        """
        return islice(self.space.children(state), self.k)


@dataclass(frozen=True)
class SampleBatch:
    """A round of the honest player's samples (:func:`cardtable.bots.honest.sample_outcomes`),
    as the Python sampler and the compiled cores take it: the face-down places whose cards
    the player has not seen (``unseen``, in :meth:`~cardtable.core.rules.Rules.face_down`'s
    order), the ``lines`` to play in each sample, the samples ``first`` to ``first + count - 1``
    of ``seed``'s deals, and the ``nodes`` each sample's solve may explore.

    >>> SampleBatch([True, False], [[]], first=0, count=4, seed=7, nodes=1_000).count
    4
    """

    unseen: Sequence[bool]
    lines: Sequence[Sequence[Any]]
    first: int
    count: int
    seed: int
    nodes: int


__all__ = [
    "Budget",
    "Edge",
    "Found",
    "Pruned",
    "SampleBatch",
    "SearchSpace",
    "Watched",
    "pruned_restarts",
    "pruned_widths",
    "sample_progress",
    "starts",
]

"""What the tests of the compiled cores share: the spaces a core mirrors, the comparison of a
core's search with the Python reference, and winning lines."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from cardtable.core.rules import Rules
from cardtable.solve.search import Budget, Found, Pruned, depth_first
from cardtable.solve.solver import solver_space
from cardtable.solve.spaces import EagerSpace, space_for

KINDS = ("full", "pruned", "eager")
"""The spaces every core runs: the game's space, it pruned to three children, the eager space."""


def space_of(rules: Rules[Any, Any], kind: str) -> Any:
    """The space of ``kind``: one of :data:`KINDS`, ``"eager-pruned"`` (the eager space
    pruned to two children), ``"solver"`` (the space ``solve`` searches) or
    ``"solver-pruned"`` (it pruned to two children)."""
    if kind == "full":
        return space_for(rules)
    if kind == "pruned":
        return Pruned(space_for(rules), 3)
    if kind == "solver":
        return solver_space(rules)
    if kind == "solver-pruned":
        return Pruned(solver_space(rules), 2)
    if kind == "eager":
        return EagerSpace(rules)
    assert kind == "eager-pruned", kind
    return Pruned(EagerSpace(rules), 2)


def spaces(rules: Rules[Any, Any], kinds: Sequence[str] = KINDS) -> list[Any]:
    """The spaces of ``kinds`` (:func:`space_of`)."""
    return [space_of(rules, kind) for kind in kinds]


def replays_to_a_win(rules: Rules[Any, Any], state: Any, moves: list[Any], move_type: type | None = None) -> bool:
    """Whether ``moves`` (each of ``move_type`` exactly, when given) are legal one after the
    other from ``state`` and end in a win."""
    for move in moves:
        if (move_type is not None and type(move) is not move_type) or move not in rules.legal_moves(state):
            return False
        state = rules.apply(state, move)
    return rules.is_won(state)


def same(
    core: ModuleType, space: Any, rules: Rules[Any, Any], start: Any, budget: Budget, move_type: type | None = None
) -> Found:
    """Search in Python and by ``core`` (a module of :mod:`cardtable.solve.native`); assert the
    core took the search and gave the same verdict, nodes and moves, and that a won line
    replays to a win (:func:`replays_to_a_win`). The core's result."""
    reference = depth_first(space, start, budget)
    found: Found | None = core.search(space, start, budget)
    assert found is not None, f"the core did not take the search\n{space} {budget}\n{rules.to_text(start)}"
    got = (found.verdict, found.nodes, found.moves)
    assert got == (reference.verdict, reference.nodes, reference.moves), f"{space} {budget}\n{rules.to_text(start)}"
    if found.verdict == "solved":
        assert replays_to_a_win(rules, start, found.moves, move_type), rules.to_text(start)
    return found


def line(rules: Rules[Any, Any], start: Any, moves: list[Any]) -> list[Any]:
    """The positions of ``moves`` played from ``start``, ``start`` first."""
    states = [start]
    for move in moves:
        states.append(rules.apply(states[-1], move))
    return states


def random_positions(rules: Rules[Any, Any], deals: Sequence[int], steps: int, seed: int) -> list[Any]:
    """The positions of masked random play (a generator seeded with ``seed``) from each deal of
    ``deals``, each for at most ``steps`` moves: the positions an environment asks about."""
    import random

    rng = random.Random(seed)
    positions = []
    for deal in deals:
        state = rules.deal(deal)
        for _ in range(steps):
            positions.append(state)
            moves = rules.legal_moves(state)
            if not moves or rules.is_won(state):
                break
            state = rules.apply(state, rng.choice(moves))
    return positions


def check_can_progress(
    core: ModuleType, rules: Rules[Any, Any], positions: Sequence[Any], limits: Sequence[int]
) -> set[bool | None]:
    """The core's ``can_progress`` (its Python side, ``core``) against the Python function, at
    each limit: exactly the same "over" (False), and never True where the Python search
    proves False or None where it finds the space small enough. Where the game's one-way
    counts miss moves that cannot be taken back (``ONE_WAY_COMPLETE`` False), the core
    counts progress by the end measure alone: its "no progress" is then the Python answer
    unless a position reached cannot come back, and the dispatch (``native.can_progress``)
    is exactly the Python answer. The answers seen, returned, let a test check that its
    positions met every kind."""
    from cardtable.core.progress import can_progress
    from cardtable.solve import native

    seen: set[bool | None] = set()
    for state in positions:
        for limit in limits:
            found = core.can_progress(rules, state, limit)
            assert found is not None  # the core takes the position
            mine = None if found < 0 else found > 0
            reference = can_progress(rules, state, limit)
            if rules.ONE_WAY_COMPLETE or mine is not False:
                assert (mine is False) == (reference is False), (state, limit, mine, reference)
            else:
                assert reference is not None, (state, limit)  # the region was small enough for both
            assert (native.can_progress(rules, state, limit) is False) == (reference is False)
            seen.add(mine)
    return seen

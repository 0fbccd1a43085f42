"""Fuzz: ``solve`` honours its limits whatever the game, options, position and limit (issue 27,
"solve limits"): it returns within ``seconds`` plus :func:`cardtable.solve.solver.slack` and
adds at most :func:`cardtable.solve.solver.memory_budget_mb` to its process's resident size.

Each case (:func:`cases`: a one-player game, options drawn from the game's own declaration,
a deal, a random mid-game position reached from it by random legal moves, a time limit of
0.01 to 0.5 s and a memory limit) is solved and measured in a child process
(:mod:`tests.solve.limits`). ``bench/fuzz_solve_limits.py`` runs the same strategy for
minutes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.core.options import Option
from cardtable.games import rules_for, specs

from .limits import Case, Worker, checked, failures

GAMES = tuple(sorted(spec.name for spec in specs() if spec.one_player))
"""The games fuzzed: every built-in one-player game (a child process knows only these)."""
MEMORY_LIMITS: tuple[int | str, ...] = ("auto", 10_000, 100_000, 1_000_000)
"""The memory limits drawn: the default, and positions from ten thousand to a million."""
LARGE_INTS = (4095, 4096, 100_000)
"""Large values tried for a whole-number option, above its minimum (Klondike's ``redeals``)."""


def option_values(option: Option) -> st.SearchStrategy[Any]:
    """The values tried for a game option: its choices, both booleans, or whole numbers from
    its minimum (a few small, a few large), None too where the option allows it."""
    if option.choices:
        return st.sampled_from(option.choices)
    if option.kind is bool:
        return st.booleans()
    if option.kind is int:
        low = option.minimum if option.minimum is not None else 0
        values = st.one_of(st.integers(low, low + 30), st.sampled_from([low + n for n in LARGE_INTS]))
        return st.one_of(st.none(), values) if option.none_text is not None else values
    return st.just(option.default)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A fuzz case (:class:`~tests.solve.limits.Case`): a game, its options, a deal, a random
    mid-game position (up to 300 random legal moves), a limit of 0.01 to 0.5 s, a memory limit."""
    game = draw(st.sampled_from(GAMES))
    options = tuple((o.name, draw(option_values(o))) for o in type(rules_for(game)).OPTIONS)
    return Case(
        game=game,
        options=options,
        deal=draw(st.integers(0, 2**32 - 1)),
        seed=draw(st.integers(0, 2**32 - 1)),
        steps=draw(st.one_of(st.integers(0, 40), st.integers(0, 300))),
        seconds=draw(st.floats(0.01, 0.5)),
        memory=draw(st.sampled_from(MEMORY_LIMITS)),
    )


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    """One child for the module's cases."""
    child = Worker()
    yield child
    child.close()


@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(case=cases())
def test_solve_honours_its_time_and_memory_limits(worker: Worker, case: Case) -> None:
    _, found, _ = checked(worker, case)
    assert found == [], case


def test_a_hung_child_is_a_failure_and_is_replaced() -> None:
    # The harness itself can fail: a child that does not answer in time is ended and replaced.
    child = Worker()
    try:
        case = Case("klondike", (), 8, 0, 0, 0.01)
        assert failures(case, child.run(case)) == []
        child.send(Case("demonthief", (), 188, 0, 0, 5.0))  # busy for 5 s (unknown after 6 million positions)
        measured = child.run(case, hang_seconds=0.0)
        assert measured.error.startswith("no answer within")
        assert failures(case, measured) == [measured.error]
        assert failures(case, child.run(case)) == []  # the new child answers
    finally:
        child.close()


def test_too_much_time_or_memory_is_a_failure() -> None:
    from .limits import Measured

    case = Case("klondike", (), 8, 0, 0, 0.5)
    assert failures(case, Measured(wall=0.6, peak_mb=100, base_mb=50, budget_mb=64)) == []
    assert failures(case, Measured(wall=0.7, cpu=0.7))[0].startswith("took 0.700 s")
    assert failures(case, Measured(wall=0.1, peak_mb=200, base_mb=50, budget_mb=64)) == [
        "grew by 150.0 MB for a budget of 64.0 MB"
    ]

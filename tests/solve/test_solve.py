"""The solver: solutions replay, and its reductions never change a verdict."""

from __future__ import annotations

import random
import re
from itertools import pairwise
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import CardtableError
from cardtable.games import rules_for
from cardtable.solve import SolveResult, solve, solver
from cardtable.solve.search import Budget, Discrepancy, Found, Pruned, depth_first, search
from cardtable.solve.spaces import RulesSpace

# Each game and mode, with the first deal whose winning line anchors the endgame
# positions (the first deal from 0 that the solver wins within 50,000 positions).
ONE_PLAYER = [
    ("klondike", {}, 2),
    ("klondike", {"draw": 1}, 2),
    ("klondike", {"redeals": 1}, 5),
    ("desturado", {}, 0),
    ("desturado", {"mode": "medium"}, 0),
    ("desturado", {"mode": "hard"}, 1),
    ("demonthief", {}, 1),
    ("demons-and-thieves", {}, 0),
    ("devils-square", {}, 6),
]


def endgame_positions(name: str, options: dict[str, Any], first_deal: int, count: int) -> list[Any]:
    """Positions late on a winning line (solvable), and short random detours from them
    (often not): small complete searches of both verdicts."""
    rules = rules_for(name, **options)
    rng = random.Random(name + str(options))
    game = cardtable.new_game(name, deal=first_deal, **options)
    result = solve(game, seconds=None, nodes=100_000)
    assert result.solved and len(result.moves) > 20
    line = [game.state]
    for move in result.moves:
        line.append(rules.apply(line[-1], move))
    found = []
    for i in range(len(line) - 2, 0, -3):
        state = line[i]
        found.append(state)
        for _ in range(rng.randint(1, 4)):
            moves = rules.legal_moves(state)
            if not moves:
                break
            state = rules.apply(state, rng.choice(moves))
        found.append(state)
        found += swap_hidden_cards(rules, line[i], rng)
        if len(found) >= count:
            break
    return found


def swap_hidden_cards(rules: Any, state: Any, rng: random.Random) -> list[Any]:
    """The position with two face-down cards exchanged (always a valid layout, often
    no longer winnable), or nothing when fewer than two cards are face down."""
    text = rules.to_text(state)
    hidden = list(re.finditer(r"<([^>]+)>", text))
    if len(hidden) < 2:
        return []
    a, b = sorted(rng.sample(hidden, 2), key=lambda m: m.start())
    swapped = text[: a.start(1)] + b.group(1) + text[a.end(1) : b.start(1)] + a.group(1) + text[b.end(1) :]
    return [rules.from_text(swapped)]


@pytest.mark.parametrize(("name", "options", "first_deal"), ONE_PLAYER)
def test_reductions_agree_with_a_plain_exhaustive_search(name: str, options: dict[str, Any], first_deal: int) -> None:
    """Symmetry keys, safe moves and Klondike's stock model never change a verdict:
    compare with a search over every legal move, positions as they are."""
    rules = rules_for(name, **options)
    plain = RulesSpace(rules)
    compared = {"solved": 0, "unsolvable": 0}
    for state in endgame_positions(name, options, first_deal, 30):
        exhaustive = depth_first(plain, state, Budget(nodes=4_000, memory=None))
        if exhaustive.verdict == "unknown":
            continue
        game = cardtable.new_game(name, layout=rules.to_text(state), **options)
        reduced = solve(game, seconds=None, nodes=40_000)
        if reduced.verdict == "unknown":
            continue  # another move order can need more positions; only verdicts must agree
        assert reduced.verdict == exhaustive.verdict, rules.to_text(state)
        compared[exhaustive.verdict] += 1
        assert game.moves == []  # solving does not touch the game
        if reduced.solved:
            for move in reduced.moves:
                game.play(str(move))  # the solution replays through the notation
            assert game.outcome.won
        else:
            assert reduced.moves == []
    assert compared["solved"] >= 3 and compared["solved"] + compared["unsolvable"] >= 8, compared


def test_stuck_positions_are_proved_unsolvable() -> None:
    for name in ("klondike", "desturado", "demonthief", "devils-square"):
        rng = random.Random(1)
        game = cardtable.new_game(name, deal=3)
        while game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
            if len(game.moves) > 3000:
                break
        if not game.legal_moves() and not game.outcome.won:
            assert solve(game, seconds=None).verdict == "unsolvable"


def test_budget_gives_unknown() -> None:
    result = solve(cardtable.new_game("klondike", deal=0), nodes=3)
    assert result == SolveResult("unknown", [], result.nodes, result.seconds)
    assert result.nodes <= 3


def test_multi_player_games_are_refused() -> None:
    with pytest.raises(CardtableError, match="one-player"):
        solve(cardtable.new_game("deserto", deal=0))


def recording(calls: list[tuple[str, int | None, int | None]]) -> Any:
    """A ``search`` that records (phase, width of a pruned space or discrepancies, node
    budget) of each call."""

    def record(space: Any, start: Any, budget: Budget) -> Found:
        if isinstance(space, Pruned):
            calls.append(("pruned", space.k, budget.nodes))
        elif isinstance(space, Discrepancy):
            calls.append(("discrepancy", space.d, budget.nodes))
        else:
            calls.append(("complete", None, budget.nodes))
        return search(space, start, budget)

    return record


def test_the_pruned_phases_widen_then_the_complete_search_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    # Klondike deal 0: the two best moves of every position win; three do not within budget.
    result = solve(cardtable.new_game("klondike", deal=0), nodes=2_000_000)
    assert result.solved and calls == [("pruned", 2, 500_000)]
    calls.clear()
    # Klondike deal 49: both pruned phases end without a win (proving nothing), so do the
    # discrepancy rounds 0, 1, 2, ... (10,000 positions in all); the complete search gets
    # the rest of the nodes.
    result = solve(cardtable.new_game("klondike", deal=49), nodes=40_000)
    phases = [(phase, k) for phase, k, _ in calls]
    rounds = len(phases) - 3
    assert phases == [("pruned", 2), ("pruned", 3), *(("discrepancy", d) for d in range(rounds)), ("complete", None)]
    assert rounds >= 2 and calls[0][2] == calls[1][2] == calls[2][2] == 10_000
    budgets = [nodes for phase, _, nodes in calls if phase == "discrepancy"]
    assert all(later < earlier for earlier, later in pairwise(budgets))  # type: ignore[operator]
    spent = 40_000 - calls[-1][2]  # type: ignore[operator]
    assert 0 < spent <= 30_000 and result.nodes <= 40_000


def test_the_discrepancy_phase_wins_where_the_pruned_phases_do_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmark deal 68: no win within the two and the three best moves, nor in the first
    200 million positions of the complete search; one line off the first choice at seven
    places wins (found by the seventh round, 0-7, with about 470,000 positions in all)."""
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    result = solve(cardtable.new_game("klondike", deal=68), nodes=4_000_000, memory=None)
    assert result.solved
    rounds = [("discrepancy", d) for d in range(8)]
    assert [(phase, k) for phase, k, _ in calls] == [("pruned", 2), ("pruned", 3), *rounds]


def test_other_games_have_no_discrepancy_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    solve(cardtable.new_game("desturado", deal=0, mode="hard"), nodes=2_000)
    assert [phase for phase, _, _ in calls] == ["pruned", "pruned", "complete"]

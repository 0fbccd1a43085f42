"""The solver: solutions replay, and its reductions never change a verdict."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import CardtableError
from cardtable.games import rules_for
from cardtable.solve import SolveResult, solve, solver
from cardtable.solve.search import Budget, Found, Pruned, depth_first, search
from cardtable.solve.spaces import DemonthiefSolverSpace, KlondikeClassSpace, RulesSpace, space_for
from cardtable.solve.types import starts

# Each game and mode, with the first deal whose winning line anchors the endgame
# positions (the first deal from 0 that the solver wins within 50,000 positions).
ONE_PLAYER: list[Any] = [
    ("klondike", {}, 2),
    ("klondike", {"draw": 1}, 2),
    ("klondike", {"redeals": 1}, 5),
    ("desturado", {}, 0),
    ("desturado", {"mode": "medium"}, 0),
    ("desturado", {"mode": "hard"}, 1),
    pytest.param("demonthief", {}, 1, marks=pytest.mark.slow),  # 10-20 s each
    pytest.param("demons-and-thieves", {}, 0, marks=pytest.mark.slow),
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
    assert result == SolveResult("unknown", [], result.nodes, result.seconds, result.peak_mb) and result.peak_mb > 0
    assert result.nodes <= 3


def test_multi_player_games_are_refused() -> None:
    with pytest.raises(CardtableError, match="one-player"):
        solve(cardtable.new_game("deserto", deal=0))


def recording(calls: list[tuple[str, int | None, int | None]]) -> Any:
    """A ``search`` that records (phase, width of a pruned space, node budget) of each call."""

    def record(space: Any, start: Any, budget: Budget) -> Found:
        if isinstance(space, Pruned):
            calls.append(("pruned", space.k, budget.nodes))
        else:
            calls.append(("complete", None, budget.nodes))
        return search(space, start, budget)

    return record


def test_the_pruned_phases_widen_then_the_complete_search_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    # Klondike deal 0: the two best moves of every position win.
    result = solve(cardtable.new_game("klondike", deal=0), nodes=2_000_000)
    assert result.solved and calls == [("pruned", 2, 666_666)]  # a third of the nodes
    calls.clear()
    # Klondike deal 49: both pruned phases end without a win (proving nothing); the
    # complete search gets the rest of the nodes.
    result = solve(cardtable.new_game("klondike", deal=49), nodes=40_000)
    assert [(phase, k) for phase, k, _ in calls] == [("pruned", 2), ("pruned", 3), ("complete", None)]
    assert calls[0][2] == calls[1][2] == 13_333
    spent = 40_000 - calls[-1][2]  # type: ignore[operator]
    assert 0 < spent <= 26_666 and result.nodes <= 40_000
    calls.clear()
    solve(cardtable.new_game("desturado", deal=0, mode="hard"), nodes=2_000)
    assert [phase for phase, _, _ in calls] == ["pruned", "pruned", "complete"]  # too few nodes to restart
    # With restarts (a larger budget; here allowed at any): five parts. Hard deal 0's narrow
    # phases end without a win in their 400 nodes, and the first restart (width 3 from its 8
    # positions 2 steps in, 50 nodes each) wins from its last start.
    calls.clear()
    monkeypatch.setattr(solver, "RESTART_NODES", 0)
    result = solve(cardtable.new_game("desturado", deal=0, mode="hard"), nodes=2_000)
    assert result.solved and calls[:2] == [("pruned", 2, 400), ("pruned", 3, 400)]
    assert calls[2:] == [("pruned", 3, 50)] * 8
    # With a time limit only, a phase has its share of the time and no node limit; with
    # no limit at all, PRUNED_NODES.
    calls.clear()
    solve(cardtable.new_game("klondike", deal=49), seconds=30)
    assert [nodes for _, _, nodes in calls] == [None, None, None]
    calls.clear()
    solve(cardtable.new_game("klondike", deal=49), seconds=None)
    assert [nodes for _, _, nodes in calls] == [solver.PRUNED_NODES, solver.PRUNED_NODES, None]


def test_a_solver_space_names_its_own_widths(monkeypatch: pytest.MonkeyPatch) -> None:
    # Demonthief's solver space broadens to width 5, then restarts twice, before the
    # complete search: seven parts, a seventh of the nodes each (deal 1868's widths 2 and 3
    # end at once proving nothing, width 4 wins).
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    result = solve(cardtable.new_game("demonthief", deal=1868), nodes=1_000_000)
    assert result.solved
    assert [(phase, k) for phase, k, _ in calls] == [("pruned", 2), ("pruned", 3), ("pruned", 4)]
    assert [nodes for _, _, nodes in calls] == [142_857] * 3
    calls.clear()
    monkeypatch.setattr(DemonthiefSolverSpace, "PRUNED_WIDTHS", (2,))
    solve(cardtable.new_game("demonthief", deal=1868), nodes=1_000)  # too few nodes to restart: halves
    assert calls[0] == ("pruned", 2, 500) and calls[-1][:2] == ("complete", None)


def test_the_restart_phases_share_their_part_among_the_positions_a_few_steps_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Deal 1868 with no narrow phase: its two restart phases (width 3 from each position 2,
    # then 3, steps in) have a third of the nodes each, shared among their starts (each
    # start a share of what the ones before it left), then the complete search.
    calls: list[tuple[str, int | None, int | None]] = []
    monkeypatch.setattr(solver, "search", recording(calls))
    monkeypatch.setattr(DemonthiefSolverSpace, "PRUNED_WIDTHS", ())
    monkeypatch.setattr(solver, "RESTART_NODES", 3_000)
    game = cardtable.new_game("demonthief", deal=1868)
    solve(game, nodes=3_000)
    space = solver.solver_space(game.rules)
    first, second = (len(starts(Pruned(space, 3), game.state, depth)) for depth in (2, 3))
    assert [call[:2] for call in calls] == [("pruned", 3)] * (first + second) + [("complete", None)]
    assert (calls[0][2], calls[first][2]) == (1_000 // first, 1_000 // second)
    # Without restarts (the honest player's samples), or below RESTART_NODES or
    # RESTART_SECONDS (a hint's budget): the complete search has it all.
    calls.clear()
    solve(game, nodes=3_000, restarts=False)
    assert calls == [("complete", None, 3_000)]
    calls.clear()
    solve(game, nodes=2_999)
    assert calls == [("complete", None, 2_999)]
    calls.clear()
    solve(game, seconds=0.04)
    assert [call[:2] for call in calls] == [("complete", None)]


def test_a_restart_finds_what_the_search_from_the_deal_does_not() -> None:
    # Demonthief 1145: width 3 from the deal finds no win in 500,000 positions; from its
    # positions 2 steps in, in turn, with the same budget, it wins from the second, and the
    # line starts at the deal.
    game = cardtable.new_game("demonthief", deal=1145)
    space = Pruned(solver.solver_space(game.rules), 3)
    assert search(space, game.state, Budget(nodes=500_000)).verdict == "unknown"
    found = solver.restart(space, game.state, 2, Budget(nodes=500_000))
    assert found.verdict == "solved" and solver.replay(game.rules, game.state, found.moves)


def test_klondike_is_solved_in_its_class_space(monkeypatch: pytest.MonkeyPatch) -> None:
    spaces: list[Any] = []

    def record(space: Any, start: Any, budget: Budget) -> Found:
        spaces.append(space.space if isinstance(space, Pruned) else space)
        return search(space, start, budget)

    monkeypatch.setattr(solver, "search", record)
    solve(cardtable.new_game("klondike", deal=49, draw=1), nodes=4_000)
    assert spaces and all(type(space) is KlondikeClassSpace for space in spaces)


@pytest.mark.parametrize("deal", [72, 189])
def test_the_class_space_decides_what_the_plain_space_cannot(deal: int) -> None:
    """Benchmark deals 72 and 189: proved unsolvable within half a million positions; the
    complete search of ``KlondikeSpace`` (positions with their arrangement) is still
    undecided after six times as many (and after 90 million, measured once)."""
    result = solve(cardtable.new_game("klondike", deal=deal), seconds=None, memory=None)
    assert result.verdict == "unsolvable" and result.nodes <= 500_000
    rules = rules_for("klondike")
    plain = search(space_for(rules), rules.deal(deal), Budget(nodes=3_000_000, memory=None))
    assert plain.verdict == "unknown"

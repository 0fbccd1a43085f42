"""The solver and the hints serve a game declared only by its spec: the toy patience of
``tests/toys.py``, added to the one list of games by the ``toy_games`` fixture and by no
other file. Its verdicts are checked against an exhaustive walk of the rules' own moves."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.rules import Rules
from cardtable.games import register, rules_for, unregister
from cardtable.solve import native
from cardtable.solve.lost import proved_lost
from cardtable.solve.search import Budget, depth_first, search
from cardtable.solve.solver import solver_space
from cardtable.solve.spaces import EagerSpace, RulesSpace, space_for
from cardtable.solve.types import Pruned
from tests.helpers import reachable
from tests.toys import TOY_PATIENCE

pytestmark = pytest.mark.usefixtures("toy_games")

DEALS = range(30)


def winnable(rules: Rules[Any, Any], start: Any) -> bool:
    """Whether any line of legal moves from ``start`` wins: every position reachable by the
    rules visited, with no symmetry, safe move or move order of the solver's."""
    return any(rules.is_won(state) for state in reachable(rules, start))


def replay(game: Game[Any, Any], moves: list[Any]) -> bool:
    """Whether ``moves`` played on ``game`` (each a legal move) win it."""
    for move in moves:
        game.play(move)
    return game.outcome.won


def test_the_spec_defaults_give_the_generic_search() -> None:
    rules = rules_for("toy-patience")
    assert type(space_for(rules)) is RulesSpace and type(solver_space(rules)) is RulesSpace
    assert not proved_lost(rules, rules.deal(0))
    for space in (space_for(rules), Pruned(space_for(rules), 2), EagerSpace(rules)):
        assert native.game_of(space) == "toy-patience"
        assert native.core_for(space) is None and native.search(space, rules.deal(0), Budget(nodes=50)) is None
    assert "toy-patience" not in native.built()
    found, ref = (f(space_for(rules), rules.deal(3), Budget(nodes=500)) for f in (search, depth_first))
    assert (found.verdict, found.nodes, found.moves) == (ref.verdict, ref.nodes, ref.moves)


def no_win(state: Any) -> bool:
    """A declared proof that every position is lost (to show that the solver asks it)."""
    return True


def class_space(rules: Rules[Any, Any]) -> RulesSpace:
    """A declared solver space: the plain one with its piles sorted in the key."""
    return RulesSpace(rules, key=lambda s: (tuple(sorted(s.piles)), s.home))


def test_the_declaration_decides_the_spaces_and_the_proof() -> None:
    unregister("toy-patience")
    register(replace(TOY_PATIENCE, solver_space=f"{__name__}:class_space", lost=f"{__name__}:no_win"))
    rules = rules_for("toy-patience")
    assert type(space_for(rules)) is RulesSpace and solver_space(rules).key(rules.deal(0)) != rules.deal(0)
    assert proved_lost(rules, rules.deal(0))
    result = cardtable.solve(cardtable.new_game("toy-patience", deal=0))
    assert (result.verdict, result.nodes) == ("unsolvable", 0)


def test_solve_solves_and_proves_the_toy_patience() -> None:
    verdicts: Counter[str] = Counter()
    for deal in DEALS:
        game = cardtable.new_game("toy-patience", deal=deal)
        result = cardtable.solve(game)
        expected = "solved" if winnable(game.rules, game.state) else "unsolvable"
        assert result.verdict == expected, deal
        if result.solved:
            assert replay(game, result.moves), deal
        else:
            assert result.moves == []
        verdicts[result.verdict] += 1
    assert verdicts["solved"] > 0 and verdicts["unsolvable"] > 0, verdicts


def test_hints_for_the_toy_patience() -> None:
    statuses: Counter[str] = Counter()
    for deal in DEALS:
        game = cardtable.new_game("toy-patience", deal=deal)
        h = cardtable.hint(game, seconds=5)
        statuses[h.status] += 1
        if h.status == "winnable":
            assert h.source == "solver" and h.move in game.legal_moves()
            assert replay(game, list(h.line))
        else:
            assert (h.status, h.source) == ("lost", "heuristic") and not winnable(game.rules, game.state)
            assert h.move is None or h.move in game.legal_moves()
    assert statuses["winnable"] > 0 and statuses["lost"] > 0, statuses


def test_a_toy_hint_keeps_the_deal_winnable() -> None:
    rules = rules_for("toy-patience")
    deal = next(d for d in DEALS if winnable(rules, rules.deal(d)))
    game = cardtable.new_game("toy-patience", deal=deal)
    game.play(cardtable.hint(game, seconds=5).move)
    assert winnable(rules, game.state) and cardtable.solve(game).solved


def test_a_multi_player_game_is_refused_by_its_declaration() -> None:
    with pytest.raises(CardtableError, match="toy-duel is a multi-player game"):
        cardtable.solve(cardtable.new_game("toy-duel", deal=0))

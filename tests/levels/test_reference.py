"""The reference heuristic player: the obvious move, no search, never undoing."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.progress import is_progress
from cardtable.core.shuffle import SplitMix64
from cardtable.games import rules_for
from cardtable.games.demonthief import DemonsAndThieves, Demonthief
from cardtable.levels import reference
from cardtable.levels.deal_tables import level_tables
from cardtable.levels.measures import measure
from cardtable.levels.player_demonthief import DemonthiefPlayer
from cardtable.levels.reference import NOISY_GAMES, noisy_wins, obvious_play, obvious_player_wins, obvious_step
from cardtable.solve.search import Budget, depth_first
from cardtable.solve.spaces import EagerSpace, space_for


def test_it_wins_an_easy_deal_with_real_moves() -> None:
    r = rules_for("klondike")
    line = obvious_play(r, r.deal(5))
    assert line.won and obvious_player_wins(r, 5)
    game = cardtable.new_game("klondike", deal=5)
    for move in line.moves:
        game.play(move)
    assert game.outcome.won
    # A win of the eager player's moves: the eager search finds one too.
    assert depth_first(EagerSpace(r), r.deal(5), Budget(nodes=10_000)).verdict == "solved"


def test_it_loses_a_tricky_deal() -> None:
    r = rules_for("klondike")
    assert measure(r, 7).tricky
    line = obvious_play(r, r.deal(7))
    assert not line.won and not obvious_player_wins(r, 7)
    game = cardtable.new_game("klondike", deal=7)
    for move in line.moves:
        game.play(move)  # a line of legal moves, stopped where no new position is left
    assert not game.outcome.won


@pytest.mark.parametrize(("name", "options"), [("klondike", {"draw": 1}), ("desturado", {}), ("devils-square", {})])
def test_each_step_is_the_first_new_eager_move(name: str, options: dict[str, int]) -> None:
    r = rules_for(name, **options)
    state = r.deal(0)
    seen = {state}
    line = obvious_play(r, state)
    moves = list(line.moves)
    space = space_for(r)
    while moves:
        here = r.progress(state)
        edges = list(space.children(state))
        progress = [(m, a) for m, a in edges if len(m) == 1 and is_progress(r.progress(a), here)]
        chosen = next((m, a) for m, a in (progress or edges) if a not in seen)
        assert list(chosen[0]) == moves[: len(chosen[0])]
        del moves[: len(chosen[0])]
        state = chosen[1]
        seen.add(state)
    if not line.won:
        here = r.progress(state)
        edges = list(space.children(state))
        progress = [a for m, a in edges if len(m) == 1 and is_progress(r.progress(a), here)]
        assert all(a in seen for a in (progress or [a for _, a in edges]))  # nothing new: lost
    assert line.won == r.is_won(state)


def test_it_wins_no_tricky_deal_of_the_tables() -> None:
    for table in level_tables().values():
        rules = rules_for(table.key.game, **table.key.options())
        for deal in table.levels["tricky"][:2]:
            assert not obvious_player_wins(rules, deal)


@pytest.mark.parametrize("game", [Demonthief, DemonsAndThieves], ids=lambda game: game.name)
def test_demonthief_plays_the_single_move_player(game: type[Demonthief]) -> None:
    r = game()
    state = r.deal(0)
    step = obvious_step(r, state)
    assert step is not None
    first = next(iter(DemonthiefPlayer(r).children(state)))
    assert list(step[0]) == list(first[0]) and len(step[0]) == 1


def test_noisy_games_are_reproducible_and_differ_from_the_plain_game() -> None:
    r = rules_for("desturado")
    plain = obvious_play(r, r.deal(3))
    noisy = [obvious_play(r, r.deal(3), SplitMix64(3 * 256 + i)) for i in range(NOISY_GAMES)]
    again = [obvious_play(r, r.deal(3), SplitMix64(3 * 256 + i)) for i in range(NOISY_GAMES)]
    assert [g.moves for g in noisy] == [g.moves for g in again]
    assert any(g.moves != plain.moves for g in noisy)  # one move in NOISE is random
    assert noisy_wins(r, 3) == sum(g.won for g in noisy)
    for game in noisy:  # a noisy game plays real moves: they replay through the rules
        replay = cardtable.new_game("desturado", deal=3)
        for move in game.moves:
            replay.play(move)
        assert replay.rules.is_won(replay.state) == game.won


def test_without_noise_draws_a_noisy_game_is_the_plain_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "NOISE", 2**62)  # a random move practically never
    r = rules_for("klondike")
    for deal in (5, 7):
        assert obvious_play(r, r.deal(deal), SplitMix64(deal)).moves == obvious_play(r, r.deal(deal)).moves
    assert noisy_wins(r, 5) == NOISY_GAMES * obvious_player_wins(r, 5)

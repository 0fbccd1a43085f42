"""Why a game ended, as data: :class:`Ending` in the outcomes, and the sentences built from it.

The won, no-legal-move and no-progress endings of each game are checked with the game's
own positions in ``tests/games``; here: the move limit (no built-in game has one, so a toy
game with one), the multi-player end, and the outcome values themselves.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import pytest

import cardtable
from cardtable.core.errors import LayoutError, MoveParseError
from cardtable.core.game import Ending, Game, Outcome
from cardtable.core.multiplayer import Event, MultiplayerOutcome, Result
from cardtable.core.rules import Pile, Rules

LIMIT = 5


class Step(NamedTuple):
    """A move of the toy: one step up (``+``) or down (``-``)."""

    up: bool

    def __str__(self) -> str:
        return "+" if self.up else "-"


class Climb(Rules[tuple[int, int], Step]):
    """A toy game with a move limit: climb from 0 to 3 in at most ``LIMIT`` moves. The
    position is (height, moves played); down is allowed above 0."""

    name = "climb"
    title = "Climb"

    def deal(self, deal: int) -> tuple[int, int]:
        return (0, 0)

    def to_text(self, state: tuple[int, int], format: str = "cardtable") -> str:
        return f"climb\nheight: {state[0]}\nmoves: {state[1]}"

    def from_text(self, text: str) -> tuple[int, int]:
        try:
            lines = text.splitlines()
            return (int(lines[1].split(":")[1]), int(lines[2].split(":")[1]))
        except (IndexError, ValueError):
            raise LayoutError("not a climb") from None

    def cards(self, state: tuple[int, int]) -> list[int]:
        return []

    def deck(self) -> list[int]:
        return []

    def card_text(self, card: int) -> str:
        return str(card)

    def display(self, state: tuple[int, int]) -> list[list[tuple[str, Pile]]]:
        return [[("height", [(0, True)] * state[0])]]

    def legal_moves(self, state: tuple[int, int]) -> list[Step]:
        if self.move_limit_reached(state) or self.is_won(state):
            return []
        return [Step(True), *([Step(False)] if state[0] else [])]

    def apply(self, state: tuple[int, int], move: Step) -> tuple[int, int]:
        return (state[0] + (1 if move.up else -1), state[1] + 1)

    def explain_illegal(self, state: tuple[int, int], move: Step) -> str:
        return "the move limit is reached" if self.move_limit_reached(state) else "not below 0"

    def parse_move(self, text: str) -> Step:
        if text.strip() not in ("+", "-"):
            raise MoveParseError(f"not a climb move: {text!r}")
        return Step(text.strip() == "+")

    def move_limit_reached(self, state: tuple[int, int]) -> bool:
        return state[1] >= LIMIT

    def is_won(self, state: tuple[int, int]) -> bool:
        return state[0] >= 3

    def progress(self, state: tuple[int, int]) -> tuple[int, ...]:
        return (state[0],)

    def score(self, state: tuple[int, int]) -> int:
        return state[0]


def climb(*moves: str) -> Game[tuple[int, int], Step]:
    game = Game(Climb(), (0, 0), deal=0)
    for move in moves:
        game.play(move)
    return game


def test_a_game_ends_at_its_move_limit() -> None:
    game = climb("+", "-", "+", "-")
    assert game.outcome == Outcome(won=False, over=False, score=0)
    game.play("+")
    assert game.legal_moves() == []
    assert game.outcome == Outcome(won=False, over=True, score=1, ending=Ending.MOVE_LIMIT)
    assert game.outcome.describe() == "Game over: the move limit is reached."
    game.undo()
    assert not game.outcome.over and game.outcome.ending is None


def test_a_win_on_the_last_move_is_a_win_not_the_limit() -> None:
    game = climb("+", "-", "+", "+", "+")
    assert game.outcome.ending is Ending.WON and game.outcome.won


def test_the_built_in_games_have_no_move_limit() -> None:
    for name in cardtable.GAMES:
        rules = cardtable.rules_for(name)
        assert rules.move_limit_reached(rules.deal(0)) is False


def test_outcome_values() -> None:
    assert repr(Outcome(won=False, over=False, score=0)) == "Outcome(won=False, over=False, score=0)"
    assert repr(Outcome(False, True, 4, Ending.NO_PROGRESS)) == (
        "Outcome(won=False, over=True, score=4, ending=Ending.NO_PROGRESS)"
    )
    assert Outcome(won=True, over=True, score=1).describe() == "You won!"  # made without an ending
    assert Outcome(won=False, over=True, score=1).describe() == "Game over."
    for won, over, ending in [
        (False, False, Ending.NO_PROGRESS),  # not over
        (True, True, Ending.NO_PROGRESS),  # won but not WON
        (False, True, Ending.WON),  # WON but not won
        (False, True, Ending.GAME_END),  # a multi-player ending
    ]:
        with pytest.raises(ValueError):
            Outcome(won, over, 0, ending)
    assert Ending(Ending.MOVE_LIMIT.value) is Ending.MOVE_LIMIT
    assert len({e.value for e in Ending}) == len(Ending) == 5


def test_multiplayer_outcome_sentences() -> None:
    names = ["You", "greedy (seat 2)", "random (seat 3)"]
    alone = MultiplayerOutcome(True, Result.from_scores((12, 9, 3)), Ending.GAME_END, "cards")
    assert alone.describe(names, 0) == (
        "You won! You: 12 cards, rank 1, greedy (seat 2): 9 cards, rank 2, random (seat 3): 3 cards, rank 3."
    )
    assert str(alone.describe(names, 1)).startswith("Game over. You: 12 cards")
    shared = MultiplayerOutcome(True, Result.from_scores((9, 9, 3)), Ending.GAME_END)
    assert shared.describe(names, 0) == (
        "You share the win! You: 9 points, rank 1, greedy (seat 2): 9 points, rank 1, "
        "random (seat 3): 3 points, rank 3."
    )
    assert str(shared.describe(["Ana", "Ben", "Cy"])).startswith("Ana and Ben share the win. Ana: 9 points")
    assert str(alone.describe(["Ana", "Ben", "Cy"])).startswith("Ana won. Ana: 12 cards, rank 1")
    going = MultiplayerOutcome(over=False, result=None)
    assert going.describe(names, 0) is None and repr(going) == "MultiplayerOutcome(over=False, result=None)"
    with pytest.raises(ValueError):
        MultiplayerOutcome(False, None, Ending.GAME_END)
    with pytest.raises(ValueError):
        MultiplayerOutcome(True, Result.from_scores((1, 2)), Ending.WON)


def test_a_multiplayer_game_ends_with_its_result() -> None:
    rng = random.Random(4)
    game = cardtable.new_game("deserto", deal=9, players=3)
    while game.to_move is not None:
        assert game.outcome.ending is None and game.outcome.describe(["a", "b", "c"], 0) is None
        game.play(rng.choice(game.legal_moves()))
    outcome = game.outcome
    assert outcome.over and outcome.ending is Ending.GAME_END and outcome.unit == "cards"
    result = outcome.result
    assert result is not None and result == game.rules.result(game.state)
    ranking = zip(["You", "B", "C"], result.scores, result.ranks, strict=True)
    assert str(outcome.describe(["You", "B", "C"], 0)).endswith(
        " " + ", ".join(f"{n}: {s} cards, rank {r}" for n, s, r in ranking) + "."
    )


def test_events_are_events() -> None:
    game = cardtable.new_game("deserto", deal=0)
    game.play(game.legal_moves()[0])
    for seat in (0, 1, None):
        event = game.history(seat)[0]
        assert isinstance(event, Event) and event.seat == 0 and hash(event) == hash(game.history(seat)[0])


def _positions_of_random_play(name: str, deals: range, seed: int) -> list[Game[Any, Any]]:
    """Games of ``name`` at positions random play reaches from ``deals``: each game's
    every 20th position, up to the first the exact outcome calls over (that one included)."""
    rng = random.Random(seed)
    out = []
    for deal in deals:
        game = cardtable.new_game(name, deal=deal)
        for step in range(400):
            if step % 20 == 0 or game.outcome.over:
                out.append(cardtable.new_game(name, layout=game.to_text()))
            if game.outcome.over:
                break
            game.play(rng.choice(game.legal_moves()))
    return out


def _over_with_other_face_down_cards(game: Game[Any, Any], rng: random.Random) -> bool:
    """The exact "over" of ``game``'s position with its face-down cards shuffled."""
    rules = game.rules
    hidden = list(rules.face_down(game.state))
    rng.shuffle(hidden)
    return cardtable.new_game(game.name, layout=rules.to_text(rules.with_face_down(game.state, hidden))).outcome.over


@pytest.mark.parametrize("name", [n for n in cardtable.games.names() if not cardtable.rules_for(n).OVER_SEES_HIDDEN])
def test_a_game_whose_over_sees_nothing_hidden_ends_at_the_table_as_its_rules_say(name: str) -> None:
    # Rules.OVER_SEES_HIDDEN False: the exact over never depends on the face-down cards,
    # so the table tells it (seen_outcome is outcome), before no legal move is left.
    rng = random.Random(1)
    games = _positions_of_random_play(name, range(12), seed=2)
    for game in games:
        over = game.outcome.over
        assert all(_over_with_other_face_down_cards(game, rng) == over for _ in range(2))
        assert game.seen_outcome == game.outcome
    assert any(g.outcome.over for g in games) and any(g.rules.face_down(g.state) for g in games)


@pytest.mark.parametrize("name", ["demonthief", "demons-and-thieves", "devils-square"])
def test_the_table_says_over_when_the_moves_left_change_nothing(name: str) -> None:
    # Until 2026-11-28 these tables waited for no legal move, so a player left with moves
    # that only go back and forth was never told the game was over.
    games = _positions_of_random_play(name, range(12), seed=2)
    ended = [g for g in games if g.seen_outcome.over and g.legal_moves()]
    assert ended and all(g.seen_outcome.ending is Ending.NO_PROGRESS for g in ended)


def test_klondike_over_sees_the_stock_so_its_table_waits_for_no_legal_move() -> None:
    # The same check fails for Klondike: its over search turns the stock round.
    assert cardtable.rules_for("klondike").OVER_SEES_HIDDEN
    rng = random.Random(1)
    games = _positions_of_random_play("klondike", range(12), seed=2)
    assert any(_over_with_other_face_down_cards(g, rng) != g.outcome.over for g in games for _ in range(2))
    assert any(g.outcome.over and not g.seen_outcome.over for g in games)

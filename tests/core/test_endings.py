"""Why a game ended, as data: :class:`Ending` in the outcomes, and the sentences built from it.

The won, no-legal-move and no-progress endings of each game are checked with the game's
own positions in ``tests/games``; here: the move limit (no built-in game has one, so a toy
game with one), the multi-player end, and the outcome values themselves.
"""

from __future__ import annotations

import random
from typing import NamedTuple

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

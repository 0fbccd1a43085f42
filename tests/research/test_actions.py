"""The fixed action spaces: every move random play meets is numbered, both ways, in every game and mode."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.games import rules_for
from cardtable.research.actions import action_space, action_to_move, move_to_action

pytestmark = pytest.mark.research

KEYS: list[tuple[str, dict[str, Any], int]] = [
    ("klondike", {}, 591),
    ("klondike", {"draw": 1, "foundation_return": False}, 591),
    ("demonthief", {}, 7447),
    ("demons-and-thieves", {}, 7447),
    ("desturado", {"mode": "easy"}, 65),
    ("desturado", {"mode": "medium"}, 40),
    ("desturado", {"mode": "hard"}, 30),
    ("devils-square", {}, 720),
    ("deserto", {"players": 2}, 20),
    ("deserto", {"players": 4}, 20),
]


@pytest.mark.parametrize(("name", "options", "size"), KEYS)
def test_every_legal_move_of_random_play_has_its_action(name: str, options: dict[str, Any], size: int) -> None:
    rules = rules_for(name, **options)
    space = action_space(rules)
    assert space.size == size
    rng = random.Random(f"actions {name} {options}")
    seen = set()
    for deal in range(12):
        state = rules.deal(deal)
        for _ in range(300):
            legal = rules.legal_moves(state)
            if not legal:
                break
            mask = space.mask(legal)
            assert int(mask.sum()) == len(legal)  # no two legal moves share an action
            for move in legal:
                action = space.move_to_action(move)
                assert space.action_to_move(action) == move and mask[action] == 1
                seen.add(action)
            state = rules.apply(state, rng.choice(legal))
    assert seen  # the loop did check moves


@pytest.mark.parametrize(("name", "options", "size"), KEYS)
def test_actions_are_distinct_moves_whose_notation_reads_back(name: str, options: dict[str, Any], size: int) -> None:
    rules = rules_for(name, **options)
    space = action_space(rules)
    assert len(set(space.moves)) == space.size
    for action, move in enumerate(space.moves):
        assert rules.parse_move(str(move)) == move
        assert move_to_action(rules, str(move)) == action


def test_the_numbering_is_the_documented_one() -> None:
    klondike = rules_for("klondike")
    texts = [str(m) for m in action_space(klondike).moves]
    assert texts[:10] == ["d", "r", "wf", "1f", "2f", "3f", "4f", "5f", "6f", "7f"]
    assert (
        texts[17] == "fc1" and texts[44] == "fs7" and texts[45] == "12" and texts[46] == "12:2" and texts[-1] == "76:13"
    )
    deserto = [str(m) for m in action_space(rules_for("deserto")).moves]
    assert deserto == [f"{k}{p}" for k in "OVTG" for p in "1234"] + ["gO", "gV", "gT", "gG"]
    square = [str(m) for m in action_space(rules_for("devils-square")).moves]
    assert square[:4] == ["a1b1", "a1b1:2", "a1b1:3", "a1c1"]


def test_bad_actions_and_moves_are_refused_clearly() -> None:
    rules = rules_for("devils-square")
    with pytest.raises(ValueError, match="no action 720"):
        action_to_move(rules, 720)
    with pytest.raises(ValueError, match="no action -1"):
        action_to_move(rules, -1)
    with pytest.raises(ValueError, match="not a move of this game"):
        action_space(rules).move_to_action(rules_for("deserto").parse_move("V3"))

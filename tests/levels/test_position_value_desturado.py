"""Tests of the Desturado appeal (cardtable.levels.position_value_desturado)."""

from __future__ import annotations

from cardtable.core.cards import parse_card
from cardtable.games import rules_for
from cardtable.games.desturado import DesturadoState
from cardtable.levels.position_value import appeal_for
from cardtable.levels.position_value_desturado import (
    ENDGAME_DOWN,
    HARD_COLUMNS,
    desturado_appeal,
    endgame_shape,
    hard_shape,
)
from cardtable.levels.reference import obvious_player_wins


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def test_wired_for_every_mode() -> None:
    for mode in ("easy", "medium", "hard"):
        assert appeal_for(rules_for("desturado", mode=mode)) is desturado_appeal


def test_fewer_face_down_cards_is_better() -> None:
    column = cards("3C 7D 9H")
    hand = (cards("TS"), cards("5S"))
    more = DesturadoState((column,), (2,), hand)
    fewer = DesturadoState((column,), (1,), hand)
    assert desturado_appeal(fewer) > desturado_appeal(more)


def test_more_cards_in_the_hand_is_better() -> None:
    before = DesturadoState((cards("3C 8S"),), (1,), (cards("TS"), ()))
    after = DesturadoState((cards("3C"),), (0,), (cards("TS 8S"), ()))
    assert desturado_appeal(after) > desturado_appeal(before)


def test_endgame_prefers_a_hand_stack_that_can_merge() -> None:
    # 3H can merge onto 5H (freeing a hand space), 3C onto nothing.
    board = (cards("4C 8D"),)
    mergeable = DesturadoState(board, (1,), (cards("TS"), cards("5H"), cards("3H")))
    stuck = DesturadoState(board, (1,), (cards("TS"), cards("5H"), cards("3C")))
    assert desturado_appeal(mergeable) > desturado_appeal(stuck)


def test_endgame_prefers_a_mobile_board_unit() -> None:
    # The 9C unit fits on the TC in the hand; the 9D fits nowhere.
    hand = (cards("TC"), cards("2S"))
    mobile = DesturadoState((cards("4C 9C"),), (1,), hand)
    blocked = DesturadoState((cards("4C 9D"),), (1,), hand)
    assert endgame_shape(mobile) > endgame_shape(blocked)


def test_endgame_prefers_high_hand_tops() -> None:
    board = (cards("4C 8D"),)
    high = DesturadoState(board, (1,), (cards("2S TS"), cards("AH")))
    low = DesturadoState(board, (1,), (cards("TS 2S"), cards("AH")))
    assert desturado_appeal(high) > desturado_appeal(low)


def test_endgame_terms_only_in_the_endgame() -> None:
    column = cards(" ".join(["AC"] * (ENDGAME_DOWN + 1)))
    state = DesturadoState((column,), (ENDGAME_DOWN + 1,), (cards("TS"),))
    assert desturado_appeal(state) == -20.0 * (ENDGAME_DOWN + 1) + 1.0


def test_reference_player_wins_and_loses_known_deals() -> None:
    medium = rules_for("desturado", mode="medium")
    assert obvious_player_wins(medium, 87)
    assert obvious_player_wins(medium, 93)
    assert not obvious_player_wins(medium, 59)


WON_HARD_DEAL = 135
"""A normal-level hard-mode deal the player wins only with the hard-mode terms."""
LOST_HARD_DEAL = 20
"""A normal-level hard-mode deal the player loses."""
HARD_BOARD = (cards("2C 9H"), cards("8D"), cards("5S"))


def test_hard_mode_prefers_a_free_hand_space_to_a_low_stack() -> None:
    open_space = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TH"), ()))
    low_start = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TH"), cards("2D")))
    assert hard_shape(open_space) > hard_shape(low_start)


def test_hard_mode_penalises_homeless_board_units() -> None:
    # The 9H unit fits under the TH top; under the TC top it fits nowhere in the hand.
    home = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TH"), ()))
    homeless = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TC"), ()))
    assert hard_shape(home) > hard_shape(homeless)


def test_hard_mode_prefers_mergeable_hand_stacks() -> None:
    mergeable = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TH"), cards("7H")))
    stuck = DesturadoState(HARD_BOARD, (1, 0, 0), (cards("TH"), cards("7C")))
    assert hard_shape(mergeable) > hard_shape(stuck)


def test_hard_terms_only_in_hard_mode() -> None:
    hard = rules_for("desturado", mode="hard").deal(3)
    assert len(hard.columns) == HARD_COLUMNS
    plain = -20.0 * sum(hard.down) + 1.0 * sum(map(len, hard.hand))
    assert desturado_appeal(hard) == plain + hard_shape(hard)
    medium = rules_for("desturado", mode="medium").deal(3)
    assert desturado_appeal(medium) == -20.0 * sum(medium.down) + 1.0 * sum(map(len, medium.hand))


def test_hard_mode_player_wins_a_known_deal() -> None:
    hard = rules_for("desturado", mode="hard")
    assert obvious_player_wins(hard, WON_HARD_DEAL)
    assert not obvious_player_wins(hard, LOST_HARD_DEAL)

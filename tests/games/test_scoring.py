"""The scorings every game declares (``GameSpec.scoring``), checked against their rules:
Klondike's Standard and Vegas as Windows Solitaire counts them, and the rules-text scores
of the other games (Devil's Square's 10 a book, Desturado's cards left, Demonthief's cards home)."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.core.scoring import RULES_SCORE, Scoring, final_position, scores
from cardtable.games import spec_for, specs
from cardtable.games.klondike import KlondikeState

# Klondike deal 8: a win of 155 moves the solver finds (with 13 redeals, draw three).
DEAL_8_WIN = (  # noqa: SIM905
    "3f 7f 25 42 57:2 52 d d w2 d d d d d d r d d d d d wf d d d r d d d d d d d wf d w6 r d d w6 d d d d d r d d wf "
    "d d wf d d d r d wf d d wf d d d r d wf d d d d r d d d d wf d r d w3 d w1 71:3 7f d wf 3f w2 72 57 5f 7f w1 25:6 "
    "w2 12:6 d w1 41 4f d r d wf 7f 5f 71 d r d w1 61:3 54:6 w5 wf 1f 1f 23 2f 1f 2f 1f 2f 1f 7f 1f 25:2 2f 56 5f 1f "
    "65:2 6f 6f 36:2 3f d w1 wf 4f 4f 6f 6f 4f 4f 6f 6f 4f 4f 5f 5f 4f 1f 5f"
).split()


def scoring(game: str, name: str) -> Scoring:
    return next(s for s in spec_for(game).scoring if s.name == name)


def klondike_score(name: str, moves: list[str], deal: int = 0, **options: Any) -> int:
    g = cardtable.new_game("klondike", deal=deal, **options)
    for m in moves:
        g.play(m, autoplay=False)
    return scoring("klondike", name).score(g.rules, g.rules.deal(deal), g.moves)


def test_every_game_declares_its_scoring_once_in_its_spec() -> None:
    for spec in specs():
        assert spec.scoring, spec.name
        assert len({s.name for s in spec.scoring}) == len(spec.scoring)
    assert [s.name for s in spec_for("klondike").scoring] == ["standard", "vegas"]
    assert [s.bank for s in spec_for("klondike").scoring] == [False, True]


def test_standard_points_a_move() -> None:
    # Deal 0: pile 3 holds the ace of spades on two face-down cards.
    assert klondike_score("standard", ["d"]) == 0
    assert klondike_score("standard", ["3f"]) == 10 + 5  # to a foundation, and a card turned up
    # A card back from a foundation costs 15: the first place on deal 8's winning line where one can.
    standard = scoring("klondike", "standard")
    g = cardtable.new_game("klondike", deal=8)
    for m in DEAL_8_WIN:
        back = [x for x in g.legal_moves() if str(x).startswith("f")]
        if back:
            break
        g.play(m, autoplay=False)
    assert back, "a card can go back from a foundation somewhere on the line"
    before = standard.score(g.rules, g.rules.deal(8), g.moves)
    g.play(back[0], autoplay=False)
    assert standard.score(g.rules, g.rules.deal(8), g.moves) - before == -15


def test_standard_waste_to_tableau_and_turn_up() -> None:
    # Deal 8's line: 'w2' after two draws moves a waste card onto pile 2 (+5).
    before = klondike_score("standard", DEAL_8_WIN[:8], deal=8)
    after = klondike_score("standard", DEAL_8_WIN[:9], deal=8)
    assert DEAL_8_WIN[8] == "w2"
    assert after - before == 5


def test_standard_redeal_penalty_after_three_passes_and_floor_at_zero() -> None:
    # Draw three, deal 0: draw the stock through and redeal, four times, playing nothing.
    g = cardtable.new_game("klondike", deal=0)
    g.play("3f", autoplay=False)
    penalties = []
    for _ in range(5):
        while g.state.stock:
            g.play("d", autoplay=False)
        before = scoring("klondike", "standard").score(g.rules, g.rules.deal(0), g.moves)
        g.play("r", autoplay=False)
        penalties.append(scoring("klondike", "standard").score(g.rules, g.rules.deal(0), g.moves) - before)
    # 15 points from the ace: the first two redeals (passes 2 and 3) are free, the third costs 15
    # of its 20 (the score stops at 0), then nothing is left to lose.
    assert penalties == [0, 0, -15, 0, 0]


def test_standard_draw_one_costs_100_a_redeal() -> None:
    moves = ["d"] * 24 + ["r"]
    assert klondike_score("standard", moves, draw=1) == 0  # -100 floored at 0
    g = cardtable.new_game("klondike", deal=0, draw=1)
    g.play("3f", autoplay=False)
    for _ in range(24):
        g.play("d", autoplay=False)
    standard = scoring("klondike", "standard")
    before = standard.score(g.rules, g.rules.deal(0), g.moves)
    g.play("r", autoplay=False)
    assert (before, standard.score(g.rules, g.rules.deal(0), g.moves)) == (15, 0)


def test_a_won_deal_scores_as_counted_from_its_moves() -> None:
    g = cardtable.new_game("klondike", deal=8)
    for m in DEAL_8_WIN:
        g.play(m, autoplay=False)
    assert g.outcome.won
    start = g.rules.deal(8)
    # Counted again from the notation: 52 cards home (+10), 21 face-down cards turned (+5),
    # waste to tableau (+5), foundation to tableau (-15), redeals after the second (-20).
    redeals = DEAL_8_WIN.count("r")
    expected = (
        10 * 52
        + 5 * 21
        + 5 * sum(1 for m in DEAL_8_WIN if m[0] == "w" and m[1] != "f")
        - 15 * sum(1 for m in DEAL_8_WIN if m[0] == "f")
        - 20 * max(0, redeals - 2)
    )
    assert scoring("klondike", "standard").score(g.rules, start, g.moves) == expected
    assert scoring("klondike", "vegas").score(g.rules, start, g.moves) == 5 * 52 - 52


def test_vegas_counts_the_cards_home() -> None:
    assert klondike_score("vegas", []) == -52
    assert klondike_score("vegas", ["3f"]) == -47
    assert scoring("klondike", "vegas").text(-47) == "-$47"


def test_devils_square_scores_10_a_book() -> None:
    rules = cardtable.rules_for("devils-square")
    books = scoring("devils-square", "books")
    state = rules.deal(3)
    assert books.score(rules, state, []) == 0
    # A position with 5 books made scores 50.
    assert rules.score(state._replace(books=5)) == 50
    assert books.text(160) == "160 points"


@pytest.mark.parametrize("mode", ["easy", "medium", "hard"])
def test_desturado_scores_the_cards_left(mode: str) -> None:
    g = cardtable.new_game("desturado", deal=1, mode=mode)
    left = scoring("desturado", "cards-left")
    start = g.rules.deal(1)
    assert left.lower_is_better
    assert left.score(g.rules, start, []) == sum(map(len, start.columns))
    g.play(g.legal_moves()[0])
    after = final_position(g.rules, start, g.moves)
    assert left.score(g.rules, start, g.moves) == sum(map(len, after.columns))
    assert left.better(0, 1) and not left.better(1, 0)


def test_demonthief_scores_the_cards_home() -> None:
    for game in ("demonthief", "demons-and-thieves"):
        rules = cardtable.rules_for(game)
        home = scoring(game, "foundations")
        assert home.score(rules, rules.deal(0), []) == 1  # the base card


def test_scores_as_json_and_the_default() -> None:
    rules = cardtable.rules_for("klondike")
    out = scores(spec_for("klondike").scoring, rules, rules.deal(0), [])
    assert [(s["name"], s["value"], s["text"], s["bank"]) for s in out] == [
        ("standard", 0, "0 points", False),
        ("vegas", -52, "-$52", True),
    ]
    assert RULES_SCORE.score(rules, rules.deal(0), []) == rules.score(rules.deal(0))
    assert isinstance(rules.deal(0), KlondikeState)

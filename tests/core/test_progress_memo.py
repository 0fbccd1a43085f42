"""ProgressMemo answers as can_progress does, position after position of random play."""

from __future__ import annotations

import random

import pytest

from cardtable.core.progress import ProgressMemo, can_progress
from cardtable.games import rules_for


@pytest.mark.parametrize("name", ["klondike", "desturado", "devils-square", "demons-and-thieves"])
def test_the_memo_agrees_with_a_fresh_search(name: str) -> None:
    rules = rules_for(name)
    rng = random.Random(f"memo {name}")
    answers = set()
    for deal in range(4):
        memo = ProgressMemo(rules, limit=20_000)
        state = rules.deal(deal)
        for _ in range(150):
            fresh = can_progress(rules, state, 20_000)
            remembered = memo.can_progress(state)
            if fresh is not None and remembered is not None:  # None: the memo may know less, never more
                assert remembered == fresh
            if fresh is False:
                assert remembered is False
            answers.add(remembered)
            legal = rules.legal_moves(state)
            if not legal or rules.is_won(state):
                break
            state = rules.apply(state, rng.choice(legal))
    assert True in answers


def test_a_search_that_reaches_the_limit_is_not_known() -> None:
    rules = rules_for("klondike")
    memo = ProgressMemo(rules, limit=1)
    state = rules.deal(3)
    assert memo.can_progress(state) in (True, None)


def test_a_dead_end_seen_by_an_undecided_search_is_still_over() -> None:
    rules = rules_for("desturado", mode="hard")
    rng = random.Random("dead end")
    for deal in range(40):
        state = rules.deal(deal)
        path = [state]
        while legal := rules.legal_moves(state):
            state = rules.apply(state, rng.choice(legal))
            path.append(state)
        if rules.is_won(state):
            continue
        memo = ProgressMemo(rules, limit=1)
        for earlier in path:
            memo.can_progress(earlier)  # fills the memory, mostly with "not known"
        assert memo.can_progress(state) is False
        return
    raise AssertionError("no dead end found")


WANDERING = """klondike
stock: <5H> <KS> <7H> <8C> <KH> <AS> <6C>
waste:
clubs: AC 2C 3C 4C 5C
diamonds: AD 2D 3D 4D
hearts: AH 2H 3H
spades:
1:
2: QS JH TC 9D 8S 7D 6S 5D 4S
3: QH JS TH 9S 8D
4: KC QD JC
5: KD QC JD TS 9H
6: <2S> <TD> <7C> 9C 8H 7S 6D 5S 4H 3S
7: 6H
redeals used: 0"""
"""A position of random play whose progress is three moves away (draw, the king of hearts
into the empty pile, the ace of spades home), among thousands of rearrangements."""


def test_progress_a_few_moves_away_is_found_among_many_rearrangements() -> None:
    # Depth first, the search went through 200,000 rearrangements (2.3 s) and gave up: the
    # game's outcome took that long after every move. Breadth first it finds the draw and play.
    rules = rules_for("klondike")
    state = rules.from_text(WANDERING)
    assert can_progress(rules, state, limit=2_000) is True
    assert ProgressMemo(rules, limit=2_000).can_progress(state) is True

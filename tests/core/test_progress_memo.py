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

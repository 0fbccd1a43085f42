"""The honest player's parts (cardtable.bots.honest): reversible moves, candidates, samples and their solves."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtable.bots import honest
from cardtable.bots.honest import (
    LOST,
    WON,
    HonestPlayer,
    Memory,
    candidate_lines,
    python_sample_outcomes,
    reveals,
    sample_cards,
    sample_outcomes,
    up_cards,
    view,
)
from cardtable.core.game import Game
from cardtable.games import rules_for, specs
from cardtable.games.demonthief import DRAW as DRAW_DT
from cardtable.games.klondike import DRAW, REDEAL
from cardtable.solve import solve
from cardtable.solve.native import native_function
from cardtable.solve.spaces import DemonthiefSolverSpace, KlondikeClassSpace
from cardtable.solve.types import SampleBatch

ONE_PLAYER = [
    (spec.name, variant)
    for spec in specs()
    if spec.one_player and spec.name != "toy-patience"
    for variant in (spec.variants or ({},))
]


def _wander(rules: Any, deal: int, moves: int, seed: int) -> Any:
    """A position some random legal moves into deal ``deal``."""
    rng = random.Random(seed)
    state = rules.deal(deal)
    for _ in range(moves):
        legal = rules.legal_moves(state)
        if not legal or rules.is_won(state):
            break
        state = rules.apply(state, rng.choice(legal))
    return state


def test_sample_cards_is_a_fixed_permutation_of_its_seed_and_number() -> None:
    cards = list(range(20))
    first = sample_cards(cards, 42, 3)
    assert sorted(first) == cards and first != cards
    assert sample_cards(cards, 42, 3) == first
    assert sample_cards(cards, 42, 4) != first and sample_cards(cards, 43, 3) != first


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
def test_reversible_moves_lead_straight_back(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    for deal in range(3):
        state = _wander(rules, deal, 15, deal)
        for move in rules.legal_moves(state):
            if not rules.reversible(state, move) or move in (DRAW, REDEAL):
                continue
            after = rules.apply(state, move)
            assert rules.progress(after) == rules.progress(state)
            assert any(rules.apply(after, back) == state for back in rules.legal_moves(after)), str(move)


@pytest.mark.parametrize("options", [{}, {"draw": 1}, {"redeals": 2}, {"foundation_return": False}])
def test_klondike_takes_back_exactly_the_moves_one_move_undoes(options: dict[str, Any]) -> None:
    """``takes_back``: a move that changes the foundations and that one legal move of the
    position after it undoes (a card back from its foundation, a card sent home from a
    face-up card or a king from a pile of its own), and no other."""
    rules = rules_for("klondike", **options)
    counted = Counter[bool]()
    for deal in range(6):
        for state in [_wander(rules, deal, n, deal) for n in (20, 60, 120)]:
            for move in rules.legal_moves(state):
                after = rules.apply(state, move)
                undone = rules.progress(after) != rules.progress(state) and any(
                    rules.apply(after, back) == state for back in rules.legal_moves(after)
                )
                assert rules.takes_back(state, move) == undone, (rules.to_text(state), str(move))
                counted[undone] += 1
    assert counted[False] > 0 and (counted[True] > 0) == options.get("foundation_return", True), counted


def test_klondike_draws_are_reversible_only_with_unlimited_redeals() -> None:
    state = rules_for("klondike").deal(0)
    assert rules_for("klondike").reversible(state, DRAW)
    assert not rules_for("klondike", redeals=3).reversible(state, DRAW)
    # A move that turns a card up never is.
    three_f = rules_for("klondike").parse_move("3f")
    assert not rules_for("klondike").reversible(state, three_f)


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
def test_candidates_are_reversible_moves_then_one_that_is_not(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    for deal in range(2):
        state = _wander(rules, deal, 8, deal + 10)
        unseen = Counter(rules.face_down(state))
        found = candidate_lines(rules, state, unseen)
        if rules.legal_moves(state) and not rules.is_won(state):
            assert found or all(rules.reversible(state, m) for m in rules.legal_moves(state))
        ends = set()
        for line, after in found:
            here = state
            for i, move in enumerate(line):
                assert move in rules.legal_moves(here), (i, str(move))
                nxt = rules.apply(here, move)
                last = i == len(line) - 1
                passes = rules.reversible(here, move) or rules.takes_back(here, move)
                if not last:
                    assert passes and not reveals(rules, here, nxt, unseen)
                else:
                    assert not passes or reveals(rules, here, nxt, unseen)
                here = nxt
            assert here == after
            ends.add(after)
        assert len(ends) <= len(found)


def test_a_klondike_stock_play_is_one_candidate_after_its_draws() -> None:
    # After the look through the stock, the stock's cards are known: draws show nothing unseen.
    rules = rules_for("klondike")
    state = rules.deal(1)
    memory = Memory()
    for move in rules.look_through(state):
        state = rules.apply(state, move)
        memory.see(rules, state)
    down, known = memory.known(rules, state)
    unseen = Counter(card for card, k in zip(down, known, strict=True) if not k)
    lines = [line for line, _ in candidate_lines(rules, state, unseen)]
    assert any(len(line) > 1 and line[0] == DRAW for line in lines)
    # Before the look, a draw shows an unseen card: it ends the line.
    fresh = rules.deal(1)
    before = [line for line, _ in candidate_lines(rules, fresh, Counter(rules.face_down(fresh)))]
    assert [DRAW] in before
    assert all(line[-1] == DRAW and line.count(DRAW) == 1 for line in before if DRAW in line)


COMPILED = [
    ("klondike", {}),
    ("klondike", {"draw": 1}),
    ("klondike", {"redeals": 2}),
    ("demonthief", {}),
    ("demons-and-thieves", {}),
]
"""The games and options whose compiled core has a sampler."""


def _through_the_stock(rules: Any, state: Any) -> list[Any]:
    """A line that draws the whole stock, and then, where the rules allow it, redeals and draws once."""
    line = [rules.parse_move("d")] * len(state.stock)
    after = state
    for move in line:
        after = rules.apply(after, move)
    redeal = [m for m in rules.legal_moves(after) if str(m) == "r"]
    return line + [*redeal, rules.parse_move("d")] if redeal else line


@pytest.mark.parametrize(("game", "options"), COMPILED)
def test_the_compiled_sampler_agrees_with_the_python_one(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    compiled = native_function(rules, "sample_outcomes")
    deal = rules.deal(0)
    probe = SampleBatch([True] * len(rules.face_down(deal)), [[]], first=0, count=1, seed=1, nodes=10)
    if compiled is None or compiled(rules, deal, probe) is None:
        pytest.fail(f"the compiled {game} core is not built (build it: setup.py build_ext --inplace)")
    rng = random.Random(5)
    two_decks = game != "klondike"
    for deal in range(4 if not two_decks else 3):
        state = _wander(rules, deal, rng.randrange(25), deal)
        down = rules.face_down(state)
        unseen = [rng.random() < 0.7 for _ in down]
        hidden = Counter(card for card, u in zip(down, unseen, strict=True) if u)
        lines = [line for line, _ in candidate_lines(rules, state, hidden)][:3] + [[]]
        if two_decks and state.stock:
            lines.append(_through_the_stock(rules, state))
        nodes = 600 if not two_decks else 300
        batch = SampleBatch(unseen, lines, first=2, count=5, seed=77, nodes=nodes)
        fast = compiled(rules, state, batch)
        slow = python_sample_outcomes(rules, state, batch)
        assert fast is not None and len(fast) == len(slow) == len(lines)
        for mine, reference in zip(fast, slow, strict=True):
            assert len(mine) == len(reference) == 5
            if two_decks:  # the same search as solve's, sample for sample
                assert mine == reference
            for a, b in zip(mine, reference, strict=True):
                # The same wins; a loss the core proves, solve proves too (it also proves some at once).
                assert (a == WON) == (b == WON) and (a != LOST or b == LOST)


def test_the_samplers_agree_along_a_won_game_through_a_redeal() -> None:
    # Along a won Demons and Thieves game, a line that draws the whole stock and redeals it:
    # the compiled sampler plays the redeal as the rules do (the waste turned over), so its
    # samples are solved as the Python sampler's are, sample for sample. Some are won.
    rules = rules_for("demons-and-thieves")
    compiled = native_function(rules, "sample_outcomes")
    assert compiled is not None
    state = rules.deal(2)
    found = solve(Game(rules, state), seconds=None, nodes=200_000)
    assert found.solved
    checked, won = 0, 0
    for i, move in enumerate(found.moves):
        line = _through_the_stock(rules, state) if i % 15 == 0 and state.stock else []
        if "r" in map(str, line):
            unseen = [True] * len(rules.face_down(state))
            batch = SampleBatch(unseen, [line], first=0, count=4, seed=1, nodes=1_000)
            fast = compiled(rules, state, batch)
            assert fast == python_sample_outcomes(rules, state, batch), i
            checked, won = checked + 1, won + fast[0].count(WON)
        state = rules.apply(state, move)
    assert checked >= 5 and won > 0


def test_the_compiled_samplers_follow_the_solver_spaces_widths(monkeypatch: pytest.MonkeyPatch) -> None:
    # Both cores run the narrow phases the solver space names, sample for sample as solve
    # does.
    rules = rules_for("demonthief")
    compiled = native_function(rules, "sample_outcomes")
    assert compiled is not None
    start = rules.deal(2)
    line = solve(Game(rules, start), seconds=None, nodes=300_000).moves
    seen = set()
    for at in (10, 130):  # two positions of a won game where the widths decide the outcomes
        state = start
        for move in line[:at]:
            state = rules.apply(state, move)
        batch = SampleBatch([True] * len(rules.face_down(state)), [[]], first=0, count=6, seed=2, nodes=2_000)
        for widths in [(2,), (4, 2, 6), ()]:
            monkeypatch.setattr(DemonthiefSolverSpace, "PRUNED_WIDTHS", widths)
            got = compiled(rules, state, batch)
            assert got == python_sample_outcomes(rules, state, batch), (at, widths)
            seen.add((at, got[0]))
    assert len(seen) >= 4  # the widths changed some outcomes: the test can tell them apart
    klondike = rules_for("klondike")
    sampler = native_function(klondike, "sample_outcomes")
    assert sampler is not None
    start = klondike.deal(12)
    probe = SampleBatch([True] * len(klondike.face_down(start)), [[]], first=0, count=8, seed=1, nodes=3_000)
    outcomes = set()
    for widths in [(2, 3), (2, 3, 4), (5,), ()]:
        monkeypatch.setattr(KlondikeClassSpace, "PRUNED_WIDTHS", widths, raising=False)
        got = sampler(klondike, start, probe)
        reference = python_sample_outcomes(klondike, start, probe)
        assert got is not None
        # The same wins; a loss the core proves, solve proves too (it also proves some at once).
        pairs = list(zip(got[0], reference[0], strict=True))
        assert all((a == WON) == (b == WON) and (a != LOST or b == LOST) for a, b in pairs), widths
        outcomes.add(got[0])
    assert len(outcomes) >= 3  # the widths changed some outcomes: the test can tell them apart


def test_the_sampler_deals_only_the_unseen_places() -> None:
    # Nothing unseen: every sample is the position itself, so every sample has the same outcome.
    rules = rules_for("klondike")
    state = rules.deal(8)
    got = sample_outcomes(rules, state, SampleBatch([False] * len(rules.face_down(state)), [[]], 0, 6, 3, 5_000))
    assert len(set(got[0])) == 1
    # The Python sampler puts the known cards back where they were.
    down = rules.face_down(state)
    unseen = [i >= 24 for i in range(len(down))]
    places = [i for i, u in enumerate(unseen) if u]
    shuffled = sample_cards([down[i] for i in places], 9, 0)
    assert sorted(shuffled) == sorted(down[24:]) and shuffled != list(down[24:])


def test_the_player_falls_back_to_python_where_no_core_samples() -> None:
    rules = rules_for("desturado")
    state = rules.deal(2)
    assert honest._native_sampler(rules) is None
    player = HonestPlayer(rules, seed=3, samples=4, nodes=300)
    move = player.choose(state)
    assert move in rules.legal_moves(state)
    assert player.solves > 0


def test_view_hides_only_the_face_down_cards() -> None:
    rules = rules_for("klondike")
    state = rules.deal(0)
    other = rules.with_face_down(state, rules.face_down(state)[::-1])
    assert view(rules, state) == view(rules, other)
    assert view(rules, state) != view(rules, rules.apply(state, DRAW))
    assert sum(up_cards(rules, state).values()) == 7


def test_a_known_position_is_solved_and_its_line_followed() -> None:
    # Nothing face down left unseen: the player solves the position and plays the winning line.
    rules = rules_for("klondike")
    state = rules.deal(8)
    player = HonestPlayer(rules, seed=0, samples=4, nodes=500)
    player.memory.seen = Counter(rules.deck())  # as if it had seen every card
    move = player.choose(state)
    assert move in rules.legal_moves(state) and player.wins == (1, 1)
    for _ in range(400):
        if move is None:
            break
        state = rules.apply(state, move)
        move = player.choose(state)
    assert rules.is_won(state)


@pytest.mark.parametrize(("game", "line"), [("klondike", ["1f", "1f"]), ("klondike", ["fc1"]), ("demonthief", ["r"])])
def test_a_compiled_sampler_refuses_a_line_that_does_not_fit(game: str, line: list[str]) -> None:
    # The lines must be legal; a move that does not fit its position gets a clean refusal
    # (None: the core does not take the call), never a broken position in the core.
    rules = rules_for(game)
    state = rules.deal(0)
    compiled = native_function(rules, "sample_outcomes")
    assert compiled is not None
    moves = [rules.parse_move(text) for text in line]
    unseen = [True] * len(rules.face_down(state))
    assert compiled(rules, state, SampleBatch(unseen, [moves], 0, 2, 1, 100)) is None
    assert compiled(rules, state, SampleBatch(unseen, [[]], 0, 2, 1, 100)) is not None


def test_undecided_samples_tell_how_far_their_search_got_where_the_space_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Demonthief's space tells progress: an undecided sample is PROGRESS + the most cards home
    # in a position its search took, in the compiled sampler as in the Python one (which
    # watches solve's search); Klondike's does not. Turned off, Demonthief's are plain unknowns.
    rules = rules_for("demonthief")
    state = rules.deal(4)
    batch = SampleBatch([True] * len(rules.face_down(state)), [[], [DRAW_DT]], first=0, count=6, seed=3, nodes=400)
    told = sample_outcomes(rules, state, batch)
    assert told == python_sample_outcomes(rules, state, batch)
    undecided = [b for row in told for b in row if b not in (WON, LOST)]
    assert undecided and all(b >= honest.PROGRESS + rules.score(state) for b in undecided)
    assert len(set(undecided)) > 1  # how far differs from sample to sample: a signal
    monkeypatch.setattr(DemonthiefSolverSpace, "SAMPLE_PROGRESS", False)
    plain = sample_outcomes(rules, state, batch)
    assert plain == python_sample_outcomes(rules, state, batch)
    assert [[b if b in (WON, LOST) else honest.UNKNOWN for b in row] for row in told] == [list(r) for r in plain]
    klondike = rules_for("klondike")
    start = klondike.deal(0)
    probe = SampleBatch([True] * len(klondike.face_down(start)), [[]], first=0, count=8, seed=1, nodes=200)
    assert set(sample_outcomes(klondike, start, probe)[0]) <= {honest.UNKNOWN, WON, LOST}


def test_the_player_prefers_the_line_whose_undecided_samples_got_further(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every sample of every candidate undecided: the candidate whose samples' searches brought
    # more cards home is played, whatever the order the candidates come in.
    rules = rules_for("demonthief")
    state = rules.deal(4)
    home = rules.score(state)

    def outcomes(far: int) -> Any:
        def made(rules: Any, state: Any, batch: SampleBatch) -> list[bytes]:
            steps = [30 if i == far else 10 for i in range(len(batch.lines))]
            return [bytes([honest.PROGRESS + home + step] * batch.count) for step in steps]

        return made

    for far in (0, 1):
        monkeypatch.setattr(honest, "sample_outcomes", outcomes(far))
        player = HonestPlayer(rules, seed=0, samples=8, nodes=100)
        candidates = [([move], 0) for move in rules.legal_moves(state)[:2]]
        best, _ = player._race(state, [True] * len(rules.face_down(state)), candidates, 1, 8, None)
        assert best == far

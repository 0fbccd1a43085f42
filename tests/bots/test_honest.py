"""The honest player (cardtable.bots.honest): it decides from what a person sees, legally, reproducibly."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtable.bots.honest import HonestPlayer, Memory, determinize, play
from cardtable.core.errors import OptionError
from cardtable.core.game import Game
from cardtable.games import rules_for, spec_for, specs
from cardtable.hints import honest_hint

ONE_PLAYER = [
    (spec.name, variant)
    for spec in specs()
    if spec.one_player and spec.name != "toy-patience"
    for variant in (spec.variants or ({},))
]
BUDGET: dict[str, Any] = {"samples": 3, "nodes": 3_000}
SMALL: dict[str, Any] = {"samples": 2, "nodes": 1_000}
"""A budget for tests of legality and reproducibility only (the decisions need not be good)."""


def _shuffled_hidden(rules: Any, state: Any, seed: int) -> Any:
    """``state`` with its face-down cards in another order: the same view, other hidden cards."""
    cards = list(rules.face_down(state))
    random.Random(seed).shuffle(cards)
    return rules.with_face_down(state, cards)


def _midgame(rules: Any, deal: int, moves: int) -> Any:
    """A position some moves into deal ``deal`` (first legal moves that turn cards up when they can)."""
    state = rules.deal(deal)
    for _ in range(moves):
        legal = rules.legal_moves(state)
        if not legal or rules.is_won(state):
            break
        state = rules.apply(state, legal[0])
    return state


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
def test_the_face_down_cards_round_trip(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    state = rules.deal(5)
    down = rules.face_down(state)
    assert down, "every one-player game deals cards face down"
    assert rules.with_face_down(state, down) == state
    other = _shuffled_hidden(rules, state, 1)
    assert sorted(rules.cards(other)) == sorted(rules.cards(state))
    assert rules.display(other) != rules.display(state) or down == rules.face_down(other)
    # Only the face-down cards moved: what a player sees is the same.
    assert _view(rules, other) == _view(rules, state)


def _view(rules: Any, state: Any) -> list[Any]:
    return [[(name, [c if up else None for c, up in pile]) for name, pile in row] for row in rules.display(state)]


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
@pytest.mark.parametrize("moves", [0, 6])
def test_decisions_do_not_depend_on_the_hidden_cards(game: str, options: dict[str, Any], moves: int) -> None:
    rules = rules_for(game, **options)
    state = _midgame(rules, 3, moves)
    if not rules.legal_moves(state):
        pytest.fail(f"no legal move after {moves} moves: choose another position")
    chosen = []
    for seed in range(3):
        other = _shuffled_hidden(rules, state, seed)
        assert _view(rules, other) == _view(rules, state)
        chosen.append(HonestPlayer(rules, seed=7, **BUDGET).choose(other))
    assert chosen[0] is not None and chosen.count(chosen[0]) == 3, [str(m) for m in chosen]


def test_a_whole_game_does_not_depend_on_the_hidden_cards() -> None:
    # Klondike, the stock looked through first: two deals with one view at the start play the same
    # moves until a card turns up differently.
    rules = rules_for("klondike")
    state = rules.deal(8)
    other = _shuffled_hidden(rules, state, 3)
    a, b = HonestPlayer(rules, seed=2, **BUDGET), HonestPlayer(rules, seed=2, **BUDGET)
    for _ in range(40):
        if _view(rules, state) != _view(rules, other):
            break
        move = a.choose(state)
        assert move == b.choose(other)
        state, other = rules.apply(state, move), rules.apply(other, move)
    else:
        pytest.fail("forty moves without a card turned up")


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
def test_it_plays_legal_moves_and_is_reproducible(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    player = HonestPlayer(rules, seed=1, **SMALL)
    state = rules.deal(11)
    for _ in range(30):  # the later decisions of Demonthief cost many seconds each, even at SMALL
        move = player.choose(state)
        if move is None:
            break
        assert move in rules.legal_moves(state)
        state = rules.apply(state, move)
    first = play(rules, 11, seed=1, move_limit=40, **SMALL)
    again = play(rules, 11, seed=1, move_limit=40, **SMALL)  # the seconds differ; the rest may not
    assert (again.won, again.moves, again.solves, again.decisions) == (
        first.won,
        first.moves,
        first.solves,
        first.decisions,
    )


def test_a_short_game_is_played_to_its_win() -> None:
    # Klondike deal 8 falls to the honest player even at a small budget; the game ends.
    rules = rules_for("klondike")
    result = play(rules, 8, seed=0, **BUDGET)
    assert result.moves > 0 and result.decisions <= result.moves
    assert result.won, "Klondike deal 8 is an easy win even without seeing the face-down cards"


def test_memory_knows_the_stock_after_a_look() -> None:
    rules = rules_for("klondike")
    state = rules.deal(0)
    memory = Memory()
    memory.see(rules, state)
    assert not any(memory.known(rules, state)[1])
    for move in rules.look_through(state):
        state = rules.apply(state, move)
        memory.see(rules, state)
    known = memory.known(rules, state)[1]
    assert state == rules.deal(0) and known == (True,) * 24 + (False,) * 21
    sample = determinize(rules, state, memory, random.Random(4))
    assert sample.stock == state.stock and sample.tableau != state.tableau


def test_two_decks_a_copy_seen_face_up_does_not_reveal_its_twin() -> None:
    # Demonthief has two of every card: a card seen on the table says nothing of the stock.
    rules = rules_for("demonthief")
    state = rules.deal(2)
    memory = Memory()
    memory.see(rules, state)
    assert not any(memory.known(rules, state)[1])


def test_honest_hint_answers_with_a_legal_move() -> None:
    game = Game(rules_for("klondike"), rules_for("klondike").deal(8))
    hint = honest_hint(game, seconds=2.0)
    assert hint.move in game.legal_moves() and hint.source == "honest"
    assert spec_for("klondike").one_player


@pytest.mark.parametrize(("game", "options"), ONE_PLAYER)
def test_the_imagined_deals_depend_only_on_the_view(game: str, options: dict[str, Any]) -> None:
    rules = rules_for(game, **options)
    state = _midgame(rules, 4, 5)
    samples = []
    for seed in range(3):
        other = _shuffled_hidden(rules, state, seed)
        memory = Memory()
        memory.see(rules, other)
        samples.append(determinize(rules, other, memory, random.Random(9)))
    assert samples[0] == samples[1] == samples[2]
    assert _view(rules, samples[0]) == _view(rules, state)


@pytest.mark.parametrize("deal", [1, 2, 5])
def test_a_draw_that_spends_the_stock_earns_no_reveal_bonus(deal: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Demonthief goes through its stock once. With one node a solve, every sample is left
    # undecided, so only the bonus for cards turned up tells the candidates apart: the
    # player plays a card rather than draw one to look at it. With the bonus for the draw
    # (spends_the_stock made to say no), it would draw.
    from cardtable.bots import honest

    rules = rules_for("demonthief")
    state = rules.deal(deal)
    move = HonestPlayer(rules, seed=0, samples=32, nodes=1).choose(state)
    assert move is not None and rules.move_places(state, move).n > 0
    monkeypatch.setattr(honest, "spends_the_stock", lambda *args: False)
    drawn = HonestPlayer(rules, seed=0, samples=32, nodes=1).choose(state)
    assert drawn is not None and rules.move_places(state, drawn).n == 0


# Deal 200,005, 103 moves into the honest player's game: three cards face down under the
# 4 of diamonds. Moving the spades' run onto the king turns up a card, but no sample wins
# after it; taking the king of hearts back from its foundation onto the empty pile wins
# every one (and the deal: the all-seeing solver wins it only that way).
FOUNDATION_BACK = """klondike
stock: <3D> <8S> <9D> <6S> <JD>
waste: 6D 2D 7D
clubs: AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC
diamonds: AD
hearts: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
spades: AS 2S 3S 4S 5S
1:
2: KS
3: KD QS
4: QD JS TD 9S 8D 7S
5:
6:
7: <5D> <TS> <KC> 4D
redeals used: 0
"""


def _after_a_look(rules: Any, state: Any, player: HonestPlayer) -> None:
    """Let ``player`` see the stock of ``state`` (a look through it and back, as it does in a game)."""
    here = state
    for move in rules.look_through(state):
        here = rules.apply(here, move)
        player.memory.see(rules, here)
    assert here == state


def test_a_card_taken_back_from_a_foundation_begins_the_winning_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card back from its foundation is taken back as easily (``Rules.takes_back``), so
    lines pass through it to a move that is not: here the king of hearts back onto the
    empty pile, then the cards that build on it, wins every sample, and the forward move
    that turns up a card wins none. It no longer depends on the race of moves that only
    take progress back (``BACK_BELOW``), which once had to let the king's return in."""
    from cardtable.bots import honest

    rules = rules_for("klondike")
    state = rules.from_text(FOUNDATION_BACK)
    for back_below in (honest.BACK_BELOW, 0.0):
        monkeypatch.setattr(honest, "BACK_BELOW", back_below)
        player = HonestPlayer(rules, seed=0, samples=64)
        _after_a_look(rules, state, player)
        move = player.choose(state)
        assert str(move) == "fh1" and player.wins == (64, 64)
        steps = _line_steps(rules, state, [move, *player._queue])
        assert all(rules.takes_back(s, m) or rules.reversible(s, m) for s, m in steps)


def _line_steps(rules: Any, state: Any, line: list[Any]) -> list[tuple[Any, Any]]:
    """The positions and moves of ``line`` played from ``state``, less its last move."""
    steps, here = [], state
    for move in line[:-1]:
        steps.append((here, move))
        here = rules.apply(here, move)
    return steps


def test_no_sample_of_a_line_is_solved_twice_in_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # In FOUNDATION_BACK, with BACK_BELOW above 1 the best forward line always wins too few
    # samples, so the lines that only take progress back (cards back from their
    # foundations, then a card from the stock onto them) race it in a second race, on the
    # same samples: its outcomes are reused, not solved again, and the choice is the same
    # (the test above).
    from cardtable.bots import honest

    solved: list[tuple[str, int]] = []
    real = honest.sample_outcomes

    def counted(rules: Any, state: Any, batch: Any) -> list[bytes]:
        for line in batch.lines:
            solved.extend((" ".join(map(str, line)), k) for k in range(batch.first, batch.first + batch.count))
        return real(rules, state, batch)

    monkeypatch.setattr(honest, "sample_outcomes", counted)
    monkeypatch.setattr(honest, "BACK_BELOW", 1.5)
    rules = rules_for("klondike")
    state = rules.from_text(FOUNDATION_BACK)
    player = HonestPlayer(rules, seed=0, samples=64)
    _after_a_look(rules, state, player)
    assert str(player.choose(state)) == "fh1" and player.wins[0] == player.wins[1] > 0
    assert any(line.endswith("w1") for line, _ in solved)  # the second race ran
    assert len(solved) == len(set(solved)) == player.solves


def test_a_position_seen_before_is_not_a_dead_end() -> None:
    # Every candidate leads to a position the player has been in: it still plays one (it
    # used to give up, in winnable positions too), until each has been seen REPEATS - 1 times.
    from cardtable.bots import honest
    from cardtable.bots.honest import candidate_lines, view

    rules = rules_for("klondike")
    state = rules.from_text(FOUNDATION_BACK)
    player = HonestPlayer(rules, seed=0, samples=16)
    _after_a_look(rules, state, player)
    down, known = player.memory.known(rules, state)
    unseen = Counter(card for card, k in zip(down, known, strict=True) if not k)
    ends = [after for _, after in candidate_lines(rules, state, unseen)]
    assert len(ends) >= 2
    for after in ends:
        player._visited[view(rules, after)] += 1  # the player's record of where it has been
    assert player.choose(state) in rules.legal_moves(state)
    again = HonestPlayer(rules, seed=0, samples=16)
    _after_a_look(rules, state, again)
    for after in ends:
        again._visited[view(rules, after)] += honest.REPEATS - 1
    assert again.choose(state) is None


LAST_DRAW = """demonthief
stock: <TD>
waste: 2C 3C 4D 2S QH 6S QD 7H TS 4C AS KS KC 8S 4D KS 8C 8D 6D 4C 6D KC 2C 4S AS AC 7C QS 6H
reserve: <KH> <TC> <TD> <JS> <3D> <5C> <9S> <QC> KD
f1: 9H TH JH
f2: 9D
f3: 9S TS JS QS
f4: 9H
f5: 9C
f6: 9D
f7:
f8:
1: 3S 2D AC KH QC JC
2: JD
3: 8H 7S 6S 5S 4H
4: 7D
5: 9C JC TC JH 2H AH
6: 5S 5C 7H 8D QH 2S 2H AH
7: AD 7S 6C 4H 3H TH 3S 8C 7C 6C 5H 4S 3D 2D AD KD
8: 5H QD 6H 3H 3C 5D 5D 8S
9: JD 8H 7D
redeals used: 0"""
"""Demonthief deal 2, 80 moves into the honest player's game: the only legal move is the last draw."""


def test_the_player_draws_the_last_stock_card_whatever_it_may_be() -> None:
    # The solver's space has no edge for a draw whose card has no place to go, so in a sample
    # whose last stock card is the jack of spades, the three of diamonds, the five or the queen
    # of clubs (4 of the 9 unseen cards), the space offers nothing here: the player gave up then.
    # A person draws the card: the rules' legal moves are the candidates when the space has none.
    rules = rules_for("demonthief")
    state = rules.from_text(LAST_DRAW)
    assert [str(m) for m in rules.legal_moves(state)] == ["d"]
    for seed in range(8):
        assert str(HonestPlayer(rules, seed=seed, **BUDGET).choose(state)) == "d", seed


FEW_UNSEEN = """klondike
stock:
waste:
clubs: AC 2C 3C 4C 5C 6C
diamonds: AD 2D 3D 4D 5D 6D 7D 8D
hearts:
spades: AS 2S
1: KS QH JS TD 9C 8H 7S 6H 5S 4H 3S 2H
2: KH QC JH TC 9D 8C
3: KD
4: JD TS
5: <7C> TH 9S
6: 9H 8S 7H 6S 5H 4S 3H
7: <KC> <QD> <AH> <QS> JC
redeals used: 0"""
"""Klondike deal 22 on the solver's winning line: five cards face down, so 120 deals of them."""


@pytest.mark.parametrize("samples", [64, 256])
def test_with_few_unseen_cards_each_deal_is_solved_once_and_the_choice_is_the_same(
    samples: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 64 or 256 samples of 120 deals (64 samples repeat some 14 of them): solving each deal
    # once (and copying its outcome to the samples that repeat it) must give every line the
    # outcome of solving each sample.
    from cardtable.bots import honest

    rules = rules_for("klondike")
    state = rules.from_text(FEW_UNSEEN)
    assert honest.distinct_deals(rules.face_down(state)) == 120
    solved: list[tuple[str, tuple[int, ...]]] = []  # (line, deal) of every solve
    given: dict[tuple[str, int], int] = {}  # the outcome each line got for each sample number
    sampler = honest.sample_outcomes

    def counted(rules: Any, state: Any, batch: Any) -> list[bytes]:
        pool = [card for card, u in zip(rules.face_down(state), batch.unseen, strict=True) if u]
        rows = sampler(rules, state, batch)
        for line, row in zip(batch.lines, rows, strict=True):
            for k, outcome in zip(range(batch.first, batch.first + batch.count), row, strict=True):
                solved.append((" ".join(map(str, line)), tuple(honest.sample_cards(pool, batch.seed, k))))
                given[" ".join(map(str, line)), k] = outcome
        return rows

    round_of = honest.HonestPlayer._round

    def copied(self: HonestPlayer, base: Any, unseen: Any, pool: Any, lines: Any, first: int, *rest: Any) -> Any:
        rows = round_of(self, base, unseen, pool, lines, first, *rest)
        for (line, _), row in zip(lines, rows, strict=True):
            for k, outcome in enumerate(row, start=first):
                given[" ".join(map(str, line)), k] = outcome
        return rows

    monkeypatch.setattr(honest, "sample_outcomes", counted)
    monkeypatch.setattr(honest.HonestPlayer, "_round", copied)
    once = HonestPlayer(rules, seed=3, samples=samples)
    move = once.choose(state)
    assert len(solved) == len(set(solved)) == once.solves  # no line solved twice on one deal
    by_once, solves = dict(given), once.solves
    given.clear()
    monkeypatch.setattr(honest, "distinct_deals", lambda cards: 10**9)  # every sample solved
    every = HonestPlayer(rules, seed=3, samples=samples)
    assert every.choose(state) == move and once.wins == every.wins
    assert given == by_once  # every line, every sample: the same outcome
    assert len(given) == every.solves > solves
    won, tried = once.wins
    assert tried == samples and 0 < won < tried  # the samples disagree: a real race


@pytest.mark.parametrize(
    "budget",
    [
        {"samples": float("nan")},
        {"samples": 2.5},
        {"samples": 0},
        {"nodes": float("nan")},
        {"nodes": 0},  # before: clamped to 1 without a word
        {"nodes": -5},
        {"nodes": "100"},
        {"seconds": float("nan")},  # before: no time limit at all
        {"seconds": float("inf")},
        {"seconds": -1},
        {"seconds": "1"},
    ],
)
def test_a_budget_that_is_no_budget_is_refused(budget: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        HonestPlayer(rules_for("desturado"), **budget)
    game = Game(rules_for("klondike"), rules_for("klondike").deal(0))
    hint_budget = {k: v for k, v in budget.items() if k in ("samples", "seconds")}
    if hint_budget:
        with pytest.raises(OptionError):
            honest_hint(game, **hint_budget)
    assert game.moves == []

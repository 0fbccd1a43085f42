"""The Demonthief and Desturado search spaces: each reduction where it applies, edges that
replay through the rules, and verdicts equal to a plain exhaustive search."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import RANK, RED, parse_card
from cardtable.games import klondike, rules_for
from cardtable.games.demonthief import DRAW, REDEAL, TABLEAU, DemonsAndThieves, Demonthief, DemonthiefState, goes_home
from cardtable.games.desturado import HAND, Desturado, DesturadoState
from cardtable.games.klondike import Klondike, KlondikeMove, KlondikeState
from cardtable.solve import solve
from cardtable.solve.native import klondike as native
from cardtable.solve.native import pure
from cardtable.solve.search import Budget, depth_first, search
from cardtable.solve.spaces import (
    DemonthiefSolverSpace,
    DemonthiefSpace,
    DesturadoSpace,
    KlondikeClassSpace,
    RulesSpace,
    _below,
    _hanging_types,
    _twin,
    devils_square_key,
    klondike_plain_key,
    space_for,
)
from tests.helpers import random_line
from tests.solve.test_solve import swap_hidden_cards


def demonthief_rules(name: str) -> Demonthief:
    """The rules of Demonthief or Demons and Thieves."""
    return {"demonthief": Demonthief, "demons-and-thieves": DemonsAndThieves}[name]()


def desturado_rules(mode: str) -> Desturado:
    """The rules of Desturado in ``mode``."""
    return Desturado(mode=mode)


def replays(rules: Any, state: Any, moves: Any, after: Any) -> bool:
    """Whether ``moves`` are legal one after the other from ``state`` and reach ``after``."""
    for move in moves:
        if move not in rules.legal_moves(state):
            return False
        state = rules.apply(state, move)
    return bool(state == after)


def random_positions(name: str, options: dict[str, Any], count: int) -> list[Any]:
    """Positions of random games (every move chosen at random) from deals 0, 1, ..."""
    rules = rules_for(name, **options)
    found: list[Any] = []
    deal = 0
    while len(found) < count:
        found += random_line(rules, rules.deal(deal), seed=deal, length=count)[1:]
        deal += 1
    return found[:count]


def winning_line(name: str, options: dict[str, Any], deal: int) -> list[Any]:
    """The positions of a winning line the solver finds for the deal."""
    rules = rules_for(name, **options)
    result = solve(cardtable.new_game(name, deal=deal, **options), seconds=None, nodes=100_000)
    assert result.solved
    line = [rules.deal(deal)]
    for move in result.moves:
        line.append(rules.apply(line[-1], move))
    return line


def plain_verdict(rules: Any, state: Any, nodes: int = 20_000) -> str:
    """The verdict of a search over every legal move, positions as they are, no reductions."""
    return depth_first(RulesSpace(rules), state, Budget(nodes=nodes, memory=None)).verdict


def with_detours(rules: Any, states: list[Any], rng: random.Random, most_steps: int) -> Iterator[Any]:
    """Each of ``states``, then a detour from it: 1 to ``most_steps`` random legal moves
    (often into a lost position)."""
    for state in states:
        detour = state
        for _ in range(rng.randint(1, most_steps)):
            moves = rules.legal_moves(detour)
            detour = rules.apply(detour, rng.choice(moves)) if moves else detour
        yield state
        yield detour


def agrees_with_plain(rules: Any, space: Any, state: Any, compared: dict[str, int], plain_nodes: int) -> None:
    """Assert that searching ``space`` from ``state`` gives the plain search's verdict, when
    the plain search decides within ``plain_nodes``; count the verdict in ``compared``."""
    plain = plain_verdict(rules, state, plain_nodes)
    if plain != "unknown":
        assert depth_first(space, state, Budget(nodes=20_000)).verdict == plain, rules.to_text(state)
        compared[plain] += 1


# --- every edge is real -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [("demonthief", {}), ("demons-and-thieves", {}), ("desturado", {}), ("desturado", {"mode": "hard"})],
)
def test_every_edge_replays_through_the_rules(name: str, options: dict[str, Any]) -> None:
    rules = rules_for(name, **options)
    space = space_for(rules)
    edges = 0
    for state in random_positions(name, options, 60):
        for moves, after in space.children(state):
            assert replays(rules, state, moves, after), (rules.to_text(state), [str(m) for m in moves])
            edges += 1
    assert edges > 100


# --- Demonthief --------------------------------------------------------------------


def test_demonthief_stock_plays_replace_draws() -> None:
    rules = demonthief_rules("demonthief")
    space = DemonthiefSpace(rules)
    state = rules.deal(0)
    edges = list(space.children(state))
    assert all(DRAW not in moves[-1:] for moves, _ in edges)  # no edge ends in a draw
    drawn = [moves for moves, _ in edges if moves[0] == DRAW]
    assert drawn and all(set(moves[:-1]) == {DRAW} for moves in drawn)
    # Every stock card can come to the waste top, each once: drawing k cards brings the k-th.
    assert [c for c, _, _ in space._stock_tops(state)] == list(state.stock[::-1])


def test_demons_and_thieves_stock_plays_cover_every_card_once() -> None:
    rules = demonthief_rules("demons-and-thieves")
    space = DemonthiefSpace(rules)
    deal = rules.deal(0)
    # Five cards drawn: the stock's arrangements, then after a redeal the four waste
    # cards under the top (the top itself and the stock's cards again would repeat
    # arrangements already offered, with a redeal less left).
    state = deal._replace(stock=deal.stock[:-5], waste=deal.stock[:-6:-1])
    tops = list(space._stock_tops(state))
    assert [c for c, _, _ in tops] == [*state.stock[::-1], *state.waste[:-1]]
    for c, redeals, draws in tops:
        moves, here = space._arrangement(state, redeals, draws)
        assert here.waste[-1] == c
        assert replays(rules, state, moves, here)
        assert (REDEAL in moves) == bool(redeals)
    # No redeal left: only the stock's cards.
    used = state._replace(redeals_used=rules.REDEALS)
    assert [c for c, _, _ in space._stock_tops(used)] == list(state.stock[::-1])


def with_empty_left_piles(state: DemonthiefState) -> DemonthiefState:
    """``state`` with the cards of left piles 1 and 3 put at the bottom of the stock."""
    tab = state.tableau
    stock = tab[0] + tab[2] + state.stock
    return state._replace(stock=stock, tableau=((), tab[1], (), *tab[3:]))


def test_demonthief_moves_into_an_empty_pile_go_to_the_first_of_its_side() -> None:
    rules = demonthief_rules("demonthief")
    space = DemonthiefSpace(rules)
    state = with_empty_left_piles(rules.deal(0))
    legal = rules.legal_moves(state)
    assert any(m.dst == 2 for m in legal) and any(m.dst == 0 for m in legal)
    edges = list(space.children(state))
    assert not any(moves[-1].dst == 2 for moves, _ in edges)  # pile 3 is the same target as pile 1
    assert any(moves[-1].dst == 0 for moves, _ in edges)
    keys = {space.key(after) for _, after in edges}
    for move in legal:  # what was left out is the same position up to symmetry
        if move.dst == 2:
            assert space.key(rules.apply(state, move)) == space.key(rules.apply(state, move._replace(dst=0)))
            assert space.key(rules.apply(state, move._replace(dst=0))) in keys


def test_demonthief_safe_move_is_the_rules_auto_move() -> None:
    for name in ("demonthief", "demons-and-thieves"):
        rules = demonthief_rules(name)
        space = DemonthiefSpace(rules)
        line = winning_line(name, {}, 1 if name == "demonthief" else 0)
        assert any(rules.auto_move(s) is not None for s in line)
        for state in line:
            assert space.safe_move(state) == rules.auto_move(state)


def test_demonthief_solver_order_puts_moves_that_uncover_a_card_for_home_first() -> None:
    # The solver's space has the same children as the plain one; among tableau moves onto a
    # card (not emptying their pile), one that uncovers a card which can go home comes before
    # every one that does not; and the order does differ somewhere.
    reordered = 0
    for name in ("demonthief", "demons-and-thieves"):
        rules = demonthief_rules(name)
        plain, solver = DemonthiefSpace(rules), DemonthiefSolverSpace(rules)
        rng = random.Random(name)
        for _ in range(40):
            line = random_line(rules, rules.deal(rng.randrange(10**6)), rng.randrange(10**6), rng.choice((5, 30, 90)))
            state = line[-1]
            ours = [moves for moves, _ in solver.children(state)]
            theirs = [moves for moves, _ in plain.children(state)]
            assert sorted(map(str, ours)) == sorted(map(str, theirs))
            reordered += ours != theirs
            onto = [
                goes_home(state.tableau[m.src][-m.n - 1], state.foundations, state.base)
                for (m,) in (moves for moves in ours if len(moves) == 1)
                if m.src in TABLEAU and m.dst in TABLEAU and state.tableau[m.dst] and m.n < len(state.tableau[m.src])
            ]
            assert onto == sorted(onto, reverse=True), rules.to_text(state)
    assert reordered > 0


def stock_in_play(state: DemonthiefState, rng: random.Random) -> DemonthiefState:
    """``state`` with a few tableau top cards moved to the stock and the waste."""
    tab = [list(p) for p in state.tableau]
    moved: list[int] = []
    for j in rng.sample(range(9), 9):
        if tab[j] and len(moved) < rng.randint(2, 5):
            moved.append(tab[j].pop())
    cut = rng.randint(0, len(moved))
    return state._replace(
        stock=state.stock + tuple(moved[:cut]),
        waste=state.waste + tuple(moved[cut:]),
        tableau=tuple(tuple(p) for p in tab),
    )


@pytest.mark.parametrize(("name", "deal"), [("demonthief", 1), ("demons-and-thieves", 0)])
def test_demonthief_verdicts_with_the_stock_in_play(name: str, deal: int) -> None:
    # Late positions of a winning line with a few cards put back into the stock and the
    # waste (the stock model and, in Demons and Thieves, the redeals come into play):
    # the space and a plain search agree.
    rules = demonthief_rules(name)
    rng = random.Random(name)
    space = DemonthiefSpace(rules)
    compared = {"solved": 0, "unsolvable": 0}
    scores = set()
    for state in winning_line(name, {}, deal)[-2:0:-1]:
        if rules.score(state) in scores:
            continue  # one position per score: the line has long stretches of tableau moves
        scores.add(rules.score(state))
        if len(scores) > 10:
            break
        here = stock_in_play(state, rng)
        assert sorted(rules.cards(here)) == sorted(rules.deck())
        plain = plain_verdict(rules, here, 5_000)
        if plain == "unknown":
            continue
        found = depth_first(space, here, Budget(nodes=20_000))
        if found.verdict == "unknown":
            continue
        assert found.verdict == plain, rules.to_text(here)
        compared[plain] += 1
    assert compared["solved"] >= 3 and sum(compared.values()) >= 6, compared


# --- Desturado ------------------------------------------------------------------------


def desturado_late(mode: str, deal: int, hand_cards: int) -> tuple[Desturado, DesturadoState]:
    """The rules and the first position of a winning line with ``hand_cards`` cards in hand."""
    rules = desturado_rules(mode)
    line = winning_line("desturado", {"mode": mode}, deal)
    return rules, next(s for s in line if sum(map(len, s.hand)) >= hand_cards)


def test_desturado_key_ignores_the_cards_between_bottom_and_top() -> None:
    rules, state = desturado_late("easy", 0, 28)
    space = DesturadoSpace(rules)
    stacks = sorted(range(len(state.hand)), key=lambda k: -len(state.hand[k]))[:2]
    a, b = (state.hand[k] for k in stacks)
    assert len(a) >= 3 and len(b) >= 3
    hand = list(state.hand)
    # Exchange two middle cards of the two longest hand stacks.
    hand[stacks[0]] = (a[0], b[1], *a[2:])
    hand[stacks[1]] = (b[0], a[1], *b[2:])
    other = state._replace(hand=tuple(hand))
    rules._read(rules.to_text(other))  # a well-formed position (the exchange may break the fits play makes)
    assert other != state and space.key(other) == space.key(state)
    assert plain_verdict(rules, state) == plain_verdict(rules, other) != "unknown"
    assert depth_first(space, other, Budget(nodes=20_000)).verdict == plain_verdict(rules, other)


def test_desturado_key_keeps_face_down_cards_and_unit_ends() -> None:
    rules = desturado_rules("hard")
    space = DesturadoSpace(rules)
    state = rules.deal(0)
    columns = list(state.columns)
    columns[0] = (columns[0][1], columns[0][0], *columns[0][2:])  # two face-down cards exchanged
    assert space.key(state._replace(columns=tuple(columns))) != space.key(state)
    moved = rules.apply(state, rules.legal_moves(state)[0])
    assert space.key(moved) != space.key(state)


def test_desturado_moves_into_an_empty_place_go_to_the_first_one() -> None:
    rules = desturado_rules("easy")
    space = DesturadoSpace(rules)
    state = rules.deal(0)
    # Hand spaces 2 and 4 empty, their cards on the bottom of column a (face down).
    columns = (state.hand[1] + state.hand[3] + state.columns[0], *state.columns[1:])
    down = (state.down[0] + 2, *state.down[1:])
    state = state._replace(columns=columns, down=down, hand=(state.hand[0], (), state.hand[2], (), state.hand[4]))
    rules._read(rules.to_text(state))  # well-formed (more face-down cards in column a than a deal puts there)
    legal = rules.legal_moves(state)
    assert any(m.dst == HAND + 3 for m in legal)
    edges = list(space.children(state))
    assert not any(moves[0].dst == HAND + 3 for moves, _ in edges)
    assert any(moves[0].dst == HAND + 1 for moves, _ in edges)
    assert len(edges) == len(legal) - sum(1 for m in legal if m.dst == HAND + 3)


@pytest.mark.parametrize(("mode", "deal"), [("easy", 0), ("medium", 0), ("hard", 1)])
def test_desturado_verdicts_agree_with_a_plain_search(mode: str, deal: int) -> None:
    # Positions of a winning line (long units and hand stacks: the key merges many) and
    # random detours from them (often lost).
    rules = desturado_rules(mode)
    space = DesturadoSpace(rules)
    rng = random.Random(mode)
    compared = {"solved": 0, "unsolvable": 0}
    for here in with_detours(rules, winning_line("desturado", {"mode": mode}, deal)[-2:0:-2], rng, 3):
        agrees_with_plain(rules, space, here, compared, 5_000)
        if compared["solved"] >= 4 and sum(compared.values()) >= 10:
            break
    assert compared["solved"] >= 3 and sum(compared.values()) >= 8, compared


@pytest.mark.parametrize("options", [{"draw": 3}, {"draw": 1, "redeals": 2}])
def test_klondike_compact_key_is_the_plain_key(options: dict[str, Any]) -> None:
    """The bytes key tells two positions apart exactly when the plain tuple form does."""
    rules = rules_for("klondike", **options)
    space = space_for(rules)
    positions = [p for deal in range(6) for p in random_line(rules, rules.deal(deal), seed=deal, length=150)]
    positions += [p._replace(tableau=p.tableau[::-1], down=p.down[::-1]) for p in positions[::7]]
    by_key: dict[Any, Any] = {}
    for p in positions:
        assert by_key.setdefault(space.key(p), klondike_plain_key(p)) == klondike_plain_key(p)
    assert len(by_key) == len({klondike_plain_key(p) for p in positions})


# --- Klondike's class space ----------------------------------------------------------

KLONDIKE_OPTIONS = [{}, {"draw": 1, "redeals": 2}, {"foundation_return": False}]


def klondike_positions(options: dict[str, Any], deals: int = 8) -> list[Any]:
    """Positions of random games of Klondike, with their piles reversed now and then."""
    rules = Klondike(**options)
    positions = [p for deal in range(deals) for p in random_line(rules, rules.deal(deal), seed=deal, length=150)]
    return positions + [p._replace(tableau=p.tableau[::-1], down=p.down[::-1]) for p in positions[::7]]


def switches(state: Any) -> list[KlondikeMove]:
    """The moves of a hanging card (not a pile's bottom face-up card) onto its twin."""
    found = []
    tab, down = state.tableau, state.down
    tops = {p[-1]: j for j, p in enumerate(tab) if p}
    for i, p in enumerate(tab):
        for k in range(down[i] + 1, len(p)):
            j = tops.get(_twin(p[k - 1]))
            if j is not None:
                found.append(KlondikeMove(i, j, len(p) - k))
    return found


def class_of(state: Any) -> tuple[Any, ...]:
    """The class of a position (draw 3, unlimited redeals) in plain form: stock, waste,
    foundations, redeals used and the sorted piles' face-down cards and bottom face-up card;
    a waste size on the stock's cycle (a multiple of 3, or an empty stock) as after a redeal."""
    piles = sorted(p[: d + 1] for p, d in zip(state.tableau, state.down, strict=True) if p)
    stock, waste = state.stock, state.waste
    if len(waste) % 3 == 0 or not stock:
        stock, waste = stock + waste[::-1], ()
    return stock, waste, state.foundations, state.redeals_used, tuple(piles)


@pytest.mark.parametrize("options", KLONDIKE_OPTIONS, ids=str)
def test_klondike_class_edges_replay_through_the_rules(options: dict[str, Any]) -> None:
    rules = Klondike(**options)
    space = KlondikeClassSpace(rules)
    switched = 0
    for state in klondike_positions(options, deals=3):
        for moves, after in space.children(state):
            assert replays(rules, state, moves, after), (rules.to_text(state), [str(m) for m in moves])
            switched += moves[0] in switches(state)
    assert switched > 20


def test_klondike_class_key_is_the_class() -> None:
    """The bytes key tells two positions apart exactly when their classes differ, and a
    switch keeps the class (but not the plain key)."""
    rules = Klondike()
    space = KlondikeClassSpace(rules)
    by_key: dict[Any, Any] = {}
    positions = klondike_positions({})
    for p in positions:
        assert by_key.setdefault(space.key(p), class_of(p)) == class_of(p)
    assert len(by_key) == len({class_of(p) for p in positions})
    moved = 0
    for p in positions:
        for move in switches(p):
            after = rules.apply(p, move)
            assert space.key(after) == space.key(p) and space_for(rules).key(after) != space_for(rules).key(p)
            moved += 1
    assert moved > 50


def test_klondike_a_card_that_can_be_uncovered_is_uncovered_or_its_twin_is() -> None:
    """The lemma behind the class space: when the hanging cards of the rank below fit on
    the other cards of a face-up card's rank and colour, the card is a pile's top, or its
    twin is (and one move of what lies on it onto the twin uncovers it)."""
    checked = 0
    for state in klondike_positions({}) + klondike_positions({"draw": 1, "redeals": 2}):
        faceup = [c for p, d in zip(state.tableau, state.down, strict=True) for c in p[d:]]
        hanging = _hanging_types(state)
        tops = {p[-1] for p in state.tableau if p}
        for c in faceup:
            twins = sum(1 for x in faceup if RANK[x] == RANK[c] and RED[x] == RED[c])
            if hanging[_below(c)] <= twins - 1:
                assert c in tops or _twin(c) in tops, state
                checked += c not in tops
    assert checked > 20


@pytest.mark.parametrize("options", KLONDIKE_OPTIONS, ids=str)
def test_klondike_every_position_of_a_class_has_the_same_moves(options: dict[str, Any]) -> None:
    """Exactness of the class space: a position and the positions a switch makes of it
    (the same class) are offered the same classes next."""
    rules = Klondike(**options)
    space = KlondikeClassSpace(rules)
    compared = 0
    for state in klondike_positions(options):
        for move in switches(state):
            mine = {space.key(after) for _, after in space.children(state)}
            theirs = {space.key(after) for _, after in space.children(rules.apply(state, move))}
            assert mine == theirs, (rules.to_text(state), str(move))
            compared += 1
    assert compared > 40


def stock_cycle(rules: Klondike, state: Any) -> list[Any]:
    """The positions draws and redeals alone reach from ``state``, ``state`` first."""
    found = [state]
    while True:
        moves = [m for m in rules.legal_moves(found[-1]) if m in (klondike.DRAW, klondike.REDEAL)]
        after = rules.apply(found[-1], moves[0]) if moves else None
        if after is None or after in found:
            return found
        found.append(after)


@pytest.mark.parametrize("draw", [3, 1])
def test_klondike_waste_sizes_on_the_stock_cycle_are_one_class(draw: int) -> None:
    """Unlimited redeals: positions that differ only in a waste size on the stock's cycle
    (draw 3: a multiple of 3, or an empty stock; draw 1: every size) share a key and are
    offered the same classes next, but where draw 1's safe move plays the waste top (then
    that move alone, which keeps a win: the positions reach each other by draws); the other
    waste sizes keep keys of their own."""
    rules = Klondike(draw=draw)
    space = KlondikeClassSpace(rules)
    merged = apart = compared = 0
    for state in klondike_positions({"draw": draw}, deals=4)[::3]:
        cycle = stock_cycle(rules, state)
        on = [p for p in cycle if space._on_cycle(p)]
        off = [p for p in cycle if not space._on_cycle(p)]
        assert on and all(len(p.waste) % draw and p.stock for p in off)
        assert len({space.key(p) for p in on}) == 1
        free = [p for p in on if space.forced_move(p) != klondike.WASTE_TO_FOUNDATION]
        children = [{space.key(after) for _, after in space.children(p)} for p in free]
        assert all(c == children[0] for c in children)
        assert len({space.key(p) for p in off} | {space.key(on[0])}) == len(off) + 1
        merged += len(on) - 1
        apart += len(off)
        compared += len(free)
    assert merged > 100 and compared > 100 and (apart > 20 if draw == 3 else apart == 0)


@pytest.mark.parametrize("options", [{"redeals": 2}, {"draw": 1, "redeals": 2}], ids=str)
def test_klondike_waste_sizes_stay_apart_with_limited_redeals(options: dict[str, Any]) -> None:
    """Where the merge would not be exact (limited redeals are used up by draws), every
    waste size keeps its own key."""
    rules = Klondike(**options)
    space = KlondikeClassSpace(rules)
    compared = 0
    for state in klondike_positions(options, deals=2)[::10]:
        cycle = stock_cycle(rules, state)
        assert len({space.key(p) for p in cycle}) == len(cycle)
        compared += len(cycle)
    assert compared > 50


def emptying_position(king: str, empty: bool = False) -> Any:
    """A position in which 9S, alone in the first pile with no face-down card, can go onto
    10H (emptying its pile), and a king can then move into it from ``king`` only: "tableau"
    (KC above a face-down card), "foundation" (clubs complete), "stock" (the waste top KC)
    or "none"; the other kings lie face down. ``empty``: three piles empty already."""
    c = parse_card
    kings = [c(k) for k in ("KC", "KD", "KH", "KS")]
    found = (13 if king == "foundation" else 0, 0, 0, 0)  # clubs, diamonds, hearts, spades
    piles = [[c("9S")], [c("10H")], [c("3D"), c("KC" if king == "tableau" else "5S")], [c("4D"), c("7S")]]
    piles += [[], [], []] if empty else [[c("6S"), c("QD")], [c("8S"), c("QH")], [c("2H"), c("4H")]]
    waste = (c("KC"),) if king == "stock" else ()
    held = {x for p in piles for x in p} | set(waste) | {x for x in range(13) if found[0]}
    buried = [k for k in kings if k not in held]
    down = [len(p) - 1 if i >= 2 and p else 0 for i, p in enumerate(piles)]
    for n, k in enumerate(buried):  # face down under the piles that have face-down cards
        i = [i for i in range(7) if down[i]][n % sum(1 for d in down if d)]
        piles[i].insert(0, k)
        down[i] += 1
    held |= set(buried)
    stock = tuple(x for x in range(52) if x not in held)
    return KlondikeState(stock, waste, found, tuple(tuple(p) for p in piles), tuple(down), 0)


@pytest.mark.parametrize(
    ("king", "then"), [("tableau", ["31"]), ("foundation", ["fc1"]), ("stock", ["w1"]), ("none", [])]
)
def test_klondike_a_pile_is_emptied_only_for_a_king(king: str, then: list[str]) -> None:
    """The emptying macros: the class space moves a pile's whole face-up run with no
    face-down card under it onto another pile only followed by a king's move into the
    emptied pile, one edge for each such king (none: no edge); the plain space has the
    move alone; the core gives the same children."""
    rules = Klondike(numbering="javasol")
    state = emptying_position(king)
    emptying = klondike.TAB_TO_TAB[0][1][1]
    assert emptying in rules.legal_moves(state)
    space = KlondikeClassSpace(rules)
    edges = [[str(m) for m in moves] for moves, _ in space.children(state) if moves[0] == emptying]
    assert [e[1:] for e in edges] == [[m] for m in then]
    assert any(list(moves) == [emptying] for moves, _ in space_for(rules).children(state))
    for moves, after in space.children(state):
        assert replays(rules, state, moves, after)
    if not pure():
        assert native.children(space, state) == [(list(m), s) for m, s in space.children(state)]


def test_klondike_moves_that_empty_nothing_stay_single() -> None:
    """Where the macro must not apply: a root run above a face-down card (its move turns the
    card up) is a plain edge of its own, and with an empty pile already there, a king goes
    there alone."""
    rules = Klondike(numbering="javasol")
    state = emptying_position("tableau", empty=True)
    edges = [[str(m) for m in moves] for moves, _ in KlondikeClassSpace(rules).children(state)]
    assert ["35"] in edges  # KC into the empty pile 5, turning up 3D, alone
    assert ["12", "31"] in edges  # the emptying macro still there


def test_klondike_a_win_that_needs_a_pile_emptied_for_a_king() -> None:
    """A position won only by emptying a pile for KC (under it, 8S, which the spades need):
    the class space wins it, as the plain space does."""
    c = parse_card
    found = (11, 13, 9, 7)  # clubs to J, diamonds complete, hearts to 9, spades to 7
    tableau = (
        (c("9S"),),
        (c("10H"),),
        (c("8S"), c("KC")),
        (c("KH"), c("QS")),
        (c("KS"), c("QH"), c("JS")),
        (c("QC"),),
        (c("JH"), c("10S")),
    )
    state = KlondikeState((), (), found, tableau, (0, 0, 1, 0, 0, 0, 0), 0)
    rules = Klondike()
    plain = search(space_for(rules), state, Budget(memory=None))
    classes = search(KlondikeClassSpace(rules), state, Budget(memory=None))
    assert plain.verdict == classes.verdict == "solved"
    won = state
    for move in classes.moves:
        won = rules.apply(won, move)
    assert replays(rules, state, classes.moves, won) and rules.is_won(won)


def test_klondike_no_card_comes_back_from_its_foundation_to_go_straight_home() -> None:
    """The class space leaves out a card back from its foundation that its safe move would
    send straight home (2C onto 3H: a two is always safe), and keeps the others (4S onto
    5D: not safe while the red foundations are low); the plain space has both; the core
    gives the same children."""
    c = parse_card
    found = (2, 1, 0, 4)  # clubs to 2, diamonds to A, spades to 4
    tableau = ((c("AH"), c("3H")), (c("5D"),), (), (), (), (), ())
    held = {x for p in tableau for x in p} | {c("AC"), c("2C"), c("AD")} | {c(f"{r}S") for r in "A234"}
    stock = tuple(x for x in range(52) if x not in held)
    state = KlondikeState(stock, (), found, tableau, (1, 0, 0, 0, 0, 0, 0), 0)
    rules = Klondike()
    assert {"fc1", "fs2"} <= {str(m) for m in rules.legal_moves(state)}
    space = KlondikeClassSpace(rules)
    assert space.forced_move(state) is None
    assert space.forced_move(rules.apply(state, rules.parse_move("fc1"))) == rules.parse_move("1f")
    edges = [[str(m) for m in moves] for moves, _ in space.children(state)]
    assert ["fs2"] in edges and ["fc1"] not in edges
    plain = [[str(m) for m in moves] for moves, _ in space_for(rules).children(state)]
    assert ["fs2"] in plain and ["fc1"] in plain
    if not pure():
        assert native.children(space, state) == [(list(m), s) for m, s in space.children(state)]


def test_klondike_class_returns_leave_out_only_cards_sent_straight_home() -> None:
    """On positions of random games: every card back from its foundation that the class
    space offers is not sent straight home by the safe move, and every one it leaves out is
    (so the search, which has taken the position already, loses nothing)."""
    rules = Klondike()
    space = KlondikeClassSpace(rules)
    checked = {"kept": 0, "left out": 0}
    for d in range(12):
        for state in random_line(rules, rules.deal(d), seed=d, length=400)[::5]:
            if space.forced_move(state) is not None:
                continue
            offered = {moves[-1] for moves, _ in space.children(state) if len(moves) == 1}
            for move in rules.legal_moves(state):
                if move.src < klondike.FOUNDATION:
                    continue
                after = rules.apply(state, move)
                home = space.forced_move(after) == klondike.TAB_TO_FOUNDATION[move.dst]
                assert (move in offered) != home, rules.to_text(state)
                checked["left out" if home else "kept"] += 1
    assert checked["kept"] >= 5 and checked["left out"] >= 5, checked


@pytest.mark.parametrize(
    ("options", "deal"), [({}, 8), ({"draw": 1}, 2), ({"redeals": 1}, 5), ({"foundation_return": False}, 8)]
)
def test_klondike_class_verdicts_agree_with_the_plain_space(options: dict[str, Any], deal: int) -> None:
    """The class space decides as ``KlondikeSpace`` does (whose reductions are checked
    against a plain search elsewhere): positions along a winning line and of random
    games, random detours from them and the same positions with two face-down cards
    exchanged."""
    rules = Klondike(**options)
    rng = random.Random(deal)
    line = winning_line("klondike", options, deal)
    played = [p for d in range(6) for p in random_line(rules, rules.deal(d), seed=d, length=90)[30::30]]
    compared = {"solved": 0, "unsolvable": 0}
    for state in line[:: max(1, len(line) // 12)] + played:
        detour = state
        for _ in range(rng.randint(1, 6)):
            moves = rules.legal_moves(detour)
            if moves:
                detour = rules.apply(detour, rng.choice(moves))
        for p in [state, detour, *swap_hidden_cards(rules, state, rng)]:
            plain = search(space_for(rules), p, Budget(nodes=100_000, memory=None))
            classes = search(KlondikeClassSpace(rules), p, Budget(nodes=100_000, memory=None))
            if "unknown" in (plain.verdict, classes.verdict):
                continue
            assert plain.verdict == classes.verdict, rules.to_text(p)
            compared[plain.verdict] += 1
            if classes.verdict == "solved":
                won = p
                for move in classes.moves:
                    assert move in rules.legal_moves(won)
                    won = rules.apply(won, move)
                assert rules.is_won(won)
    assert compared["solved"] >= 5 and compared["unsolvable"] >= 3, compared


def test_devils_square_key_forgets_the_positions_order_only() -> None:
    rules = rules_for("devils-square")
    state = rules.deal(3)
    shuffled = list(state.field)
    random.Random(3).shuffle(shuffled)
    assert devils_square_key(state) == devils_square_key(state._replace(field=tuple(shuffled)))
    # Another pile, or another draw pile length, is another key.
    moved = rules.apply(state, rules.legal_moves(state)[0])
    assert devils_square_key(moved) != devils_square_key(state)
    assert devils_square_key(state._replace(draw=state.draw[1:])) != devils_square_key(state)
    assert space_for(rules).key(state) == devils_square_key(state)


@pytest.mark.slow
def test_devils_square_verdicts_agree_with_a_plain_search() -> None:
    # Positions of winning lines and random detours from them (often lost): the search
    # with the symmetric key gives the verdict of the search that keeps the positions' order.
    rules = rules_for("devils-square")
    space = space_for(rules)
    rng = random.Random(0)
    compared = {"solved": 0, "unsolvable": 0}
    for deal in (19, 2, 6):  # about 100 positions solved and 5 lost, decided in seconds in Python
        for here in with_detours(rules, winning_line("devils-square", {}, deal)[-2:0:-3], rng, 12):
            agrees_with_plain(rules, space, here, compared, 20_000)
    assert compared["solved"] >= 50 and compared["unsolvable"] >= 3, compared

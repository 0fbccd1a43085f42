"""The Demonthief reference player: single moves in a sensible order, no pointless moves."""

from __future__ import annotations

import cardtable
from cardtable.core.cards import parse_card
from cardtable.games import rules_for
from cardtable.games.demonthief import DRAW, FOUNDATION, TABLEAU, DemonsAndThieves, Demonthief, DemonthiefState
from cardtable.levels.player_demonthief import DemonthiefPlayer, breaks, empties, placeable, tops_home
from cardtable.levels.reference import obvious_play, obvious_step


def game_rules(name: str) -> Demonthief:
    return {"demonthief": Demonthief, "demons-and-thieves": DemonsAndThieves}[name]()


def first_moves(name: str, state: DemonthiefState) -> list[str]:
    return [str(m[0]) for m, _ in DemonthiefPlayer(game_rules(name)).children(state)]


def test_a_card_to_a_foundation_comes_first() -> None:
    r = rules_for("demonthief")
    s = r.deal(0)  # base rank T: JH goes home from the waste
    jh = parse_card("JH")
    k = s.stock.index(jh)
    s = s._replace(stock=s.stock[:k] + s.stock[k + 1 :], waste=(jh,))
    moves = first_moves("demonthief", s)
    assert moves[0] == "wf"
    assert [str(m) for m in obvious_step(r, s)[0]] == ["wf"]  # type: ignore[index]


def test_it_draws_one_card_when_nothing_helps() -> None:
    r = game_rules("demonthief")
    s = r.deal(0)
    moves = first_moves("demonthief", s)
    assert moves[-1] == "d" and moves.count("d") == 1
    # Once the helpful moves are seen, the draw is what is left: one card, not a dig.
    player = DemonthiefPlayer(r)
    seen = {a for m, a in player.children(s) if m[0] != DRAW}
    step = next(m for m, a in player.children(s) if a not in seen)
    assert step == (DRAW,)
    assert len(r.apply(s, DRAW).waste) == 1


def test_it_makes_no_pointless_tableau_move() -> None:
    r = rules_for("demonthief")
    line = obvious_play(r, r.deal(3))
    s = r.deal(3)
    for move in line.moves:
        after = r.apply(s, move)
        if move.src in TABLEAU and move.dst != FOUNDATION and r.auto_move(s) is None:
            assert (
                tops_home(after) > tops_home(s)
                or empties(after) > empties(s)
                or placeable(after) > placeable(s)
                or breaks(after) < breaks(s)
            ), str(move)
        s = after


def test_every_offered_move_is_legal_and_single() -> None:
    r = game_rules("demons-and-thieves")
    s = r.deal(2)
    for step, after in DemonthiefPlayer(r).children(s):
        assert len(step) == 1 and step[0] in r.legal_moves(s) and r.apply(s, step[0]) == after


def test_it_wins_some_known_deals_and_loses_one() -> None:
    for name, deal in (("demonthief", 83), ("demons-and-thieves", 0)):
        line = obvious_play(rules_for(name), rules_for(name).deal(deal))
        assert line.won
        game = cardtable.new_game(name, deal=deal)
        for move in line.moves:
            game.play(move)
        assert game.outcome.won
    assert not obvious_play(rules_for("demonthief"), rules_for("demonthief").deal(1)).won


def test_the_waste_card_goes_to_an_empty_pile_only_once_the_stock_is_empty() -> None:
    r = game_rules("demonthief")
    s = r.deal(0)
    moved = s.tableau[0]
    s = s._replace(tableau=((), *s.tableau[1:]), waste=s.waste + moved)  # pile 1 empty, its card on the waste
    assert "w1" not in first_moves("demonthief", s)  # 8H (base rank T) does not go home from pile 1
    emptied = s._replace(stock=(), waste=s.stock + s.waste)
    assert "w1" in first_moves("demonthief", emptied)

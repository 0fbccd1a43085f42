"""The appeal of Demonthief positions: each term pulls the right way, and the reference
player with it wins some deals."""

from __future__ import annotations

from cardtable.core.cards import parse_card
from cardtable.games import rules_for
from cardtable.games.demonthief import DemonthiefState
from cardtable.levels.position_value import appeal_for
from cardtable.levels.position_value_demonthief import demonthief_appeal, distances
from cardtable.levels.reference import obvious_player_wins

JH, QH, FIVE_C = parse_card("JH"), parse_card("QH"), parse_card("5C")


def start() -> DemonthiefState:
    """Deal 0 of Demonthief: base rank T, TH on the first foundation, JH in the stock."""
    s: DemonthiefState = rules_for("demonthief").deal(0)
    assert s.base == 10 and JH in s.stock
    return s


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    k = cards.index(card)
    return cards[:k] + cards[k + 1 :]


def on_pile(s: DemonthiefState, j: int, *cards: int) -> tuple[tuple[int, ...], ...]:
    return tuple(p + cards if i == j else p for i, p in enumerate(s.tableau))


def test_it_is_the_appeal_of_both_games() -> None:
    assert appeal_for(rules_for("demonthief")) is demonthief_appeal
    assert appeal_for(rules_for("demons-and-thieves")) is demonthief_appeal


def test_distances_count_the_cards_still_to_go_home() -> None:
    s = start()
    d = distances(s)
    assert d[JH] == 0 and d[QH] == 1 and d[parse_card("TS")] == 0  # TS: a foundation is free
    d = distances(s._replace(foundations=(JH,) + s.foundations[1:]))
    assert d[QH] == 0 and d[JH] == 1  # the second JH waits for the second TH


def test_a_card_on_a_foundation_beats_the_same_card_on_the_tableau() -> None:
    s = start()
    rest = without(s.stock, JH)
    on_tableau = s._replace(stock=rest, tableau=on_pile(s, 0, JH))
    at_home = s._replace(stock=rest, foundations=(JH,) + s.foundations[1:])
    assert demonthief_appeal(at_home) > demonthief_appeal(on_tableau)


def test_cards_drawn_past_into_the_waste_cost() -> None:
    s = start()
    drawn = s._replace(stock=s.stock[:-3], waste=s.stock[:-4:-1])
    assert demonthief_appeal(drawn) < demonthief_appeal(s)


def test_a_waste_card_on_a_card_needed_sooner_costs() -> None:
    s = start()
    rest = without(without(s.stock, JH), FIVE_C)
    blocked = s._replace(stock=rest, waste=(JH, FIVE_C))  # 5C buries JH, which could go home
    ordered = s._replace(stock=rest, waste=(FIVE_C, JH))
    assert demonthief_appeal(ordered) > demonthief_appeal(blocked)


def test_a_needed_card_dug_out_of_its_pile_is_better() -> None:
    s = start()
    rest = without(s.stock, JH)
    pile = s.tableau[4]
    buried = s._replace(stock=rest, tableau=s.tableau[:4] + ((JH, *pile),) + s.tableau[5:])
    free = s._replace(stock=rest, tableau=on_pile(s, 4, JH))
    assert demonthief_appeal(free) > demonthief_appeal(buried)


def test_an_empty_pile_and_a_smaller_reserve_are_better() -> None:
    s = start()
    emptied = s._replace(tableau=((),) + on_pile(s, 1, s.tableau[0][0])[1:])
    assert demonthief_appeal(emptied) > demonthief_appeal(s)
    played = s._replace(reserve=s.reserve[:-1], tableau=on_pile(s, 4, s.reserve[-1]))
    assert demonthief_appeal(played) > demonthief_appeal(s)


def test_the_reference_player_wins_some_deals_and_loses_others() -> None:
    assert obvious_player_wins(rules_for("demonthief"), 111)
    assert obvious_player_wins(rules_for("demons-and-thieves"), 55)
    assert not obvious_player_wins(rules_for("demonthief"), 1)

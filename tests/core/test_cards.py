"""Cards and decks."""

from __future__ import annotations

import pytest

from cardtable.core.cards import (
    RANK,
    RED,
    SUIT,
    card_text,
    french_deck,
    kings_keys_deck,
    kk_colour,
    kk_item,
    kk_number,
    kk_text,
    parse_card,
    parse_kk_card,
)
from cardtable.core.errors import LayoutError


def test_french_cards_round_trip_and_tables_agree() -> None:
    for c in range(52):
        assert parse_card(card_text(c)) == c
        assert parse_card(card_text(c).lower()) == c
        assert RANK[c] == "A23456789TJQK".index(card_text(c)[0]) + 1
        assert SUIT[c] == "CDHS".index(card_text(c)[1])
        assert RED[c] == (card_text(c)[1] in "DH")


def test_ten_may_be_written_10() -> None:
    assert card_text(parse_card("10H")) == "TH"
    assert card_text(parse_card("10s")) == "TS"


@pytest.mark.parametrize("bad", ["", "1H", "TX", "ZH", "10", "AHH", "11H"])
def test_bad_card_text(bad: str) -> None:
    with pytest.raises(LayoutError, match="not a card"):
        parse_card(bad)


def test_decks() -> None:
    assert sorted(french_deck()) == list(range(52))
    assert {RANK[c] for c in french_deck(max_rank=10)} == set(range(1, 11))
    assert len(french_deck(max_rank=10)) == 40
    double = french_deck(decks=2)
    assert len(double) == 104 and all(double.count(c) == 2 for c in range(52))


def test_kings_keys_deck_has_every_colour_item_number_once() -> None:
    deck = kings_keys_deck()
    assert len(deck) == 64
    assert len({(kk_colour(c), kk_item(c), kk_number(c)) for c in deck}) == 64
    for c in deck:
        assert parse_kk_card(kk_text(c)) == c
        assert parse_kk_card(kk_text(c).lower()) == c


@pytest.mark.parametrize("bad", ["", "5YK", "1XK", "1YZ", "1Y", "YK1"])
def test_bad_kings_keys_text(bad: str) -> None:
    with pytest.raises(LayoutError, match="King's Keys"):
        parse_kk_card(bad)

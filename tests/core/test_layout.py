"""The shared position text format."""

from __future__ import annotations

import pytest

from cardtable.core.cards import card_text, parse_card
from cardtable.core.errors import LayoutError
from cardtable.core.layout import check_cards, format_pile, join_layout, parse_pile, split_layout


def test_pile_round_trip() -> None:
    pile = [(parse_card("JH"), False), (parse_card("9C"), True)]
    assert format_pile(pile, card_text) == "<JH> 9C"
    assert parse_pile("<JH> 9C", parse_card) == pile


@pytest.mark.parametrize("bad", ["<JH 9C", "<>", "J<H>"])
def test_bad_piles(bad: str) -> None:
    with pytest.raises(LayoutError):
        parse_pile(bad, parse_card)


def test_split_and_join() -> None:
    text = join_layout("demo", [("a", "1 2"), ("b", "")])
    assert split_layout("# a comment\n" + text + "\n\n", "demo", ["a", "b"]) == {"a": "1 2", "b": ""}


@pytest.mark.parametrize(
    "text, message",
    [
        ("other\na: 1\nb: 2", "must start with"),
        ("demo\na: 1", "missing"),
        ("demo\na: 1\na: 2\nb:", "twice"),
        ("demo\na: 1\nb: 2\nc: 3", "unknown layout line"),
        ("demo\na 1\nb: 2", "no 'name:'"),
        ("", "must start with"),
    ],
)
def test_bad_layouts(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        split_layout(text, "demo", ["a", "b"])


def test_check_cards_names_the_difference() -> None:
    check_cards([1, 2, 2], [2, 1, 2], str)
    with pytest.raises(LayoutError, match="too many: 2; missing: 3"):
        check_cards([1, 2, 2], [1, 2, 3], str)

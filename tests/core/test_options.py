"""Options: declared once, checked in one place."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.errors import OptionError
from cardtable.core.options import Option, resolve_options

SPEC = (
    Option("draw", int, 3, choices=(1, 3)),
    Option("redeals", int, None, minimum=0, none_text="unlimited"),
    Option("auto", bool, False),
    Option("mode", str, "easy", choices=("easy", "hard")),
)


def test_defaults_and_text_values() -> None:
    assert resolve_options("g", SPEC, {}) == {"draw": 3, "redeals": None, "auto": False, "mode": "easy"}
    got = resolve_options("g", SPEC, {"draw": "1", "redeals": "2", "auto": "on", "mode": "HARD"})
    assert got == {"draw": 1, "redeals": 2, "auto": True, "mode": "hard"}
    assert resolve_options("g", SPEC, {"redeals": "unlimited"})["redeals"] is None


@pytest.mark.parametrize(
    "given, message",
    [
        ({"colour": 1}, "has no option 'colour'"),
        ({"draw": 2}, "must be one of 1, 3"),
        ({"draw": "x"}, "whole number"),
        ({"draw": True}, "whole number"),
        ({"redeals": -1}, "at least 0"),
        ({"auto": "maybe"}, "on or off"),
        ({"auto": 1}, "on or off"),
        ({"mode": 3}, "takes text"),
        ({"draw": None}, "needs a value"),
    ],
)
def test_bad_options(given: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve_options("g", SPEC, given)


def test_dashes_in_names() -> None:
    assert cardtable.new_game("klondike", deal=1, **{"foundation-return": "off"}).options["foundation_return"] is False


def test_describe() -> None:
    assert SPEC[1].describe() == "redeals: number>=0|unlimited (default unlimited)"
    assert SPEC[2].describe() == "auto: on|off (default off)"

"""Keyboard alone (issue 26, WCAG 2.1.1): one whole game of each solitaire won in Chromium with
the arrow keys, Enter and Shift+Tab, and axe-core finds nothing on the won table. (A file of its
own so that pytest-xdist can run it beside the axe checks of every page.)
"""

from __future__ import annotations

import pytest

import cardtable

from .conftest import Page
from .helpers import open_at, play_by_keys, shown_table, violations

pytestmark = pytest.mark.browser

KEYBOARD_DEALS = {
    "klondike": 3046,
    "desturado": 3323,
    "demonthief": 966,
    "demons-and-thieves": 1716,
    "devils-square": 10541,
}
"""Easy deals (``deal_for_level(game, "easy", seed)``, seeds 0-39) whose winning line (the solver's,
30 s) reaches autocomplete soonest: Klondike after 75 moves, Demonthief 101, Demons and Thieves 102."""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(KEYBOARD_DEALS))
def test_a_whole_game_won_by_keyboard_alone(page: Page, name: str) -> None:
    """The solver's line, each move made with the arrow keys and Enter (a card picked up, then its
    place); when autocomplete is offered, Shift+Tab to its button and Enter."""
    deal = KEYBOARD_DEALS[name]
    line = [str(m) for m in cardtable.solve(cardtable.new_game(name, deal=deal), seconds=30).moves]
    assert line
    p = open_at(page, name, deal, [])
    p.set_default_timeout(20_000)
    for text in line:
        if p.evaluate("Boolean(window.cardtableTable.table.finish)"):
            for _ in range(200):
                if p.evaluate("document.activeElement.id") == "finish":
                    break
                p.keyboard.press("Shift+Tab")
            p.keyboard.press("Enter")
            break
        play_by_keys(p, text)
    p.wait_for_selector("body[data-state='won']")
    assert shown_table(p)["outcome"]["won"]
    p.wait_for_function("() => document.getElementById('announce').textContent.includes('You won!')")
    assert not violations(p)  # the won banner too

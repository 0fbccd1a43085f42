"""Deal levels for a game declared only by its spec: the toy patience of ``tests/toys.py``
(``toy_games`` fixture) has a level key while it is registered, no shipped table, and
deals by level from a scale measured live."""

from __future__ import annotations

import pytest

from cardtable.core.errors import OptionError
from cardtable.games import rules_for
from cardtable.levels import KEYS, deal_for_level, grade, key_of, level_keys, level_tables, scale_for
from cardtable.levels.deal_tables import CALIBRATION_DEALS, scale_of, shipped_table
from cardtable.levels.measures import measure
from cardtable.levels.position_value import appeal_for, neutral
from cardtable.levels.reference import obvious_player_wins, obvious_step

pytestmark = pytest.mark.usefixtures("toy_games")


def test_the_toy_key_comes_from_the_live_list_of_games() -> None:
    rules = rules_for("toy-patience")
    key = key_of(rules)
    assert (key.label, key.game, key.options()) == ("toy-patience", "toy-patience", {})
    assert key in level_keys() and key not in KEYS  # KEYS: the games built in, at import
    assert level_keys()[: len(KEYS)] == KEYS
    assert "toy-patience" not in level_tables() and shipped_table(rules) is None
    with pytest.raises(OptionError, match="no deal levels"):
        deal_for_level("toy-duel", "easy")  # a multi-player game: no level keys in its declaration


def test_the_toy_scale_is_measured_live() -> None:
    rules = rules_for("toy-patience")
    measured = [measure(rules, deal) for deal in range(CALIBRATION_DEALS)]
    population = [(m.effort, m.ease) for m in measured if m.ease is not None]
    assert scale_for(rules) == scale_of(population)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_deal_for_level_grades_toy_deals_on_the_live_scale(level: str) -> None:
    rules = rules_for("toy-patience")
    deals = {deal_for_level("toy-patience", level, seed=seed) for seed in range(3)}
    assert deals == {deal_for_level("toy-patience", level, seed=seed) for seed in range(3)}  # reproducible
    for deal in deals:
        assert grade(rules, deal).level == level


def test_the_reference_player_plays_the_toy_with_the_neutral_appeal() -> None:
    rules = rules_for("toy-patience")
    assert appeal_for(rules) is neutral
    step = obvious_step(rules, rules.deal(0))
    assert step is not None and step[0][0] in rules.legal_moves(rules.deal(0))
    wins = [obvious_player_wins(rules, deal) for deal in range(10)]
    assert any(wins)

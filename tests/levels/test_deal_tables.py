"""Deal levels: proved solvable, graded by solver measurements, reproducible."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from itertools import islice
from pathlib import Path
from typing import NoReturn

import pytest

import cardtable
from cardtable.core.errors import NoLevelDealError, OptionError
from cardtable.core.progress import is_progress
from cardtable.core.shuffle import SplitMix64
from cardtable.games import rules_for
from cardtable.levels import deal_tables as levels
from cardtable.levels import measures
from cardtable.levels.deal_tables import (
    GRADED_LEVELS,
    KEYS,
    LEVELS,
    TABLES_FILE,
    Grade,
    LevelKey,
    LevelTable,
    Scale,
    _parse_tables,
    candidate_deals,
    deal_for_level,
    grade,
    is_level,
    key_of,
    level_of,
    level_tables,
    scale_for,
    scale_of,
    table_deals,
)
from cardtable.levels.measures import GRADE_NODES, Measure, measure
from cardtable.levels.reference import NOISY_GAMES, noisy_wins
from cardtable.solve.search import Budget, Found, SearchSpace, depth_first, search
from cardtable.solve.spaces import EagerSpace, space_for
from tests.helpers import random_line


def test_a_tricky_deal_is_won_only_by_declining_a_play() -> None:
    r = rules_for("klondike")
    g = grade(r, 7)
    assert g.solvable and g.tricky and g.level == "tricky"
    # The plain solver wins it...
    assert depth_first(space_for(r), r.deal(7), Budget(nodes=50_000)).verdict == "solved"
    # ...the eager player, who always takes a move that makes progress now, provably cannot.
    assert depth_first(EagerSpace(r), r.deal(7), Budget(nodes=50_000)).verdict == "unsolvable"


def test_a_deal_the_eager_search_cannot_win_within_the_budget_is_tricky_when_the_player_loses() -> None:
    r = rules_for("klondike")
    # Deal 9: the full search wins after 110 positions, the eager search only after 10,719.
    m = measure(r, 9, nodes=2_000)
    assert (m.verdict, m.eager_verdict, m.obvious) == ("solved", "unknown", False)
    assert m.tricky and m.ease is None
    assert not measure(r, 9).tricky  # with the whole budget the eager search wins
    # Desturado deal 1244: the full search wins after 122, the eager search after 3,955,
    # and the reference player wins it: an eager player can win it, so it is not tricky.
    d = rules_for("desturado")
    m = measure(d, 1244, nodes=2_000)
    assert (m.verdict, m.eager_verdict, m.obvious) == ("solved", "unknown", True)
    assert not m.tricky and m.ease is not None


def test_the_reference_game_is_played_only_when_the_eager_search_did_not_win() -> None:
    r = rules_for("klondike")
    assert measure(r, 5).obvious is None  # the eager search won
    assert measure(r, 7).obvious is False  # proved: no eager line wins
    assert measure(rules_for("devils-square"), 1).obvious is None  # not solvable within the budget


@pytest.mark.parametrize("name", ["klondike", "desturado", "demonthief", "devils-square"])
def test_the_eager_player_takes_progress_when_there_is_some(name: str) -> None:
    r = rules_for(name)
    space, eager = space_for(r), EagerSpace(r)
    seen_both = set()
    for state in random_line(r, r.deal(2), seed=2, length=60):
        here = r.progress(state)
        every = list(space.children(state))
        chosen = list(eager.children(state))
        gains = [is_progress(r.progress(after), here) for _, after in chosen]
        if len(chosen) < len(every):
            assert all(gains) and all(len(moves) == 1 for moves, _ in chosen)  # only progress, taken now
            seen_both.add("restricted")
        else:
            assert [m for m, _ in chosen] == [m for m, _ in every]  # nothing makes progress now: no restriction
            seen_both.add("free")
    assert seen_both  # the line was long enough to look at something


@pytest.mark.parametrize(
    ("name", "level", "seed"),
    [("klondike", "easy", 1), ("klondike", "normal", 1), ("desturado", "easy", 1), ("devils-square", "easy", 3)],
)
def test_deal_for_level_gives_a_solvable_deal_of_that_level(name: str, level: str, seed: int) -> None:
    deal = deal_for_level(name, level, seed=seed)
    assert deal == deal_for_level(name, level, seed=seed)  # reproducible
    g = grade(rules_for(name), deal)
    assert g.solvable and g.level == level
    assert cardtable.solve(cardtable.new_game(name, deal=deal), seconds=30).solved


def test_random_level_is_the_first_candidate() -> None:
    assert deal_for_level("klondike", "random", seed=5) == next(candidate_deals(5))
    assert list(islice(candidate_deals(5), 3)) != list(islice(candidate_deals(6), 3))


def test_levels_and_errors() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard", "tricky")
    with pytest.raises(OptionError, match="unknown level"):
        deal_for_level("klondike", "expert")
    with pytest.raises(OptionError, match="one-player"):
        deal_for_level("deserto", "easy")


# --- the shipped tables -----------------------------------------------------------------


def tabled() -> list[tuple[LevelKey, str, tuple[int, ...]]]:
    """Every (key, level, deals) of the shipped tables with deals."""
    return [
        (table.key, level, deals) for table in level_tables().values() for level, deals in table.levels.items() if deals
    ]


def test_the_tables_load_with_every_key_and_sorted_disjoint_levels() -> None:
    tables = level_tables()
    assert [tables[key.label].key for key in KEYS] == list(KEYS)
    assert level_tables() is tables  # read once
    for table in tables.values():
        low, high = table.thresholds
        assert 0 < low <= high
        assert set(table.levels) == set(GRADED_LEVELS)
        every = [deal for deals in table.levels.values() for deal in deals]
        assert len(every) == len(set(every)) <= table.graded
        assert all(list(deals) == sorted(deals) for deals in table.levels.values())
        scale = table.scale
        assert list(scale.efforts) == sorted(scale.efforts) and list(scale.misses) == sorted(scale.misses)
        assert len(scale.efforts) == len(scale.misses) >= 30
        assert all(0 <= m <= NOISY_GAMES for m in scale.misses)
    assert tabled(), "the shipped tables have some deals"


def test_the_tables_file_is_package_data() -> None:
    text = files("cardtable.levels").joinpath(TABLES_FILE).read_text(encoding="utf-8")
    assert json.loads(text)["grade_nodes"] == GRADE_NODES
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert "levels/level_tables.json" in pyproject


def test_thresholds_come_from_the_tables() -> None:
    for table in level_tables().values():
        assert levels.thresholds()[table.key.label] == table.thresholds == table.scale.thresholds
    assert list(levels.thresholds()) == [key.label for key in KEYS]


def test_a_tables_file_of_another_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="nodes"):
        _parse_tables({"grade_nodes": GRADE_NODES + 1, "noisy_games": NOISY_GAMES, "keys": {}})
    with pytest.raises(ValueError, match="noisy games"):
        _parse_tables({"grade_nodes": GRADE_NODES, "noisy_games": NOISY_GAMES + 1, "keys": {}})


def test_a_score_adds_the_ranks_of_effort_and_misses() -> None:
    scale = Scale((10, 20, 30, 40), (0, 2, 5, 8), (6, 10))
    # Doubled mid-ranks: 2 for each value below, 1 for each equal.
    assert scale.score(10, NOISY_GAMES) == 1 + 1
    assert scale.score(40, 0) == 7 + 7
    assert scale.score(25, NOISY_GAMES - 5) == 4 + 5  # misses 5: two below, one equal
    assert scale.score(5, NOISY_GAMES) < scale.score(5, NOISY_GAMES - 1) < scale.score(50, NOISY_GAMES - 1)
    won = Measure("solved", 10, "solved", 30, NOISY_GAMES)
    assert scale.level(won) == "easy"
    assert scale.level(Measure("solved", 40, "solved", 30, 0)) == "hard"
    assert scale.level(Measure("solved", 40, "unsolvable", 30, obvious=False)) == "tricky"
    assert scale.level(Measure("solved", 40, "unknown", 100_000, 0, obvious=False)) == "tricky"
    assert scale.level(Measure("solved", 40, "unknown", 100_000, 0, obvious=True)) == "hard"
    assert scale.level(Measure("unknown", 100_000)) is None
    with pytest.raises(ValueError, match="noisy games"):
        scale.level(Measure("solved", 10, "solved", 30))


def test_the_effort_bound_is_the_largest_effort_that_can_still_reach_the_level() -> None:
    rng = SplitMix64(11)
    for _ in range(200):
        efforts = tuple(sorted(1 + rng.below(400) for _ in range(1 + rng.below(10))))
        misses = tuple(sorted(rng.below(NOISY_GAMES + 1) for _ in efforts))
        low = rng.below(30)
        scale = Scale(efforts, misses, (low, low + rng.below(30)))
        for level, limit in zip(("easy", "normal"), scale.thresholds, strict=True):
            bound = scale.effort_bound(level)
            assert bound is not None
            # The efforts whose score can still be within the level's threshold (with no miss).
            fits = [e for e in range(500) if scale.score(e, NOISY_GAMES) <= limit]
            if not fits:
                assert bound == 0
            elif fits[-1] == 499:  # every larger effort fits too
                assert bound == GRADE_NODES
            else:
                assert bound == fits[-1]
        assert scale.effort_bound("hard") is None and scale.effort_bound("tricky") is None


@pytest.mark.slow
def test_is_level_answers_as_grade_does() -> None:
    for name, options in (("klondike", {}), ("desturado", {"mode": "medium"}), ("devils-square", {})):
        rules = rules_for(name, **options)
        for deal in range(12):
            level = grade(rules, deal).level
            assert [is_level(rules, deal, lv) for lv in GRADED_LEVELS] == [lv == level for lv in GRADED_LEVELS]


def test_scale_of_cuts_its_population_into_fifths() -> None:
    population = [(10 * i, (i * 7) % (NOISY_GAMES + 1)) for i in range(50)]
    scale = scale_of(population)
    levels_of = [level_of(scale.score(e, w), False, scale.thresholds) for e, w in population]
    assert (levels_of.count("easy"), levels_of.count("normal"), levels_of.count("hard")) == (10, 20, 20)


def no_search(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError("deal_for_level searched")


def test_deal_for_level_picks_from_the_table_by_the_seed_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(measures, "search", no_search)
    for key, level, deals in tabled():
        for seed in (0, 1, 2, 12345, 2**40):
            deal = deal_for_level(key.game, level, seed=seed, **key.options())
            assert deal == deals[SplitMix64(seed).next() % len(deals)]
            assert deal == deal_for_level(key.game, level, seed=seed, **key.options())
        picked = {deal_for_level(key.game, level, seed=seed, **key.options()) for seed in range(50)}
        assert len(picked) > min(len(deals), 10) // 2  # the seed spreads the picks over the table


@pytest.mark.parametrize("seed", [-1, 2**64, "1", True, 1.0, None])
def test_a_seed_that_is_not_a_64_bit_whole_number_is_refused(seed: object) -> None:
    with pytest.raises(OptionError, match="seed must be a whole number from 0 to 18446744073709551615"):
        deal_for_level("klondike", "easy", seed=seed)  # type: ignore[arg-type]


def test_options_other_than_the_keys_own_give_no_table() -> None:
    for key in KEYS:
        assert key_of(rules_for(key.game, **key.options())) == key
    assert table_deals(rules_for("klondike", draw=1, redeals=2), "easy") == ()
    assert table_deals(rules_for("klondike", numbering="javasol"), "easy") == ()  # other deals
    assert table_deals(rules_for("klondike", foundation_return=False), "easy") == ()
    for key, level, deals in tabled():
        assert table_deals(rules_for(key.game, **key.options()), level) == deals


def test_play_only_options_keep_the_tables() -> None:
    """Autoplay only makes safe moves for the player: the deals and their grades stand."""
    assert table_deals(rules_for("klondike", autoplay=True), "easy") == table_deals(rules_for("klondike"), "easy")
    assert table_deals(rules_for("demonthief", autoplay=True), "hard") == table_deals(rules_for("demonthief"), "hard")
    assert deal_for_level("klondike", "hard", seed=5, autoplay=True) == deal_for_level("klondike", "hard", seed=5)


def test_a_live_scale_is_measured_on_the_first_deals_under_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "CALIBRATION_DEALS", 12)
    monkeypatch.setattr(levels, "MIN_CALIBRATION", 3)
    levels._calibrate.cache_clear()
    try:
        rules = rules_for("klondike", foundation_return=False)
        measured = [measure(rules, d) for d in range(12)]
        population = [(m.effort, m.ease) for m in measured if m.ease is not None]
        assert len(population) >= 3
        assert all(m.solvable and not m.tricky for m in measured if m.ease is not None)
        assert scale_for(rules) == scale_of(population)
        assert scale_for(rules) != level_tables()["klondike-draw3"].scale  # a real calibration
        monkeypatch.setattr(levels, "MIN_CALIBRATION", 13)  # too few deals: the key's scale
        levels._calibrate.cache_clear()
        assert scale_for(rules) == level_tables()["klondike-draw3"].scale
        assert scale_for(rules_for("klondike", draw=1)) == level_tables()["klondike-draw1"].scale  # tabled
    finally:
        levels._calibrate.cache_clear()


def counting(calls: list[int]) -> Callable[..., Found]:
    """The grading search (by the compiled cores when built), counting its calls."""

    def counted(space: SearchSpace, start: object, budget: Budget) -> Found:
        calls.append(1)
        return search(space, start, budget)

    return counted


def test_non_default_options_fall_back_to_the_live_search(monkeypatch: pytest.MonkeyPatch) -> None:
    scale = level_tables()["klondike-draw3"].scale
    monkeypatch.setattr(levels, "_calibrate", lambda name, options: scale)  # the test's cost
    calls: list[int] = []
    monkeypatch.setattr(measures, "search", counting(calls))
    rules = rules_for("klondike", foundation_return=False)
    deal = deal_for_level("klondike", "easy", seed=1, foundation_return=False)
    assert calls  # searched
    assert deal == next(d for d in candidate_deals(1) if is_level(rules, d, "easy"))
    assert grade(rules, deal).level == "easy"


def test_an_empty_level_table_falls_back_to_the_live_search(monkeypatch: pytest.MonkeyPatch) -> None:
    key = KEYS[0]
    scale = level_tables()[key.label].scale
    empty = {key.label: LevelTable(key, scale, 0, dict.fromkeys(GRADED_LEVELS, ()))}
    monkeypatch.setattr(levels, "level_tables", lambda: empty)
    calls: list[int] = []
    monkeypatch.setattr(measures, "search", counting(calls))
    deal = deal_for_level("klondike", "easy", seed=1)
    assert calls
    assert deal == next(d for d in candidate_deals(1) if is_level(rules_for("klondike"), d, "easy"))


@pytest.mark.slow
def test_the_first_deals_of_every_table_grade_at_their_level_live() -> None:
    # The tables are written from the grades files; grading again here, with the shipped
    # thresholds, must give each table's level (the searches are deterministic: positions
    # counted, not seconds). The compiled cores make the full grading cheap.
    checked = 0
    for key, level, deals in tabled():
        rules = rules_for(key.game, **key.options())
        for deal in deals[:1]:  # the first deal of each table (each grading is a full search)
            assert grade(rules, deal).level == level, (key.label, deal)
            checked += 1
    assert checked >= 3 * len(level_tables())  # easy, normal and hard at least, everywhere


def test_measure_gives_the_raw_measurements() -> None:
    r = rules_for("klondike")
    assert measure(r, 7) == Measure("solved", 1141, "unsolvable", 207, obvious=False)  # tricky: no noisy games
    assert grade(r, 7) == Grade(True, 1141, True, "tricky")
    won = measure(r, 5)
    assert won.solvable and not won.tricky and won.ease == noisy_wins(r, 5)
    assert measure(r, 5, noisy=False).ease is None
    unsolved = measure(rules_for("devils-square"), 1)
    assert (unsolved.solvable, unsolved.tricky, unsolved.eager_verdict) == (False, False, None)
    assert [level_of(e, False, (5, 50)) for e in (1, 5, 6, 50, 51)] == ["easy", "easy", "normal", "normal", "hard"]


def test_a_graded_level_without_deals_is_an_error_not_an_endless_search(monkeypatch: pytest.MonkeyPatch) -> None:
    key = KEYS[0]
    no_tricky = {"easy": (3,), "normal": (), "hard": (), "tricky": ()}
    table = {key.label: LevelTable(key, level_tables()[key.label].scale, 500, no_tricky)}
    monkeypatch.setattr(levels, "level_tables", lambda: table)
    monkeypatch.setattr(measures, "search", no_search)
    assert deal_for_level("klondike", "easy", seed=4) == 3
    with pytest.raises(NoLevelDealError, match="none of the 500 deals graded is tricky"):
        deal_for_level("klondike", "tricky", seed=4)


def test_the_live_search_gives_up_after_its_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "LIVE_CANDIDATES", 3)
    tried: list[int] = []

    def never(rules: object, deal: int, level: str) -> bool:
        tried.append(deal)
        return False

    monkeypatch.setattr(levels, "is_level", never)
    with pytest.raises(NoLevelDealError, match="first 3 candidate deals of seed 2"):
        deal_for_level("klondike", "hard", seed=2, redeals=1)
    assert tried == list(islice(candidate_deals(2), 3))


def test_the_grading_functions_refuse_what_is_no_level_or_budget() -> None:
    rules = rules_for("devils-square")
    with pytest.raises(OptionError, match="no level 'bogus'"):  # before: False, as if graded
        levels.is_level(rules, 1, "bogus")
    with pytest.raises(OptionError, match="nodes must be a whole number, at least 1"):
        levels.grade(rules, 1, nodes=-5)
    with pytest.raises(OptionError, match="thresholds are two scores"):
        levels.level_of(5, False, (1,))  # type: ignore[arg-type]

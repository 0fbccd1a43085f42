"""The dispatch to the compiled cores (``cardtable.solve.native``): which core answers, and
that the Python search answers whenever none does."""

from __future__ import annotations

import os

import pytest

from cardtable.games import rules_for
from cardtable.solve import native
from cardtable.solve.search import Budget, Pruned, depth_first, search
from cardtable.solve.spaces import DemonthiefSpace, DesturadoSpace, EagerSpace, KlondikeSpace, RulesSpace, space_for


def test_every_core_is_built_when_required() -> None:
    """``make unit`` sets CARDTABLE_REQUIRE_NATIVE=1: an install that silently fell back to
    Python for any game fails here."""
    if os.environ.get("CARDTABLE_REQUIRE_NATIVE") == "1":
        assert native.built() == {"demonthief": True, "desturado": True, "devils_square": True, "klondike": True}


@pytest.mark.parametrize(
    ("game", "options", "core", "space_type"),
    [
        ("klondike", {"draw": 3}, "klondike", KlondikeSpace),
        ("klondike", {"draw": 1}, "klondike", KlondikeSpace),
        ("demonthief", {}, "demonthief", DemonthiefSpace),
        ("demons-and-thieves", {}, "demonthief", DemonthiefSpace),
        ("desturado", {"mode": "hard"}, "desturado", DesturadoSpace),
        ("devils-square", {}, "devils_square", RulesSpace),
    ],
)
def test_each_game_is_searched_by_its_core_with_the_reference_answer(
    monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, object], core: str, space_type: type
) -> None:
    monkeypatch.delenv("CARDTABLE_PURE", raising=False)
    if not native.built()[core]:
        pytest.skip(f"the {core} core is not built (test_every_core_is_built_when_required fails under make unit)")
    rules = rules_for(game, **options)
    start = rules.deal(4)
    for space in (space_for(rules), Pruned(space_for(rules), 3), Pruned(Pruned(space_for(rules), 3), 2)):
        assert type(native.unwrap(space, space_type)) is tuple
        got = native.search(space, start, Budget(nodes=700))
        ref = depth_first(space, start, Budget(nodes=700))
        assert got is not None
        assert (got.verdict, got.nodes, got.moves) == (ref.verdict, ref.nodes, ref.moves)
    eager = native.search(EagerSpace(rules), start, Budget(nodes=700))
    ref = depth_first(EagerSpace(rules), start, Budget(nodes=700))
    assert eager is not None and (eager.verdict, eager.nodes, eager.moves) == (ref.verdict, ref.nodes, ref.moves)


def test_spaces_without_a_core_and_pure_mode_search_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTABLE_PURE", raising=False)
    desturado = rules_for("desturado")
    assert native.search(RulesSpace(desturado), desturado.deal(0), Budget(nodes=50)) is None
    devils_square = rules_for("devils-square")
    keyed = RulesSpace(devils_square, key=lambda state: state.field)
    assert native.search(keyed, devils_square.deal(0), Budget(nodes=50)) is None
    if native.built()["devils_square"]:
        assert native.search(space_for(devils_square), devils_square.deal(0), Budget(nodes=50)) is not None
    klondike = rules_for("klondike")
    monkeypatch.setenv("CARDTABLE_PURE", "1")
    assert native.pure() and not native.available()
    assert native.search(space_for(klondike), klondike.deal(0), Budget(nodes=50)) is None
    assert native.search(space_for(devils_square), devils_square.deal(0), Budget(nodes=50)) is None
    # search() then answers by depth_first itself, with the same result.
    for rules in (klondike, devils_square):
        got, ref = (
            search(space_for(rules), rules.deal(0), Budget(nodes=50)),
            depth_first(space_for(rules), rules.deal(0), Budget(nodes=50)),
        )
        assert (got.verdict, got.nodes, got.moves) == (ref.verdict, ref.nodes, ref.moves)
    monkeypatch.setenv("CARDTABLE_PURE", "0")
    assert not native.pure()


def test_budgets_the_cores_cannot_take_go_to_python() -> None:
    assert native.limits(Budget(nodes=10, memory=None, seconds=2)) == (10, None, 2.0)
    assert native.limits(Budget(nodes=1.5)) == (2, 2_000_000, None)  # type: ignore[arg-type]
    assert native.limits(Budget(seconds="1")) is None  # type: ignore[arg-type]
    rules = rules_for("klondike")
    assert native.search(space_for(rules), rules.deal(0), Budget(seconds="1")) is None  # type: ignore[arg-type]


def test_unwrap_rejects_other_spaces_and_bad_k() -> None:
    rules = rules_for("klondike")
    assert native.unwrap(space_for(rules), DesturadoSpace) is None
    assert native.unwrap(Pruned(space_for(rules), -1), KlondikeSpace) is None
    space = EagerSpace(rules)
    assert native.unwrap(space, KlondikeSpace) == (space.inner, True, -1)
    assert native.unwrap(Pruned(space, 4), KlondikeSpace) == (space.inner, True, 4)

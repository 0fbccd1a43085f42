"""The fixture every test of the compiled cores uses: the core on, or the test skipped."""

from __future__ import annotations

import os

import pytest

from cardtable.solve import native


@pytest.fixture(autouse=True)
def native_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cores on, whatever ``CARDTABLE_PURE`` the environment has; and in a test module that
    names its core (``CORE = "klondike"`` and so on), the test skipped when that core is not
    built, or failed instead with ``CARDTABLE_REQUIRE_NATIVE=1`` (as ``make unit`` runs)."""
    monkeypatch.delenv("CARDTABLE_PURE", raising=False)
    game = getattr(request.module, "CORE", None)
    if game is None or native.built()[game]:
        return
    reason = f"the compiled core cardtable.solve.native._{game} is not built (pip install -e . builds it)"
    if os.environ.get("CARDTABLE_REQUIRE_NATIVE") == "1":
        pytest.fail(f"{reason}, and CARDTABLE_REQUIRE_NATIVE=1 requires it")
    pytest.skip(f"{reason}; CARDTABLE_REQUIRE_NATIVE=1 makes this fail")

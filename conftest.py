"""The markers a ``pytestmark`` cannot put (pyproject.toml lists the markers; README.md how to pick by them).

- ``research``: the doctests of the research extra's code and pages (src/cardtable/research,
  docs/research.md, and README.md, whose examples make a Gymnasium env); the tests in
  tests/research say so themselves.
- ``browser``: any test under tests/web that uses the ``browser`` fixture (Debian's
  Chromium, tests/web/conftest.py), as well as the modules tests/web/test_browser*.py say.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
RESEARCH_DOCS = (ROOT / "src" / "cardtable" / "research", ROOT / "docs" / "research.md", ROOT / "README.md")
WEB_TESTS = ROOT / "tests" / "web"


def _under(path: Path, place: Path) -> bool:
    """Whether ``path`` is ``place`` or inside it.

    >>> _under(ROOT / "docs" / "research.md", ROOT / "docs"), _under(ROOT / "docs", ROOT / "docs" / "research.md")
    (True, False)
    """
    return path == place or place in path.parents


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the research doctests and the tests that drive the browser."""
    for item in items:
        path = Path(item.path).resolve()
        if isinstance(item, pytest.DoctestItem) and any(_under(path, place) for place in RESEARCH_DOCS):
            item.add_marker(pytest.mark.research)
        if _under(path, WEB_TESTS) and "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)

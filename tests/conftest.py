"""Fixtures shared by every test package: the toy games of :mod:`tests.toys`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardtable.core.spec import GameSpec
from cardtable.games import register, unregister

from .toys import TOYS


@pytest.fixture
def toy_games() -> Iterator[tuple[GameSpec, ...]]:
    """The toy patience and the toy duel, added to the one list of games for the test (one
    line: ``register``), and taken out again after it."""
    for spec in TOYS:
        register(spec)
    try:
        yield TOYS
    finally:
        for spec in TOYS:
            unregister(spec.name)

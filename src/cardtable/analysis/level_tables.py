"""The shipped level tables from a results store: the graded deals of each level key
(``cardtable analyze grade`` at the key's options and the grading budget) turned into
scales and deal tables by :mod:`cardtable.levels.build`.

>>> import tempfile, os
>>> from cardtable.analysis.results import ResultStore
>>> level_entries(ResultStore(os.path.join(tempfile.mkdtemp(), "empty.sqlite")))
{}
"""

from __future__ import annotations

from typing import Any

from ..core.spec import LevelKey
from ..levels.build import MIN_DEALS, TABLE_SIZE, key_entry
from ..levels.deal_tables import level_keys
from .jobs import make_job
from .results import ResultStore, Row


def grade_rows(store: ResultStore, key: LevelKey) -> list[Row]:
    """The store's grade rows of a level key: its game at the key's option and every other
    option at its default, graded with the levels' budget.

    >>> import tempfile, os
    >>> grade_rows(ResultStore(os.path.join(tempfile.mkdtemp(), "e.sqlite")), level_keys()[0])
    []
    """
    return list(store.rows(make_job("grade", key.game, key.options()).key))


def level_entries(
    store: ResultStore, min_deals: int = MIN_DEALS, table_size: int = TABLE_SIZE
) -> dict[str, dict[str, Any]]:
    """The tables entry of every level key the store has graded deals of (see
    :func:`cardtable.levels.build.key_entry`; a key with too few deals has none)."""
    entries = {}
    for key in level_keys():
        rows = grade_rows(store, key)
        graded = []
        eases: dict[int, int] = {}
        for row in rows:
            m = row.measures or {}
            graded.append(
                {
                    "deal": row.deal,
                    "solvable": row.verdict == "solved",
                    "tricky": bool(m.get("tricky")),
                    "verdict": row.verdict,
                    "effort": int(m.get("effort", row.nodes)),
                }
            )
            if m.get("ease") is not None:
                eases[row.deal] = int(m["ease"])
        entry = key_entry(key, graded, eases, min_deals, table_size) if graded else None
        if entry is not None:
            entries[key.label] = entry
    return entries

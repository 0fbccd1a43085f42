"""Building the shipped level tables from graded deals: the scale of each key, its
thresholds, and the deals of each level (``cardtable analyze tables``; docs/levels.md,
"Calibration").

For each key of :func:`cardtable.levels.level_keys`, from its graded deals:

- **population**: the graded solvable, non-tricky deals that have an ease; their
  efforts and misses (noisy games lost), sorted, are the key's
  :class:`~cardtable.levels.Scale`;
- **thresholds**: the scores that cut the population at
  :data:`cardtable.levels.deal_tables.SPLIT` (:func:`~cardtable.levels.deal_tables.scale_of`):
  easy the easiest fifth, normal the next two fifths, hard the top two fifths;
- **levels**: the population's deals at each level, and the tricky deals among all
  the graded deals (trickiness needs no ease), each level's deal numbers sorted, the
  first ``table_size`` of them kept;
- **graded** and **counts**: how many deals were graded, how many the full search
  proved unsolvable or left unknown within the budget, how many solvable non-tricky
  deals have no ease (``unplayed``), and how many are at each level.

A key with fewer than ``min_deals`` deals in its population gets no entry:
``deal_for_level`` then measures a scale live.

>>> tables_text({}).startswith("{")
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..core.spec import LevelKey
from .deal_tables import GRADED_LEVELS, level_of, scale_of
from .measures import GRADE_NODES
from .reference import NOISY_GAMES

ABOUT = "Deal level scales and tables: written by cardtable analyze tables from graded deals (docs/levels.md)."
"""The ``about`` line of a tables file."""

MIN_DEALS = 30
"""The fewest deals a key's population may have (else the key gets no entry)."""

TABLE_SIZE = 1000
"""The most deals a level's table keeps (the lowest deal numbers): enough for any seed to
reach a thousand different deals, while the shipped file stays small."""


def key_entry(
    key: LevelKey,
    rows: Sequence[dict[str, Any]],
    eases: dict[int, int],
    min_deals: int = MIN_DEALS,
    table_size: int = TABLE_SIZE,
) -> dict[str, Any] | None:
    """The tables entry of a key from its graded deals and their eases (see the module
    docstring), or None when its population is smaller than ``min_deals``.

    >>> from cardtable.levels.deal_tables import KEYS
    >>> rows = [{"deal": d, "solvable": d > 0, "tricky": d == 1, "verdict": "solved" if d else "unknown",
    ...          "effort": 10 * d} for d in range(8)]
    >>> eases = {2: 8, 3: 8, 4: 6, 5: 7, 6: 1, 7: 0}
    >>> e = key_entry(KEYS[-1], rows, eases, min_deals=3)
    >>> e["thresholds"], e["levels"]
    ([3, 12], {'easy': [2], 'normal': [3, 4, 5], 'hard': [6, 7], 'tricky': [1]})
    >>> key_entry(KEYS[-1], rows, eases, min_deals=3, table_size=2)["levels"]["normal"]
    [3, 4]
    >>> key_entry(KEYS[-1], rows, {}, min_deals=3) is None
    True
    """
    plain = [row for row in rows if row["solvable"] and not row["tricky"]]
    population = [row for row in plain if int(row["deal"]) in eases]
    if len(population) < min_deals:
        return None
    scale = scale_of([(int(row["effort"]), eases[int(row["deal"])]) for row in population])
    levels: dict[str, list[int]] = {level: [] for level in GRADED_LEVELS}
    for row in population:
        score = scale.score(int(row["effort"]), eases[int(row["deal"])])
        levels[level_of(score, False, scale.thresholds)].append(int(row["deal"]))
    levels["tricky"] = [int(row["deal"]) for row in rows if row["solvable"] and row["tricky"]]
    counts = {
        "unsolvable": sum(row["verdict"] == "unsolvable" for row in rows),
        "unknown": sum(row["verdict"] == "unknown" for row in rows),
        "unplayed": len(plain) - len(population),
        **{level: len(deals) for level, deals in levels.items()},
    }
    return {
        "game": key.game,
        "options": key.options(),
        "thresholds": list(scale.thresholds),
        "graded": len(rows),
        "counts": counts,
        "efforts": list(scale.efforts),
        "misses": list(scale.misses),
        "levels": {level: sorted(deals)[:table_size] for level, deals in levels.items()},
    }


def tables_text(entries: dict[str, dict[str, Any]], about: str = ABOUT) -> str:
    """The JSON text of the tables: indented, each list of numbers on one line.

    >>> json.loads(tables_text({}))["grade_nodes"]
    100000
    >>> '"easy": [1, 2]' in tables_text({"x": {"easy": [1, 2]}})
    True
    """
    data = {
        "about": about,
        "grade_nodes": GRADE_NODES,
        "noisy_games": NOISY_GAMES,
        "keys": entries,
    }
    text = json.dumps(data, indent=2)
    return re.sub(r"\[[\d,\s]*\]", lambda m: "[" + ", ".join(m[0][1:-1].split()).replace(",,", ",") + "]", text) + "\n"


def shares_report(label: str, entry: dict[str, Any]) -> str:
    """One line of a key's level counts and shares of its leveled deals.

    >>> e = {"graded": 5, "thresholds": [1, 2],
    ...      "counts": {"unsolvable": 1, "unknown": 0, "unplayed": 1, "easy": 1, "normal": 1, "hard": 1, "tricky": 0}}
    >>> for part in shares_report("x", e).split("; "):
    ...     print(part)
    x: 5 graded (1 unsolvable, 0 unknown, 1 not played)
    thresholds 1, 2: easy 1 (33%), normal 1 (33%), hard 1 (33%), tricky 0 (0%)
    """
    counts = entry["counts"]
    leveled = sum(counts[level] for level in GRADED_LEVELS)
    shares = ", ".join(
        f"{level} {counts[level]} ({counts[level] / leveled:.0%})" if leveled else f"{level} 0"
        for level in GRADED_LEVELS
    )
    low, high = entry["thresholds"]
    return (
        f"{label}: {entry['graded']} graded ({counts['unsolvable']} unsolvable, {counts['unknown']} unknown, "
        f"{counts['unplayed']} not played); thresholds {low}, {high}: {shares}"
    )

"""Noisy games for the level tables: how many of
:data:`~cardtable.levels.NOISY_GAMES` noisy games of the reference player win
each graded solvable, non-tricky deal (:func:`cardtable.levels.reference.noisy_wins`), one
JSON line per deal in ``bench/results/ease/<key>.jsonl``::

    {"deal": 5, "ease": 6, "games": 8}

It reads the key's grades file (``bench/grade_deals.py``) and plays the solvable,
non-tricky deals among deals ``0..N-1`` (``--deals N``) that the ease file lacks.
Deterministic (each game's noise comes from the deal number), resumable (deals already in
the file are skipped; a line cut short is dropped and its deal played again), parallel
(``--workers W``), progress bar on standard error (``--quiet`` for none).

Example: ``nice -n 10 .venv/bin/python bench/grade_ease.py --key devils-square --deals 40``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from grade_deals import RESULTS as GRADES
from grade_deals import append_lines, grades_file, key_named, read_grades

from cardtable.games import rules_for
from cardtable.levels.reference import NOISY_GAMES, noisy_wins
from cardtable.levels.tables import KEYS

RESULTS = Path(__file__).resolve().parent / "results" / "ease"
"""Where the ease files are: ``<key>.jsonl`` each."""


def ease_file(label: str, results: Path = RESULTS) -> Path:
    """The ease file of a key.

    >>> ease_file("demonthief").name
    'demonthief.jsonl'
    """
    return results / f"{label}.jsonl"


def read_ease(path: Path) -> dict[int, int]:
    """Each deal's noisy wins in an ease file (lines cut short or of another game count
    skipped; the first line of a deal counts). A missing file has none.

    >>> read_ease(Path("/nonexistent.jsonl"))
    {}
    """
    if not path.exists():
        return {}
    eases: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and row.get("games") == NOISY_GAMES and "deal" in row and "ease" in row:
            eases.setdefault(int(row["deal"]), int(row["ease"]))
    return eases


def ease_one(label: str, deal: int) -> dict[str, Any]:
    """One deal's ease line as a dict.

    >>> ease_one("klondike-draw3", 5)["games"]
    8
    """
    key = key_named(label)
    return {"deal": deal, "ease": noisy_wins(rules_for(key.game, **key.options()), deal), "games": NOISY_GAMES}


def _played(label: str, todo: Sequence[int], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        for deal in todo:
            yield ease_one(label, deal)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(ease_one, [label] * len(todo), todo, chunksize=4)


def ease_key(label: str, deals: int, workers: int = 1, quiet: bool = False, grades: Path = GRADES) -> int:
    """Play the deals of a key its ease file lacks; return how many were played now."""
    graded, _ = read_grades(grades_file(label, grades))
    path = ease_file(label)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = read_ease(path)
    todo = [
        deal
        for deal in range(deals)
        if deal in graded and graded[deal]["solvable"] and not graded[deal]["tricky"] and deal not in done
    ]
    if len(done) and path.read_text(encoding="utf-8").count("\n") != len(done):
        lines = (json.dumps({"deal": d, "ease": e, "games": NOISY_GAMES}) + "\n" for d, e in done.items())
        path.write_text("".join(lines), encoding="utf-8")
    append_lines(path, _played(label, todo, workers), label, len(todo), quiet)
    if not quiet:
        print(f"{label}: {len(todo)} deals played", file=sys.stderr)
    return len(todo)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--key", action="append", required=True, help="a key label, or all")
    parser.add_argument("--deals", type=int, required=True, help="the graded deals 0..N-1")
    parser.add_argument("--workers", type=int, default=1, help="deals played at a time (processes)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    labels = [k.label for k in KEYS] if "all" in args.key else args.key
    for label in labels:
        key_named(label)
    for label in labels:
        ease_key(label, args.deals, args.workers, args.quiet)


if __name__ == "__main__":
    main()

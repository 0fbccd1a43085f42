"""The rules page of ``cardtable rules``, as markdown text.

The games' markdown pages (``docs/games/<game>.md``) do not ship in the
package yet, so :func:`rules_text` builds the page from what does: the game
module's docstring (the rules as implemented, converted from its
reStructuredText to markdown), the game's options and its move notation.
When the pages ship, :func:`rules_text` is the one function to change.

>>> rules_text("klondike").splitlines()[0]
'# Klondike (draw three)'
"""

from __future__ import annotations

import inspect
import re
import sys

from ..games import rules_class

_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`]+)`")
_BORDER = re.compile(r"^=+(?: +=+)+$")
_DOCTEST = (">>> ", "... ")


def rules_text(game: str) -> str:
    """The rules of ``game`` as a markdown page: title, rules, options, notation.

    Raises :class:`~cardtable.core.errors.UnknownGameError` for an unknown game.

    >>> "## Options" in rules_text("klondike")
    True
    """
    cls = rules_class(game)
    doc = sys.modules[cls.__module__].__doc__ or ""
    parts = [f"# {cls.title}", rst_to_markdown(doc)]
    parts.append("## Options")
    if cls.OPTIONS:
        parts.append("Give them as `--name value` to `cardtable deal` and `cardtable play`.")
        lines = []
        for option in cls.OPTIONS:
            name, _, values = option.describe().partition(": ")
            help_text = f" — {option.help}" if option.help else ""
            lines.append(f"- `{name}`: {values}{help_text}")
        parts.append("\n".join(lines))
    else:
        parts.append("None.")
    if cls.NOTATION:
        parts.append("## Move notation")
        parts.append(cls.NOTATION)
    return "\n\n".join(part for part in parts if part) + "\n"


def rst_to_markdown(doc: str) -> str:
    """The reStructuredText of a docstring as markdown, closely enough to show it.

    Roles (``:class:`X```) become code, simple tables become markdown tables
    (or a list when they have no header row), ``::`` becomes ``:``, and doctest
    examples are left out.

    >>> print(rst_to_markdown('''Moves, see :meth:`Rules.apply`::
    ...
    ...     ab
    ...
    ... ====  =====
    ... ``d``  draw
    ... ====  =====
    ...
    ... >>> 1 + 1
    ... 2
    ... '''))
    Moves, see `Rules.apply`:
    <BLANKLINE>
        ab
    <BLANKLINE>
    - ``d`` — draw
    """
    lines = inspect.cleandoc(doc).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(_DOCTEST[0]):
            while i < len(lines) and lines[i].strip():  # the example and its output
                i += 1
            continue
        if _BORDER.match(line.strip()):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out.extend(_table(block))
            continue
        line = _ROLE.sub(r"`\1`", line)
        if line.endswith("::"):
            line = line[:-1]
        out.append(line)
        i += 1
    return "\n".join(out).strip()


def _table(block: list[str]) -> list[str]:
    """A reStructuredText simple table as markdown: a table with a header, a list without."""
    border = block[0]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    borders = [k for k, line in enumerate(block) if _BORDER.match(line.strip())]
    header: list[str] = []
    rows: list[list[str]] = []
    for k, line in enumerate(block):
        if k in borders:
            continue
        cells = [_ROLE.sub(r"`\1`", _cell(line, spans, n)) for n in range(len(spans))]
        if rows and not cells[0] and not (len(borders) > 2 and k < borders[1]):
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]  # a continuation line
        elif len(borders) > 2 and k < borders[1]:
            header = cells
        else:
            rows.append(cells)
    if not header:
        return ["- " + " — ".join(cell for cell in row if cell) for row in rows]
    escape = [[cell.replace("|", "\\|") for cell in row] for row in [header, *rows]]
    table = ["| " + " | ".join(row) + " |" for row in escape]
    table.insert(1, "|" + "---|" * len(spans))
    return table


def _cell(line: str, spans: list[tuple[int, int]], n: int) -> str:
    start = spans[n][0]
    end = spans[n + 1][0] if n + 1 < len(spans) else len(line)
    return line[start:end].strip()

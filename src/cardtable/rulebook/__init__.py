"""The rules pages of ``cardtable rules`` and the web app: each game's page from ``docs/games/``.

The pages (rules as implemented, options, notation, position format) ship in
the package as ``cardtable/rulebook/<page>.md``; ``docs/games`` points there,
so there is one copy of each. A game with no page here (one registered from
outside the package) is described by its rules module's docstring.

>>> rules_text("klondike").splitlines()[0]
'# Klondike (draw three)'
"""

from __future__ import annotations

import inspect
import sys
from importlib.resources import files

from ..games import rules_class


def rules_page(game: str) -> str:
    """The rulebook page name of a game (one page per game module).

    >>> rules_page("demons-and-thieves"), rules_page("devils-square")
    ('demonthief', 'devils-square')
    """
    return rules_class(game).__module__.rsplit(".", 1)[1].replace("_", "-")


def rules_text(game: str) -> str:
    """The rules of ``game`` as markdown (raises ``UnknownGameError`` for an unknown game).

    >>> "## Options" in rules_text("desturado")
    True
    """
    page = files("cardtable").joinpath("rulebook", f"{rules_page(game)}.md")
    if page.is_file():
        return page.read_text(encoding="utf-8")
    cls = rules_class(game)
    return f"# {cls.title}\n\n" + (inspect.getdoc(sys.modules[cls.__module__]) or "")

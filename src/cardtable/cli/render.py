"""What the command line shows: cards, positions, option lists and messages, as rich text.

Nothing here reads input or parses commands. Every function returns
:class:`rich.text.Text` values (or plain strings), so the play loop and the
commands print them and the tests read their ``.plain`` text.

Face-down cards are drawn as a dim ``##`` and never as the card they are.

>>> from cardtable import new_game
>>> lines = position_lines(new_game("klondike", deal=0))
>>> lines[0].plain.startswith("Klondike")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..core.game import Game, Outcome
from ..core.multiplayer import MultiplayerOutcome
from ..core.options import Option
from ..core.rules import Pile

FACE_DOWN = "##"
"""How a face-down card is drawn."""

FACE_DOWN_RUN = 7
"""A run of more face-down cards than this is drawn once with a count (``##x24``)."""

EMPTY = "--"
"""How an empty pile is drawn."""

_FRENCH_STYLES = {"H": "red", "D": "red", "C": "bold", "S": "bold"}
_KINGS_KEYS_STYLES = {"Y": "yellow", "R": "red", "G": "green", "B": "blue"}


def make_console(stderr: bool = False) -> Console:
    """A console for the command line: colour only on a terminal, no automatic highlighting.

    >>> make_console().is_terminal
    False
    """
    return Console(stderr=stderr, highlight=False)


def card_style(text: str) -> str:
    """The colour of a card, from its text.

    French cards (``TH``): hearts and diamonds red, clubs and spades bold.
    King's Keys cards (``3GK``): their colour letter, yellow, red, green or blue.

    >>> card_style("TH"), card_style("KS"), card_style("3GK"), card_style("?")
    ('red', 'bold', 'green', '')
    """
    if len(text) == 2:
        return _FRENCH_STYLES.get(text[1].upper(), "")
    if len(text) == 3 and text[0].isdigit():
        return _KINGS_KEYS_STYLES.get(text[1].upper(), "")
    return ""


def pile_text(pile: Pile, card_text: Callable[[int], str]) -> Text:
    """A pile, bottom first: face-up cards coloured, face-down cards as ``##``.

    ``card_text`` is called only for face-up cards, so a face-down card's
    identity cannot leak onto the screen.

    >>> pile_text([(0, False), (1, False), (2, True)], lambda c: ["AC", "2C", "KC"][c]).plain
    '## ## KC'
    >>> pile_text([(0, False)] * 24, str).plain, pile_text([], str).plain
    ('##x24', '--')
    """
    if not pile:
        return Text(EMPTY, style="dim")
    parts: list[Text] = []
    down = 0
    for card, face_up in [*pile, (-1, True)]:
        if not face_up:
            down += 1
            continue
        if down > FACE_DOWN_RUN:
            parts.append(Text(f"{FACE_DOWN}x{down}", style="dim"))
        else:
            parts.extend(Text(FACE_DOWN, style="dim") for _ in range(down))
        down = 0
        if card != -1:
            text = card_text(card)
            parts.append(Text(text, style=card_style(text)))
    return Text(" ").join(parts)


def pile_line(name: str, pile: Pile, card_text: Callable[[int], str], width: int = 0) -> Text:
    """A named pile: ``name: cards``, the name right-aligned to ``width`` characters.

    >>> pile_line("3", [(5, True)], lambda c: "6C", width=2).plain
    ' 3: 6C'
    """
    line = Text.assemble((name.rjust(width) + ":", "cyan"), " ")
    line.append_text(pile_text(pile, card_text))
    return line


def title_line(game: Game[Any, Any]) -> Text:
    """The game's title, its name, deal number (or "layout") and options.

    >>> from cardtable import new_game
    >>> title_line(new_game("klondike", deal=3, draw=1)).plain.split(" — ")[1]
    'klondike deal 3'
    """
    source = f"deal {game.deal}" if game.deal is not None else "from a layout"
    line = Text.assemble((game.rules.title, "bold"), f" — {game.name} {source}")
    options = game.rules.option_text()
    if options:
        line.append(f" — {options}", style="dim")
    return line


def level_line(level: str, deal: int | None) -> Text | None:
    """The deal's level and number, as the Java Klondike shows them: ``Hard (12345)``.

    ``level`` is the deal level the deal was chosen at (``random`` for a deal
    chosen by number); a game from a layout has no deal number and no line.

    >>> level_line("hard", 12345).plain, level_line("random", 5).plain
    ('Hard (12345)', 'Random (5)')
    >>> level_line("easy", None) is None
    True
    """
    if deal is None:
        return None
    return Text(f"{level.capitalize()} ({deal})", style="bold")


def position_lines(game: Game[Any, Any], width: int = 80, level: str | None = None) -> list[Text]:
    """The screen of a position: title, the piles of ``rules.display``, status lines, move count.

    A display row of several piles is one line when it fits in ``width``
    characters, else one line per pile. Face-down cards show as ``##``.
    With a ``level`` (one-player play), the last status line is the deal's
    level and number (:func:`level_line`).

    >>> from cardtable import new_game
    >>> lines = [t.plain for t in position_lines(new_game("klondike", deal=0))]
    >>> lines[-1]
    'moves played: 0'
    >>> [t.plain for t in position_lines(new_game("klondike", deal=0), level="easy")][-2:]
    ['Easy (0)', 'moves played: 0']
    """
    rules = game.rules
    rows = rules.display(game.state)
    # Decide which rows are drawn one pile a line, then align those piles' names.
    split = [len(row) == 1 or sum(_row_width(row, rules.card_text)) > width for row in rows]
    pad = max((len(name) for row, s in zip(rows, split, strict=True) if s for name, _ in row), default=0)
    lines = [title_line(game), Text()]
    for row, one_a_line in zip(rows, split, strict=True):
        if one_a_line:
            lines.extend(pile_line(name, pile, rules.card_text, pad) for name, pile in row)
        else:
            lines.append(Text("   ").join(pile_line(name, pile, rules.card_text) for name, pile in row))
    lines.append(Text())
    lines.extend(Text(line) for line in rules.status(game.state))
    shown = level_line(level, game.deal) if level is not None else None
    if shown is not None:
        lines.append(shown)
    lines.append(Text(f"moves played: {len(game.moves)}"))
    return lines


def _row_width(row: Sequence[tuple[str, Pile]], card_text: Callable[[int], str]) -> list[int]:
    return [pile_line(name, pile, card_text).cell_len + 3 for name, pile in row]


def outcome_message(outcome: Outcome | MultiplayerOutcome) -> Text | None:
    """What to tell the player about the outcome, in the outcome's own words
    (:meth:`Outcome.describe <cardtable.core.game.Outcome.describe>`), with the score; for a
    multi-player game, when it is over, its ranking with the seats named "seat N".

    >>> from cardtable.core.game import Ending
    >>> outcome_message(Outcome(won=False, over=True, score=7, ending=Ending.NO_PROGRESS)).plain[:47]
    'Game over: no move can change the position any '
    >>> outcome_message(Outcome(won=True, over=True, score=52, ending=Ending.WON)).plain
    'You won! Score 52.'
    >>> outcome_message(Outcome(won=False, over=False, score=7)) is None
    True
    >>> from cardtable.core.multiplayer import Result
    >>> outcome_message(MultiplayerOutcome(over=True, result=Result.from_scores((3, 5)))).plain
    'seat 1 won. seat 0: 3 points, rank 2, seat 1: 5 points, rank 1. (You may still undo.)'
    """
    if isinstance(outcome, MultiplayerOutcome):
        names = [f"seat {s}" for s in range(len(outcome.result.scores))] if outcome.result else []
        words = outcome.describe(names)
        return None if words is None else Text(f"{words} (You may still undo.)", style="bold green")
    words = outcome.describe()
    if words is None:
        return None
    if outcome.won:
        return Text(f"{words} Score {outcome.score}.", style="bold green")
    return Text(f"{words} Score {outcome.score}. (You may still undo.)", style="bold yellow")


def options_table(options: Sequence[Option]) -> Table:
    """The options of a game, a row each: ``Option.describe()`` (never wrapped) and, dimmed, its help.

    >>> import io
    >>> console = Console(width=100, file=io.StringIO())
    >>> console.print(options_table([Option("draw", int, 3, choices=(1, 3), help="cards per draw")]))
    >>> console.file.getvalue().rstrip()
    '  draw: 1|3 (default 3)  cards per draw'
    """
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(style="dim")
    for option in options:
        name, _, values = option.describe().partition(": ")
        table.add_row(Text.assemble("  ", (name, "cyan"), f": {values}"), option.help)
    return table


def game_block(name: str, title: str, options: Sequence[Option]) -> Group:
    """A game for ``cardtable games``: its name and title, then its options.

    >>> import io
    >>> console = Console(width=100, file=io.StringIO())
    >>> console.print(game_block("solo", "Solo", []))
    >>> console.file.getvalue().splitlines()
    ['solo  Solo', '  (no options)']
    """
    head = Text.assemble((name, "bold"), f"  {title}")
    body = options_table(options) if options else Text("  (no options)", style="dim")
    return Group(head, body)


def error_line(message: str) -> Text:
    """A one-line error message for the play prompt (line breaks in ``message`` become spaces).

    >>> error_line("illegal move 35:\\nrule 3").plain
    'error: illegal move 35: rule 3'
    """
    return Text("error: " + one_line(message), style="red")


def one_line(message: str) -> str:
    """``message`` on one line: its lines joined by spaces.

    >>> one_line(" a\\n b ")
    'a b'
    """
    return " ".join(part.strip() for part in message.splitlines() if part.strip())

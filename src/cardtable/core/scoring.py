"""How a game is scored: :class:`Scoring`, declared once per game in its
:class:`~cardtable.core.spec.GameSpec` (``scoring``) and used by every layer that shows
or ranks a score (the browser's table and win screen, statistics, the daily deal).

A scoring reads a whole game: the deal's starting position and the moves played
(:meth:`Scoring.score`), so it can count what a position alone does not show (Klondike's
Standard scoring counts cards turned face up and passes through the stock). Most games
score what their rules text scores from the position (:meth:`Rules.score
<cardtable.core.rules.Rules.score>`: Devil's Square's 10 points a book, Desturado's
cards left on the board): :func:`position_scoring` makes that scoring. A scoring with
``bank`` (Klondike's Vegas) is one whose scores add up from game to game: the layer that
keeps a player's games keeps the sum.

>>> import cardtable
>>> from cardtable.games import spec_for
>>> game = cardtable.new_game("devils-square", deal=1)
>>> books = spec_for("devils-square").scoring[0]
>>> books.name, books.score(game.rules, game.rules.deal(1), []), books.text(30)
('books', 0, '30 points')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import Rules

Tally = Callable[["Rules[Any, Any]", Any, Sequence[Any]], int]
"""A scoring's count: ``tally(rules, start, moves)``, the score after ``moves`` (legal,
in order) from the position ``start``."""


def final_position(rules: Rules[Any, Any], start: Any, moves: Sequence[Any]) -> Any:
    """The position after playing ``moves`` from ``start`` (the moves are trusted legal).

    >>> import cardtable
    >>> r = cardtable.rules_for("klondike")
    >>> len(final_position(r, r.deal(0), [r.parse_move("d")]).waste)
    3
    """
    state = start
    for move in moves:
        state = rules.apply(state, move)
    return state


def rules_score(rules: Rules[Any, Any], start: Any, moves: Sequence[Any]) -> int:
    """The rules' own score (:meth:`Rules.score`) of the position the moves reach: the
    tally of a :func:`position_scoring`.

    >>> import cardtable
    >>> r = cardtable.rules_for("desturado")
    >>> rules_score(r, r.deal(3), [])
    35
    """
    return rules.score(final_position(rules, start, moves))


@dataclass(frozen=True)
class Scoring:
    """One way of scoring a game: ``name`` (its key in JSON and settings), ``title`` (for
    people), ``unit`` (the word after the number: ``points``, ``cards left``; or ``$``,
    written before it), ``lower_is_better`` (Desturado's cards left: 0 is the win),
    ``bank`` (the scores add up from game to game: Vegas), ``rule`` (one line saying how
    it counts, shown beside the score) and ``tally`` (see :data:`Tally`).

    >>> s = Scoring("vegas", "Vegas", "$", rule="$5 a card", tally=rules_score, bank=True)
    >>> s.text(-37), s.text(15)
    ('-$37', '$15')
    """

    name: str
    title: str
    unit: str
    rule: str
    tally: Tally
    lower_is_better: bool = False
    bank: bool = False

    def score(self, rules: Rules[Any, Any], start: Any, moves: Sequence[Any]) -> int:
        """The score of the game that played ``moves`` (legal, in order) from ``start``.

        >>> import cardtable
        >>> from cardtable.games import spec_for
        >>> g = cardtable.new_game("klondike", deal=0); _ = g.play("d")
        >>> [s.score(g.rules, g.rules.deal(0), g.moves) for s in spec_for("klondike").scoring]
        [0, -52]
        """
        return self.tally(rules, start, moves)

    def text(self, value: int) -> str:
        """A score in words: ``35 points``, ``-$37``, ``3 cards left``.

        >>> Scoring("books", "Books", "points", "10 a book", rules_score).text(1)
        '1 point'
        """
        if self.unit == "$":
            return f"-${-value}" if value < 0 else f"${value}"
        unit = self.unit
        if abs(value) == 1 and unit.endswith("s"):
            unit = unit[:-1] if " " not in unit else unit.replace("cards", "card")
        return f"{value} {unit}"

    def better(self, a: int, b: int) -> bool:
        """Whether score ``a`` beats score ``b`` (lower or higher, as the scoring says).

        >>> Scoring("left", "Cards left", "cards left", "", rules_score, lower_is_better=True).better(0, 3)
        True
        """
        return a < b if self.lower_is_better else a > b

    def as_json(self, value: int) -> dict[str, Any]:
        """The scoring and a score of it, as the web app sends them (see ``docs/web.md``).

        >>> sorted(Scoring("books", "Books", "points", "10 a book", rules_score).as_json(20))
        ['bank', 'lower_is_better', 'name', 'rule', 'text', 'title', 'unit', 'value']
        """
        return {
            "name": self.name,
            "title": self.title,
            "unit": self.unit,
            "rule": self.rule,
            "lower_is_better": self.lower_is_better,
            "bank": self.bank,
            "value": value,
            "text": self.text(value),
        }


def position_scoring(
    name: str = "score", title: str = "Score", unit: str = "points", rule: str = "", *, lower_is_better: bool = False
) -> Scoring:
    """A scoring that counts what the rules text scores from the position reached
    (:func:`rules_score`): the scoring of a game that declares no other.

    >>> position_scoring("cards-left", "Cards left", "cards left", lower_is_better=True).text(0)
    '0 cards left'
    """
    return Scoring(name, title, unit, rule, rules_score, lower_is_better=lower_is_better)


RULES_SCORE = position_scoring(rule="the score the rules give the position")
"""The scoring of a game that declares none: the rules' :meth:`~cardtable.core.rules.Rules.score`."""


def scores(
    scorings: Sequence[Scoring], rules: Rules[Any, Any], start: Any, moves: Sequence[Any]
) -> list[dict[str, Any]]:
    """Every scoring's score of a game, as JSON (:meth:`Scoring.as_json`), in the spec's order.

    >>> import cardtable
    >>> from cardtable.games import spec_for
    >>> r = cardtable.rules_for("devils-square")
    >>> [s["text"] for s in scores(spec_for("devils-square").scoring, r, r.deal(2), [])]
    ['0 points']
    """
    return [s.as_json(s.score(rules, start, moves)) for s in scorings]


__all__ = ["RULES_SCORE", "Scoring", "Tally", "final_position", "position_scoring", "rules_score", "scores"]

"""Hints: the next move of a winning line, or, failing that, a labelled heuristic move.

``hint(game, seconds)`` runs the solver on the current position within a short
budget. If it finds a winning line, the hint is that line's first move and the
position is *winnable*. If it proves that no line wins, the position *can no
longer be won* (a live status players value, as KPatience shows); the hint is
then the heuristic move, for a player who wants to play on. If the budget runs
out first, the hint is the heuristic move, labelled as such.

The heuristic move is the reference player's choice
(:func:`cardtable.levels.reference.obvious_step`): a move making immediate
progress when there is one (a card to a foundation or to the hand, a card turned
up), chosen by how good the position it leads to looks
(:mod:`cardtable.levels.position_value`), else the best-looking other move, the solver's
move order breaking ties; in Klondike a card the stock can bring to the waste is
reached by drawing, so the hint may be ``d``.

>>> import cardtable
>>> h = hint(cardtable.new_game("klondike", deal=8), seconds=10)
>>> h.source, h.status
('solver', 'winnable')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .bots.honest import HonestPlayer
from .core.game import Game
from .core.rules import Rules
from .levels.reference import obvious_step
from .solve.solver import check_game, solve

SOLVER = "solver"
HEURISTIC = "heuristic"


@dataclass(frozen=True)
class Hint:
    """A hint: the ``move`` to play (None when there is none), where it comes from
    (``source``: ``"solver"``, ``"heuristic"`` or, from :func:`honest_hint`, ``"honest"``), what the solver knows of the
    position (``status``: ``"won"``, ``"winnable"``, ``"lost"``: proved, or
    ``"unknown"``), a sentence for the player (``text``), and for a solver hint
    the whole winning ``line`` it starts (so the next hints along it are free).

    >>> Hint(None, "heuristic", "won", "The game is won.").line
    ()
    """

    move: Any
    source: str
    status: str
    text: str
    line: tuple[Any, ...] = ()


def heuristic_move(game: Game[Any, Any]) -> Any:
    """The reference player's first move in the current position, or None.

    >>> import cardtable
    >>> str(heuristic_move(cardtable.new_game("klondike", deal=0)))  # the ace of spades home
    '3f'
    """
    step = obvious_step(game.rules, game.state)
    return step[0][0] if step is not None and step[0] else None


def hint(game: Game[Any, Any], seconds: float = 2.0) -> Hint:
    """A hint for the current position of a one-player game (see the module docstring).

    >>> import cardtable
    >>> hint(cardtable.new_game("devils-square", deal=1), seconds=5).status  # proved lost
    'lost'
    """
    check_game(game)
    if game.rules.is_won(game.state):
        return Hint(None, HEURISTIC, "won", "The game is won.")
    result = solve(game, seconds=seconds)
    if result.solved:
        move = result.moves[0]
        text = f"Play {move}: it starts a winning line ({len(result.moves)} moves)."
        return Hint(move, SOLVER, "winnable", text, tuple(result.moves))
    move = heuristic_move(game)
    if result.verdict == "unsolvable":
        after = f" The heuristic move is {move}." if move is not None else " No move is left."
        return Hint(move, HEURISTIC, "lost", "This position can no longer be won." + after)
    if move is None:
        return Hint(None, HEURISTIC, "unknown", "No move is left.")
    return Hint(
        move,
        HEURISTIC,
        "unknown",
        f"Try {move} (heuristic: the solver found no winning line within {seconds:g} s).",
    )


# --- the plain hint: from what the player sees (issue 26) ----------------------------------

_HIDDEN = re.compile(r"<([^<>]+)>")
"""A face-down card in the position text (``core/layout.py``: ``<XX>``)."""


def seen_only(rules: Rules[Any, Any], state: Any) -> Any:
    """``state`` with its face-down cards (the stock's, the tableau's, a reserve's...) dealt
    again in one fixed order, the deck's: a position that depends only on what a player
    sees, since the face-down places and the cards not seen (the deck less the face-up
    cards) are all a player knows of them. Two positions a player cannot tell apart give
    the same one.

    >>> import cardtable
    >>> r = cardtable.rules_for("klondike"); s = r.deal(1)
    >>> t = seen_only(r, s)
    >>> r.piles(t)["7"][-1] == r.piles(s)["7"][-1], r.piles(t)["stock"] == r.piles(s)["stock"]
    (True, False)
    >>> seen_only(r, t) == t
    True
    """
    text = rules.to_text(state)
    hidden = _HIDDEN.findall(text)
    if not hidden:
        return state
    order = {rules.card_text(c): c for c in rules.deck()}
    cards = iter(sorted(hidden, key=lambda t: order.get(t, -1)))
    return rules.from_text(_HIDDEN.sub(lambda _: f"<{next(cards)}>", text))


def visible_hint(game: Game[Any, Any]) -> Hint:
    """The plain hint: the reference player's move (:func:`heuristic_move`) chosen from
    what the player sees only (:func:`seen_only`), so the face-down cards never change it;
    its ``text`` says the move in words (:meth:`~cardtable.core.rules.Rules.describe_move`).

    >>> import cardtable
    >>> h = visible_hint(cardtable.new_game("klondike", deal=0))
    >>> str(h.move), h.source, h.text
    ('3f', 'heuristic', 'Move A♠ to the spades foundation.')
    """
    legal = game.legal_moves()
    if game.rules.is_won(game.state):
        return Hint(None, HEURISTIC, "won", "The game is won.")
    if not legal:
        return Hint(None, HEURISTIC, "unknown", "No move is left.")
    step = obvious_step(game.rules, seen_only(game.rules, game.state))
    move = step[0][0] if step is not None and step[0] else None
    if move not in legal:  # the same moves are legal in both (they depend on the face-up cards only)
        move = legal[0]
    return Hint(move, HEURISTIC, "unknown", game.rules.describe_move(game.state, move) + ".")


# --- the honest hint: the honest player's move (issue 31) ------------------------------

HONEST = "honest"
HONEST_SECONDS = 0.5
"""The default wait of :func:`honest_hint`, in seconds (docs/benchmarks.md, "The honest
player": its measured wait per game)."""
HONEST_SAMPLES = 256
"""The most deals of the unseen cards :func:`honest_hint` imagines for each move it weighs (it
weighs no further round of them after its ``seconds``)."""


def honest_hint(game: Game[Any, Any], seconds: float | None = HONEST_SECONDS, samples: int = HONEST_SAMPLES) -> Hint:
    """The honest hint: the move the honest player (:mod:`cardtable.bots.honest`) would play
    here, seeing only what the player sees: the face-up cards, and the cards turned up
    earlier in this game (its positions so far, :meth:`~cardtable.core.game.Game.positions`;
    cards seen on lines taken back by undo are not counted). It weighs the moves it might play
    on up to ``samples`` deals of the unseen cards each, solved in rounds, for about ``seconds``
    (plus one round; None: no time limit, so that the hint depends on what the player has
    seen only, on any machine).
    ``source`` is ``"honest"``; ``status`` says what it found: ``"won"``, ``"unknown"``
    (the solver that sees the face-down cards, :func:`hint`, is the one that knows).

    >>> import cardtable
    >>> h = honest_hint(cardtable.new_game("klondike", deal=8))
    >>> str(h.move), h.source  # first a free look through the stock
    ('d', 'honest')
    """
    check_game(game)
    rules = game.rules
    player = HonestPlayer(rules, samples=samples, seconds=seconds)  # the budget checked first (OptionError)
    if rules.is_won(game.state):
        return Hint(None, HEURISTIC, "won", "The game is won.")
    for state in game.positions()[:-1]:
        player.memory.see(rules, state)
    move = player.choose(game.state)
    if move is None:
        if not game.legal_moves():
            return Hint(None, HONEST, "unknown", "No move is left.")
        # Every move leads back where this game has been: the reference player's move, from
        # what the player sees (the player may still play on).
        seen = visible_hint(game)
        return Hint(seen.move, HONEST, "unknown", seen.text[:-1] + ": every move leads back where this game has been.")
    won, tried = player.wins
    words = rules.describe_move(game.state, move)
    if tried == 0:
        text = f"{words}: a look at cards you have not seen, which costs nothing (the stock comes round to here again)."
    elif won:
        text = f"{words}: of {tried} ways the unseen cards may lie, {won} are still won after it."
    else:
        text = f"{words}: none of {tried} ways the unseen cards may lie was won (a move that makes progress)."
    return Hint(move, HONEST, "unknown", text)


# --- the solver's hint in words, saying what it looks at -----------------------------------

SEES_FACE_DOWN = "The solver sees the face-down cards: "
"""How every solver hint told to a player begins (the web table's, ``cardtable play``'s
``solver``): it says what it knows."""


def solver_words(game: Game[Any, Any], found: Hint) -> str:
    """The solver's hint ``found`` (from :func:`hint`) in words, after :data:`SEES_FACE_DOWN`:
    its move and what it knows of the position.

    >>> import cardtable
    >>> g = cardtable.new_game("devils-square", deal=1)
    >>> solver_words(g, hint(g, seconds=5)).split(". ")[0]
    'this position can no longer be won'
    """
    move = found.move
    words = None if move is None else game.rules.describe_move(game.state, move)
    if found.status == "winnable" and words is not None:
        return f"{words}: it starts a winning line ({len(found.line)} moves)."
    if found.status == "lost":
        tail = f" A move that looks good: {words}." if words is not None else " No move is left."
        return f"this position can no longer be won.{tail}"
    if found.status == "won":
        return "the game is won."
    if words is None:
        return "no move is left."
    return f"it found no winning line in its time. A move that looks good: {words}."

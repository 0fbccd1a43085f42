"""The interface every game implements: :class:`Rules`.

A game's rules are a class with no I/O: it deals a position from a deal
number, lists the legal moves of a position, applies a move, reads and writes
moves and positions as text, and says whether a position is won. Positions
("states") are immutable and hashable values (tuples of ints, mostly), so undo
is exact, solvers can use them as keys, and :mod:`cardtable.core.progress`
can search them. Moves are small immutable values whose ``str`` is their
notation and that :meth:`Rules.parse_move` reads back.

Everything else (play, undo, save files, over detection, CLI, solvers, bots)
is written once against this interface.

>>> from cardtable.games import rules_for
>>> rules = rules_for("klondike")
>>> state = rules.deal(1)
>>> rules.parse_move(str(rules.legal_moves(state)[0])) == rules.legal_moves(state)[0]
True
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, cast

from .errors import IllegalMoveError, MoveParseError
from .inputs import quote
from .options import Option, resolve_options

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Pile = list[tuple[int, bool]]
"""A pile for display: ``(card, face_up)`` pairs, bottom first."""

_PLAIN: frozenset[type] = frozenset(
    {type(None), bool, int, float, complex, str, bytes, bytearray, list, tuple, dict, set, frozenset}
)
"""Built-in classes no game's move is of (a game's moves have a class of their own)."""


class PileMove(Protocol):
    """A move from one pile to another (Klondike, Demonthief, Devil's Square moves are).

    >>> from cardtable.games.klondike import DRAW
    >>> isinstance(DRAW.src, int) and isinstance(DRAW.dst, int)
    True
    """

    @property
    def src(self) -> int:
        """The pile the cards leave (``KlondikeMove(2, 4, 1).src == 2``)."""

    @property
    def dst(self) -> int:
        """The pile the cards go to (``KlondikeMove(2, 4, 1).dst == 4``)."""


PM = TypeVar("PM", bound=PileMove)


class MovePlaces(NamedTuple):
    """Where a move happens on the table: the display piles it leaves (``src``) and
    reaches (``dst``), named as the rules' :meth:`~Rules.display` names them; how many
    cards it moves (``n``: 0 for a move of the stock as a whole, a draw or a redeal;
    not ``count``, which a tuple has already); and, for a move that takes one chosen
    card out of a hand (Deserto), that ``card``. See :meth:`Rules.move_places`.

    >>> MovePlaces("w", "3", 1)
    MovePlaces(src='w', dst='3', n=1, card=None)
    """

    src: str
    dst: str
    n: int
    card: int | None = None


def drop_count(piles: Mapping[str, Pile], src: str, index: int, dst: str) -> int:
    """How many cards a drop takes: those from position ``index`` (0: the bottom card) of
    pile ``src`` up, dropped on pile ``dst`` (``piles`` by name, as :meth:`Rules.piles`
    gives them). Raises :class:`MoveParseError` for a drop no move can have the shape of:
    a pile that is not on the table, the same pile, no card at ``index``, a face-down card.

    >>> piles = {"1": [(0, False), (1, True)], "2": []}
    >>> drop_count(piles, "1", 1, "2")
    1
    >>> drop_count(piles, "1", 0, "2")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.MoveParseError: a face-down card cannot be moved
    """
    check_pile_names(src, dst)
    for name in (src, dst):
        if name not in piles:
            raise MoveParseError(f"no pile {quote(name)} on this table")
    if src == dst:
        raise MoveParseError("the cards are already on that pile")
    pile = piles[src]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(pile):
        raise MoveParseError(f"pile {src} has no card {quote(index)}")
    if not pile[index][1]:
        raise MoveParseError("a face-down card cannot be moved")
    return len(pile) - index


def check_pile_names(*names: object) -> None:
    """Raise ``TypeError`` unless every name is text (a pile of :meth:`Rules.display` is named so).

    >>> check_pile_names("1", "fs")
    >>> check_pile_names("1", ["fs"])
    Traceback (most recent call last):
    ...
    TypeError: a pile is named by text (a str), not list
    """
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a pile is named by text (a str), not {type(name).__name__}")


def replace_at(values: tuple[Any, ...], i: int, value: Any) -> Any:
    """``values`` with item ``i`` replaced: the one-pile update of an immutable state.

    >>> replace_at((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return values[:i] + (value,) + values[i + 1 :]


def any_count(legal: list[PM], move: PM, text: str) -> PM:
    """For move text typed without a ``:count``: the only legal move with the same
    source and target as ``move``, whatever its count; otherwise ``move`` itself.

    >>> from cardtable.games.klondike import KlondikeMove
    >>> str(any_count([KlondikeMove(2, 4, 3)], KlondikeMove(2, 4, 1), "35"))
    '35:3'
    """
    if ":" not in text:
        same_ends = [m for m in legal if m.src == move.src and m.dst == move.dst]
        if len(same_ends) == 1:
            return same_ends[0]
    return move


class Rules(ABC, Generic[S, M]):
    """The rules of one game with fixed options.

    Subclasses set the class attributes and implement the abstract methods.
    ``Rules(**options)`` checks the options (see :mod:`cardtable.core.options`).

    >>> from cardtable.games import rules_for
    >>> rules_for("klondike", draw=1).options["draw"]
    1
    """

    name: ClassVar[str]
    """The game's name in :data:`cardtable.GAMES`."""
    title: ClassVar[str]
    """The game's name for people."""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    """The game's options, in the order they are shown."""
    RULES_VERSION: ClassVar[int] = 1
    """Bumped whenever a change would make old save files replay differently."""
    NOTATION: ClassVar[str] = ""
    """A short description of the move notation, shown by the CLI."""
    FORMATS: ClassVar[tuple[str, ...]] = ("cardtable",)
    """The position text formats :meth:`to_text` writes (and :meth:`from_text` reads)."""
    MOVE_TYPE: ClassVar[type | None] = None
    """The class of the game's moves (None: the class of what :meth:`parse_move` reads);
    :meth:`move_of` refuses a value of any other class."""
    COUNT_OPTIONAL: ClassVar[bool] = False
    """Whether a move of cards from one pile to another may be typed without its count
    (``35`` for ``35:3``) where one legal move joins those piles (:meth:`resolve`); the
    game's moves then have ``src`` and ``dst`` fields."""

    def __init__(self, /, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.name, self.OPTIONS, options)

    # --- positions ------------------------------------------------------

    @abstractmethod
    def deal(self, deal: int) -> S:
        """The starting position of deal number ``deal``."""

    @abstractmethod
    def to_text(self, state: S, format: str = "cardtable") -> str:
        """The full position as text (face-down cards included, marked)."""

    @abstractmethod
    def from_text(self, text: str) -> S:
        """Read a position written by :meth:`to_text`; raise ``LayoutError`` if it is not one."""

    @abstractmethod
    def cards(self, state: S) -> list[int]:
        """Every card of the position, wherever it is (for invariant checks)."""

    @abstractmethod
    def deck(self) -> list[int]:
        """The game's full deck, in its documented order before shuffling."""

    @abstractmethod
    def card_text(self, card: int) -> str:
        """Text of one card of this game's deck."""

    @abstractmethod
    def display(self, state: S) -> list[list[tuple[str, Pile]]]:
        """The position for a screen: rows of named piles, each pile bottom first.

        Face-down cards are included with ``face_up`` False; a UI must not
        show what they are.
        """

    def status(self, state: S) -> list[str]:
        """Extra facts a player should see (redeals left, score...), one per line.

        >>> from cardtable.games import rules_for
        >>> isinstance(rules_for("klondike").status(rules_for("klondike").deal(0)), list)
        True
        """
        return []

    # --- moves ------------------------------------------------------------

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal move in the position, in the game's documented order."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The position after a legal ``move`` (the caller has checked legality)."""

    @abstractmethod
    def explain_illegal(self, state: S, move: M) -> str:
        """Why ``move``, which is not legal in ``state``, is illegal (naming the rule)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in the game's notation; raise ``MoveParseError`` if it is not one.

        ``parse_move(str(m)) == m`` for every move ``m``.
        """

    def move_of(self, value: object) -> M:
        """``value``, a move value, as this game's own move: the move :meth:`parse_move` reads
        from its text (``parse_move(str(m)) == m`` for every move ``m``).

        Raises ``TypeError`` for a value that is not of the class of the game's moves
        (:attr:`MOVE_TYPE`; text, a plain tuple equal to a move, a number...), and
        :class:`MoveParseError` for a value of that class that is not a move of this game
        (a pile out of range).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); m = r.parse_move("35")
        >>> r.move_of(m) == m, type(r.move_of(m)).__name__
        (True, 'KlondikeMove')
        >>> r.move_of((2, 4, 1))
        Traceback (most recent call last):
        ...
        TypeError: klondike plays a KlondikeMove or the text of a move, not tuple (2, 4, 1)
        """
        kind = self.MOVE_TYPE
        if type(value) in _PLAIN or (kind is not None and type(value) is not kind):
            raise TypeError(self._not_a_move(value))
        try:
            text = str(value)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            raise MoveParseError(f"not a {self.name} move: {quote(value)}") from None
        try:
            move = self.parse_move(text)
        except MoveParseError:
            if kind is None:
                raise TypeError(self._not_a_move(value)) from None
            raise MoveParseError(f"not a {self.name} move: {quote(value)}") from None
        if type(move) is not type(value):
            raise TypeError(self._not_a_move(value))
        if move != value:
            raise MoveParseError(f"not a {self.name} move: {quote(value)}")
        return move

    def _not_a_move(self, value: object) -> str:
        """The message of :meth:`move_of`'s ``TypeError``."""
        kind = "move" if self.MOVE_TYPE is None else self.MOVE_TYPE.__name__
        return f"{self.name} plays a {kind} or the text of a move, not {type(value).__name__} {quote(value)}"

    def resolve(self, state: S, text: str) -> M:
        """Read move text in a position: like :meth:`parse_move`; in a game whose
        counts are optional (:data:`COUNT_OPTIONAL`), a move typed without its count also
        means the only legal move between those piles, however many cards it takes.

        >>> from cardtable.games import rules_for
        >>> r, d = rules_for("klondike"), rules_for("devils-square")
        >>> str(r.resolve(r.deal(0), "d")), str(d.resolve(d.deal(0), "C1B1"))
        ('d', 'c1b1')
        """
        move = self.parse_move(text)
        if self.COUNT_OPTIONAL and ":" not in text:
            legal: list[Any] = self.legal_moves(state)  # moves with src and dst (COUNT_OPTIONAL)
            found: M = any_count(legal, cast(Any, move), text)
            return found
        return move

    def move_places(self, state: S, move: M) -> MovePlaces:
        """Where the legal ``move`` happens on the table of ``state`` (see :class:`MovePlaces`):
        each game says it from the move's fields (a move "to its foundation" names the
        foundation that takes the card). A game that does not say raises
        ``NotImplementedError``.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); s = r.deal(0)
        >>> r.move_places(s, r.parse_move("3f"))
        MovePlaces(src='3', dst='fs', n=1, card=None)
        """
        raise NotImplementedError(f"{self.name} does not say which piles a move touches")

    def piles(self, state: S) -> dict[str, Pile]:
        """The piles of :meth:`display`, by name.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); len(r.piles(r.deal(0))["7"])
        7
        """
        return {name: pile for row in self.display(state) for name, pile in row}

    def drop_move(self, state: S, src: str, index: int, dst: str) -> M:
        """The move meant by dropping the cards from position ``index`` (0: the bottom
        card) of display pile ``src`` up onto display pile ``dst``, as a player does with
        cards on a table. The move may be illegal: :meth:`Game.play
        <cardtable.core.game.Game.play>` checks it, and says why.

        Raises :class:`MoveParseError` for a drop no move of the game has the shape of
        (no such pile, no card at ``index``, a face-down card, the same pile, a pile no
        card goes to, part of what moves only whole...), and :class:`IllegalMoveError`
        for a legal move dropped on a pile that cannot stand for the one the rules
        choose (a card dropped on another suit's foundation). Shared checks here
        (:func:`drop_count`), each game's moves in its ``_drop_move``.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); s = r.deal(0)
        >>> str(r.drop_move(s, "3", 2, "fs")), str(r.drop_move(s, "7", 6, "1"))
        ('3f', '71')
        >>> r.drop_move(s, "3", 2, "w")
        Traceback (most recent call last):
        ...
        cardtable.core.errors.MoveParseError: no card may be put on the waste
        """
        return self._drop_move(state, src, drop_count(self.piles(state), src, index, dst), dst)

    def _drop_move(self, state: S, src: str, count: int, dst: str) -> M:
        """The move of :meth:`drop_move` once the shared checks passed: ``count`` cards
        from the top of pile ``src`` onto pile ``dst``. Each game says it."""
        raise NotImplementedError(f"{self.name} does not say which move a drop of cards makes")

    def _check_chosen_pile(self, state: S, move: M, dropped_on: str, where: Callable[[str], str]) -> None:
        """For ``move``, whose target pile the rules choose (Klondike's and Demonthief's
        "to its foundation"), dropped on pile ``dropped_on``: raise
        :class:`IllegalMoveError` when the move is legal but goes to another pile that
        ``dropped_on`` cannot stand for. An empty pile, or one with the same top card as
        the chosen one, is as good (so a player never has to hunt for the very one).
        ``where(name)`` names a pile in the message."""
        if move not in self.legal_moves(state):
            return  # illegal: Game.play explains why
        chosen = self.move_places(state, move).dst
        piles = self.piles(state)
        here, there = piles[dropped_on], piles[chosen]
        if chosen == dropped_on or not here or (there and here[-1][0] == there[-1][0]):
            return
        raise IllegalMoveError(f"that card goes to {where(chosen)}, not here")

    def auto_move(self, state: S) -> M | None:
        """The move the game's automatic-play option makes now, if any (default none).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike")
        >>> Rules.auto_move(r, r.deal(0)) is None
        True
        """
        return None

    # --- what a player sees ------------------------------------------------

    def face_down(self, state: S) -> tuple[int, ...]:
        """The cards lying face down, in a fixed order of their places: every card
        :meth:`display` shows face down, row by row, pile by pile, bottom first (so a
        game's stock, whose cards may have been seen on an earlier pass, comes before
        the piles whose face-down cards have never been seen). A player who cannot
        see them knows only how many there are and where (see
        :mod:`cardtable.bots.honest`).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); len(r.face_down(r.deal(0)))  # 24 in the stock, 21 in the piles
        45
        """
        return tuple(card for row in self.display(state) for _, pile in row for card, up in pile if not up)

    def with_face_down(self, state: S, cards: Sequence[int]) -> S:
        """The position ``state`` with ``cards`` in its face-down places, in the order
        of :meth:`face_down` (everything face up stays as it is): how a player who
        cannot see them imagines another deal consistent with what it has seen. A
        game that lets such a player play it implements this; the default refuses.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); s = r.deal(0)
        >>> r.with_face_down(s, r.face_down(s)) == s
        True
        """
        raise NotImplementedError(f"{self.name} cannot place other cards face down")

    def reversible(self, state: S, move: M) -> bool:
        """Whether the legal ``move`` can be taken back: it changes no part of
        :meth:`progress` and some legal move of the position after it leads straight back
        to ``state`` (the default; a game where more can be taken back, such as Klondike's
        draws when the stock comes round again, says so). A move that turns up a card is
        never reversible. The honest player (:mod:`cardtable.bots.honest`) weighs only the
        moves that are not.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado"); s = r.deal(0)
        >>> any(r.reversible(s, m) for m in r.legal_moves(s)) in (True, False)
        True
        """
        after = self.apply(state, move)
        if self.progress(after) != self.progress(state):
            return False
        return any(self.apply(after, back) == state for back in self.legal_moves(after))

    def takes_back(self, state: S, move: M) -> bool:
        """Whether the legal ``move``, though it changes :meth:`progress` (so it is not
        :meth:`reversible`), is undone by a legal move of the position after it, which
        leads straight back to ``state`` (in Klondike: a card back from its foundation, or
        a card sent home from a face-up card it can return to). The honest player
        (:mod:`cardtable.bots.honest`) passes through such moves as through reversible ones:
        weighed on samples whose solver sees every card, a move that can be undone at once
        is worth what the position itself is, at least as much as any move that cannot.
        False by default: a game where such moves exist says so.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado"); s = r.deal(0)
        >>> any(r.takes_back(s, m) for m in r.legal_moves(s))
        False
        """
        return False

    def look_through(self, state: S) -> list[M]:
        """Moves that turn up face-down cards and then bring the position back exactly as
        it was (in Klondike with unlimited redeals: draw through the stock, redeal,
        draw back to the same waste), so that a player may look at them for free; an
        empty list when there are none (the default).

        >>> from cardtable.games import rules_for
        >>> rules_for("devils-square").look_through(rules_for("devils-square").deal(0))
        []
        """
        return []

    # --- the end ----------------------------------------------------------

    @abstractmethod
    def is_won(self, state: S) -> bool:
        """Whether the position is won."""

    def move_limit_reached(self, state: S) -> bool:
        """Whether the game's move limit is reached in ``state`` (the game is then over,
        ended by :attr:`~cardtable.core.game.Ending.MOVE_LIMIT`). A game or option with a
        move limit counts the moves in its positions, lists no legal move once the limit
        is reached, and says so here. No built-in game has a move limit: False.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); r.move_limit_reached(r.deal(0))
        False
        """
        return False

    @abstractmethod
    def progress(self, state: S) -> tuple[int, ...]:
        """The game's progress measure: a position makes progress over another
        when any component is larger. Over detection searches for such a
        position (see :mod:`cardtable.core.progress`)."""

    def one_way(self, state: S) -> tuple[int, ...]:
        """Counts that no move lowers, raised by the moves that change the position for
        good beyond :meth:`progress` (a card out of the stock, a pile that can never be
        what it was): the rules end a game only when no move can change the position,
        so over detection counts these as progress too (:func:`~cardtable.core.progress.end_measure`).
        Rewards, the bots and the levels read :meth:`progress` alone. None: ``()``.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); r.one_way(r.deal(0))
        (-24, -6)
        """
        return ()

    ONE_WAY_COMPLETE: bool = True
    """Whether every move that cannot be taken back raises :meth:`progress` or
    :meth:`one_way` (Klondike's stock cycling aside, which its rules exempt). When not,
    over detection also asks whether every position reachable without progress can
    come back to the one asked about (:func:`~cardtable.core.progress.can_progress`)."""

    OVER_SEES_HIDDEN: bool = True
    """Whether the exact "over" (:attr:`~cardtable.core.game.Game.outcome`) may depend on
    cards the player cannot see (:meth:`face_down`). False only where the over search never
    brings a face-down card into play: every move that would (a draw, a card turned up, a
    deal) is progress or one-way, where the search stops. A table then tells the game over
    as the rules end it, when no move can change the position
    (:attr:`~cardtable.core.game.Game.seen_outcome`); where it may depend on them (Klondike:
    the search turns the stock round, whose order the player may not know), only when no
    legal move is left."""

    @abstractmethod
    def score(self, state: S) -> int:
        """The score of the position, as the game's docs define it."""

    # --- helpers ----------------------------------------------------------

    def option_text(self) -> str:
        """The options as ``name=value`` words, for messages and titles.

        >>> from cardtable.games import rules_for
        >>> rules_for("klondike").option_text()
        'draw=3 redeals=unlimited foundation_return=on numbering=cardtable autoplay=off'
        """
        spec = {o.name: o for o in self.OPTIONS}
        return " ".join(f"{k}={spec[k].show(v)}" for k, v in self.options.items())

    @classmethod
    def option_spec(cls) -> Sequence[Option]:
        """The game's option declarations.

        >>> from cardtable.games import rules_for
        >>> [o.name for o in type(rules_for("klondike")).option_spec()][:2]
        ['draw', 'redeals']
        """
        return cls.OPTIONS

    # --- in words, as a player says them (issue 26) -----------------------------------------

    def card_name(self, card: int) -> str:
        """A card as a player reads it in a sentence (French cards: ``10♦``); by default
        its text.

        >>> from cardtable.games import rules_for
        >>> rules_for("klondike").card_name(9 + 13), rules_for("devils-square").card_name(0)
        ('10♦', 'yellow 1 of keys')
        """
        return self.card_text(card)

    def pile_name(self, name: str) -> str:
        """A pile of :meth:`display` in words ("pile 3", "the hearts foundation"); by default
        ``pile NAME``.

        >>> from cardtable.games import rules_for
        >>> rules_for("klondike").pile_name("fh"), rules_for("desturado").pile_name("b")
        ('the hearts foundation', 'column b')
        """
        return f"pile {name}"

    def names_target(self, name: str) -> bool:
        """Whether a card put on pile ``name`` is said to go *to the pile* (a foundation:
        "to the hearts foundation") rather than *onto its top card* ("onto J♣"). Default:
        onto the top card.

        >>> from cardtable.games import rules_for
        >>> rules_for("klondike").names_target("fh"), rules_for("klondike").names_target("3")
        (True, False)
        """
        return False

    def describe_move(self, state: S, move: M) -> str:
        """The legal ``move`` of ``state`` in words, as a player says it: "Move 10♦ onto J♣",
        "Move K♠ to pile 4 (empty)", "Draw three cards", "Turn the waste over". The notation
        (``str(move)``) stays for the move box, saves and the API; a table speaks these.

        Written once from :meth:`move_places`, :meth:`card_name` and :meth:`pile_name`: a move
        of ``n`` cards names its lowest card (and how many lie on it) and the top card it goes
        onto, or the pile it goes to (a foundation, an empty pile); a move of the stock as a
        whole is a draw (how many cards it turns) or a turn of the waste. A game whose moves
        say more overrides it (Deserto's captures); a game without :meth:`move_places` says
        "Play" and the notation.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); s = r.deal(0)
        >>> [r.describe_move(s, r.parse_move(m)) for m in ("3f", "d")]
        ['Move A♠ to the spades foundation', 'Draw three cards']
        """
        try:
            where = self.move_places(state, move)
        except NotImplementedError:
            return f"Play {move}"
        piles = self.piles(state)
        if where.n == 0:
            after = self.piles(self.apply(state, move))
            turned, landed = len(piles[where.src]) - len(after[where.src]), after[where.dst]
            if not landed or not landed[-1][1]:
                return f"Turn the {self.pile_name(where.src).removeprefix('the ')} over"
            return "Draw a card" if turned == 1 else f"Draw {number_words(turned)} cards"
        source = piles[where.src]
        card = where.card if where.card is not None else source[len(source) - where.n][0]
        text = f"Move {self.card_name(card)}"
        if where.n > 1:
            text += " and the card on it" if where.n == 2 else f" and the {number_words(where.n - 1)} cards on it"
        target = piles[where.dst]
        if self.names_target(where.dst) or not target or not target[-1][1]:
            empty = "" if target or self.names_target(where.dst) else " (empty)"
            return f"{text} to {self.pile_name(where.dst)}{empty}"
        return f"{text} onto {self.card_name(target[-1][0])}"

    def pile_notes(self, state: S) -> dict[str, str]:
        """Short words a table writes on piles of :meth:`display`, by name (Demonthief's base
        rank on its foundations); by default none.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); r.pile_notes(r.deal(0))
        {}
        """
        return {}

    def aside(self, state: S) -> list[tuple[str, Pile]]:
        """Cards out of play that a table shows beside :meth:`display`'s piles, as named
        piles (Devil's Square's completed books); by default none. No move reaches them.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); r.aside(r.deal(0))
        []
        """
        return []

    def in_words(self, text: str) -> str:
        """``text`` (an explanation of the rules, a refusal) with every card written in its
        notation (``TH``, ``3GK``) replaced by its :meth:`card_name`.

        >>> from cardtable.games import rules_for
        >>> rules_for("klondike").in_words("rule 3: 9C cannot go on TH")
        'rule 3: 9♣ cannot go on 10♥'
        """
        names = {self.card_text(c): self.card_name(c) for c in set(self.deck())}
        return _CARD_TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    def explain_in_words(self, state: S, move: M) -> str:
        """Why ``move`` is illegal in ``state`` (:meth:`explain_illegal`), in words: cards by
        their names and the rule's number at the end.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); r.explain_in_words(r.deal(0), r.parse_move("r"))
        'redeal only when the stock is empty (draw with d) (rule 2)'
        """
        text = self.in_words(self.explain_illegal(state, move))
        found = _RULE_PREFIX.match(text)
        return f"{text[found.end() :]} (rule {found.group(1)})" if found else text


_CARD_TOKEN = re.compile(r"\b[0-9A-Z]{2,3}\b")
"""A word that may be a card in notation (``TH``, ``3GK``): checked against the deck."""

_RULE_PREFIX = re.compile(r"^rule (\d+): ")

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_words(n: int) -> str:
    """A count in words up to twelve, in digits above.

    >>> number_words(3), number_words(25)
    ('three', '25')
    """
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)

"""What a game declares, once, for every layer: :class:`GameSpec`.

A game is its rules class (:class:`~cardtable.core.rules.Rules`) plus one
:class:`GameSpec` beside it, in the game's own module. The spec says what the
layers around the core need to know of the game and would otherwise keep in
tables of their own: how its table is drawn in the browser (:class:`TableSpec`),
its fixed action space for research, its search space and compiled core for the
solver, its deal-level keys and grading helpers, its Gymnasium and OpenSpiel
names, and the bots that can play it. Every layer's registry is built from the
one list of games (:func:`cardtable.games.specs`), and a layer that cannot serve
a game says so by asking its spec (a field left ``None``).

The core never imports a layer above it: where a spec names code of another
layer (the solver's search space, the grading's reference player, a research
encoder), it names it by import path, ``"package.module:attribute"``, and the
layer that uses it resolves the path with :func:`resolve`.

>>> from cardtable.games import spec_for
>>> spec = spec_for("klondike")
>>> spec.one_player, spec.gymnasium_id, spec.table.width
(True, 'cardtable/Klondike-v0', 7)
>>> [k.label for k in spec.level_keys]
['klondike-draw3', 'klondike-draw1']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .scoring import RULES_SCORE, Scoring

if TYPE_CHECKING:
    from .rules import Rules


@dataclass(frozen=True)
class Place:
    """Where a pile lies on the table and how it behaves: ``kind`` (stock, waste,
    foundation, tableau, reserve, hand, cell, draw, area, deck, won), grid ``x`` and row
    ``y`` (in card widths and table rows), ``fan`` (none, down, right, waste), ``grab``
    (none; top: only the top card; group: any face-up card and those above it; unit:
    the whole face-up part; single: any one card) and the label read to a screen reader;
    on a multi-player table, ``seat``: the seat whose pile it is (a hand, winnings;
    None for the table's own piles), which the browser names under it.

    >>> Place("tableau", 0, 1, "down", "group", "pile 1").fan
    'down'
    >>> Place("hand", 2, 3, "right", "single", "your hand", seat=0)
    Place(kind='hand', x=2, y=3, fan='right', grab='single', label='your hand', seat=0)
    """

    kind: str
    x: float
    y: int
    fan: str
    grab: str
    label: str
    seat: int | None = None

    def __repr__(self) -> str:
        seat = "" if self.seat is None else f", seat={self.seat}"
        return (
            f"Place(kind={self.kind!r}, x={self.x!r}, y={self.y!r}, fan={self.fan!r}, grab={self.grab!r}, "
            f"label={self.label!r}{seat})"
        )


@dataclass(frozen=True)
class TableSpec:
    """How a game's table is drawn in the browser.

    ``width`` is the table's width in card widths; ``place(name)`` gives the
    :class:`Place` of the pile the rules' ``display`` names ``name`` (for a
    multi-player game, ``place(name, viewer, players)`` places the piles of a seat's
    view, seen from ``viewer``); ``cards`` is the family of card faces the browser
    draws (``french``, ``kings-keys``, ``deserto``); ``back`` the colour of the backs;
    ``areas`` the words written over the table's areas, by pile kind, where the game
    calls an area otherwise than the browser's default for its kind (Desturado's
    tableau is its "board").

    >>> from cardtable.games import spec_for
    >>> spec_for("devils-square").table.place("b2").label
    'square b2'
    >>> spec_for("desturado").table.areas["tableau"]
    'board'
    """

    width: float
    place: Callable[..., Place]
    cards: str = "french"
    back: str = "#2a4d9b"
    areas: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class LevelKey:
    """A game and mode with its own deal-level thresholds and deal tables: the game,
    and the option that changes its difficulty most with its value (``option`` None:
    the game has no such option). ``label`` names it in files.

    >>> LevelKey("klondike-draw3", "klondike", "draw", 3).options()
    {'draw': 3}
    """

    label: str
    game: str
    option: str | None = None
    value: Any = None

    def options(self) -> dict[str, Any]:
        """The key's option as keyword arguments for :func:`~cardtable.games.rules_for`.

        >>> LevelKey("devils-square", "devils-square").options()
        {}
        """
        return {} if self.option is None else {self.option: self.value}


@dataclass(frozen=True)
class GameSpec:
    """Everything the layers need to know of one game (see the module docstring).

    Only ``name`` and ``rules`` are required; every other field has the default a new
    game gets without asking for more (no browser table, no action space, the solver's
    generic search over the rules, one level key at the default options...).

    >>> from cardtable.games import spec_for
    >>> s = spec_for("deserto")
    >>> s.one_player, s.seats, s.bots
    (False, (2, 4), ('random', 'greedy', 'ismcts'))
    """

    name: str
    """The game's name in :func:`cardtable.games.names` (and ``cardtable.GAMES``)."""
    rules: type[Rules[Any, Any]]
    """The rules class."""
    seats: tuple[int, int] = (1, 1)
    """The fewest and most seats (players) a table of the game has."""
    table: TableSpec | None = None
    """How the browser draws the game (None: the web app does not offer it)."""
    action_moves: Callable[[Rules[Any, Any]], Sequence[Any]] | None = None
    """Every move the game can ever have, in a fixed order: the research action space
    (None: no action space). Called once per value of :attr:`action_options`."""
    action_options: tuple[str, ...] = ()
    """The options whose values change the action space (Desturado's ``mode``)."""
    search_space: str = "cardtable.solve.spaces:RulesSpace"
    """The solver's search space: a callable taking the rules (import path)."""
    solver_space: str | None = None
    """The space ``solve()`` searches, when not :attr:`search_space` (Klondike's class space;
    Desturado's proving space, which leaves out the children :attr:`lost` proves lost)."""
    native: str | None = None
    """The module of the space's compiled core, with a ``search(space, start, budget)``."""
    lost: str | None = None
    """A proof without search that a position is lost: ``f(state, **options) -> bool``
    (import path), given the values of :attr:`lost_options` as keywords."""
    lost_options: tuple[str, ...] = ()
    """The options :attr:`lost` takes (Klondike's ``draw``)."""
    level_keys: tuple[LevelKey, ...] | None = ()
    """The deal-level keys; ``()``: one key at the default options, named after the game;
    None: the game has no levels (a multi-player game)."""
    reference_player: str | None = None
    """The grading's reference player's moves, when not the eager search: a class taking
    the rules (import path)."""
    appeal: str | None = None
    """How good a position looks to the reference player: ``f(state) -> float``."""
    observation: str | None = None
    """The research observation encoder, a class taking the rules (None: the generic one)."""
    gymnasium_id: str | None = None
    """The Gymnasium id of a one-player game (``cardtable/Klondike-v0``)."""
    openspiel_name: str | None = None
    """The OpenSpiel short name (``cardtable_klondike``)."""
    openspiel_game: str | None = None
    """The OpenSpiel game class of a game that models its chance its own way (import path;
    Deserto's deals and draws a card at a time); None: the generic one (the deal is one
    chance node)."""
    bots: tuple[str, ...] = ()
    """The bots that can play a multi-player game, first the default opponent."""
    variants: tuple[Mapping[str, Any], ...] = field(default_factory=lambda: (MappingProxyType({}),))
    """The option sets that make the game's distinct modes (tests and benchmarks run each)."""
    scoring: tuple[Scoring, ...] = (RULES_SCORE,)
    """The ways the game is scored (see :mod:`cardtable.core.scoring`), the default first:
    Klondike's Standard and Vegas; a game's rules-text score otherwise."""

    @property
    def one_player(self) -> bool:
        """Whether the game is for one player.

        >>> from cardtable.games import spec_for
        >>> spec_for("desturado").one_player
        True
        """
        return self.seats == (1, 1)

    @property
    def title(self) -> str:
        """The game's name for people.

        >>> from cardtable.games import spec_for
        >>> spec_for("devils-square").title
        "Devil's Square"
        """
        return self.rules.title

    def keys(self) -> tuple[LevelKey, ...]:
        """The game's deal-level keys (see :attr:`level_keys`); ``()`` for a game without levels.

        >>> from cardtable.games import spec_for
        >>> [k.label for k in spec_for("demonthief").keys()], spec_for("deserto").keys()
        (['demonthief'], ())
        """
        if self.level_keys is None:
            return ()
        return self.level_keys or (LevelKey(self.name, self.name),)


def resolve(path: str) -> Any:
    """The object an import path ``"package.module:attribute"`` names.

    >>> resolve("cardtable.core.spec:resolve") is resolve
    True
    """
    module, _, attribute = path.partition(":")
    return getattr(import_module(module), attribute)


__all__ = ["GameSpec", "LevelKey", "Place", "TableSpec", "resolve"]

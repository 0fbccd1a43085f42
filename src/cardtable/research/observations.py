"""Fixed-shape numeric observations of what a player can see, and the same as text.

Nothing hidden is ever encoded: a face-down card, the order of a stock or a
draw pile, another seat's hand or the deck are unknown to the player and do
not change an observation (a test changes exactly those and compares).

**One-player games** (:class:`SolitaireEncoder`), from the rules' ``display``
(the piles a screen shows, each card with its face-up flag), as a flat
``int16`` vector of ``piles * deck + 2`` numbers:

======================== ==================================================
numbers                  meaning
======================== ==================================================
``pile * deck + k``      card ``k`` (0 the bottom) of pile ``pile`` (piles in
                         ``display`` order, :attr:`SolitaireEncoder.piles`):
                         0 no card, 1 face down, ``2 + card`` face up (cards
                         numbered as in :mod:`cardtable.core.cards`: French
                         cards 0-51 by suit C D H S then rank, King's Keys
                         cards 0-63)
``piles * deck``         redeals used (Klondike, Demonthief; 0 elsewhere)
``piles * deck + 1``     progress: cards on the foundations (Klondike,
                         Demonthief), cards in the hand (Desturado), books
                         made (Devil's Square)
======================== ==================================================

Sizes: Klondike 13 piles x 52 + 2 = 678; Demonthief and Demons and Thieves
20 x 104 + 2 = 2082; Desturado 10, 8 or 7 piles x 40 + 2; Devil's Square
17 x 64 + 2 = 1090.

**Deserto** (:class:`DesertoEncoder`), for one seat, from its view, the
captured cards (public: every seat saw the piles won) and the gifts that
seat gave or received, as ``int16`` numbers, seats counted from the
observer (0 the observer, 1 the next seat...; seats beyond ``players`` are 0):

=========== ==========================================================
numbers     meaning
=========== ==========================================================
0-3         own hand: oases, viziers, thieves, treasures held
4-23        the area, per position 1-4: top card one-hot (empty, O, V, T, G)
24-27       the area's pile heights
28          cards in the deck
29-32       each seat's hand size
33-36       each seat's winnings (cards won: captured and given)
37-52       each seat's captured cards by kind (4 per seat)
53-56       gifts the observer received, by kind
57-60       gifts the observer gave, by kind
61-64       cards the observer has not seen, by kind (the deck, the other
            hands, the gifts between other seats)
=========== ==========================================================

**Another multi-player game** (:class:`ViewEncoder`, the generic one): the
seat's view (the rules' ``view``, without the move history) flattened into a
fixed number of ``int16`` numbers, in the order of the view's fields: a number
is itself (a flag 0/1, nothing ``-1``); a list is its length, then room for as
many items as the game has cards (every list of a card game's table is at most
its deck), the unused room 0; a record (a named tuple, a mapping) its fields in
order. The shape of the view is learned from the views of a few positions of a
random game. A view with text in it cannot be flattened: such a game declares
its own encoder.

Which encoder a game gets is its declaration's: the ``observation`` of its
:class:`~cardtable.core.spec.GameSpec` (an import path; Deserto's is
:class:`DesertoEncoder`), or the generic one for its number of players
(:func:`solitaire_encoder`, :func:`seat_encoder`).

>>> import cardtable
>>> g = cardtable.new_game("devils-square", deal=0)
>>> enc = SolitaireEncoder(g.rules)
>>> enc.size, enc.encode(g.state)[16 * 64 : 16 * 64 + 3].tolist()  # the draw pile: face down
(1090, [1, 1, 1])
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from ..core.errors import OptionError
from ..core.multiplayer import MultiplayerRules
from ..core.rules import Rules
from ..core.spec import resolve
from ..games import spec_for
from ..games.deserto import KIND_COUNTS, KINDS, Deserto, DesertoState

MAX_SEATS = 4
"""Deserto's most seats: the observation has room for four."""

DESERTO_SIZE = 65
"""The length of a Deserto observation."""

INT16 = np.iinfo(np.int16)


class Encoder(Protocol):
    """What an environment asks of a one-player game's observation encoder."""

    size: int
    low: npt.NDArray[np.int16]
    high: npt.NDArray[np.int16]

    def encode(self, state: Any) -> npt.NDArray[np.int16]:
        """The observation of ``state``."""

    def text(self, state: Any) -> str:
        """The position as the player sees it."""


class SeatEncoder(Protocol):
    """What an environment asks of a multi-player game's observation encoder."""

    size: int
    low: npt.NDArray[np.int16]
    high: npt.NDArray[np.int16]

    def encode(self, state: Any, seat: int) -> npt.NDArray[np.int16]:
        """What ``seat`` knows of ``state``, as numbers."""

    def text(self, state: Any, seat: int) -> str:
        """What ``seat`` sees, as text."""


def solitaire_encoder(rules: Rules[Any, Any]) -> Encoder:
    """The observation encoder of a one-player game: its declaration's ``observation``,
    or :class:`SolitaireEncoder`.

    >>> from cardtable.games import rules_for
    >>> [type(solitaire_encoder(rules_for(name))).__name__ for name in ("desturado", "klondike")]
    ['SolitaireEncoder', 'KlondikeEncoder']
    """
    declared = spec_for(rules.name).observation
    encoder: Encoder = SolitaireEncoder(rules) if declared is None else resolve(declared)(rules)
    return encoder


def seat_encoder(rules: MultiplayerRules[Any, Any]) -> SeatEncoder:
    """The observation encoder of a multi-player game: its declaration's ``observation``
    (Deserto: :class:`DesertoEncoder`), or :class:`ViewEncoder`.

    >>> type(seat_encoder(Deserto(players=3))).__name__
    'DesertoEncoder'
    """
    declared = spec_for(rules.name).observation
    encoder: SeatEncoder = ViewEncoder(rules) if declared is None else resolve(declared)(rules)
    return encoder


class SolitaireEncoder:
    """The observation of a one-player game's positions (see the module docstring).

    >>> from cardtable.games import rules_for
    >>> enc = SolitaireEncoder(rules_for("klondike"))
    >>> enc.piles[:3], enc.size
    (('stock', 'w', 'fc'), 678)
    """

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self.deck_size = len(rules.deck())
        self.piles: tuple[str, ...] = tuple(name for row in rules.display(rules.deal(0)) for name, _ in row)
        """The piles, in ``display`` order: the rows of the observation grid."""
        self.size = len(self.piles) * self.deck_size + 2
        """The length of an observation."""
        self.high = np.full(self.size, 2 + max(rules.deck()), dtype=np.int16)
        """The largest value of each number (for a ``Box`` space)."""
        self.high[-2:] = INT16.max
        self.low = np.zeros(self.size, dtype=np.int16)
        """The smallest value of each number."""

    def encode(self, state: Any) -> npt.NDArray[np.int16]:
        """The observation of ``state``.

        >>> from cardtable.games import rules_for
        >>> r = rules_for("klondike"); enc = SolitaireEncoder(r)
        >>> obs = enc.encode(r.deal(0))
        >>> obs[:3].tolist(), int((obs[: -2] > 1).sum())  # the stock is face down; 7 cards face up
        ([1, 1, 1], 7)
        """
        obs = np.zeros(self.size, dtype=np.int16)
        width = self.deck_size
        row = 0
        for line in self.rules.display(state):
            for _, pile in line:
                if pile:
                    # A face-down card is 1 whatever it is: its identity never reaches the vector.
                    obs[row * width : row * width + len(pile)] = [card + 2 if up else 1 for card, up in pile]
                row += 1
        obs[-2] = min(int(getattr(state, "redeals_used", 0)), INT16.max)
        obs[-1] = self.rules.progress(state)[0]
        return obs

    def text(self, state: Any) -> str:
        """The position as the player sees it, a pile a line (``##`` a face-down card).

        >>> from cardtable.games import rules_for
        >>> r = rules_for("desturado", mode="hard")
        >>> SolitaireEncoder(r).text(r.deal(0)).splitlines()[0]
        'a: ## ## ## ## ## ## ## ## ## ## ## 9H'
        """
        card = self.rules.card_text
        lines = []
        for line in self.rules.display(state):
            for name, pile in line:
                lines.append(f"{name}: " + " ".join(card(c) if up else "##" for c, up in pile))
        return "\n".join(line.rstrip() for line in lines)


class DesertoEncoder:
    """The observation of a Deserto position for one seat (see the module docstring).

    >>> r = Deserto(players=3); s = r.deal(0)
    >>> obs = DesertoEncoder(r).encode(s, 1)
    >>> obs[:4].tolist(), int(obs[28]), obs[29:33].tolist()
    ([1, 1, 1, 0], 42, [3, 3, 3, 0])
    """

    size = DESERTO_SIZE

    def __init__(self, rules: Deserto) -> None:
        self.rules = rules
        self.players = rules.players
        self.high = np.full(DESERTO_SIZE, sum(KIND_COUNTS), dtype=np.int16)
        """The largest value of each number (for a ``Box`` space)."""
        self.low = np.zeros(DESERTO_SIZE, dtype=np.int16)
        """The smallest value of each number."""

    def encode(self, state: DesertoState, seat: int) -> npt.NDArray[np.int16]:
        """What ``seat`` knows of ``state``, as numbers."""
        n = self.players
        view = self.rules.view(state, seat, ())
        obs = np.zeros(DESERTO_SIZE, dtype=np.int16)
        for kind in view.hand:
            obs[kind] += 1
        for p, pile in enumerate(view.area):
            obs[4 + p * 5 + (0 if pile.top is None else pile.top + 1)] = 1
            obs[24 + p] = pile.size
        obs[28] = view.deck
        seen = [0, 0, 0, 0]
        for kind in view.hand:
            seen[kind] += 1
        for r in range(n):
            s = (seat + r) % n
            obs[29 + r] = view.hand_sizes[s]
            obs[33 + r] = view.won[s]
            for kind in state.captured[s]:  # public: the piles were won in sight of all
                obs[37 + r * 4 + kind] += 1
                seen[kind] += 1
        for cards in state.area:  # every card placed was seen face up
            for kind in cards:
                seen[kind] += 1
        for base, cards in ((53, state.gifts[seat]), (57, state.gifts[(seat - 1) % n])):
            for kind in cards:  # gifts[s] came from seat s + 1: the observer got these, and gave those
                obs[base + kind] += 1
                seen[kind] += 1
        for kind in range(4):
            obs[61 + kind] = KIND_COUNTS[kind] - seen[kind]
        return obs

    def text(self, state: DesertoState, seat: int) -> str:
        """What ``seat`` sees, as one line.

        >>> r = Deserto(); DesertoEncoder(r).text(r.deal(0), 0)
        'seat 0 hand TGG | area - - - - | deck 45 | hands 3 3 | won 0 0 | to move 0'
        """
        view = self.rules.view(state, seat, ())
        area = " ".join("-" if p.top is None else f"{KINDS[p.top]}{p.size}" for p in view.area)
        return (
            f"seat {seat} hand {''.join(KINDS[k] for k in view.hand)} | area {area} | deck {view.deck}"
            f" | hands {' '.join(map(str, view.hand_sizes))} | won {' '.join(map(str, view.won))}"
            f" | to move {'-' if view.to_move is None else view.to_move}"
        )


# --- the generic multi-player encoder --------------------------------------------------------

PROBE_MOVES = 200
"""The moves of the random game whose positions' views teach :class:`ViewEncoder` their shape."""


class _Shape(NamedTuple):
    """The shape of a part of a view: a ``number``, a ``list`` of ``item`` (None: no item
    seen yet, taken as a number) or a ``record`` of ``fields`` (key and shape, in order)."""

    kind: str
    item: _Shape | None = None
    fields: tuple[tuple[Any, _Shape], ...] = ()


NUMBER = _Shape("number")


class ViewEncoder:
    """The generic observation of a multi-player game for one seat: its view, flattened
    (see the module docstring).

    >>> r = Deserto(); enc = ViewEncoder(r)  # (Deserto declares its own encoder; this one works too)
    >>> enc.size, enc.encode(r.deal(0), 1)[:5].tolist()  # seat 1; a hand of 3: O, V, T
    (314, [1, 3, 0, 1, 2])
    """

    def __init__(self, rules: MultiplayerRules[Any, Any]) -> None:
        self.rules = rules
        self.capacity = len(rules.deck())
        """The room of every list: the number of cards."""
        self.shape = self._learn()
        self.size = self._width(self.shape)
        """The length of an observation."""
        self.low = np.full(self.size, INT16.min, dtype=np.int16)
        """The smallest value of each number (the view says nothing of its numbers' range)."""
        self.high = np.full(self.size, INT16.max, dtype=np.int16)
        """The largest value of each number."""

    def _value(self, state: Any, seat: int) -> Any:
        view: Any = self.rules.view(state, seat, ())
        return view if isinstance(view, (tuple, list, Mapping)) else view.to_json()

    def _learn(self) -> _Shape:
        """The shape of the views of every seat along a random game from deal 0."""
        rules = self.rules
        rng = random.Random(0)
        state = rules.deal(0)
        shape: _Shape | None = None
        for _ in range(PROBE_MOVES):
            for seat in range(rules.players):
                shape = self._merge(shape, self._shape_of(self._value(state, seat), "view"), "view")
            moves = rules.legal_moves(state)
            if not moves:
                break
            state = rules.apply(state, rng.choice(moves))
        assert shape is not None
        return shape

    def _refuse(self, path: str, what: str) -> OptionError:
        return OptionError(
            f"{self.rules.name}: the view's {path.removeprefix('view.')} {what}:"
            " declare an observation encoder (GameSpec.observation)"
        )

    def _shape_of(self, value: Any, path: str) -> _Shape:
        if value is None or isinstance(value, (bool, int, np.integer)):
            return NUMBER
        if isinstance(value, Mapping):
            return _Shape("record", fields=tuple((k, self._shape_of(v, f"{path}.{k}")) for k, v in value.items()))
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            fields = zip(value._fields, value, strict=True)
            return _Shape("record", fields=tuple((k, self._shape_of(v, f"{path}.{k}")) for k, v in fields))
        if isinstance(value, (tuple, list)):
            item: _Shape | None = None
            for i, v in enumerate(value):
                item = self._merge(item, self._shape_of(v, f"{path}[{i}]"), f"{path}[{i}]")
            return _Shape("list", item=item)
        raise self._refuse(path, f"is {type(value).__name__}, not a number")

    def _merge(self, a: _Shape | None, b: _Shape | None, path: str) -> _Shape | None:
        if a is None or b is None:
            return a if b is None else b
        if a.kind != b.kind or [k for k, _ in a.fields] != [k for k, _ in b.fields]:
            raise self._refuse(path, "changes its shape from one position to another")
        if a.kind == "list":
            return _Shape("list", item=self._merge(a.item, b.item, f"{path}[]"))
        if a.kind == "record":
            fields = tuple(
                (k, self._merge(x, y, f"{path}.{k}") or NUMBER)
                for (k, x), (_, y) in zip(a.fields, b.fields, strict=True)
            )
            return _Shape("record", fields=fields)
        return a

    def _width(self, shape: _Shape) -> int:
        if shape.kind == "list":
            return 1 + self.capacity * self._width(shape.item or NUMBER)
        if shape.kind == "record":
            return sum(self._width(s) for _, s in shape.fields)
        return 1

    def _flatten(self, value: Any, shape: _Shape, out: list[int], path: str) -> None:
        if shape.kind == "number":
            if value is None:
                out.append(-1)
            elif isinstance(value, (bool, int, np.integer)):
                out.append(max(INT16.min, min(INT16.max, int(value))))
            else:
                raise self._refuse(path, f"is {type(value).__name__}, not a number")
        elif shape.kind == "record":
            values = [value[k] for k, _ in shape.fields] if isinstance(value, Mapping) else list(value)
            if len(values) != len(shape.fields):
                raise self._refuse(path, "changes its shape from one position to another")
            for (k, s), v in zip(shape.fields, values, strict=True):
                self._flatten(v, s, out, f"{path}.{k}")
        else:
            if not isinstance(value, (tuple, list)) or hasattr(value, "_fields"):
                raise self._refuse(path, "changes its shape from one position to another")
            if len(value) > self.capacity:
                raise self._refuse(path, f"holds {len(value)} items, more than the {self.capacity} cards")
            item = shape.item or NUMBER
            out.append(len(value))
            for i, v in enumerate(value):
                self._flatten(v, item, out, f"{path}[{i}]")
            out.extend([0] * ((self.capacity - len(value)) * self._width(item)))

    def encode(self, state: Any, seat: int) -> npt.NDArray[np.int16]:
        """What ``seat`` sees of ``state`` (its view), as numbers."""
        out: list[int] = []
        self._flatten(self._value(state, seat), self.shape, out, "view")
        return np.array(out, dtype=np.int16)

    def text(self, state: Any, seat: int) -> str:
        """What ``seat`` sees: its view's JSON, without the history."""
        view: Any = self.rules.view(state, seat, ())
        return json.dumps(view.to_json())

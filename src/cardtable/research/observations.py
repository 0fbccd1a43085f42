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

>>> import cardtable
>>> g = cardtable.new_game("devils-square", deal=0)
>>> enc = SolitaireEncoder(g.rules)
>>> enc.size, enc.encode(g.state)[16 * 64 : 16 * 64 + 3].tolist()  # the draw pile: face down
(1090, [1, 1, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.rules import Rules
from ..games.deserto import KIND_COUNTS, KINDS, Deserto, DesertoState

MAX_SEATS = 4
"""Deserto's most seats: the observation has room for four."""

DESERTO_SIZE = 65
"""The length of a Deserto observation."""


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
        self.high[-2:] = np.iinfo(np.int16).max

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
        obs[-2] = min(int(getattr(state, "redeals_used", 0)), np.iinfo(np.int16).max)
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

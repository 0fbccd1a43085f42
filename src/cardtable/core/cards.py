"""Cards and decks, as small integers with text helpers.

A French-suited card is the integer ``suit * 13 + rank - 1`` (0..51), suits in
the order clubs, diamonds, hearts, spades (``C D H S``) and ranks ace (1) to
king (13). A King's Keys card is ``colour * 16 + item * 4 + number - 1``
(0..63). Integers keep positions compact and fast; the text helpers give the
notation players read and type (``TH`` is the ten of hearts, ``3GK`` is the
green 3 of keys).

>>> card_text(parse_card("10h"))
'TH'
>>> [card_text(c) for c in french_deck()[:3]]
['AC', '2C', '3C']
"""

from __future__ import annotations

from .errors import LayoutError
from .inputs import quote

Card = int
"""A card is a plain ``int``; see the module docstring for the encoding."""

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

# Lookup tables indexed by card: faster than arithmetic in the hot loops.
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
RED: tuple[bool, ...] = tuple(c // 13 in (DIAMONDS, HEARTS) for c in range(52))


def make_card(rank: int, suit: int) -> Card:
    """The French card of ``rank`` (1..13) and ``suit`` (0..3, ``CDHS``).

    >>> card_text(make_card(12, SPADES))
    'QS'
    """
    return suit * 13 + rank - 1


def card_text(card: Card) -> str:
    """Two-character text of a French card: rank then suit.

    >>> card_text(0), card_text(51)
    ('AC', 'KS')
    """
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> Card:
    """Read a French card such as ``TH``, ``10h`` or ``as``.

    Raises :class:`~cardtable.core.errors.LayoutError` for anything else.

    >>> parse_card("AS") == make_card(1, SPADES)
    True
    """
    t = text.strip().upper() if isinstance(text, str) and text.isascii() else ""
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise LayoutError(f"not a card: {quote(text)} (expected rank A23456789TJQK then suit CDHS, e.g. TH)")
    return make_card(RANKS.index(t[0]) + 1, SUITS.index(t[1]))


def french_deck(max_rank: int = 13, decks: int = 1) -> list[Card]:
    """A new deck in order: each deck clubs, diamonds, hearts, spades, ace up.

    ``max_rank=10`` gives the 40-card deck without faces; ``decks=2`` the
    104-card double deck.

    >>> len(french_deck()), len(french_deck(max_rank=10)), len(french_deck(decks=2))
    (52, 40, 104)
    """
    one = [make_card(r, s) for s in range(4) for r in range(1, max_rank + 1)]
    return one * decks


# --- King's Keys (Devil's Square) -------------------------------------------

KK_COLOURS = "YRGB"
KK_COLOUR_NAMES = ("yellow", "red", "green", "blue")
KK_ITEMS = "KASC"
KK_ITEM_NAMES = ("keys", "axes", "shields", "coins")


def kk_card(colour: int, item: int, number: int) -> Card:
    """The King's Keys card of a colour (0..3, ``YRGB``), item (0..3, ``KASC``) and number (1..4).

    >>> kk_text(kk_card(2, 0, 3))
    '3GK'
    """
    return colour * 16 + item * 4 + number - 1


def kk_colour(card: Card) -> int:
    """Colour index (0..3 for yellow, red, green, blue) of a King's Keys card.

    >>> kk_colour(parse_kk_card("1BC"))
    3
    """
    return card // 16


def kk_item(card: Card) -> int:
    """Item index (0..3 for keys, axes, shields, coins) of a King's Keys card.

    >>> kk_item(parse_kk_card("1BC"))
    3
    """
    return card // 4 % 4


def kk_number(card: Card) -> int:
    """Number (1..4) of a King's Keys card.

    >>> kk_number(parse_kk_card("4YA"))
    4
    """
    return card % 4 + 1


def kk_text(card: Card) -> str:
    """Text of a King's Keys card: number, colour letter, item letter (``3GK``).

    >>> kk_text(0), kk_text(63)
    ('1YK', '4BC')
    """
    return f"{kk_number(card)}{KK_COLOURS[kk_colour(card)]}{KK_ITEMS[kk_item(card)]}"


def parse_kk_card(text: str) -> Card:
    """Read a King's Keys card such as ``3GK`` (number, colour YRGB, item KASC).

    >>> kk_text(parse_kk_card("2ra"))
    '2RA'
    """
    t = text.strip().upper() if isinstance(text, str) and text.isascii() else ""
    if len(t) != 3 or t[0] not in "1234" or t[1] not in KK_COLOURS or t[2] not in KK_ITEMS:
        raise LayoutError(
            f"not a King's Keys card: {quote(text)} (expected number 1-4, colour YRGB, item KASC, e.g. 3GK)"
        )
    return kk_card(KK_COLOURS.index(t[1]), KK_ITEMS.index(t[2]), int(t[0]))


def kings_keys_deck() -> list[Card]:
    """The 64-card King's Keys deck (jokers and kingdom cards removed), in order.

    >>> len(kings_keys_deck())
    64
    """
    return list(range(64))


# --- cards in words, as a player says them (issue 26) ------------------------------------

RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""A French rank as a player writes it: ``10``, not ``T``."""


def card_name(card: Card) -> str:
    """A French card as a player writes it: rank (``10``, not ``T``) and suit symbol.

    >>> card_name(parse_card("TD")), card_name(parse_card("JC"))
    ('10♦', 'J♣')
    """
    return RANK_WORDS[card % 13] + SUIT_SYMBOLS[card // 13]


class FrenchCards:
    """What a game of French cards says of a card (Klondike, Demonthief, Desturado): mixed
    into its rules before :class:`~cardtable.core.rules.Rules`, it gives their
    :meth:`card_text` and :meth:`card_name`.

    >>> from cardtable.games import rules_for
    >>> isinstance(rules_for("desturado"), FrenchCards), isinstance(rules_for("devils-square"), FrenchCards)
    (True, False)
    """

    def card_text(self, card: Card) -> str:
        """Text of a card (:func:`card_text`), e.g. ``TH``.

        >>> FrenchCards().card_text(9)
        'TC'
        """
        return card_text(card)

    def card_name(self, card: Card) -> str:
        """A card as a player writes it (:func:`card_name`), e.g. ``10♦``.

        >>> FrenchCards().card_name(parse_card("TD"))
        '10♦'
        """
        return card_name(card)


def kk_name(card: Card) -> str:
    """A King's Keys card in words: colour, number and item.

    >>> kk_name(parse_kk_card("3GK"))
    'green 3 of keys'
    """
    return f"{KK_COLOUR_NAMES[kk_colour(card)]} {kk_number(card)} of {KK_ITEM_NAMES[kk_item(card)]}"

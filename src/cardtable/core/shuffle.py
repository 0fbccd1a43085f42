"""Deal numbers: the shuffle of our own, stable forever, and Java's ``Random``.

**cardtable shuffle.** A deal number ``n`` (0 to 2**63 - 1) seeds SplitMix64
(Steele, Lea and Flood 2014: state += 0x9E3779B97F4A7C15, then two
xor-shift-multiply rounds). The deck, in the order the game's docs give, is
shuffled by Fisher-Yates from the last position down: for ``i`` from
``len - 1`` to 1, draw ``j`` uniformly in ``0..i`` and swap positions ``i`` and
``j``. ``j`` is drawn without bias by rejection: with ``bound = i + 1``, take
64-bit outputs ``x`` until ``x < 2**64 - (2**64 % bound)``, then ``j = x % bound``.
Only integer arithmetic is used, so the result is the same on every machine
and Python version and with any ``PYTHONHASHSEED``.

>>> shuffled(list(range(5)), 0)
[2, 3, 1, 4, 0]
>>> JavaRandom(0).next_int(52)
44
"""

from __future__ import annotations

from typing import TypeVar

from .errors import DealNumberError
from .inputs import MAX_INT, check_int, read_int

T = TypeVar("T")

MASK64 = (1 << 64) - 1
MAX_DEAL = MAX_INT


def check_deal(deal: object) -> int:
    """Return ``deal`` as an int if it is a valid deal number (an ``int`` from 0 to
    :data:`MAX_DEAL`), else raise :class:`~cardtable.core.errors.DealNumberError`.

    >>> check_deal(7)
    7
    >>> check_deal(10**5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.core.errors.DealNumberError: deal number must be ... not a whole number of about 5001 digits
    """
    return check_int(deal, "deal number", DealNumberError, 0, MAX_DEAL)


def read_deal(text: str) -> int:
    """The deal number written ``text`` (ASCII decimal digits, from 0 to :data:`MAX_DEAL`;
    spaces around are ignored), else :class:`~cardtable.core.errors.DealNumberError`.

    >>> read_deal(" 42 ")
    42
    >>> read_deal("\u0664\u0662")  # Arabic-Indic 42  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.core.errors.DealNumberError: deal number must be a whole number from 0 to 9223372036854775807, not '...'
    """
    return read_int(text.strip() if isinstance(text, str) else text, "deal number", DealNumberError, 0, MAX_DEAL)


class SplitMix64:
    """The SplitMix64 generator: 64-bit state, 64-bit outputs.

    >>> SplitMix64(0).next() == 0xE220A8397B1DCDAF
    True
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output.

        >>> SplitMix64(1).next() == 0x910A2DEC89025CC1
        True
        """
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0..bound-1``, without modulo bias.

        >>> SplitMix64(3).below(10) in range(10)
        True
        """
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def shuffled(deck: list[T], deal: int) -> list[T]:
    """A new list: ``deck`` shuffled by the cardtable shuffle for deal number ``deal``.

    >>> sorted(shuffled(list(range(52)), 123)) == list(range(52))
    True
    """
    rng = SplitMix64(check_deal(deal))
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator of the Java API.

    >>> [JavaRandom(42).next_int(10) for _ in range(1)]
    [0]
    """

    MULT = 0x5DEECE66D
    MASK48 = (1 << 48) - 1

    def __init__(self, seed: int) -> None:
        self.seed = (seed ^ self.MULT) & self.MASK48

    def next_bits(self, bits: int) -> int:
        """``Random.next(bits)``: the top ``bits`` bits of the next state, as a signed int.

        >>> JavaRandom(0).next_bits(32)
        -1155484576
        """
        self.seed = (self.seed * self.MULT + 0xB) & self.MASK48
        r = self.seed >> (48 - bits)
        if r >= 1 << 31:  # Java's int is signed 32-bit
            r -= 1 << 32
        return r

    def next_int(self, bound: int) -> int:
        """``Random.nextInt(bound)`` exactly as the Java API documents it.

        >>> JavaRandom(0).next_int(10)
        0
        """
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:  # a power of two
            return (bound * (self.next_bits(31) & 0x7FFFFFFF)) >> 31
        while True:
            bits = self.next_bits(31)
            val = bits % bound
            if bits - val + (bound - 1) < (1 << 31):
                return val

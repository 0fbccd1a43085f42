"""Reading what callers give: whole numbers from text, and short quotes of input in messages.

Every whole number cardtable reads from text (a layout's counts and seats, a
move's ``:count``, an option's value, a deal number, the CLI's numbers) goes
through :func:`read_int`: ASCII decimal digits only (an optional ``-`` in
front), in the field's range, or the field's own error. ``int()`` alone would
take Arabic-Indic digits, ``1_000`` and surrounding spaces, and raise a raw
``ValueError`` past 4300 digits.

Every message that shows a caller's input shows it through :func:`quote`: at
most :data:`QUOTE_LENGTH` characters of it, so that an error about a 10 MB
layout is one short line.

>>> read_int("42", "a count", ValueError, 0, 99)
42
>>> read_int("\\u0661", "a count", ValueError, 0, 99)  # an Arabic-Indic 1  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: a count must be a whole number from 0 to 99, not '...'
>>> quote("x" * 1000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1000 characters)"
"""

from __future__ import annotations

import re
import reprlib

MAX_INT = (1 << 63) - 1
"""The largest whole number any field takes unless it says less (a deal number's bound)."""

QUOTE_LENGTH = 40
"""The most characters of a caller's input a message quotes."""

MAX_MESSAGE = 280
"""The longest error message: a longer one is cut (see :class:`~cardtable.core.errors.CardtableError`)."""

_DECIMAL = re.compile(r"-?[0-9]+")
_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = QUOTE_LENGTH
_REPR.maxother = QUOTE_LENGTH
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 4
_BIG_INT_BITS = 128


def quote(value: object) -> str:
    """A short ``repr`` of ``value`` for a message: a long text is cut (its length said), a
    huge number is described by its size, a deep or long container is abbreviated.

    >>> quote("35"), quote(10**5000), quote([[[[1]]]])
    ("'35'", 'a whole number of about 5001 digits', '[[[...]]]')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _BIG_INT_BITS:
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str):
        text = repr(value) if len(value) <= QUOTE_LENGTH else ""
        if text and len(text) <= 2 * QUOTE_LENGTH:
            return text
        head = repr(value[: QUOTE_LENGTH - 8])
        head = head if len(head) <= QUOTE_LENGTH else head[: QUOTE_LENGTH - 3] + "..."
        return f"{head}... ({len(value)} characters)"
    try:
        text = _REPR.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 2 * QUOTE_LENGTH else text[: 2 * QUOTE_LENGTH - 3] + "..."


def is_decimal(text: str) -> bool:
    """Whether ``text`` is ASCII decimal digits (at least one), nothing else.

    >>> is_decimal("12"), is_decimal("\\u00b2"), is_decimal("1_0"), is_decimal(" 1")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def number_range(low: int | None, high: int | None) -> str:
    """How a message says which whole numbers a field takes (None: no bound on that side,
    but never more than :data:`MAX_INT` in size).

    >>> number_range(0, 2), number_range(0, None), number_range(None, None), number_range(0, 0)
    ('a whole number from 0 to 2', 'a whole number, at least 0', 'a whole number', '0')
    """
    if low is not None and low == high:
        return str(low)
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number, at least {low}"
    if high is not None:
        return f"a whole number, at most {high}"
    return "a whole number"


def read_int(text: str, what: str, error: type[Exception], low: int | None = 0, high: int | None = None) -> int:
    """The whole number written ``text``: ASCII decimal digits with an optional ``-`` in front,
    from ``low`` to ``high`` (None: no bound, but at most :data:`MAX_INT` in size); anything
    else raises ``error`` naming ``what`` the field is. The digits are counted before they are
    converted, so a number of any length is refused at once.

    >>> read_int("007", "redeals used", ValueError, 0, 9)
    7
    >>> read_int("-1", "redeals", ValueError, 0)
    Traceback (most recent call last):
    ...
    ValueError: redeals must be a whole number, at least 0, not -1
    """
    if not isinstance(text, str) or not _DECIMAL.fullmatch(text):
        raise error(f"{what} must be {number_range(low, high)}, not {quote(text)}")
    digits = text.lstrip("-").lstrip("0")  # int() counts leading zeros against its digit limit
    if len(digits) > len(str(MAX_INT)):
        raise error(f"{what} must be {number_range(low, high)}, not {quote(text)}")
    value = int(digits) if digits else 0
    return check_int(-value if text.startswith("-") else value, what, error, low, high)


def check_int(value: object, what: str, error: type[Exception], low: int | None = 0, high: int | None = None) -> int:
    """``value`` if it is an ``int`` (not a ``bool``) from ``low`` to ``high`` (None: no bound, but
    at most :data:`MAX_INT` in size); else raise ``error``.

    >>> check_int(3, "draw", ValueError, 1, 3)
    3
    >>> check_int(10**5000, "deal number", ValueError, 0, 99)
    Traceback (most recent call last):
    ...
    ValueError: deal number must be a whole number from 0 to 99, not a whole number of about 5001 digits
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be {number_range(low, high)}, not {quote(value)}")
    if not (-MAX_INT if low is None else low) <= value <= (MAX_INT if high is None else high):
        raise error(f"{what} must be {number_range(low, high)}, not {quote(value)}")
    return value


MAX_SECONDS = 86_400.0
"""The longest time a bot or a hint may be given to think (a day): a longer one, or infinity,
is no budget a search can keep."""


def check_time(value: object, what: str, error: type[Exception]) -> float:
    """``value`` as a float if it is a real number (not a ``bool``) above 0 and at most
    :data:`MAX_SECONDS`; else raise ``error``.

    >>> check_time(0.5, "seconds", ValueError)
    0.5
    >>> check_time(float("inf"), "seconds", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a number of seconds above 0 and at most 86400, not inf
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 < value <= MAX_SECONDS  # also false for nan
    ):
        raise error(f"{what} must be a number of seconds above 0 and at most {MAX_SECONDS:.0f}, not {quote(value)}")
    return float(value)


def check_limit(value: object, what: str, whole: bool) -> int | float | None:
    """A limit given as a Python value (``solve(game, seconds=..., nodes=...)``): None (no
    limit), else a number: an ``int`` for a count (``whole``), an ``int`` or a ``float`` for a
    time. Anything else (text such as ``"1"``, a ``bool``...) raises ``TypeError`` saying what
    is accepted, so a caller refuses it before any work starts; the range is the caller's to check.

    >>> check_limit(5, "nodes", whole=True), check_limit(0.5, "seconds", whole=False)
    (5, 0.5)
    >>> check_limit("1", "seconds", whole=False)
    Traceback (most recent call last):
    ...
    TypeError: seconds is a number (an int or a float) or None, not str '1'
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and not whole:
        return value
    accepted = "a whole number (an int)" if whole else "a number (an int or a float)"
    raise TypeError(f"{what} is {accepted} or None, not {type(value).__name__} {quote(value)}")


def short(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters (a safety net: messages quote input
    through :func:`quote` and are short already).

    >>> len(short("x" * 1000)), short("fine")
    (280, 'fine')
    """
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 3] + "..."

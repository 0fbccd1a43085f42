"""Game options: declared once per game, checked in one place.

Each game lists its options as :class:`Option` values. :func:`resolve_options`
turns keyword arguments (from the library, a save file or the command line)
into a complete, checked, ordered dict, so an unknown option or a bad value is
refused with a clear :class:`~cardtable.core.errors.OptionError`.

>>> opts = (Option("draw", int, 3, choices=(1, 3), help="cards turned per draw"),)
>>> resolve_options("klondike", opts, {"draw": "1"})
{'draw': 1}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import OptionError
from .inputs import check_int, quote, read_int

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, allowed values and help text.

    ``kind`` is ``int``, ``bool`` or ``str``. ``choices`` limits the values;
    ``minimum`` and ``maximum`` bound an int (an int without a ``maximum`` is at most
    :data:`~cardtable.core.inputs.MAX_INT`). ``none_text`` names the value
    ``None`` (``"unlimited"`` for redeals) where ``None`` is allowed. ``seat``: the
    value is a seat of the game (0 is the first seat; a page that labels seats from 1
    shows it so).

    >>> Option("mode", str, "easy", choices=("easy", "hard")).describe()
    'mode: easy|hard (default easy)'
    """

    name: str
    kind: type
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    minimum: int | None = None
    none_text: str | None = None
    maximum: int | None = None
    seat: bool = False

    def show(self, value: Any) -> str:
        """Text of a value of this option, as a player would type it.

        >>> Option("auto", bool, False).show(True)
        'on'
        """
        if value is None:
            return self.none_text or "none"
        if self.kind is bool:
            return "on" if value else "off"
        return str(value)

    def describe(self) -> str:
        """One line: name, accepted values, default.

        >>> Option("draw", int, 3, choices=(1, 3)).describe()
        'draw: 1|3 (default 3)'
        """
        if self.choices:
            values = "|".join(self.show(c) for c in self.choices)
        elif self.kind is bool:
            values = "on|off"
        elif self.kind is int:
            low = "" if self.minimum is None else f">={self.minimum}"
            low += "" if self.maximum is None else f"<={self.maximum}"
            values = f"number{low}" + (f"|{self.none_text}" if self.none_text else "")
        else:
            values = "text"
        return f"{self.name}: {values} (default {self.show(self.default)})"

    def bounds(self) -> tuple[int | None, int | None]:
        """The smallest and largest value of an int option: its choices', else its ``minimum``
        and ``maximum`` (None: no bound, but at most :data:`~cardtable.core.inputs.MAX_INT` in size).

        >>> Option("draw", int, 3, choices=(1, 3)).bounds(), Option("first", int, 0, minimum=0).bounds()
        ((1, 3), (0, None))
        """
        if self.choices:
            return min(self.choices), max(self.choices)
        return self.minimum, self.maximum

    def convert(self, game: str, value: Any) -> Any:
        """Check ``value`` (a Python value or its text) and return it typed.

        Text of an int option is ASCII decimal digits (:func:`~cardtable.core.inputs.read_int`);
        a value out of the option's range, of the wrong type, or not among its choices raises
        :class:`~cardtable.core.errors.OptionError`, quoting at most a short excerpt of it.

        >>> Option("redeals", int, None, minimum=0, none_text="unlimited").convert("k", "unlimited") is None
        True
        >>> Option("draw", int, 3, choices=(1, 3)).convert("klondike", "\u0661")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardtable.core.errors.OptionError: klondike option 'draw' must be a whole number from 1 to 3, not '...'
        """
        where = f"{game} option {self.name!r}"
        if isinstance(value, str):
            text = value.strip().lower()
            if self.none_text is not None and text in (self.none_text, "none"):
                value = None
            elif self.kind is bool:
                if text in _TRUE:
                    value = True
                elif text in _FALSE:
                    value = False
                else:
                    raise OptionError(f"{where} takes on or off, not {quote(value)}")
            elif self.kind is int:
                value = read_int(text, where, OptionError, *self.bounds())
            else:
                value = text
        if value is None:
            if self.none_text is None:
                raise OptionError(f"{where} needs a value")
            return None
        if self.kind is bool and not isinstance(value, bool):
            raise OptionError(f"{where} takes on or off (True/False), not {quote(value)}")
        if self.kind is int:
            value = check_int(value, where, OptionError, *self.bounds())
        if self.kind is str and not isinstance(value, str):
            raise OptionError(f"{where} takes text, not {quote(value)}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(self.show(c) for c in self.choices)
            raise OptionError(f"{where} must be one of {allowed}, not {quote(self.show(value))}")
        return value


def resolve_options(game: str, spec: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """All options of a game, in declaration order: given values checked, others defaulted.

    Option names may use ``-`` or ``_``. A name the game does not declare (whatever it is:
    ``self``, ``name``, ``deal``...) or an option given twice raises
    :class:`~cardtable.core.errors.OptionError` listing the known ones.

    >>> resolve_options("g", (Option("a", bool, False),), {})
    {'a': False}
    >>> resolve_options("g", (Option("a", bool, False),), {"self": 1})
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: g has no option 'self' (its options: a)
    """
    by_name = {o.name: o for o in spec}
    values: dict[str, Any] = {o.name: o.default for o in spec}
    seen: set[str] = set()
    for raw_name, value in given.items():
        name = raw_name.replace("-", "_") if isinstance(raw_name, str) else raw_name
        if name not in by_name:
            known = ", ".join(o.name for o in spec) or "none"
            raise OptionError(f"{game} has no option {quote(raw_name)} (its options: {known})")
        if name in seen:
            raise OptionError(f"{game} option {name!r} is given twice")
        seen.add(name)
        values[name] = by_name[name].convert(game, value)
    return values

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

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, allowed values and help text.

    ``kind`` is ``int``, ``bool`` or ``str``. ``choices`` limits the values;
    ``minimum`` bounds an int from below. ``none_text`` names the value
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
            values = f"number{low}" + (f"|{self.none_text}" if self.none_text else "")
        else:
            values = "text"
        return f"{self.name}: {values} (default {self.show(self.default)})"

    def convert(self, game: str, value: Any) -> Any:
        """Check ``value`` (a Python value or its text) and return it typed.

        >>> Option("redeals", int, None, minimum=0, none_text="unlimited").convert("k", "unlimited") is None
        True
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
                    raise OptionError(f"{where} takes on or off, not {value!r}")
            elif self.kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise OptionError(f"{where} takes a whole number, not {value!r}") from None
            else:
                value = text
        if value is None:
            if self.none_text is None:
                raise OptionError(f"{where} needs a value")
            return None
        if self.kind is bool and not isinstance(value, bool):
            raise OptionError(f"{where} takes on or off (True/False), not {value!r}")
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"{where} takes a whole number, not {value!r}")
        if self.kind is str and not isinstance(value, str):
            raise OptionError(f"{where} takes text, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(self.show(c) for c in self.choices)
            raise OptionError(f"{where} must be one of {allowed}, not {self.show(value)}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where} must be at least {self.minimum}, not {value}")
        return value


def resolve_options(game: str, spec: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """All options of a game, in declaration order: given values checked, others defaulted.

    Option names may use ``-`` or ``_``. An unknown name raises
    :class:`~cardtable.core.errors.OptionError` listing the known ones.

    >>> resolve_options("g", (Option("a", bool, False),), {})
    {'a': False}
    """
    by_name = {o.name: o for o in spec}
    values: dict[str, Any] = {o.name: o.default for o in spec}
    for raw_name, value in given.items():
        name = raw_name.replace("-", "_")
        if name not in by_name:
            known = ", ".join(o.name for o in spec) or "none"
            raise OptionError(f"{game} has no option {raw_name!r} (its options: {known})")
        values[name] = by_name[name].convert(game, value)
    return values

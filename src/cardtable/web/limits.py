"""What a stranger may ask of the server: the caps (:class:`Limits`), the rate buckets that
enforce some of them, and the checks every request passes before anything is built.

Every value a request carries is checked here against what the game or bot
declares, before a game, a bot or a seat is made from it: a game's options
(:func:`check_options`: only the options the game declares, numbers as ASCII
decimals of a sane size), a bot's budget (:func:`check_budget`: only the
keywords the bot takes, each capped by the server) and a display name
(:func:`clean_name`). What they refuse is a
:class:`~cardtable.web.errors.TableError` of kind ``bad-request``; a cap
reached is ``too-many`` (HTTP 429).

>>> clean_name("  Ana  María ")
'Ana María'
>>> Limits().bot_seconds
1.0
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .. import bots
from ..core.errors import CardtableError
from ..core.options import resolve_options
from ..core.spec import GameSpec
from .errors import TableError

MAX_NAME = 24
"""The longest display name, in characters (after trimming)."""

NAME_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a display name may not hold: control, format (the direction
overrides and zero-width characters among them), surrogates, private use, unassigned,
line and paragraph separators."""

DECIMAL = re.compile(r"[+-]?[0-9]{1,18}")
"""A number given as text: ASCII digits only, at most 18 of them."""


@dataclass(frozen=True)
class Limits:
    """The server's caps (``create_app(limits=...)``; tests pass smaller or larger ones).

    - ``rooms_per_client`` / ``rooms_per_address``: rooms being played or waiting in their
      lobby that one browser (its cookie) / one network address made;
    - ``spectators``: sockets without a seat in one room; ``sockets_per_seat``: one
      person's tabs;
    - ``message_bytes``: the largest WebSocket message read; ``body_bytes``: the largest
      HTTP request body; ``body_seconds``: the longest a request body may take to arrive;
    - ``messages_per_second`` and ``message_burst``: what one socket may send (a bucket);
    - ``misses_burst`` and ``misses_per_minute``: room lookups (a code with a wrong or
      missing key or token) one address may make;
    - ``bot_iterations`` and ``bot_seconds``: the most a bot's budget may ask (every
      search also stops after ``bot_seconds``); ``bot_workers``: the threads searches
      run in;
    - ``send_timeout``: seconds one frame may take to go out before its socket is
      dropped; ``queue``: frames waiting for one socket before it is dropped (only the
      newest snapshot waits: older ones are dropped for it);
    - ``hello_seconds``: how long a new socket has to say who it is;
    - ``play_now_burst`` and ``play_now_per_minute``: "play now" requests one address may
      make (a bucket); ``search_burst`` and ``searches_per_minute``: requests that search
      (a table at a level, whose options may have no shipped table to draw from; a hint)
      one address may make (a bucket); ``lobby_rooms``: the most public rooms the lobby lists.

    >>> Limits(spectators=3).spectators
    3
    """

    rooms_per_client: int = 20
    rooms_per_address: int = 60
    spectators: int = 50
    sockets_per_seat: int = 4
    message_bytes: int = 4096
    body_bytes: int = 16384
    body_seconds: float = 10.0
    messages_per_second: float = 10.0
    message_burst: int = 40
    misses_burst: int = 20
    misses_per_minute: float = 10.0
    bot_iterations: int = 5000
    bot_seconds: float = 1.0
    bot_workers: int = 2
    send_timeout: float = 10.0
    queue: int = 64
    hello_seconds: float = 10.0
    play_now_burst: int = 10
    play_now_per_minute: float = 20.0
    search_burst: int = 20
    searches_per_minute: float = 30.0
    lobby_rooms: int = 50


class Bucket:
    """A token bucket: ``capacity`` tokens, refilled at ``rate`` a second; :meth:`take`
    spends one if there is one.

    >>> now = [0.0]
    >>> b = Bucket(2, 1.0, clock=lambda: now[0])
    >>> b.take(), b.take(), b.take()
    (True, True, False)
    >>> now[0] = 1.0; b.take()
    True
    """

    __slots__ = ("capacity", "clock", "rate", "stamp", "tokens")

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = float(capacity)
        self.stamp = clock()

    def take(self) -> bool:
        """Spend a token; whether there was one."""
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        """Whether the bucket has refilled (nothing spent is still counted).

        >>> Bucket(1, 1.0).full()
        True
        """
        return min(self.capacity, self.tokens + (self.clock() - self.stamp) * self.rate) >= self.capacity


class Throttle:
    """One :class:`Bucket` per key (a network address), at most ``keys`` of them (the
    longest unused go first, and full buckets are forgotten), so that many addresses cannot
    grow it without bound.

    >>> t = Throttle(1, 0.0)
    >>> t.take("a"), t.take("a"), t.take("b")
    (True, False, True)
    >>> t.allowed("a"), t.allowed("c")
    (False, True)
    """

    def __init__(
        self, capacity: float, rate: float, keys: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.keys = keys
        self.clock = clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def _bucket(self, key: str) -> Bucket:
        bucket = self._buckets.pop(key, None) or Bucket(self.capacity, self.rate, self.clock)
        self._buckets[key] = bucket
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return bucket

    def take(self, key: str) -> bool:
        """Spend one of ``key``'s tokens; whether it had one."""
        ok = self._bucket(key).take()
        return ok

    def allowed(self, key: str) -> bool:
        """Whether ``key`` has a token left (none is spent)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return True
        if bucket.full():
            del self._buckets[key]
            return True
        probe = Bucket(bucket.capacity, bucket.rate, bucket.clock)
        probe.tokens, probe.stamp = bucket.tokens, bucket.stamp
        return probe.take()


def clean_name(name: Any, others: Iterable[str] = ()) -> str:
    """A display name as shown: Unicode text in NFC with its runs of white space made one
    space, trimmed; refused (``bad-request``) when it is not text, is empty, holds a
    control, format (direction override, zero-width), surrogate, private-use or
    unassigned character, is longer than :data:`MAX_NAME`, is a name the table uses
    itself ("You", a bot's name such as "Greedy 2", "Seat 3") or is already another
    seat's (``others``), whatever the case.

    >>> clean_name("Ben\\t  Li")
    'Ben Li'
    >>> clean_name("M\\ud800")
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: a display name is text without control, format or direction characters
    >>> clean_name("you")
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: 'you' is a name the table uses itself: choose another
    >>> clean_name("ana", others=["Ana"])
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: another seat is called 'ana'
    """
    if not isinstance(name, str):
        raise TableError("bad-request", "a display name is text")
    if len(name) > 8 * MAX_NAME:
        raise TableError("bad-request", f"a display name has at most {MAX_NAME} characters")
    if any(unicodedata.category(c) == "Cs" for c in name):
        raise TableError("bad-request", "a display name is text without control, format or direction characters")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise TableError("bad-request", "a display name is needed")
    if any(unicodedata.category(c) in NAME_REFUSED for c in text):
        raise TableError("bad-request", "a display name is text without control, format or direction characters")
    if len(text) > MAX_NAME:
        raise TableError("bad-request", f"a display name has at most {MAX_NAME} characters")
    folded = text.casefold()
    reserved = re.compile(rf"(you|seat \d+|(?:{'|'.join(map(re.escape, bots.BOTS))})(?: \d+)?)")
    if reserved.fullmatch(folded):
        raise TableError("bad-request", f"{text!r} is a name the table uses itself: choose another")
    if any(folded == other.casefold() for other in others):
        raise TableError("bad-request", f"another seat is called {text!r}")
    return text


def check_options(spec: GameSpec, given: Any) -> dict[str, Any]:
    """A game's options from a request, checked before any game is built: an object of at
    most as many options as the game declares, each a declared one, its value None, a
    boolean, a whole number of at most 18 digits or short text (a number as text in
    ASCII digits); then checked by the options' own rules. Returns them as given.

    >>> from cardtable.games import spec_for
    >>> check_options(spec_for("klondike"), {"draw": "1"})
    {'draw': '1'}
    >>> check_options(spec_for("deserto"), {"players": "²"})
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: deserto option 'players' takes a whole number in ASCII digits, not '²'
    >>> check_options(spec_for("klondike"), {"self": 1})
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: klondike has no option 'self' (its options: ...)
    """
    declared = {o.name: o for o in spec.rules.OPTIONS}
    if not isinstance(given, dict):
        raise TableError("bad-request", "options are an object of names and values")
    if len(given) > len(declared):
        raise TableError("bad-request", f"{spec.name} has {len(declared)} options, not {len(given)}")
    for key, value in given.items():
        if not isinstance(key, str) or len(key) > 40:
            raise TableError("bad-request", f"{spec.name} options are named by their names")
        option = declared.get(key.replace("-", "_"))
        where = f"{spec.name} option {key!r}"
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            if abs(value) >= 2**63:
                raise TableError("bad-request", f"{where} takes a whole number of at most 18 digits")
        elif isinstance(value, str):
            if len(value) > 40:
                raise TableError("bad-request", f"{where}: a value is at most 40 characters")
            named = option is not None and value.strip().lower() in (option.none_text, "none")
            if option is not None and option.kind is int and not named and not DECIMAL.fullmatch(value.strip()):
                raise TableError("bad-request", f"{where} takes a whole number in ASCII digits, not {value!r}")
        elif not isinstance(value, float):  # a float goes to the option's own check (a whole number or not)
            raise TableError("bad-request", f"{where} takes a number, on/off or text, not {type(value).__name__}")
    try:
        resolve_options(spec.name, spec.rules.OPTIONS, given)
    except CardtableError as err:
        raise TableError("bad-request", str(err)) from None
    return dict(given)


def check_budget(bot: str, budget: Any, limits: Limits) -> dict[str, Any]:
    """A bot's budget from a request: only the keywords the bot takes, each under the
    server's cap (``iterations`` a whole number from 1 to ``limits.bot_iterations``,
    ``seconds`` a number above 0 and at most ``limits.bot_seconds``). Returns it.

    >>> check_budget("ismcts", {"iterations": 400}, Limits())
    {'iterations': 400}
    >>> check_budget("ismcts", {"seconds": 1e9}, Limits())
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: a bot's budget seconds is at most 1.0 on this server, not 1000000000.0
    """
    if budget is None:
        return {}
    if not isinstance(budget, dict):
        raise TableError("bad-request", "a budget is an object, e.g. {'iterations': 200}")
    try:
        takes = bots.budget_keywords(bot)
    except CardtableError as err:
        raise TableError("bad-request", str(err)) from None
    checked: dict[str, Any] = {}
    for key, value in budget.items():
        if key not in takes:
            raise TableError(
                "bad-request", f"bot {bot!r} takes no budget {key!r} (it takes {', '.join(takes) or 'none'})"
            )
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if key == "iterations":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= limits.bot_iterations:
                raise TableError(
                    "bad-request", f"a bot's budget iterations is a whole number from 1 to {limits.bot_iterations}"
                )
        elif key == "seconds":
            if not number or not math.isfinite(value) or not value > 0:
                raise TableError("bad-request", "a bot's budget seconds is a number above 0")
            if value > limits.bot_seconds:
                raise TableError(
                    "bad-request", f"a bot's budget seconds is at most {limits.bot_seconds} on this server, not {value}"
                )
        elif not number:
            raise TableError("bad-request", f"a bot's budget {key} is a number")
        checked[key] = value
    return checked


def run_budget(bot: str, budget: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """The budget a bot is made with for one move: its checked budget, and for a bot that
    takes ``seconds`` that limit at most ``limits.bot_seconds`` (so every search ends in
    time, whatever its iterations).

    >>> run_budget("ismcts", {"iterations": 400}, Limits())
    {'iterations': 400, 'seconds': 1.0}
    >>> run_budget("greedy", {}, Limits())
    {}
    """
    made = dict(budget)
    if "seconds" in bots.budget_keywords(bot):
        made["seconds"] = min(float(made.get("seconds", limits.bot_seconds)), limits.bot_seconds)
    return made


__all__ = [
    "MAX_NAME",
    "Bucket",
    "Limits",
    "Throttle",
    "check_budget",
    "check_options",
    "clean_name",
    "run_budget",
]

"""The daily deal: one deal a day for each one-player game and mode, the same for everyone,
with a leaderboard a day, game and mode, and a browser's streak of days played.

**Which deal.** The modes are the level keys of the one-player games the browser offers
(:func:`daily_modes`: Klondike draw three and draw one, Desturado's three modes, Demonthief,
Demons and Thieves, Devil's Square), read from the one list of games at call time. A day's
deal of a mode (:func:`daily_deal`) is a pure function of the day (UTC), the mode and the
server's secret (:meth:`~cardtable.web.database.Database.secret`, random, made once and kept
in its database: without it, anyone with this library could work out the day's deal, face-down
cards and all, before playing it; found by the 2026-11-28 audit): the
level of the day's weekday (:data:`WEEK`: easy on Monday and Tuesday, normal on Wednesday
and Thursday, hard on Friday and Saturday, tricky on Sunday: a week that grows harder, as a
newspaper's puzzles do) and a seed made from the day, the mode's label and the secret by
SHA-256 (:func:`daily_seed`), given to :func:`~cardtable.levels.deal_for_level`, which picks a deal of
the shipped level table: only deals the solver proved winnable and graded at that level. No
``hash()``, no set order, no clock but the day: the same for everyone a server serves (every
process sharing its database), and on every machine for the same secret.

**What the player sees.** The deal's number is not sent (not in the table's JSON, its
label, the title, the page's address, the daily page or the leaderboards) until the player
has won the deal or given it up: then it is, with the level. Reaching a position with no
legal move does not show it: the player may undo, restart or give up.

**The leaderboard.** When a browser wins its table of a day's deal, the server makes the
entry itself (:meth:`Daily.enter`) from the table it owns: it replays the stored moves from
the day's deal through the engine and checks they win; the moves are the table's moves and
the time is the server's, from the first move to the winning one. No figure a browser sends
is ever read: ``POST /api/daily/enter`` names a table, nothing else. A browser has one table
a day and mode, and one entry: a game given up is not played again as the day's deal. An
entry is *clean* when neither undo (restart among them), a hint (plain or solver) nor
autocomplete was used at its table; it is *late* when the deal was won after its day (UTC):
late entries are listed after the day's own, each part ranked by moves, then time. An entry
is shown under its browser's display name, asked at the first entry
(:func:`~cardtable.web.limits.clean_name`); until the browser has one, its entries are not
listed.

**Streaks.** A browser's streak counts the days in a row (UTC) on which it made a move in a
daily deal of that day, any game (one streak a browser): the current one runs to today, or
to yesterday while today is not yet played; the best is the longest.

>>> from datetime import date
>>> daily_level(date(2026, 11, 23)), daily_level(date(2026, 11, 29))
('easy', 'tricky')
>>> daily_deal(date(2026, 11, 23), "klondike-draw3") == daily_deal(date(2026, 11, 23), "klondike-draw3")
True
"""

from __future__ import annotations

import hashlib
import threading
from contextlib import suppress
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ..api import load, new_game
from ..core.errors import CardtableError
from ..core.game import Game
from ..core.spec import LevelKey
from ..games import spec_for, specs
from ..levels import deal_for_level
from .database import DailyEntry, DailyPlay, Database, TableRow
from .errors import TableError
from .limits import clean_name
from .solitaire_tables import SolitaireTables
from .statistics import DAILY_LEVEL

WEEK = ("easy", "easy", "normal", "normal", "hard", "hard", "tricky")
"""The level of the daily deal by weekday, Monday first."""

FIRST_DAY = date(2026, 1, 1)
"""The first day with daily deals: days from it to today can be played."""


def daily_modes() -> list[LevelKey]:
    """The modes with a daily deal: the level keys of every one-player game the browser
    offers, in the order of the games.

    >>> [k.label for k in daily_modes()][:3]
    ['klondike-draw3', 'klondike-draw1', 'desturado-easy']
    """
    offered = [spec for spec in specs() if spec.one_player and spec.table is not None]
    return [key for spec in offered for key in spec.keys()]  # noqa: SIM118 (keys() is the spec's, no dict's)


def daily_mode(label: Any) -> LevelKey:
    """The daily mode of a label; ``not-found`` for any other.

    >>> daily_mode("devils-square").game
    'devils-square'
    """
    for key in daily_modes():
        if key.label == label:
            return key
    raise TableError("not-found", f"no daily deal {label!r} (modes: {', '.join(k.label for k in daily_modes())})")


def daily_level(day: date) -> str:
    """The level of the daily deals of a day (:data:`WEEK`).

    >>> daily_level(date(2026, 11, 27))
    'hard'
    """
    return WEEK[day.weekday()]


def daily_seed(day: date, label: str, secret: str = "") -> int:
    """The seed of a day's deal of a mode: the first 8 bytes of the SHA-256 of
    ``cardtable daily DAY LABEL SECRET`` (the day as ``YYYY-MM-DD``; no secret: without its
    space), as a number.

    >>> daily_seed(date(2026, 11, 23), "klondike-draw3") == daily_seed(date(2026, 11, 23), "klondike-draw3")
    True
    >>> daily_seed(date(2026, 11, 23), "klondike-draw3") != daily_seed(date(2026, 11, 24), "klondike-draw3")
    True
    >>> daily_seed(date(2026, 11, 23), "klondike-draw3", "ab") != daily_seed(date(2026, 11, 23), "klondike-draw3")
    True
    """
    text = f"cardtable daily {day.isoformat()} {label}" + (f" {secret}" if secret else "")
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def daily_deal(day: date, label: str, secret: str = "") -> int:
    """The deal number of a day's deal of a mode on a server whose secret is ``secret``
    (see the module docstring).

    >>> from cardtable.levels import grade
    >>> from cardtable.games import rules_for
    >>> day = date(2026, 11, 25)
    >>> grade(rules_for("devils-square"), daily_deal(day, "devils-square", "ab")).level == daily_level(day)
    True
    """
    key = daily_mode(label)
    seed = daily_seed(day, key.label, secret)
    return deal_for_level(key.game, daily_level(day), seed=seed, **key.options())


def mode_title(key: LevelKey) -> str:
    """A mode in words: the game's title, and its option's name and value.

    >>> mode_title(daily_mode("klondike-draw1")), mode_title(daily_mode("devils-square"))
    ('Klondike · draw: 1', "Devil's Square")
    """
    spec = spec_for(key.game)
    if key.option is None:
        return spec.title
    option = next(o for o in spec.rules.OPTIONS if o.name == key.option)
    title = spec.title.split(" (")[0]  # without the default mode a title may name in brackets
    return f"{title} · {key.option.replace('_', ' ')}: {option.show(key.value)}"


def parse_day(text: Any, today: date) -> date:
    """A day from ``YYYY-MM-DD`` (None: today), from :data:`FIRST_DAY` to ``today``; else
    ``bad-request``.

    >>> parse_day("2026-11-20", date(2026, 11, 25)), parse_day(None, date(2026, 11, 25))
    (datetime.date(2026, 11, 20), datetime.date(2026, 11, 25))
    >>> parse_day("2026-11-26", date(2026, 11, 25))
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: no daily deal for 2026-11-26 yet: days from 2026-01-01 to 2026-11-25
    >>> try:
    ...     parse_day("0001-01-01", date(2026, 11, 25))
    ... except TableError as err:
    ...     print(str(err).split(":")[0])
    no daily deal for 0001-01-01 (the first was on 2026-01-01)
    """
    if text is None or text == "":
        return today
    try:
        day = date.fromisoformat(text) if isinstance(text, str) and len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise TableError("bad-request", "a day is written YYYY-MM-DD")
    if not FIRST_DAY <= day <= today:
        when = "yet" if day > today else "(the first was on " + FIRST_DAY.isoformat() + ")"
        raise TableError(
            "bad-request",
            f"no daily deal for {day.isoformat()} {when}: days from {FIRST_DAY.isoformat()} to {today.isoformat()}",
        )
    return day


def streaks(days: list[str], today: date) -> dict[str, int]:
    """The current and best streak of days in a row among ``days`` (``YYYY-MM-DD``); the
    current one runs to today, or to yesterday while today is not among them.

    >>> streaks(["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-20"], date(2026, 11, 25))
    {'current': 3, 'best': 3, 'days': 4}
    >>> streaks(["2026-11-22"], date(2026, 11, 25))
    {'current': 0, 'best': 1, 'days': 1}
    """
    played = sorted({date.fromisoformat(d) for d in days})
    best = run = 0
    last: date | None = None
    for day in played:
        run = run + 1 if last is not None and day - last == timedelta(days=1) else 1
        best = max(best, run)
        last = day
    current = run if last is not None and today - last <= timedelta(days=1) else 0
    return {"current": current, "best": best, "days": len(played)}


def utc_day(seconds: float) -> date:
    """The UTC day of a time in seconds since the epoch.

    >>> utc_day(0.0)
    datetime.date(1970, 1, 1)
    """
    return datetime.fromtimestamp(seconds, UTC).date()


class Daily:
    """The daily deals of a server: its tables (:class:`SolitaireTables`, which tells this
    what happens at a daily table) and database; the time is the tables' ``clock`` (tests
    set their own).

    >>> from cardtable.web.database import Database
    >>> tables = SolitaireTables(Database(":memory:"), clock=lambda: 1_795_600_000.0)
    >>> daily = Daily(tables); daily.today()
    datetime.date(2026, 11, 25)
    >>> t = daily.play("me", "devils-square", None); t["deal"], t["daily"]["day"], t["daily"]["level"]
    (None, '2026-11-25', 'normal')
    """

    def __init__(self, tables: SolitaireTables) -> None:
        self.tables = tables
        self.db: Database = tables.db
        self._secret: str | None = None
        self._lock = threading.Lock()  # one table a browser, day and mode, whatever the requests at once
        tables.listeners.append(self._heard)
        tables.extras.append(self._extra)

    @property
    def secret(self) -> str:
        """The server's secret the daily deals are chosen with (read from the database once).

        >>> from cardtable.web.database import Database
        >>> len(Daily(SolitaireTables(Database(":memory:"))).secret)
        64
        """
        if self._secret is None:
            self._secret = self.db.secret("daily")
        return self._secret

    def clock(self) -> float:
        """The time now (the tables' clock), in seconds since the epoch.

        >>> from cardtable.web.database import Database
        >>> Daily(SolitaireTables(Database(":memory:"), clock=lambda: 5.0)).clock()
        5.0
        """
        return self.tables.clock()

    def today(self) -> date:
        """The day it is now (UTC).

        >>> from cardtable.web.database import Database
        >>> Daily(SolitaireTables(Database(":memory:"), clock=lambda: 0.0)).today().isoformat()
        '1970-01-01'
        """
        return utc_day(self.clock())

    # --- playing ----------------------------------------------------------------------

    def play(self, player: str, mode: Any, day: Any) -> dict[str, Any]:
        """The browser's table of a day's deal of a mode: the one it has, or a new one.

        >>> from cardtable.web.database import Database
        >>> daily = Daily(SolitaireTables(Database(":memory:"), clock=lambda: 1_795_600_000.0))
        >>> first = daily.play("me", "klondike-draw1", "2026-11-20")
        >>> daily.play("me", "klondike-draw1", "2026-11-20")["id"] == first["id"]
        True
        """
        key = daily_mode(mode)
        when = parse_day(day, self.today())
        with self._lock:
            for play in self.db.daily_plays(player, when.isoformat()):
                if play.mode == key.label:
                    return self.tables.get(player, play.table_id)
            deal = daily_deal(when, key.label, self.secret)
            table = self.tables.start(player, key.game, key.options(), deal, DAILY_LEVEL)
            self.db.put_daily_play(DailyPlay(table["id"], player, when.isoformat(), key.label, deal, daily_level(when)))
        return self.tables.get(player, table["id"])

    def _heard(self, event: str, row: TableRow, game: Game[Any, Any]) -> None:
        if row.level != DAILY_LEVEL:
            return
        play = self.db.daily_play(row.id)
        if play is None:
            return
        if event in ("undo", "restart"):
            play.undos += 1
        elif event == "hint":
            play.hints += 1
        elif event == "finish":
            play.finishes += 1
        elif event == "move" and play.played_on is None:
            play.played_on = self.today().isoformat()
        elif event == "won":
            with suppress(TableError):  # moves that do not replay: no entry (and the move stands)
                self._enter(row, game, play)
            return
        else:
            return
        self.db.put_daily_play(play)

    def _extra(self, row: TableRow, data: dict[str, Any]) -> None:
        if row.level != DAILY_LEVEL:
            return
        play = self.db.daily_play(row.id)
        if play is None:
            return
        shown = row.result in ("won", "abandoned")
        day = date.fromisoformat(play.day)
        words = f"Daily deal of {day.day} {day.strftime('%B %Y')} · {play.level.capitalize()}"
        data["label"] = f"{words} (deal {play.deal})" if shown else words
        data["daily"] = self._summary(play, row)

    def _summary(self, play: DailyPlay, row: TableRow) -> dict[str, Any]:
        shown = row.result in ("won", "abandoned")
        return {
            "day": play.day,
            "mode": play.mode,
            "level": play.level,
            "status": {"won": "won", "abandoned": "given up"}.get(row.result or "", "playing" if row.moves else "new"),
            "clean": play.undos == 0 and play.hints == 0 and play.finishes == 0,
            "deal": play.deal if shown else None,
            "name": self.db.daily_name(play.player),
            "link": f"/daily/play?mode={play.mode}&day={play.day}",
            "leaderboard": f"/leaderboard?mode={play.mode}&day={play.day}",
        }

    # --- the leaderboard ----------------------------------------------------------------

    def _enter(self, row: TableRow, game: Game[Any, Any], play: DailyPlay) -> bool:
        """Make the leaderboard entry of a won daily table, after replaying its moves from
        the day's deal through the engine (a ``bad-request`` when they do not win it)."""
        key = daily_mode(play.mode)
        try:
            replay = new_game(key.game, deal=play.deal, **key.options())
            for move in game.moves:
                replay.play(str(move))
        except CardtableError as err:
            raise TableError("bad-request", f"the table's moves do not replay: {err}") from None
        if not replay.rules.is_won(replay.state) or row.result != "won" or row.ended is None:
            raise TableError("bad-request", "the table's moves do not win the day's deal: no entry")
        started = row.started if row.started is not None else row.created
        scoring = spec_for(key.game).scoring[0]
        entry = DailyEntry(
            day=play.day,
            mode=play.mode,
            player=play.player,
            table_id=row.id,
            moves=len(replay.moves),
            seconds=round(max(0.0, row.ended - started), 3),
            clean=play.undos == 0 and play.hints == 0 and play.finishes == 0,
            late=utc_day(row.ended).isoformat() != play.day,
            created=self.clock(),
            score=scoring.score(replay.rules, replay.rules.deal(play.deal), replay.moves),
        )
        return self.db.add_daily_entry(entry)

    def enter(self, player: str, table_id: Any, name: Any = None) -> dict[str, Any]:
        """Put the browser's won daily table on its leaderboard (made from the table the
        server owns, replayed; nothing the browser says about moves or time is read), with
        ``name`` as the browser's display name when given (it is kept for its next entries).
        A table not won is refused (``illegal``), another browser's is not found, a table
        whose stored moves do not replay and win the day's deal is refused (``bad-request``).

        >>> from cardtable.web.database import Database
        >>> daily = Daily(SolitaireTables(Database(":memory:"), clock=lambda: 1_795_600_000.0))
        >>> t = daily.play("me", "devils-square", None)
        >>> daily.enter("me", t["id"], "Ana")
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: only a won daily deal goes on the leaderboard
        """
        if not isinstance(table_id, str):
            raise TableError("bad-request", "an entry names its table")
        data = self.tables.get(player, table_id)  # another browser's table: not found
        play = self.db.daily_play(table_id)
        row = self.db.get(table_id)
        if play is None or row is None or play.player != player:
            raise TableError("bad-request", "only a daily deal's table goes on the leaderboard")
        if row.result != "won":
            raise TableError("illegal", "only a won daily deal goes on the leaderboard")
        try:
            game = load(row.save)
        except CardtableError as err:
            raise TableError("bad-request", f"the table's moves do not replay: {err}") from None
        self._enter(row, game, play)
        if name is not None:
            self.set_name(player, name)
        data = self.tables.get(player, table_id)
        data["leaderboard"] = self.leaderboard(player, play.mode, play.day)
        return data

    def set_name(self, player: str, name: Any) -> str:
        """Keep the browser's display name (normalised as room names are).

        >>> from cardtable.web.database import Database
        >>> Daily(SolitaireTables(Database(":memory:"))).set_name("me", "  Ana   B ")
        'Ana B'
        """
        text = clean_name(name)
        self.db.set_daily_name(player, text)
        return text

    def leaderboard(self, player: str, mode: Any, day: Any) -> dict[str, Any]:
        """A day's and mode's leaderboard: its entries with a name, those won on the day
        ranked first by moves then time, then the late ones (marked, ranked apart); the
        browser's own marked ``you``.

        >>> from cardtable.web.database import Database
        >>> daily = Daily(SolitaireTables(Database(":memory:"), clock=lambda: 1_795_600_000.0))
        >>> daily.leaderboard("me", "devils-square", "2026-11-24")["entries"]
        []
        """
        key = daily_mode(mode)
        when = parse_day(day, self.today())
        scoring = spec_for(key.game).scoring[0]
        entries = []
        ranks = {False: 0, True: 0}
        for entry in self.db.daily_entries(when.isoformat(), key.label):
            if entry.name is None:
                continue
            ranks[entry.late] += 1
            entries.append(
                {
                    "rank": ranks[entry.late],
                    "name": entry.name,
                    "moves": entry.moves,
                    "seconds": entry.seconds,
                    "clean": entry.clean,
                    "late": entry.late,
                    "score": None if entry.score is None else scoring.as_json(entry.score),
                    "you": entry.player == player,
                }
            )
        mine = next((p for p in self.db.daily_plays(player, when.isoformat()) if p.mode == key.label), None)
        row = None if mine is None else self.db.get(mine.table_id)
        shown = row is not None and row.result in ("won", "abandoned")
        return {
            "day": when.isoformat(),
            "today": self.today().isoformat(),
            "mode": key.label,
            "game": key.game,
            "title": mode_title(key),
            "level": daily_level(when),
            "deal": mine.deal if shown and mine is not None else None,
            "scoring": scoring.title,
            "entries": entries,
        }

    # --- the daily page ------------------------------------------------------------------

    def overview(self, player: str, day: Any) -> dict[str, Any]:
        """The daily page's facts for a browser: the day, its level, each mode's status
        (``new``, ``playing``, ``won``, ``given up``; the deal number once won or given up),
        the browser's name and streak, and the days that can be chosen.

        >>> from cardtable.web.database import Database
        >>> daily = Daily(SolitaireTables(Database(":memory:"), clock=lambda: 1_795_600_000.0))
        >>> o = daily.overview("me", None); o["day"], o["modes"][0]["status"], o["streak"]["current"]
        ('2026-11-25', 'new', 0)
        """
        today = self.today()
        when = parse_day(day, today)
        plays = {p.mode: p for p in self.db.daily_plays(player, when.isoformat())}
        modes = []
        for key in daily_modes():
            play = plays.get(key.label)
            row = None if play is None else self.db.get(play.table_id)
            summary = (
                self._summary(play, row)
                if play is not None and row is not None
                else {"status": "new", "clean": True, "deal": None}
            )
            named = [e for e in self.db.daily_entries(when.isoformat(), key.label) if e.name is not None]
            modes.append(
                {
                    "mode": key.label,
                    "game": key.game,
                    "title": mode_title(key),
                    "status": summary["status"],
                    "clean": summary["clean"],
                    "deal": summary["deal"],
                    "moves": 0 if row is None else row.moves,
                    "entries": len(named),
                    "link": f"/daily/play?mode={key.label}&day={when.isoformat()}",
                    "leaderboard": f"/leaderboard?mode={key.label}&day={when.isoformat()}",
                }
            )
        days = [p.played_on for p in self.db.daily_plays(player) if p.played_on is not None and p.played_on == p.day]
        return {
            "day": when.isoformat(),
            "today": today.isoformat(),
            "first_day": FIRST_DAY.isoformat(),
            "level": daily_level(when),
            "modes": modes,
            "name": self.db.daily_name(player),
            "streak": streaks(days, today),
            "recent": [d.isoformat() for d in (today - timedelta(days=i) for i in range(7)) if d >= FIRST_DAY],
        }


__all__ = [
    "FIRST_DAY",
    "WEEK",
    "Daily",
    "daily_deal",
    "daily_level",
    "daily_mode",
    "daily_modes",
    "daily_seed",
    "mode_title",
    "parse_day",
    "streaks",
    "utc_day",
]

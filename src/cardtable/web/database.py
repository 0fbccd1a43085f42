"""Where the web app keeps games, rooms and statistics: one SQLite file.

A table (one game of a one-player game at the browser) is a row holding its
save file (the library's own format: game, options, deal, moves, replayed and
checked on load), the moves taken back (for redo), its level and seed, the
times it was started and ended, the hints used and how it ended. The row is
written after every move, so a game survives a page reload and a server
restart. A finished game of a room where one person played against bots is a
row of the same table too (its statistics; see :mod:`cardtable.web.statistics`).

A room (a multi-player game) is a row with its game, options, seats and the
secret deal number of its current game, and its moves are rows of their own,
each written before anyone hears of it.

The file is made readable and writable by its owner only (mode 0600, its
journal files too): it holds every hand being played.

The schema is created and migrated by the app itself: ``PRAGMA user_version``
holds the schema's version and :data:`MIGRATIONS` brings an older file up to
date.

>>> db = Database(":memory:")
>>> db.version()
9

The SQL is written once, in SQLite's words (``?`` for a value, ``INSERT OR REPLACE``);
:class:`cardtable.web.postgres.PostgresDatabase` runs the same methods on PostgreSQL,
saying them in its own words (:meth:`Database.sql`, :meth:`Database.upsert`).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import CardtableError

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        mode TEXT NOT NULL,
        level TEXT NOT NULL,
        seed INTEGER,
        save TEXT NOT NULL,
        redo TEXT NOT NULL DEFAULT '[]',
        seats TEXT,
        created REAL NOT NULL,
        started REAL,
        ended REAL,
        result TEXT,
        hints INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX tables_player ON tables (player, ended);
    """,
    """
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        options TEXT NOT NULL,
        seats TEXT NOT NULL,
        deal INTEGER,
        game_no INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        created REAL NOT NULL,
        empty_since REAL
    );
    CREATE TABLE room_moves (
        code TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        n INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (code, game_no, n)
    );
    """,
    # Rooms name their game and remember who made them and, for one person against bots,
    # what the old tables of Deserto against bots kept: when the person's first move was
    # made, when the game ended, the hints used, the moves taken back. Those old tables
    # (the rows with seats) were games against bots: an unfinished one is left, as when a
    # new game of the same kind starts (abandoned after a move, else dropped).
    """
    ALTER TABLE rooms ADD COLUMN game TEXT NOT NULL DEFAULT 'deserto';
    ALTER TABLE rooms ADD COLUMN player TEXT;
    ALTER TABLE rooms ADD COLUMN started REAL;
    ALTER TABLE rooms ADD COLUMN ended REAL;
    ALTER TABLE rooms ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN redo TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX rooms_player ON rooms (player, status);
    UPDATE tables SET ended = created, result = 'abandoned' WHERE seats IS NOT NULL AND ended IS NULL AND moves > 0;
    DELETE FROM tables WHERE seats IS NOT NULL AND ended IS NULL;
    """,
    # Rooms have a pace (a clock), a long secret for their invite link, and remember the
    # network address that made them (its rooms are capped).
    """
    ALTER TABLE rooms ADD COLUMN pace TEXT NOT NULL DEFAULT 'casual';
    ALTER TABLE rooms ADD COLUMN secret TEXT;
    ALTER TABLE rooms ADD COLUMN address TEXT;
    """,
    # The daily deal (:mod:`cardtable.web.daily`): a browser's table of a day's deal of a game
    # and mode (one each), what was used on it (undo, hints, autocomplete: a win without any is
    # clean) and the day of its first move; the leaderboard's entries, made by the server from
    # a won table; the browser's display name.
    """
    CREATE TABLE daily_plays (
        table_id TEXT PRIMARY KEY,
        player TEXT NOT NULL,
        day TEXT NOT NULL,
        mode TEXT NOT NULL,
        deal BIGINT NOT NULL,
        level TEXT NOT NULL,
        undos INTEGER NOT NULL DEFAULT 0,
        hints INTEGER NOT NULL DEFAULT 0,
        finishes INTEGER NOT NULL DEFAULT 0,
        played_on TEXT
    );
    CREATE UNIQUE INDEX daily_plays_one ON daily_plays (player, day, mode);
    CREATE TABLE daily_entries (
        day TEXT NOT NULL,
        mode TEXT NOT NULL,
        player TEXT NOT NULL,
        table_id TEXT NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        clean INTEGER NOT NULL,
        late INTEGER NOT NULL,
        created REAL NOT NULL,
        score INTEGER,
        PRIMARY KEY (day, mode, player)
    );
    CREATE TABLE daily_names (
        player TEXT PRIMARY KEY,
        name TEXT NOT NULL
    );
    """,
    # Several server processes may share one database (PostgreSQL): a room's row counts its
    # changes (``rev``: a process whose copy is older reloads it) and the times its moves were
    # taken back or dealt anew (``epoch``: a copy of another epoch replays the moves from the
    # first); ``room_presence`` says which seats each process has a socket of.
    """
    ALTER TABLE rooms ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE room_presence (
        code TEXT NOT NULL,
        process INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (code, process, seat)
    );
    """,
    # Replays, ratings and the lobby: a room may be public (listed in the lobby) and rated;
    # every finished game of a room is kept with its deal and moves (its replay, under a long
    # random id); people (a browser's player id, kept as a hash) have a display name and, per
    # game, an OpenSkill rating; the rated games already counted are noted, so a game's end
    # updates the ratings once.
    """
    ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE finished_games (
        id TEXT PRIMARY KEY,
        room TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        deal INTEGER NOT NULL,
        seats TEXT NOT NULL,
        moves TEXT NOT NULL,
        ranks TEXT NOT NULL,
        rated INTEGER NOT NULL,
        ended REAL NOT NULL,
        UNIQUE (room, game_no)
    );
    CREATE TABLE finished_players (
        id TEXT NOT NULL,
        holder TEXT NOT NULL,
        ended REAL NOT NULL,
        PRIMARY KEY (id, holder)
    );
    CREATE INDEX finished_players_holder ON finished_players (holder, ended);
    CREATE TABLE players (
        holder TEXT PRIMARY KEY,
        name TEXT NOT NULL
    );
    CREATE TABLE ratings (
        holder TEXT NOT NULL,
        game TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated REAL NOT NULL,
        PRIMARY KEY (holder, game)
    );
    CREATE TABLE rated_games (
        room TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        PRIMARY KEY (room, game_no)
    );
    """,
    # Moves are only ever added: a one-person room's undo or restart no longer removes the
    # moves taken back, it starts a new ``epoch`` of the game with a copy of the moves kept.
    # Each row names its epoch (the rows so far belong to their room's epoch of now).
    """
    CREATE TABLE room_moves_by_epoch (
        code TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        n INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (code, game_no, epoch, n)
    );
    INSERT INTO room_moves_by_epoch (code, game_no, epoch, n, move)
        SELECT m.code, m.game_no, COALESCE((SELECT r.epoch FROM rooms r WHERE r.code = m.code), 0), m.n, m.move
        FROM room_moves m;
    DROP TABLE room_moves;
    ALTER TABLE room_moves_by_epoch RENAME TO room_moves;
    """,
    # A server's secrets, each made once (Database.secret): the daily deal's seed is mixed
    # with one, so that nobody can work a day's deal out before playing it.
    """
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
)
"""The schema, one step per version: step ``i`` takes a file from version ``i`` to ``i + 1``."""


@dataclass
class TableRow:
    """One stored table (see the module docstring). ``result`` is None while the game
    goes on, else ``won``, ``lost`` or ``abandoned``.

    >>> TableRow("t1", "p1", "klondike", "draw=3", "random", None, "{}").result is None
    True
    """

    id: str
    player: str
    game: str
    mode: str
    level: str
    seed: int | None
    save: str
    redo: list[str] = field(default_factory=list)
    seats: list[str] | None = None
    created: float = 0.0
    started: float | None = None
    ended: float | None = None
    result: str | None = None
    hints: int = 0
    moves: int = 0


_COLUMNS = tuple(TableRow.__dataclass_fields__)


class RoomRow(NamedTuple):
    """One stored room: its code, game options and seats (JSON), the deal number of
    its current game (secret: never sent to a browser), the game's number (0, then
    one more each rematch), its status, since when no player is there; its game,
    the player id (the browser's cookie) of who made it; for the current game, when
    a person first moved and when it ended, the hints used and the moves taken back
    (JSON); its pace (see :mod:`cardtable.web.clocks`), the secret of its invite link,
    the network address that made it, whether the lobby lists it (``public``) and whether
    its games are rated.

    >>> RoomRow("ABC", "{}", "[]", None, 0, "lobby", 1.0, None, "duel").game
    'duel'
    """

    code: str
    options: str
    seats: str
    deal: int | None
    game_no: int
    status: str
    created: float
    empty_since: float | None
    game: str
    player: str | None = None
    started: float | None = None
    ended: float | None = None
    hints: int = 0
    redo: str = "[]"
    pace: str = "casual"
    secret: str | None = None
    address: str | None = None
    rev: int = 0
    epoch: int = 0
    public: bool = False
    rated: bool = False


class MoveTaken(sqlite3.IntegrityError):
    """A move number of a room's game that is stored already (another process took that turn);
    an ``sqlite3.IntegrityError``, as the key's refusal was before there were other backends.

    >>> isinstance(MoveTaken("ABC", 0, 3), sqlite3.IntegrityError)
    True
    """


@dataclass
class DailyPlay:
    """A browser's table of a daily deal (:mod:`cardtable.web.daily`): the table's id, the
    browser, the day (``YYYY-MM-DD``, UTC), the mode (a level key's label), the deal and
    its level; how often undo (restart among them), a hint and autocomplete were used;
    the day (UTC) of its first move.

    >>> DailyPlay("t1", "p1", "2026-11-23", "klondike-draw3", 7, "easy").undos
    0
    """

    table_id: str
    player: str
    day: str
    mode: str
    deal: int
    level: str
    undos: int = 0
    hints: int = 0
    finishes: int = 0
    played_on: str | None = None


class DailyEntry(NamedTuple):
    """One line of a daily deal's leaderboard: the day and mode, the browser, its won
    table, the moves and seconds of the win, whether it is clean (no undo, hint or
    autocomplete) and late (won after its day), when it was made, its score (by the game's
    first scoring, :mod:`cardtable.core.scoring`; shown, not ranked); ``name`` the browser's
    display name when read (None: it has none yet).

    >>> DailyEntry("2026-11-23", "klondike-draw3", "p1", "t1", 90, 300.0, True, False, 1.0).moves
    90
    """

    day: str
    mode: str
    player: str
    table_id: str
    moves: int
    seconds: float
    clean: bool
    late: bool
    created: float
    score: int | None = None
    name: str | None = None


_DAILY_PLAY = tuple(DailyPlay.__dataclass_fields__)
_DAILY_ENTRY = DailyEntry._fields[:-1]


class FinishedGame(NamedTuple):
    """A room's finished game, kept for its replay: the replay's ``id`` (long and random),
    the ``room`` (its code and a hash of its invite key: a code is used again once its
    room is gone) and the game's number there, the game, its options (JSON), its deal
    number, its seats (JSON: each seat's ``name``, ``kind`` and ``bot``), its moves (JSON:
    their text, first first), each seat's rank (JSON), whether it was rated, when it ended.

    >>> FinishedGame("r", "ABC", 0, "deserto", "{}", 7, "[]", "[]", "[]", False, 1.0).deal
    7
    """

    id: str
    room: str
    game_no: int
    game: str
    options: str
    deal: int
    seats: str
    moves: str
    ranks: str
    rated: bool
    ended: float


class Rating(NamedTuple):
    """A person's OpenSkill rating at a game: ``mu``, ``sigma`` and the rated games played.

    >>> Rating(25.0, 8.3, 0).games
    0
    """

    mu: float
    sigma: float
    games: int


class Database:
    """The SQLite file of the web app (``":memory:"`` for tests). Safe to share
    between the server's threads: one connection, one lock. A transaction may hold
    others (they join it).

    >>> s = Database(":memory:")
    >>> s.put(TableRow("t1", "p1", "klondike", "draw=3", "random", None, "{}"))
    >>> s.get("t1").game
    'klondike'
    """

    shared = False
    """Whether other processes may use the same database (PostgreSQL's: :mod:`cardtable.web.postgres`)."""

    def __init__(self, path: str) -> None:
        on_disk = path != ":memory:" and not path.startswith("file:")
        try:
            if on_disk and os.path.isfile(path) and os.path.getsize(path) > 0:
                _check_data_file(path)  # read only: nothing is written to a file that is not ours
            if on_disk:
                _owner_only(path)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._lock = threading.RLock()
            self._depth = 0
            self.writes = 0
            self._migrate()
        except sqlite3.Error as err:  # damaged, locked, read only, a full disk
            raise DataFileError(f"cannot use the data file {path}: {err}") from None

    # --- the seam: what a backend says in its own words --------------------------------

    def sql(self, text: str) -> str:
        """A statement written in SQLite's words, as this database says it.

        >>> Database(":memory:").sql("SELECT ? + 1")
        'SELECT ? + 1'
        """
        return text

    def upsert(self, table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
        """The statement that inserts a row of ``columns`` into ``table``, or replaces the
        row with the same ``key``.

        >>> Database(":memory:").upsert("t", ("a", "b"), ("a",))
        'INSERT OR REPLACE INTO t (a, b) VALUES (?, ?)'
        """
        return f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"

    def _execute(self, text: str, values: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (the lock held) and return its rows."""
        return self._db.execute(text, values).fetchall()

    def _begin(self, code: str | None) -> None:
        """Begin a transaction (of the room ``code``: see :meth:`room_transaction`)."""
        self._db.execute("BEGIN IMMEDIATE")

    def _lock_room(self, code: str) -> None:
        """Lock the room ``code`` in the open transaction (one process alone: nothing to lock)."""

    def _lock_ratings(self) -> None:
        """Lock the ratings in the open transaction (one process alone: nothing to lock)."""

    def _end(self, commit: bool) -> None:
        self._db.execute("COMMIT" if commit else "ROLLBACK")

    def _migrate(self) -> None:
        with self._transaction():
            version = check_version(self._execute("PRAGMA user_version")[0][0])
            for step in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        self._execute(statement)
                self._execute(f"PRAGMA user_version = {step + 1}")

    # --- transactions ------------------------------------------------------------------

    @contextmanager
    def _transaction(self, code: str | None = None) -> Iterator[None]:
        """One transaction (inside another: part of it), of the room ``code`` if given."""
        with self._lock:
            if self._depth:
                if code is not None:
                    self._lock_room(code)
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._begin(code)
            self._depth = 1
            try:
                yield
            except BaseException:
                self._depth = 0
                self._end(False)
                raise
            self._depth = 0
            self._end(True)

    @contextmanager
    def room_transaction(self, code: str) -> Iterator[None]:
        """A transaction in which one process alone changes the room ``code`` (on SQLite, the
        one process; on PostgreSQL, a lock of the room held until the end).

        >>> s = Database(":memory:")
        >>> with s.room_transaction("ABC"):
        ...     s.add_move("ABC", 0, 0, "V1")
        >>> s.moves("ABC", 0)
        ['V1']
        """
        with self._transaction(code):
            yield

    def _write(self, text: str, values: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a statement that changes something, in a transaction (of its own, or the one open)."""
        with self._transaction():
            self.writes += 1
            return self._execute(self.sql(text), values)

    def _read(self, text: str, values: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._execute(self.sql(text), values)

    def version(self) -> int:
        """The schema version of the file.

        >>> Database(":memory:").version() == len(MIGRATIONS)
        True
        """
        with self._lock:
            return int(self._execute("PRAGMA user_version")[0][0])

    def secret(self, name: str) -> str:
        """The server's secret ``name``: 64 random hexadecimal digits, made at the first call
        and kept for good, the same for every process that shares the database.

        >>> s = Database(":memory:"); len(s.secret("daily")), s.secret("daily") == s.secret("daily")
        (64, True)
        """
        made = secrets.token_hex(32)
        with self._transaction():
            self._write("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, made))
            return str(self._read("SELECT value FROM secrets WHERE name = ?", (name,))[0][0])

    # --- one-player tables ---------------------------------------------------------------

    def put(self, row: TableRow) -> None:
        """Write a table (insert or replace), in one transaction.

        >>> s = Database(":memory:"); s.put(TableRow("t", "p", "klondike", "", "random", 3, "{}", moves=2))
        >>> s.get("t").moves
        2
        """
        values = [getattr(row, c) for c in _COLUMNS]
        values[_COLUMNS.index("redo")] = json.dumps(row.redo)
        values[_COLUMNS.index("seats")] = None if row.seats is None else json.dumps(row.seats)
        with self._transaction():
            self.writes += 1
            self._execute(self.upsert("tables", _COLUMNS, ("id",)), values)

    def get(self, table_id: str) -> TableRow | None:
        """The table with this id, or None.

        >>> Database(":memory:").get("nope") is None
        True
        """
        found = self._read(f"SELECT {', '.join(_COLUMNS)} FROM tables WHERE id = ?", (table_id,))
        return None if not found else _row(found[0])

    def delete(self, table_id: str) -> None:
        """Remove a table (nothing if there is none).

        >>> s = Database(":memory:"); s.put(TableRow("t", "p", "klondike", "", "random", None, "{}")); s.delete("t")
        >>> s.get("t") is None
        True
        """
        self._write("DELETE FROM tables WHERE id = ?", (table_id,))

    def player_tables(self, player: str, finished: bool) -> list[TableRow]:
        """A player's tables, finished ones (oldest end first) or those in progress
        (newest first).

        >>> s = Database(":memory:"); s.put(TableRow("t", "p", "klondike", "", "random", None, "{}"))
        >>> [r.id for r in s.player_tables("p", finished=False)]
        ['t']
        """
        where = "ended IS NOT NULL ORDER BY ended, id" if finished else "ended IS NULL ORDER BY created DESC, id"
        rows = self._read(f"SELECT {', '.join(_COLUMNS)} FROM tables WHERE player = ? AND {where}", (player,))
        return [_row(r) for r in rows]

    # --- rooms (multi-player games online) -----------------------------------------

    def put_room(self, room: RoomRow) -> None:
        """Write a room's row (insert or replace); its moves are kept apart (:meth:`add_move`).

        >>> s = Database(":memory:"); s.put_room(RoomRow("ABC", "{}", "[]", 7, 0, "lobby", 1.0, None, "duel"))
        >>> s.rooms()[0].deal
        7
        """
        with self._transaction():
            self.writes += 1
            self._execute(self.upsert("rooms", RoomRow._fields, ("code",)), _values(room))

    def add_room(self, room: RoomRow) -> bool:
        """Store a new room; False (and nothing written) if its code is taken.

        >>> s = Database(":memory:"); row = RoomRow("ABC", "{}", "[]", 7, 0, "lobby", 1.0, None, "duel")
        >>> s.add_room(row), s.add_room(row)
        (True, False)
        """
        marks = ", ".join("?" for _ in RoomRow._fields)
        with self._transaction():
            if self._execute(self.sql("SELECT 1 FROM rooms WHERE code = ?"), (room.code,)):
                return False
            self.writes += 1
            self._execute(self.sql(f"INSERT INTO rooms ({', '.join(RoomRow._fields)}) VALUES ({marks})"), _values(room))
        return True

    def room(self, code: str) -> RoomRow | None:
        """The stored room ``code``, or None.

        >>> s = Database(":memory:"); s.put_room(RoomRow("ABC", "{}", "[]", 7, 0, "lobby", 1.0, None, "duel"))
        >>> s.room("ABC").deal, s.room("XYZ")
        (7, None)
        """
        rows = self._read(f"SELECT {', '.join(RoomRow._fields)} FROM rooms WHERE code = ?", (code,))
        return RoomRow(*rows[0]) if rows else None

    def room_rev(self, code: str) -> int | None:
        """How many times the room ``code`` was changed (its ``rev``), None if there is no such room.

        >>> s = Database(":memory:"); s.put_room(RoomRow("ABC", "{}", "[]", 7, 0, "lobby", 1.0, None, "duel"))
        >>> s.room_rev("ABC"), s.bump("ABC"), s.room_rev("XYZ")
        (0, 1, None)
        """
        rows = self._read("SELECT rev FROM rooms WHERE code = ?", (code,))
        return int(rows[0][0]) if rows else None

    def bump(self, code: str) -> int:
        """Count a change of the room ``code`` (its ``rev`` goes up by one) and tell the other
        processes (:meth:`notify`); the new ``rev``."""
        rows = self._write("UPDATE rooms SET rev = rev + 1 WHERE code = ? RETURNING rev", (code,))
        if not rows:
            return -1
        rev = int(rows[0][0])
        self.notify(code, rev)
        return rev

    def notify(self, code: str, rev: int) -> None:
        """Tell the other processes that the room ``code`` is now at ``rev`` (-1: removed),
        when the transaction ends. One process on SQLite: nobody to tell.

        >>> Database(":memory:").notify("ABC", 3)
        """

    def add_move(self, code: str, game_no: int, n: int, move: str, epoch: int | None = None) -> None:
        """Record move ``n`` (0 first) of a room's game ``game_no`` in its ``epoch`` (None:
        the room's stored epoch); a second move ``n`` is refused by the key
        (:class:`MoveTaken`), so none is stored twice. Moves are only ever added.

        >>> s = Database(":memory:"); s.add_move("ABC", 0, 0, "V1"); s.moves("ABC", 0)
        ['V1']
        >>> s.add_move("ABC", 0, 0, "T2")
        Traceback (most recent call last):
        ...
        cardtable.web.database.MoveTaken: ('ABC', 0, 0)
        """
        # ON CONFLICT: a taken number is no error that ends PostgreSQL's transaction.
        at, arg = self._epoch(code, epoch)
        stored = self._write(
            f"INSERT INTO room_moves (code, game_no, epoch, n, move) VALUES (?, ?, {at}, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING n",
            (code, game_no, arg, n, move),
        )
        if not stored:
            raise MoveTaken(code, game_no, n)

    def keep_moves(self, code: str, game_no: int, before: int, old: int, new: int) -> None:
        """A room's game taken back to move ``before`` (undo; 0: a restart): its moves
        ``0 .. before - 1`` of epoch ``old`` are copied to the new epoch ``new``, which goes on
        from there. Nothing is removed: epoch ``old`` keeps every move it had.

        >>> s = Database(":memory:"); s.add_move("ABC", 0, 0, "V1", 0); s.add_move("ABC", 0, 1, "T2", 0)
        >>> s.keep_moves("ABC", 0, 1, old=0, new=1); s.add_move("ABC", 0, 1, "V3", 1)
        >>> s.moves("ABC", 0, epoch=1), s.moves("ABC", 0, epoch=0)
        (['V1', 'V3'], ['V1', 'T2'])
        """
        self._write(
            "INSERT INTO room_moves (code, game_no, epoch, n, move) SELECT code, game_no, ?, n, move"
            " FROM room_moves WHERE code = ? AND game_no = ? AND epoch = ? AND n < ?",
            (new, code, game_no, old, before),
        )

    def moves(self, code: str, game_no: int, first: int = 0, epoch: int | None = None) -> list[str]:
        """A room's game's moves in its ``epoch`` (None: the room's stored epoch), first first
        (from move ``first`` on).

        >>> s = Database(":memory:"); s.add_move("ABC", 0, 0, "V1"); s.add_move("ABC", 0, 1, "T2")
        >>> s.moves("ABC", 0), s.moves("ABC", 0, first=1), s.moves("XYZ", 0)
        (['V1', 'T2'], ['T2'], [])
        """
        at, arg = self._epoch(code, epoch)
        rows = self._read(
            f"SELECT move FROM room_moves WHERE code = ? AND game_no = ? AND epoch = {at} AND n >= ? ORDER BY n",
            (code, game_no, arg, first),
        )
        return [r[0] for r in rows]

    @staticmethod
    def _epoch(code: str, epoch: int | None) -> tuple[str, Any]:
        """The SQL for room ``code``'s ``epoch`` and the one value it takes: the epoch given,
        or (None) the room's stored one, 0 with no room."""
        if epoch is not None:
            return "?", epoch
        return "COALESCE((SELECT epoch FROM rooms WHERE code = ?), 0)", code

    def rooms(self) -> list[RoomRow]:
        """Every stored room, oldest first.

        >>> Database(":memory:").rooms()
        []
        """
        rows = self._read(f"SELECT {', '.join(RoomRow._fields)} FROM rooms ORDER BY created, code")
        return [RoomRow(*r) for r in rows]

    def open_rooms(self, player: str | None, address: str | None) -> list[RoomRow]:
        """The rooms not over (lobby or playing) made by the browser ``player`` or from ``address``.

        >>> s = Database(":memory:"); s.put_room(RoomRow("ABC", "{}", "[]", 7, 0, "lobby", 1.0, None, "duel", "p"))
        >>> [r.code for r in s.open_rooms("p", None)], s.open_rooms("q", "1.2.3.4")
        (['ABC'], [])
        """
        rows = self._read(
            f"SELECT {', '.join(RoomRow._fields)} FROM rooms WHERE status <> 'over' AND (player = ? OR address = ?)"
            " ORDER BY created, code",
            (player, address),
        )
        return [RoomRow(*r) for r in rows]

    def public_lobby_rooms(self, limit: int) -> list[str]:
        """The codes of the ``limit`` oldest public rooms still in their lobby (the lobby page
        of any process lists them).

        >>> s = Database(":memory:")
        >>> s.put_room(RoomRow("PUB", "{}", "[]", None, 0, "lobby", 1.0, None, "duel", public=True))
        >>> s.put_room(RoomRow("PRV", "{}", "[]", None, 0, "lobby", 2.0, None, "duel"))
        >>> s.public_lobby_rooms(10)
        ['PUB']
        """
        rows = self._read(
            "SELECT code FROM rooms WHERE public = 1 AND status = 'lobby' ORDER BY created, code LIMIT ?", (limit,)
        )
        return [str(r[0]) for r in rows]

    def player_rooms(self, player: str) -> list[tuple[RoomRow, int]]:
        """The rooms a player made whose game is being played, newest first, each with
        the number of moves of its game.

        >>> s = Database(":memory:")
        >>> s.put_room(RoomRow("ABC", "{}", "[]", 7, 0, "playing", 1.0, None, "duel", player="p"))
        >>> s.add_move("ABC", 0, 0, "V1"); [(r.code, n) for r, n in s.player_rooms("p")]
        [('ABC', 1)]
        """
        columns = ", ".join(f"r.{c}" for c in RoomRow._fields)
        rows = self._read(
            f"SELECT {columns}, (SELECT COUNT(*) FROM room_moves m"
            " WHERE m.code = r.code AND m.game_no = r.game_no AND m.epoch = r.epoch)"
            " FROM rooms r WHERE r.player = ? AND r.status = 'playing' ORDER BY r.created DESC, r.code",
            (player,),
        )
        return [(RoomRow(*r[:-1]), int(r[-1])) for r in rows]

    def delete_room(self, code: str) -> None:
        """Remove a room, its moves and who was there (and tell the other processes).

        >>> s = Database(":memory:"); s.add_move("ABC", 0, 0, "V1"); s.delete_room("ABC"); s.moves("ABC", 0)
        []
        """
        with self._transaction():
            self._write("DELETE FROM rooms WHERE code = ?", (code,))
            self._write("DELETE FROM room_moves WHERE code = ?", (code,))
            self._write("DELETE FROM room_presence WHERE code = ?", (code,))
            self.notify(code, -1)

    def set_presence(self, code: str, process: int, seats: list[int]) -> None:
        """Note the seats of the room ``code`` that the process ``process`` has a socket of.

        >>> s = Database(":memory:"); s.set_presence("ABC", 1, [0, 2]); s.set_presence("ABC", 2, [1])
        >>> s.presence("ABC", 2)
        [0, 2]
        """
        with self._transaction():
            self._write("DELETE FROM room_presence WHERE code = ? AND process = ?", (code, process))
            for seat in seats:
                self._write("INSERT INTO room_presence VALUES (?, ?, ?)", (code, process, seat))

    def presence(self, code: str, process: int) -> list[int]:
        """The seats of the room ``code`` that live processes other than ``process`` have a
        socket of (on SQLite every process that noted any is taken to be alive)."""
        rows = self._read(
            "SELECT DISTINCT seat FROM room_presence WHERE code = ? AND process <> ? ORDER BY seat", (code, process)
        )
        return [int(r[0]) for r in rows]

    # --- the daily deal ------------------------------------------------------------

    def put_daily_play(self, play: DailyPlay) -> None:
        """Write a browser's daily play (insert, or update the one of its table).

        >>> s = Database(":memory:"); s.put_daily_play(DailyPlay("t", "p", "2026-11-23", "klondike-draw3", 7, "easy"))
        >>> s.daily_play("t").deal
        7
        """
        values = [getattr(play, c) for c in _DAILY_PLAY]
        updates = ", ".join(f"{c} = excluded.{c}" for c in _DAILY_PLAY[1:])
        self._write(
            f"INSERT INTO daily_plays ({', '.join(_DAILY_PLAY)}) VALUES ({', '.join('?' for _ in _DAILY_PLAY)})"
            f" ON CONFLICT (table_id) DO UPDATE SET {updates}",
            values,
        )

    def daily_play(self, table_id: str) -> DailyPlay | None:
        """The daily play of a table, or None (not a daily deal's table).

        >>> Database(":memory:").daily_play("t") is None
        True
        """
        found = self._read(f"SELECT {', '.join(_DAILY_PLAY)} FROM daily_plays WHERE table_id = ?", (table_id,))
        return DailyPlay(*found[0]) if found else None

    def daily_plays(self, player: str, day: str | None = None) -> list[DailyPlay]:
        """A browser's daily plays (of one day, or all), by day then mode.

        >>> s = Database(":memory:"); s.put_daily_play(DailyPlay("t", "p", "2026-11-23", "klondike-draw3", 7, "easy"))
        >>> [p.mode for p in s.daily_plays("p", "2026-11-23")], s.daily_plays("p", "2026-11-24")
        (['klondike-draw3'], [])
        """
        where, args = ("player = ?", (player,)) if day is None else ("player = ? AND day = ?", (player, day))
        rows = self._read(f"SELECT {', '.join(_DAILY_PLAY)} FROM daily_plays WHERE {where} ORDER BY day, mode", args)
        return [DailyPlay(*r) for r in rows]

    def add_daily_entry(self, entry: DailyEntry) -> bool:
        """Put an entry on a leaderboard; a browser has one entry a day and mode: the first
        stays (False when there was one already).

        >>> s = Database(":memory:"); e = DailyEntry("2026-11-23", "draw3", "p", "t", 90, 3.0, True, False, 1.0)
        >>> s.add_daily_entry(e), s.add_daily_entry(e._replace(moves=80)), s.daily_entries(e.day, "draw3")[0].moves
        (True, False, 90)
        """
        stored = self._write(
            f"INSERT INTO daily_entries ({', '.join(_DAILY_ENTRY)}) VALUES ({', '.join('?' for _ in _DAILY_ENTRY)})"
            " ON CONFLICT (day, mode, player) DO NOTHING RETURNING day",
            [int(v) if isinstance(v, bool) else v for v in entry[: len(_DAILY_ENTRY)]],
        )
        return len(stored) == 1

    def daily_entries(self, day: str, mode: str) -> list[DailyEntry]:
        """A day's and mode's leaderboard entries with their browsers' names: those won on
        the day first, then the late ones, each by moves, then seconds, then when made.

        >>> Database(":memory:").daily_entries("2026-11-23", "klondike-draw3")
        []
        """
        columns = ", ".join(f"e.{c}" for c in _DAILY_ENTRY)
        rows = self._read(
            f"SELECT {columns}, n.name FROM daily_entries e LEFT JOIN daily_names n ON n.player = e.player"
            " WHERE e.day = ? AND e.mode = ? ORDER BY e.late, e.moves, e.seconds, e.created, e.player",
            (day, mode),
        )
        return [DailyEntry(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9], r[10]) for r in rows]

    def set_daily_name(self, player: str, name: str) -> None:
        """Keep a browser's display name for the leaderboards.

        >>> s = Database(":memory:"); s.set_daily_name("p", "Ana"); s.set_daily_name("p", "Ana B"); s.daily_name("p")
        'Ana B'
        """
        self._write(
            "INSERT INTO daily_names (player, name) VALUES (?, ?)"
            " ON CONFLICT (player) DO UPDATE SET name = excluded.name",
            (player, name),
        )

    def daily_name(self, player: str) -> str | None:
        """A browser's display name, or None.

        >>> Database(":memory:").daily_name("p") is None
        True
        """
        found = self._read("SELECT name FROM daily_names WHERE player = ?", (player,))
        return str(found[0][0]) if found else None

    # --- finished games (replays), players and ratings -----------------------------------

    def put_finished(self, game: FinishedGame, holders: list[str] | None = None) -> str:
        """Keep a room's finished game (insert, or update the one of the same room and game
        number, keeping its id) and who played it (``holders``: the people's hashed player
        ids, never sent); the id its replay is known by.

        >>> s = Database(":memory:")
        >>> s.put_finished(FinishedGame("r1", "ABC", 0, "deserto", "{}", 7, "[]", '["V1"]', "[1, 2]", False, 1.0))
        'r1'
        >>> s.put_finished(FinishedGame("r2", "ABC", 0, "deserto", "{}", 7, "[]", '["V2"]', "[2, 1]", False, 2.0))
        'r1'
        >>> s.finished("r1").moves
        '["V2"]'
        """
        with self._transaction():
            self._write(
                f"INSERT INTO finished_games ({', '.join(FinishedGame._fields)})"
                f" VALUES ({', '.join('?' for _ in FinishedGame._fields)})"
                " ON CONFLICT (room, game_no) DO UPDATE SET moves = excluded.moves, ranks = excluded.ranks,"
                " seats = excluded.seats, rated = excluded.rated, ended = excluded.ended",
                _values(game),
            )
            found = self._read(
                "SELECT id FROM finished_games WHERE room = ? AND game_no = ?", (game.room, game.game_no)
            )
            for holder in sorted(set(holders or [])):
                self._write(
                    "INSERT INTO finished_players VALUES (?, ?, ?) ON CONFLICT (id, holder) DO NOTHING",
                    (found[0][0], holder, game.ended),
                )
        return str(found[0][0])

    def player_finished(self, holder: str, limit: int) -> list[FinishedGame]:
        """The ``limit`` newest finished games a person played, newest first.

        >>> s = Database(":memory:")
        >>> _ = s.put_finished(FinishedGame("r1", "ABC", 0, "deserto", "{}", 7, "[]", "[]", "[]", False, 1.0), ["h"])
        >>> [g.id for g in s.player_finished("h", 10)], s.player_finished("other", 10)
        (['r1'], [])
        """
        columns = ", ".join(f"g.{c}" for c in FinishedGame._fields)
        rows = self._read(
            f"SELECT {columns} FROM finished_players p JOIN finished_games g ON g.id = p.id"
            " WHERE p.holder = ? ORDER BY p.ended DESC, g.id LIMIT ?",
            (holder, limit),
        )
        return [FinishedGame(*r)._replace(rated=bool(r[-2])) for r in rows]

    def finished(self, replay: str) -> FinishedGame | None:
        """The finished game with this replay id, or None.

        >>> Database(":memory:").finished("nope") is None
        True
        """
        found = self._read(f"SELECT {', '.join(FinishedGame._fields)} FROM finished_games WHERE id = ?", (replay,))
        if not found:
            return None
        kept = FinishedGame(*found[0])
        return kept._replace(rated=bool(kept.rated))

    def finished_id(self, room: str, game_no: int) -> str | None:
        """The replay id of a room's finished game ``game_no``, or None.

        >>> Database(":memory:").finished_id("ABC", 0) is None
        True
        """
        found = self._read("SELECT id FROM finished_games WHERE room = ? AND game_no = ?", (room, game_no))
        return str(found[0][0]) if found else None

    def delete_finished(self, room: str, game_no: int) -> None:
        """Forget a room's finished game (an undo took its end back).

        >>> s = Database(":memory:"); s.delete_finished("ABC", 0); s.finished_id("ABC", 0) is None
        True
        """
        with self._transaction():
            self._write(
                "DELETE FROM finished_players WHERE id IN"
                " (SELECT id FROM finished_games WHERE room = ? AND game_no = ?)",
                (room, game_no),
            )
            self._write("DELETE FROM finished_games WHERE room = ? AND game_no = ?", (room, game_no))

    def set_name(self, holder: str, name: str) -> None:
        """A person's display name (``holder``: the hash of their player id).

        >>> s = Database(":memory:"); s.set_name("h", "Ana"); s.name("h")
        'Ana'
        """
        self._write(
            "INSERT INTO players VALUES (?, ?) ON CONFLICT (holder) DO UPDATE SET name = excluded.name",
            (holder, name),
        )

    def name(self, holder: str) -> str | None:
        """A person's display name, or None.

        >>> Database(":memory:").name("h") is None
        True
        """
        found = self._read("SELECT name FROM players WHERE holder = ?", (holder,))
        return str(found[0][0]) if found else None

    def ratings(self, game: str, holders: list[str]) -> dict[str, Rating]:
        """The ratings at ``game`` of these people (those rated at all).

        >>> Database(":memory:").ratings("deserto", ["h"])
        {}
        """
        if not holders:
            return {}
        marks = ", ".join("?" for _ in holders)
        rows = self._read(
            f"SELECT holder, mu, sigma, games FROM ratings WHERE game = ? AND holder IN ({marks})", (game, *holders)
        )
        return {r[0]: Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

    @contextmanager
    def ratings_transaction(self) -> Iterator[None]:
        """A transaction in which this process alone reads and writes the ratings (on
        PostgreSQL a lock held to its end): a rating read in it to compute a new one is still
        the stored one when the new one is written. Two rated games of one person ending at
        once on two processes each used to write over the other (found by the 2026-11-28
        audit: 7 of 8 such pairs counted one game).

        >>> s = Database(":memory:")
        >>> with s.ratings_transaction():
        ...     _ = s.rate_game("ABC", 0, "deserto", {"h": Rating(27.0, 8.0, 1)}, 1.0)
        >>> s.ratings("deserto", ["h"])["h"].games
        1
        """
        with self._transaction():
            self._lock_ratings()
            yield

    def rate_game(self, room: str, game_no: int, game: str, updates: dict[str, Rating], now: float) -> bool:
        """Write the new ratings after a room's rated game ``game_no``, once: in one
        transaction, the game is noted as counted, and if it already was nothing changes
        (False).

        >>> s = Database(":memory:")
        >>> s.rate_game("ABC", 0, "deserto", {"h": Rating(27.0, 8.0, 1)}, 1.0)
        True
        >>> s.rate_game("ABC", 0, "deserto", {"h": Rating(30.0, 7.0, 2)}, 2.0), s.ratings("deserto", ["h"])
        (False, {'h': Rating(mu=27.0, sigma=8.0, games=1)})
        """
        with self._transaction():
            counted = self._write(
                "INSERT INTO rated_games VALUES (?, ?) ON CONFLICT (room, game_no) DO NOTHING RETURNING room",
                (room, game_no),
            )
            if not counted:
                return False
            for holder, rating in sorted(updates.items()):
                self._write(
                    "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (holder, game) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, updated = excluded.updated",
                    (holder, game, rating.mu, rating.sigma, rating.games, now),
                )
        return True

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, str, Rating]]:
        """The ``limit`` people with the best ratings at ``game`` (``mu - 3 sigma``, the
        rating shown), best first: holder, display name, rating.

        >>> s = Database(":memory:"); s.set_name("h", "Ana")
        >>> _ = s.rate_game("A", 0, "deserto", {"h": Rating(27, 8, 1)}, 1)
        >>> s.leaderboard("deserto", 10)
        [('h', 'Ana', Rating(mu=27.0, sigma=8.0, games=1))]
        """
        rows = self._read(
            "SELECT r.holder, COALESCE(p.name, ''), r.mu, r.sigma, r.games FROM ratings r"
            " LEFT JOIN players p ON p.holder = r.holder WHERE r.game = ?"
            " ORDER BY r.mu - 3 * r.sigma DESC, r.holder LIMIT ?",
            (game, limit),
        )
        return [(r[0], r[1], Rating(float(r[2]), float(r[3]), int(r[4]))) for r in rows]

    def close(self) -> None:
        """Close the file.

        >>> Database(":memory:").close()
        """
        with self._lock:
            self._db.close()


def _values(row: tuple[Any, ...]) -> list[Any]:
    """A row's values as every backend stores them: a flag as 0 or 1 (the columns are integers).

    >>> _values((True, "a", 2))
    [1, 'a', 2]
    """
    return [int(v) if isinstance(v, bool) else v for v in row]


class DataFileError(CardtableError):
    """A data file (or database) the server cannot use: not cardtable's, written by a newer
    cardtable, damaged, locked or read only. Nothing is changed in it.

    >>> issubclass(DataFileError, CardtableError)
    True
    """


def check_version(version: int) -> int:
    """``version``, a stored schema version, if this code knows it; else :class:`DataFileError`
    (a database a newer cardtable wrote), before any migration changes anything. Both backends
    ask it.

    >>> check_version(len(MIGRATIONS)) == len(MIGRATIONS)
    True
    >>> check_version(99)
    Traceback (most recent call last):
    ...
    cardtable.web.database.DataFileError: the database was written by a newer cardtable (schema version 99; ...
    """
    if version > len(MIGRATIONS):
        raise DataFileError(
            f"the database was written by a newer cardtable (schema version {version};"
            f" this one knows up to {len(MIGRATIONS)}): nothing was changed"
        )
    return version


def _check_data_file(path: str) -> None:
    """Raise :class:`DataFileError` unless the SQLite file at ``path`` is cardtable's (read
    only: a file of another program is never touched). A file of schema version 0 holding
    tables is another program's.

    >>> import tempfile
    >>> other = os.path.join(tempfile.mkdtemp(), "other.sqlite")
    >>> with sqlite3.connect(other) as db: _ = db.execute("CREATE TABLE users (id INTEGER)")
    >>> _check_data_file(other)
    Traceback (most recent call last):
    ...
    cardtable.web.database.DataFileError: ... is not a cardtable data file (it holds other tables: users)
    """
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = sorted(n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    if version == 0 and tables:
        raise DataFileError(f"{path} is not a cardtable data file (it holds other tables: {', '.join(tables[:5])})")


def _owner_only(path: str) -> None:
    """Make the file (and SQLite's journal files next to it, which SQLite makes with the
    file's own mode) readable and writable by its owner only: it holds live hands."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for name in (path, f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        if os.path.exists(name):
            os.chmod(name, 0o600)


def _row(values: tuple[Any, ...]) -> TableRow:
    data = dict(zip(_COLUMNS, values, strict=True))
    data["redo"] = json.loads(data["redo"])
    data["seats"] = None if data["seats"] is None else json.loads(data["seats"])
    return TableRow(**data)

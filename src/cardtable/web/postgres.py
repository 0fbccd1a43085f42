"""The web app on PostgreSQL: one database that several server processes share.

``cardtable serve --database postgresql://...`` keeps everything
:class:`~cardtable.web.database.Database` keeps in SQLite (tables, rooms, their moves)
in PostgreSQL instead, with the same SQL said in PostgreSQL's words
(:class:`PostgresDatabase`: ``%s`` for a value, ``ON CONFLICT ... DO UPDATE`` for
SQLite's ``INSERT OR REPLACE``, 64-bit integers and double precision for SQLite's
``INTEGER`` and ``REAL``). The schema is migrated by the same steps
(:data:`~cardtable.web.database.MIGRATIONS`), its version in a table
``schema_version``, under a lock so that processes starting together migrate once.

Several processes share it (:class:`PostgresHub`):

- a room is changed by one process at a time: each change runs in a transaction that
  holds the room's lock (``pg_advisory_xact_lock``), reloads the room if another
  process changed it since (its ``rev``), and counts one more change;
- every accepted move is one row of ``room_moves``, whose key (room, game, epoch, move
  number) stores each number once (:class:`~cardtable.web.database.MoveTaken` for the
  second); rows are only added (an undo starts a new epoch: see ``docs/web.md``);
- a change is announced with ``NOTIFY cardtable_rooms, 'CODE REV'`` when its
  transaction commits; every process ``LISTEN``\\ s, reloads the rooms it has sockets
  of and sends them the new state;
- each process holds a session lock of its own (``pg_advisory_lock``, namespace
  :data:`PROCESS_LOCKS`) while it lives, and the lease of each room it does the timed
  work of (namespace :data:`LEASE_LOCKS`): a lock that PostgreSQL drops when the
  process's connection ends, so every :data:`LEASE_SECONDS` a process takes the leases
  nobody holds (a new room, a room of a process that died).

>>> room_key("ABCDEF") == room_key("ABCDEF"), 0 <= room_key("ABCDEF") < 2**31
(True, True)
>>> pg_sql("SELECT x FROM t WHERE a = ? AND b = ?")
'SELECT x FROM t WHERE a = %s AND b = %s'
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
import zlib
from contextlib import suppress
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from .database import MIGRATIONS, Database, check_version
from .hub import Changed, Gained

log = logging.getLogger("cardtable.web.postgres")

CHANNEL = "cardtable_rooms"
"""The channel of the rooms' changes (``NOTIFY``/``LISTEN``); a message is ``"CODE REV"``."""

SCHEMA_LOCK = 0x63740000
"""The lock (``pg_advisory_xact_lock``) under which the schema is migrated."""

ROOM_LOCKS = 0x6374_0001
"""The namespace of a room's lock while a process changes it (held to the end of the transaction)."""

LEASE_LOCKS = 0x6374_0002
"""The namespace of a room's lease (its timed work), held by one process's session."""

PROCESS_LOCKS = 0x6374_0003
"""The namespace of the locks each process holds while it lives (who is where counts the living only)."""

RATINGS_LOCK = 0x6374_0004
"""The lock (``pg_advisory_xact_lock``) under which a process reads and writes ratings
(:meth:`~cardtable.web.database.Database.ratings_transaction`)."""

LEASE_SECONDS = 1.0
"""How often a process looks for rooms whose lease nobody holds."""

LISTEN_SECONDS = 0.5
"""How long the listener waits for a message before it looks whether it is to stop."""


def is_url(database: str) -> bool:
    """Whether ``database`` names a PostgreSQL server (else it is an SQLite file).

    >>> is_url("postgresql://localhost/cardtable"), is_url("postgres://x"), is_url("cardtable.sqlite")
    (True, True, False)
    """
    return database.startswith(("postgresql://", "postgres://"))


def room_key(code: str) -> int:
    """The number of a room's locks (a 31-bit checksum of its code; two rooms that share it
    share a lease and a lock, which only costs them waiting for each other).

    >>> room_key("ABC")
    595788616
    """
    return zlib.crc32(code.encode()) & 0x7FFFFFFF


def pg_sql(text: str) -> str:
    """A statement written in SQLite's words, in PostgreSQL's: ``?`` is ``%s``.

    >>> pg_sql("INSERT INTO t VALUES (?, ?)")
    'INSERT INTO t VALUES (%s, %s)'
    """
    return text.replace("?", "%s")


def pg_schema(step: str) -> str:
    """A migration step in PostgreSQL's words: SQLite's ``INTEGER`` is 64 bits (deal numbers),
    its ``REAL`` double precision (times).

    >>> pg_schema("CREATE TABLE t (a INTEGER, b REAL)")
    'CREATE TABLE t (a BIGINT, b DOUBLE PRECISION)'
    """
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", re.sub(r"\bINTEGER\b", "BIGINT", step))


CONNECT_SECONDS = 10
"""How long a connection to the PostgreSQL server may take (libpq's ``connect_timeout``)
unless the URL says: a host that takes the connection but never answers would hold the
server's start for ever."""


def connect(url: str) -> psycopg.Connection[Any]:
    """A connection to ``url`` in autocommit mode, within :data:`CONNECT_SECONDS` unless the
    URL names its own ``connect_timeout``.

    >>> connect("postgresql://127.0.0.1:1/x")
    Traceback (most recent call last):
    ...
    psycopg.OperationalError: ...
    """
    if "connect_timeout" in conninfo_to_dict(url):
        return psycopg.connect(url, autocommit=True)
    return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS)


class PostgresDatabase(Database):
    """The app's database on a PostgreSQL server (see the module docstring): the methods of
    :class:`~cardtable.web.database.Database`, one connection, one lock.

    >>> PostgresDatabase.shared
    True
    """

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._pg = connect(url)
        self._lock = threading.RLock()
        self._depth = 0
        self.writes = 0
        self._fresh: tuple[str, int | None] | None = None
        self._migrate()

    def sql(self, text: str) -> str:
        """A statement in PostgreSQL's words (:func:`pg_sql`)."""
        return pg_sql(text)

    def upsert(self, table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
        """Insert a row or replace the row with the same ``key``: ``ON CONFLICT ... DO UPDATE``.

        >>> PostgresDatabase.upsert(None, "t", ("a", "b"), ("a",))  # type: ignore[arg-type]
        'INSERT INTO t (a, b) VALUES (%s, %s) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b'
        """
        marks = ", ".join("%s" for _ in columns)
        update = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in key)
        insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        return f"{insert} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {update}"

    def _execute(self, text: str, values: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        self._fresh = None
        cursor = self._pg.execute(text.encode(), values)
        return cursor.fetchall() if cursor.description is not None else []

    def _begin(self, code: str | None) -> None:
        """Begin; for a room's transaction, lock the room and read its change count in the same
        round trip (three statements, the values quoted by psycopg)."""
        self._fresh = None
        if code is None:
            self._pg.execute("BEGIN")
            return
        query = sql.SQL("BEGIN; SELECT pg_advisory_xact_lock({}, {}); SELECT rev FROM rooms WHERE code = {}").format(
            sql.Literal(ROOM_LOCKS), sql.Literal(room_key(code)), sql.Literal(code)
        )
        cursor = self._pg.execute(query)
        while cursor.nextset():
            pass
        found = cursor.fetchall()
        self._fresh = (code, int(found[0][0]) if found else None)

    def _lock_room(self, code: str) -> None:
        self._execute("SELECT pg_advisory_xact_lock(%s, %s)", (ROOM_LOCKS, room_key(code)))

    def _lock_ratings(self) -> None:
        self._execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))

    def room_rev(self, code: str) -> int | None:
        """The room's change count (read with its lock, when its transaction began, if nothing was run since)."""
        with self._lock:
            fresh = self._fresh
            if fresh is not None and fresh[0] == code:
                return fresh[1]
        return super().room_rev(code)

    def _end(self, commit: bool) -> None:
        self._fresh = None
        if commit:
            self._pg.execute("COMMIT")
        else:
            with suppress(psycopg.Error):  # a connection that is gone has nothing to roll back
                self._pg.execute("ROLLBACK")

    def _migrate(self) -> None:
        with self._transaction():
            self._execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            self._execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            found = self._execute("SELECT version FROM schema_version")
            if not found:
                self._execute("INSERT INTO schema_version VALUES (0)")
            version = check_version(int(found[0][0]) if found else 0)
            for step in range(version, len(MIGRATIONS)):
                for statement in pg_schema(MIGRATIONS[step]).split(";"):
                    if statement.strip():
                        self._execute(statement)
                self._execute("UPDATE schema_version SET version = %s", (step + 1,))

    def version(self) -> int:
        """The schema version of the database."""
        with self._lock:
            return int(self._execute("SELECT version FROM schema_version")[0][0])

    def bump(self, code: str) -> int:
        """Count a change of room ``code`` and ``NOTIFY`` it, in one statement."""
        rows = self._write(
            "UPDATE rooms SET rev = rev + 1 WHERE code = ? RETURNING rev, pg_notify(?, code || ' ' || rev)",
            (code, CHANNEL),
        )
        return int(rows[0][0]) if rows else -1

    def notify(self, code: str, rev: int) -> None:
        """``NOTIFY`` the other processes (when the transaction commits) that room ``code`` is at ``rev``."""
        with self._lock:
            self._execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{code} {rev}"))

    def presence(self, code: str, process: int) -> list[int]:
        """The seats of room ``code`` that other living processes (holding their own lock) have a socket of."""
        rows = self._read(
            "SELECT DISTINCT p.seat FROM room_presence p WHERE p.code = ? AND p.process <> ? AND EXISTS ("
            " SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
            " AND l.classid::bigint = ? AND l.objid::bigint = p.process) ORDER BY p.seat",
            (code, process, PROCESS_LOCKS),
        )
        return [int(r[0]) for r in rows]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._pg.close()


class PostgresHub:
    """The other processes sharing a PostgreSQL database (see the module docstring and
    :class:`~cardtable.web.hub.Hub`): a listener thread of its own connection, and a
    connection holding this process's lock and its rooms' leases.

    >>> PostgresHub("postgresql://nowhere/x").holds("ABC")
    False
    """

    shared = True

    def __init__(self, url: str, lease_seconds: float = LEASE_SECONDS) -> None:
        self.url = url
        self.lease_seconds = lease_seconds
        self.process = secrets.randbits(31)
        self._held: set[str] = set()
        self._lease: psycopg.Connection[Any] | None = None
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None
        self._changed: Changed = lambda code, rev: None
        self._gained: Gained = lambda code: None

    def start(self, changed: Changed, gained: Gained) -> None:
        """Listen (a thread) and take leases (a task); call from the running event loop."""
        self._changed, self._gained = changed, gained
        loop = asyncio.get_running_loop()
        listening = threading.Event()
        thread = threading.Thread(target=self._listen, args=(loop, listening), name="cardtable-listen", daemon=True)
        thread.start()
        listening.wait(10)  # what changes from now on is heard
        self._connect()
        self._task = loop.create_task(self._leases())

    def _connect(self) -> None:
        self._held.clear()
        if self._lease is not None:
            with suppress(psycopg.Error):
                self._lease.close()
        self._lease = connect(self.url)
        self._lease.execute("SELECT pg_advisory_lock(%s, %s)", (PROCESS_LOCKS, self.process))

    def _listen(self, loop: asyncio.AbstractEventLoop, listening: threading.Event) -> None:
        while not self._stop.is_set():
            try:
                with connect(self.url) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=LISTEN_SECONDS):
                            code, _, rev = note.payload.partition(" ")
                            loop.call_soon_threadsafe(self._changed, code, int(rev))
            except (psycopg.Error, RuntimeError) as err:  # the server went away, or the loop closed
                if self._stop.is_set() or loop.is_closed():
                    return
                log.warning("listening to the rooms' changes failed (%s): again in a second", err)
                self._stop.wait(1.0)

    async def _leases(self) -> None:
        while True:
            try:
                gained = self.take_free()
            except psycopg.Error as err:
                log.warning("the rooms' leases were lost (%s): connecting again", err)
                gained = []
                with suppress(psycopg.Error):
                    self._connect()
            for code in gained:
                self._gained(code)
            await asyncio.sleep(self.lease_seconds)

    def take_free(self) -> list[str]:
        """Take the lease of every room nobody holds; the codes taken, in order."""
        lease = self._lease
        if lease is None:
            return []
        codes = [str(r[0]) for r in lease.execute("SELECT code FROM rooms ORDER BY code").fetchall()]
        held = {
            int(r[0])
            for r in lease.execute(
                "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"
                " AND classid::bigint = %s",
                (LEASE_LOCKS,),
            ).fetchall()
        }
        # Who was where at a process that died: forgotten, and each room concerned counts a
        # change, told to every process, which reloads it (who is where with it). Found by the
        # 2026-11-28 audit: without the notice the survivors went on counting the dead process's
        # people as present, and such a room was never swept.
        gone = lease.execute(
            "DELETE FROM room_presence p WHERE NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'"
            " AND l.granted AND l.objsubid = 2 AND l.classid::bigint = %s AND l.objid::bigint = p.process)"
            " RETURNING p.code",
            (PROCESS_LOCKS,),
        ).fetchall()
        for code in sorted({str(r[0]) for r in gone}):
            lease.execute(
                "UPDATE rooms SET rev = rev + 1 WHERE code = %s RETURNING pg_notify(%s, code || ' ' || rev)",
                (code, CHANNEL),
            )
        return [c for c in codes if c not in self._held and room_key(c) not in held and self.want(c)]

    def holds(self, code: str) -> bool:
        """Whether this process holds the lease of room ``code``."""
        return code in self._held

    def want(self, code: str) -> bool:
        """Take room ``code``'s lease if nobody holds it; whether this process holds it."""
        if code in self._held:
            return True
        if self._lease is None:
            return False
        try:
            row = self._lease.execute("SELECT pg_try_advisory_lock(%s, %s)", (LEASE_LOCKS, room_key(code))).fetchone()
        except psycopg.Error:
            return False
        if row is not None and row[0]:
            self._held.add(code)
            return True
        return False

    def release(self, code: str) -> None:
        """Give up room ``code``'s lease."""
        if code in self._held and self._lease is not None:
            self._held.discard(code)
            with suppress(psycopg.Error):
                self._lease.execute("SELECT pg_advisory_unlock(%s, %s)", (LEASE_LOCKS, room_key(code)))

    def close(self) -> None:
        """Stop listening and give every lease up (the connection ends)."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
        if self._lease is not None:
            with suppress(psycopg.Error):
                self._lease.close()
            self._lease = None
        self._held.clear()


__all__ = [
    "CHANNEL",
    "LEASE_LOCKS",
    "LEASE_SECONDS",
    "PROCESS_LOCKS",
    "ROOM_LOCKS",
    "PostgresDatabase",
    "PostgresHub",
    "is_url",
    "pg_schema",
    "pg_sql",
    "room_key",
]

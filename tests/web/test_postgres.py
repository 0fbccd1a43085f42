"""The web app's database on a real PostgreSQL server, and the rooms shared by several processes.

A throwaway cluster (:mod:`tests.web.pg_cluster`) serves this file's tests, each with a
database of its own: the same methods as on SQLite; a move number stored once (two
connections racing for it: one wins, the other gets ``MoveTaken``); the leases (one
process holds a room's, another takes it over when the first one's connection ends);
and two :class:`~cardtable.web.rooms.Rooms` in one event loop, standing for two server
processes: a move made at one reaches the sockets of the other, two moves for the same
turn at both are one move and one ``stale``, and the timed work is done by the lease's holder.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import psycopg
import pytest

from cardtable.web import postgres
from cardtable.web.database import MIGRATIONS, DataFileError, MoveTaken, RoomRow, TableRow
from cardtable.web.errors import TableError
from cardtable.web.postgres import PostgresDatabase, PostgresHub
from cardtable.web.rooms import ROOM_TTL, Room, Rooms

from .helpers import stored_moves
from .pg_cluster import Cluster

pytestmark = pytest.mark.postgres


@pytest.fixture
def url(cluster: Cluster) -> str:
    return cluster.database()


def test_the_database_keeps_tables_rooms_and_moves_as_sqlite_does(url: str) -> None:
    db = PostgresDatabase(url)
    assert db.version() == len(MIGRATIONS)
    assert PostgresDatabase(url).version() == len(MIGRATIONS)  # opening again migrates nothing
    secret = db.secret("daily")  # one secret for every process (the daily deal's)
    assert len(secret) == 64 and PostgresDatabase(url).secret("daily") == secret != db.secret("other")
    db.put(TableRow("t", "p", "klondike", "draw=3", "random", 2**62, "{}", redo=["a"], created=1.5))
    db.put(TableRow("t", "p", "klondike", "draw=3", "random", 2**62, "{}", redo=["b"], created=1.5, moves=3))
    row = db.get("t")
    assert row is not None and row.seed == 2**62 and row.redo == ["b"] and row.moves == 3 and row.created == 1.5
    assert [r.id for r in db.player_tables("p", finished=False)] == ["t"]
    room = RoomRow("ABC", "{}", "[]", 2**61 + 1, 0, "playing", 1234567890.125, None, "deserto", player="p")
    assert db.add_room(room) and not db.add_room(room)
    db.add_move("ABC", 0, 0, "V1")
    db.add_move("ABC", 0, 1, "T2")
    assert db.moves("ABC", 0) == ["V1", "T2"] and db.moves("ABC", 0, first=1) == ["T2"]
    assert [(r.code, n) for r, n in db.player_rooms("p")] == [("ABC", 2)]
    stored = db.room("ABC")
    assert stored is not None and stored.deal == 2**61 + 1 and stored.created == 1234567890.125
    assert db.room_rev("ABC") == 0 and db.bump("ABC") == 1 and db.room_rev("ABC") == 1
    db.keep_moves("ABC", 0, 1, old=0, new=1)  # an undo to move 1: a new epoch, nothing removed
    db.add_move("ABC", 0, 1, "V3", 1)
    assert db.moves("ABC", 0, epoch=1) == ["V1", "V3"] and db.moves("ABC", 0, epoch=0) == ["V1", "T2"]
    db.delete_room("ABC")
    assert db.room("ABC") is None and db.moves("ABC", 0) == []
    db.delete("t")
    assert db.get("t") is None


def test_a_database_of_a_newer_cardtable_is_refused_and_left_as_it_was(url: str) -> None:
    PostgresDatabase(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(DataFileError, match="schema version 99; this one knows up to"):
        PostgresDatabase(url)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(99,)]


def test_two_connections_racing_for_one_move_number_store_one_move(url: str) -> None:
    one, two = PostgresDatabase(url), PostgresDatabase(url)
    results: list[str] = []
    start = threading.Barrier(2)

    def take(db: PostgresDatabase, move: str) -> None:
        start.wait()
        try:
            db.add_move("ABC", 0, 0, move)
            results.append(move)
        except MoveTaken:
            results.append("taken")

    threads = [threading.Thread(target=take, args=(db, m)) for db, m in ((one, "V1"), (two, "T2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(results)[0] in ("T2", "V1") and "taken" in results and len(results) == 2
    assert one.moves("ABC", 0) == [r for r in results if r != "taken"]
    # Inside a room's transaction, a taken number does not end the transaction.
    with one.room_transaction("ABC"):
        with pytest.raises(MoveTaken):
            one.add_move("ABC", 0, 0, "X")
        one.add_move("ABC", 0, 1, "Y")
    assert len(two.moves("ABC", 0)) == 2


def test_a_lease_is_held_by_one_process_and_taken_over_when_it_dies(url: str) -> None:
    db = PostgresDatabase(url)
    db.put_room(RoomRow("ABC", "{}", "[]", 1, 0, "playing", 1.0, None, "deserto"))
    db.put_room(RoomRow("XYZ", "{}", "[]", 1, 0, "playing", 1.0, None, "deserto"))

    async def main() -> None:
        first, second = PostgresHub(url, lease_seconds=60), PostgresHub(url, lease_seconds=60)
        gained: dict[str, list[str]] = {"first": [], "second": []}
        first.start(lambda c, r: None, gained["first"].append)
        await asyncio.sleep(0.05)  # the first takes every free lease at once
        second.start(lambda c, r: None, gained["second"].append)
        await asyncio.sleep(0.05)
        assert gained == {"first": ["ABC", "XYZ"], "second": []}
        assert first.holds("ABC") and not second.holds("ABC") and not second.want("ABC")
        assert second.take_free() == []
        first.release("XYZ")
        assert second.take_free() == ["XYZ"] and not first.want("XYZ")
        # The first process dies: its connection ends, PostgreSQL drops its locks.
        lease = first._lease
        assert lease is not None
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (lease.info.backend_pid,))
        for _ in range(50):
            if second.take_free() == ["ABC"]:
                break
            await asyncio.sleep(0.05)
        assert second.holds("ABC") and second.holds("XYZ")
        first.close()
        second.close()

    asyncio.run(main())


class Socket:
    """A room's socket in the test: what it is sent."""

    def __init__(self, label: str) -> None:
        self.address = "127.0.0.1"
        self.holder: str | None = None
        self.label = label
        self.frames: list[dict[str, Any]] = []

    def put(self, data: dict[str, Any]) -> None:
        self.frames.append(data)

    def put_text(self, text: str, snapshot: bool = False) -> None:
        import json

        self.frames.append(json.loads(text))

    def refuse(self, err: TableError, code: int | None = None) -> None:
        self.frames.append({"type": "error", **err.json()})

    def last(self, kind: str = "snapshot") -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == kind)


async def until(check: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within the time")


async def made_by_ana(rooms: Rooms, seats: list[dict[str, Any]]) -> tuple[str, str, Room, Socket]:
    """A room of ``seats`` made at ``rooms`` by Ana (seat 0), her socket there: its code, her
    seat token, the room, her socket."""
    code, token = rooms.create({}, seats, "Ana")
    room = rooms.get(code)
    assert room is not None
    ana = Socket("ana")
    await rooms.connect(room, ana, 0)
    return code, token, room, ana


async def by_invite(rooms: Rooms, room: Room, label: str) -> tuple[Room, Socket]:
    """A socket at ``rooms`` (another process) by the invite link of ``room``: a spectator
    until it joins. That process's copy of the room, and the socket."""
    there, seat = rooms.find(room.code, "127.0.0.1", key=room.key)
    socket = Socket(label)
    await rooms.connect(there, socket, seat)
    return there, socket


def two_processes(url: str, **options: Any) -> tuple[Rooms, Rooms]:
    """Two :class:`Rooms` on one database, standing for two server processes, both started
    (call from the running event loop): no bot pause, leases retried every 0.1 s."""
    a, b = (Rooms(PostgresDatabase(url), bot_pause=0, hub=PostgresHub(url, lease_seconds=0.1), **options) for _ in "ab")
    a.resume()
    b.resume()
    return a, b


def test_two_processes_share_a_room_one_move_a_turn(url: str) -> None:
    async def main() -> None:
        a, b = two_processes(url)
        code, _, room_a, ana = await made_by_ana(
            a, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        )
        assert a.hub.holds(code) and not b.hub.holds(code)
        # The second person joins at the other process, by the invite link's key.
        room_b, ben = await by_invite(b, room_a, "ben")
        await b.handle(room_b, ben, '{"type": "join", "seat": 1, "name": "Ben"}')
        ben_token = ben.last("joined")["token"]
        await until(lambda: ana.last()["seats"][1]["taken"] and not ana.last()["seats"][1]["away"])
        await a.handle(room_a, ana, '{"type": "start"}')
        await until(lambda: ben.last()["status"] == "playing")
        # Ben's second tab at process a: both tabs send a move for the same turn at once.
        _, ben_seat = a.find(code, "127.0.0.1", token=ben_token)
        ben2 = Socket("ben2")
        await a.connect(room_a, ben2, ben_seat)
        for _ in range(6):
            frame = ana.last()
            to_move, at = frame["table"]["to_move"], frame["at"]
            if to_move == 0:
                await a.handle(
                    room_a, ana, f'{{"type": "move", "move": "{frame["table"]["legal"][0]["move"]}", "at": {at}}}'
                )
            elif to_move == 1:
                moves = ben.last()["table"]["legal"]
                texts = [m["move"] for m in moves][:2] * 2
                errors = len([f for f in ben.frames + ben2.frames if f["type"] == "error"])
                await asyncio.gather(
                    b.handle(room_b, ben, f'{{"type": "move", "move": "{texts[0]}", "at": {at}}}'),
                    a.handle(room_a, ben2, f'{{"type": "move", "move": "{texts[1]}", "at": {at}}}'),
                )
                after = [f for f in ben.frames + ben2.frames if f["type"] == "error"]
                assert len(after) == errors + 1 and after[-1]["kind"] == "stale"
            await until(lambda at=at: ana.last()["at"] > at and ben.last()["at"] > at, 10)
            assert len(a.db.moves(code, 0)) >= at + 1
        # Every socket, at either process, converges to the stored game.
        await until(lambda: ana.last()["at"] == ben.last()["at"] == ben2.last()["at"] == len(a.db.moves(code, 0)))
        stored = a.db.moves(code, 0)
        for line, move in zip(ana.last()["table"]["history"], stored, strict=True):  # one move a turn, as stored
            assert line.startswith("seat ") and (move in line or "gives" in line), (line, move)
        assert ben.last()["table"] == ben2.last()["table"]
        a.close()
        b.close()

    asyncio.run(main())


def test_an_undo_and_a_restart_at_one_process_reach_the_other_and_remove_no_stored_move(url: str) -> None:
    async def main() -> None:
        a, b = two_processes(url)
        code, token = a.create({}, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "Ana")
        await until(lambda: a.hub.holds(code))  # a plays the bot; Ana's socket is at b
        room_b, seat = b.find(code, "127.0.0.1", token=token)
        ana = Socket("ana")
        await b.connect(room_b, ana, seat)

        async def play(times: int) -> None:
            for _ in range(times):
                await until(lambda: ana.last()["table"]["to_move"] == 0 or ana.last()["status"] == "over", 10)
                frame = ana.last()
                move = frame["table"]["legal"][0]["move"]
                await b.handle(room_b, ana, f'{{"type": "move", "move": "{move}", "at": {frame["at"]}}}')
                await until(lambda at=frame["at"]: ana.last()["at"] >= at + 2, 10)  # the bot answered, at a

        def same_everywhere() -> bool:
            room_a = a.get(code)
            return (
                room_a is not None
                and room_a.game is not None
                and room_b.game is not None
                and [str(m) for m in room_a.game.moves] == [str(m) for m in room_b.game.moves] == a.db.moves(code, 0)
            )

        await play(2)
        before = stored_moves(a.db, code)
        await b.handle(room_b, ana, f'{{"type": "undo", "at": {ana.last()["at"]}}}')
        await until(lambda: ana.last()["at"] == 2 and same_everywhere(), 10)
        assert before <= stored_moves(a.db, code)  # the moves taken back are still stored, in their epoch
        await play(1)
        await until(same_everywhere, 10)
        before = stored_moves(a.db, code)
        await b.handle(room_b, ana, f'{{"type": "restart", "at": {ana.last()["at"]}}}')
        await until(lambda: ana.last()["at"] == 0 and same_everywhere(), 10)
        assert before <= stored_moves(a.db, code) and a.db.moves(code, 0) == []
        a.close()
        b.close()

    asyncio.run(main())


def test_the_timed_work_of_a_room_is_done_by_its_leases_holder(url: str) -> None:
    async def main() -> None:
        paces = {"casual": None, "fast": 0.3}
        a, b = two_processes(url, paces=paces)
        code, token = a.create({}, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "Ana", pace="fast")
        room_b, seat = b.find(code, "127.0.0.1", token=token)
        ana = Socket("ana")
        await b.connect(room_b, ana, seat)  # at the process that does not hold the lease
        # Ana does not move: her time runs out at a, whose stand-in plays for her, and the bot answers.
        await until(lambda: ana.last()["at"] >= 4, 10)
        assert ana.last()["seats"][0]["stand_in"] == "greedy"
        moves = len(a.db.moves(code, 0))
        assert b.hub.holds(code) is False and b.get(code) is room_b
        a.close()  # process a stops: b takes the room's lease over, and the play goes on there
        await until(lambda: b.hub.holds(code), 5)
        await until(lambda: len(b.db.moves(code, 0)) >= moves + 2, 10)
        await until(lambda: ana.last()["at"] == len(b.db.moves(code, 0)), 5)
        b.close()

    asyncio.run(main())


def test_a_seat_taken_back_at_one_process_has_its_whole_time_at_the_clock_s_process(url: str) -> None:
    # Found by the 2026-11-28 audit: the process holding the clock kept the old turn's start
    # when the person took their seat back at another process, and timed them out again at once.
    async def main() -> None:
        a, b = two_processes(url)
        code, token, room_a, ana = await made_by_ana(a, [{"kind": "human"}, {"kind": "human"}])
        await a.handle(room_a, ana, '{"type": "start"}')
        async with a._change(room_a):  # her time ran out at a, the clock's process
            a._turn_since(room_a)
            room_a.seats[0].stand_in = "greedy"
            a.db.put_room(room_a.row())
        assert room_a.turn is not None
        room_b, seat = b.find(code, "127.0.0.1", token=token)
        at_b = Socket("ana at b")
        await b.connect(room_b, at_b, seat)
        await b.handle(room_b, at_b, '{"type": "back"}')
        await until(lambda: room_a.seats[0].stand_in is None, 5)  # a heard of it and reloaded
        assert room_a.turn is None  # so her clock starts afresh there too
        a.close()
        b.close()

    asyncio.run(main())


def test_a_time_out_after_a_move_made_at_another_process_puts_no_bot_on_anyone(url: str) -> None:
    # Found by the 2026-11-28 audit: Ben moved at b just before his time ran out at a; a's
    # time-out read his move, then put the stand-in bot on Ana, whose turn had just begun.
    async def main() -> None:
        a, b = two_processes(url)
        _, _, room_a, ana = await made_by_ana(a, [{"kind": "human"}, {"kind": "human"}])
        room_b, ben = await by_invite(b, room_a, "ben")
        await b.handle(room_b, ben, '{"type": "join", "seat": 1, "name": "Ben"}')
        await until(lambda: ana.last()["seats"][1]["taken"])
        await a.handle(room_a, ana, '{"type": "start"}')
        frame = ana.last()
        await a.handle(room_a, ana, f'{{"type": "move", "move": "{frame["table"]["legal"][0]["move"]}", "at": 0}}')
        await until(lambda: ben.last()["at"] == 1 and ben.last()["table"]["to_move"] == 1)
        async with a._change(room_a):
            a._turn_since(room_a)
        bens_turn = room_a.turn  # the turn whose time runs out at a
        move = ben.last()["table"]["legal"][0]["move"]
        await b.handle(room_b, ben, f'{{"type": "move", "move": "{move}", "at": 1}}')  # just in time, at b
        await a._time_out(room_a, bens_turn, 60.0)
        assert [s.stand_in for s in room_a.seats] == [None, None]
        assert room_a.at == 2 and room_a.game is not None and room_a.game.to_move == 0
        a.close()
        b.close()

    asyncio.run(main())


def test_idle_rooms_are_swept_once_by_their_leases_holder_and_after_a_takeover_by_the_survivor(url: str) -> None:
    async def main() -> None:
        now = [1000.0]
        a, b = two_processes(url, clock=lambda: now[0])
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        old, _ = a.create({}, seats, "Ana")
        now[0] += ROOM_TTL / 2
        young, _ = a.create({}, seats, "Ben")
        await until(lambda: a.hub.holds(old) and a.hub.holds(young))
        assert b.get(old) is not None and b.get(young) is not None  # b knows both rooms
        later = 1000.0 + ROOM_TTL + 10  # the old room has been empty too long, the young one not
        assert b.sweep(now=later) == []  # not b's to sweep: a holds their leases
        assert a.sweep(now=later) == [old] and a.sweep(now=later) == []
        assert a.db.room(old) is None and a.db.room(young) is not None
        await until(lambda: b._rooms.get(old) is None)  # b is told the room is gone
        a.close()  # process a stops: b takes the young room's lease over, and sweeps it in its time
        await until(lambda: b.hub.holds(young), 5)
        assert b.sweep(now=later) == []
        assert b.sweep(now=later + ROOM_TTL) == [young] and b.db.room(young) is None
        b.close()

    asyncio.run(main())


def test_the_people_of_a_process_that_died_are_gone_from_the_others_and_their_room_is_swept(url: str) -> None:
    # Found by the 2026-11-28 audit: the survivor counted them present for good ("Ben is
    # here"), and the room, emptied with no one seen leaving, was never swept.
    async def main() -> None:
        now = [1000.0]
        a, b = two_processes(url, clock=lambda: now[0])
        code, _, room_a, _ = await made_by_ana(a, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])  # at a
        lonely, _ = a.create({}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "Cy")
        room_lonely = a.get(lonely)
        assert room_lonely is not None
        await a.connect(room_lonely, Socket("cy"), 0)  # Cy too, and nobody watches that room at b
        room_b, watcher = await by_invite(b, room_a, "watcher")  # someone watches at b
        await until(lambda: room_b.elsewhere == {0} and watcher.last()["seats"][0]["away"] is False)
        a.hub.close()  # process a dies as a killed one does: its locks go, its rows of who is where stay
        await until(lambda: not room_b.elsewhere, 5)  # b is told: nobody is at a any more
        assert watcher.last()["seats"][0]["away"] is True
        await until(lambda: b.hub.holds(code) and b.hub.holds(lonely), 5)
        await b.disconnect(room_b, watcher)
        assert b.sweep() == []  # their empty day starts now (nobody at b saw Cy leave)
        assert b.sweep(now=now[0] + ROOM_TTL + 1) == sorted([code, lonely]) and b.db.room(lonely) is None
        b.close()

    asyncio.run(main())


def test_a_one_player_table_played_at_two_processes_is_read_afresh(url: str) -> None:
    from cardtable.web.solitaire_tables import SolitaireTables

    a, b = SolitaireTables(PostgresDatabase(url)), SolitaireTables(PostgresDatabase(url))
    table = a.create("me", "klondike", {}, deal=3)
    first = table["legal"][0]["move"]
    b.play("me", table["id"], 0, move=first)  # b caches it, then a move there
    assert a.get("me", table["id"])["at"] == 1  # a's cached copy is read afresh
    second = a.get("me", table["id"])["legal"][0]["move"]
    a.play("me", table["id"], 1, move=second)
    with pytest.raises(TableError) as stale:
        b.play("me", table["id"], 1, move=second)  # b's copy was at move 1: it is stale now
    assert stale.value.kind == "stale"
    assert b.get("me", table["id"])["at"] == 2


def test_the_daily_deals_tables_on_postgresql(url: str) -> None:
    from cardtable.web.database import DailyEntry, DailyPlay

    db = PostgresDatabase(url)
    db.put_daily_play(DailyPlay("t", "p", "2026-11-23", "klondike-draw3", 2**60, "easy"))
    db.put_daily_play(DailyPlay("t", "p", "2026-11-23", "klondike-draw3", 2**60, "easy", undos=2))
    play = db.daily_play("t")
    assert play is not None and play.deal == 2**60 and play.undos == 2 and db.daily_play("u") is None
    assert [p.mode for p in db.daily_plays("p", "2026-11-23")] == ["klondike-draw3"] and db.daily_plays("q") == []
    entry = DailyEntry("2026-11-23", "klondike-draw3", "p", "t", 90, 301.25, True, False, 1.5, score=12)
    assert db.add_daily_entry(entry) and not db.add_daily_entry(entry._replace(moves=80))
    db.set_daily_name("p", "Ana")
    db.set_daily_name("p", "Ana B")
    (stored,) = db.daily_entries("2026-11-23", "klondike-draw3")
    assert stored == entry._replace(name="Ana B") and db.daily_name("p") == "Ana B" and db.daily_name("q") is None


def test_replays_ratings_and_public_rooms_on_postgresql(url: str) -> None:
    from cardtable.web.database import FinishedGame, Rating, RoomRow

    db = PostgresDatabase(url)
    db.put_room(RoomRow("PUB", "{}", "[]", 2**61, 0, "lobby", 1.0, None, "deserto", public=True, rated=True))
    room = db.room("PUB")
    assert room is not None and (bool(room.public), bool(room.rated), room.deal) == (True, True, 2**61)
    kept = FinishedGame("r1", "PUB-x", 0, "deserto", "{}", 2**61, "[]", '["V1"]', "[1, 2]", True, 1.0)
    assert db.put_finished(kept, ["h1", "h2", "h1"]) == "r1"
    assert db.put_finished(kept._replace(id="r2", moves='["V2"]'), ["h1"]) == "r1"  # same game: same id
    found = db.finished("r1")
    assert found is not None and found.moves == '["V2"]' and found.rated is True and found.deal == 2**61
    assert [g.id for g in db.player_finished("h2", 5)] == ["r1"] and db.finished_id("PUB-x", 0) == "r1"
    db.set_name("h1", "Ana")
    assert db.rate_game("PUB-x", 0, "deserto", {"h1": Rating(27.0, 8.0, 1), "h2": Rating(23.0, 8.0, 1)}, 2.0)
    assert not db.rate_game("PUB-x", 0, "deserto", {"h1": Rating(40.0, 1.0, 9)}, 3.0)  # counted once
    assert db.ratings("deserto", ["h1"]) == {"h1": Rating(27.0, 8.0, 1)} and db.ratings("deserto", []) == {}
    assert [(h, n) for h, n, _ in db.leaderboard("deserto", 10)] == [("h1", "Ana"), ("h2", "")]
    db.delete_finished("PUB-x", 0)
    assert db.finished("r1") is None and db.player_finished("h2", 5) == []


def test_ratings_are_read_and_written_by_one_process_at_a_time(url: str) -> None:
    # Found by the 2026-11-28 audit: two rated games of one person ending at once on two
    # processes each read the old rating, and the second write undid the first.
    import time

    from cardtable.web.database import Rating

    a, b = PostgresDatabase(url), PostgresDatabase(url)
    seen: list[dict[str, Rating]] = []

    def first() -> None:
        with a.ratings_transaction():
            a.ratings("deserto", ["h"])
            time.sleep(0.4)  # the other process asks meanwhile
            a.rate_game("R1", 0, "deserto", {"h": Rating(26.0, 8.0, 1)}, 1.0)

    def second() -> None:
        time.sleep(0.1)
        with b.ratings_transaction():
            seen.append(b.ratings("deserto", ["h"]))

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert seen == [{"h": Rating(26.0, 8.0, 1)}]  # read after the first was written, not before


def test_the_lobby_of_any_process_lists_the_public_rooms_of_all(url: str) -> None:
    async def main() -> None:
        a, b = two_processes(url)
        public, _ = a.create({}, [{"kind": "human"}, {"kind": "human"}], "Ana", public=True)
        private, _ = a.create({}, [{"kind": "human"}, {"kind": "human"}], "Ana")
        listed = [r["code"] for r in b.lobby()]
        assert public in listed and private not in listed
        # Made private at a, it leaves b's lobby, and "play now" at b no longer seats anyone
        # there: b's copy was old (found by the 2026-11-28 audit: listed, and a stranger seated).
        room_a = a.get(public)
        assert room_a is not None
        ana = Socket("ana")
        await a.connect(room_a, ana, 0)
        await a.handle(room_a, ana, '{"type": "public", "public": false}')
        assert public not in [r["code"] for r in b.lobby()]
        elsewhere = await b.play_now(2, "Mallory", player="mallory", address="10.0.0.3")
        assert elsewhere["code"] != public
        await a.handle(room_a, ana, '{"type": "public", "public": true}')
        # "Play now" at the other process seats the second person in that room, which starts.
        seated = await b.play_now(2, "Ben", player="ben", address="10.0.0.2")
        assert seated["code"] == public
        await until(lambda: a.get(public) is not None and a.get(public).status == "playing")  # type: ignore[union-attr]
        assert public not in [r["code"] for r in b.lobby()]  # started: no longer listed anywhere
        a.close()
        b.close()

    asyncio.run(main())


def test_a_game_that_ends_at_one_process_has_its_replay_link_at_the_other(url: str) -> None:
    # Found by the 2026-11-28 audit: the other process's sockets were told replay null.
    async def main() -> None:
        a, b = two_processes(url)
        _, _, room_a, ana = await made_by_ana(a, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        _, watcher = await by_invite(b, room_a, "watcher")
        await a.handle(room_a, ana, '{"type": "start"}')
        for _ in range(200):
            await until(lambda: ana.last()["status"] == "over" or ana.last()["table"]["to_move"] == 0, 10)
            frame = ana.last()
            if frame["status"] == "over":
                break
            move = frame["table"]["legal"][0]["move"]
            await a.handle(room_a, ana, f'{{"type": "move", "move": "{move}", "at": {frame["at"]}}}')
            await until(lambda at=frame["at"]: ana.last()["at"] > at, 10)
        replay = ana.last()["replay"]
        assert ana.last()["status"] == "over" and replay is not None
        await until(lambda: watcher.last()["status"] == "over", 10)
        assert watcher.last()["replay"] == replay
        a.close()
        b.close()

    asyncio.run(main())


def test_a_server_that_never_answers_is_given_up_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that takes the connection and says nothing: before, ``cardtable serve
    --database`` waited for ever. (No PostgreSQL needed: a socket that never answers.)"""
    monkeypatch.setattr(postgres, "CONNECT_SECONDS", 1)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"postgresql://u@127.0.0.1:{silent.getsockname()[1]}/x"
        outcome: list[BaseException] = []

        def attempt() -> None:
            try:
                postgres.connect(url)
            except BaseException as err:
                outcome.append(err)

        worker = threading.Thread(target=attempt, daemon=True)
        worker.start()
        worker.join(timeout=30)  # bounded: a hang fails the test instead of holding the run
        assert not worker.is_alive() and outcome and isinstance(outcome[0], psycopg.OperationalError)
    with pytest.raises(psycopg.OperationalError):  # a URL's own timeout is kept
        postgres.connect("postgresql://u@127.0.0.1:1/x?connect_timeout=1")

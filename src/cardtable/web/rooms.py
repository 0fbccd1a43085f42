"""Multi-player games online: rooms of people and bots, over one WebSocket per browser.

A :class:`Room` holds one table of a multi-player game (any game whose
declaration, :func:`cardtable.games.spec_for`, has more than one seat and a
browser table); it names its game, and its seats (how many, which bots) are
checked against that declaration. People take its human seats by the invite
link (a short room code) and get a seat token, kept by the browser: the token,
never what a message claims, says which seat a socket plays. The other seats
are bots (:func:`cardtable.bots.make`), run by the server after a short
visible pause. A room where every seat but the creator's is a bot (one person
against bots, a *solo* room) starts at once; the creator of another room starts
it when every person's seat is taken.

The server deals (a deal number drawn from the operating system's random
source, never sent), and every message to a seat is built from that seat's
``view`` only; spectators get the public view. Every move names the move count
it was made on (``at``); a move out of turn, from a spectator, on a stale
count, illegal or malformed gets an error to that socket alone and changes
nothing (a :class:`~cardtable.web.errors.TableError`, the same kinds as over
HTTP), and a stale one is followed by a fresh snapshot. Moves of one room are
taken one at a time, so of two moves sent for the same count exactly one is
taken.

In a solo room the person also has what a one-player table offers: undo (back
to before their last move), redo (that move and the bots' answers, as they
were), restart and a hint (the greedy bot's move for their seat); in a room
with another person these are refused (``unavailable``). The room records
which browser (player id) made it, and the end of each game of a solo room
goes into that browser's statistics (:func:`cardtable.web.statistics.record`).

Every accepted move is written to SQLite before it is broadcast; a room is
rebuilt after a restart by replaying its stored moves on its deal, so hands
and deck are as they were. A room where no person has been connected for a
day is removed.

A move comes as text in the game's notation, or as a drop of a card on a pile
of the table the seat was shown (:mod:`cardtable.web.drops`); what each seat is
sent is built by :func:`cardtable.web.table_json.seat_table`, and the log and
the end are told by the game's own words (each event's ``told``, the outcome's
``describe``).

>>> from cardtable.web.database import Database
>>> rooms = Rooms(Database(":memory:"), bot_pause=0)
>>> code, token = rooms.create({"players": 2}, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "Ana")
>>> room = rooms.get(code); room.name == default_game(), room.seats[1].name, room.status, room.solo
(True, 'Greedy 2', 'playing', True)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, cast

from .. import bots
from ..api import new_game
from ..core.errors import CardtableError, IllegalMoveError, MoveParseError
from ..core.multiplayer import MultiplayerGame
from ..core.spec import GameSpec
from ..games import spec_for, specs
from .database import Database, RoomRow
from .drops import requested_move
from .errors import TableError
from .statistics import record
from .table_json import seat_table

BOT_PAUSE = 0.7
"""Seconds a bot waits before it plays, so that people can follow."""

ROOM_TTL = 24 * 3600
"""Seconds a room is kept after its last person left."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes use these (no I, O, 0, 1: easy to read aloud)."""

MAX_NAME = 24
"""The longest display name."""

LOG_LINES = 40
"""The log lines a snapshot tells (the newest); the page shows the last 12."""

HINT_BOT = "greedy"
"""The bot whose move a hint suggests (when the game's declaration lists it; else its first bot)."""


def default_game() -> str:
    """The game of a room made without naming one: the first multi-player game the
    browser offers, in the order of :func:`cardtable.games.specs`.

    >>> spec_for(default_game()).one_player
    False
    """
    for spec in specs():
        if not spec.one_player and spec.table is not None and spec.bots:
            return spec.name
    raise TableError("bad-request", "no multi-player game is offered in the browser")


class Connection(Protocol):
    """What the rooms need of a socket: to send it a JSON message."""

    async def send_json(self, data: Any) -> None:
        """Send one JSON message."""


@dataclass
class SeatInfo:
    """A seat of a room: a person's (``token`` is the hash of the seat token, None while
    the seat is free) or a bot's (``bot`` and its ``budget``)."""

    kind: str
    name: str = ""
    bot: str | None = None
    budget: dict[str, Any] = field(default_factory=dict)
    token: str | None = None
    creator: bool = False


@dataclass
class Room:
    """One room (see the module docstring). ``name`` is its game's name; ``game`` the
    game being played (None in the lobby); ``movers`` the seat of each of its moves;
    ``started``, ``ended``, ``hints`` and
    ``redo`` are the current game's, as at a one-player table."""

    code: str
    name: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    deal: int | None
    game_no: int
    status: str
    created: float
    empty_since: float | None
    player: str | None = None
    started: float | None = None
    ended: float | None = None
    hints: int = 0
    redo: list[str] = field(default_factory=list)
    game: MultiplayerGame[Any, Any] | None = None
    movers: list[int] = field(default_factory=list)
    closed: bool = False
    sockets: dict[Connection, int | None] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # broadcasts go out in order
    bot_task: asyncio.Task[None] | None = None

    def row(self) -> RoomRow:
        """The room as a stored row."""
        return RoomRow(
            self.code,
            json.dumps(self.options),
            json.dumps([asdict(s) for s in self.seats]),
            self.deal,
            self.game_no,
            self.status,
            self.created,
            self.empty_since,
            game=self.name,
            player=self.player,
            started=self.started,
            ended=self.ended,
            hints=self.hints,
            redo=json.dumps(self.redo),
        )

    @property
    def at(self) -> int:
        """The number of moves of the current game (0 before it starts)."""
        return len(self.game.moves) if self.game is not None else 0

    @property
    def solo(self) -> bool:
        """Whether one person plays here against bots (every other seat is a bot)."""
        return sum(1 for s in self.seats if s.kind == "human") == 1

    @property
    def stats_id(self) -> str:
        """The id of the current game's row in the statistics (a solo room's)."""
        return f"room-{self.code}-{self.game_no}"

    def names(self) -> list[str]:
        """Display names of the seats."""
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def won(self, seat: int) -> bool:
        """Whether the game is over and ``seat`` among its winners."""
        result = self.game.outcome.result if self.game is not None else None
        return result is not None and seat in result.winners


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _spec(name: Any) -> GameSpec:
    """The declaration of a game a room can be made for, else a ``bad-request``."""
    try:
        spec = spec_for(name if isinstance(name, str) else "")
    except CardtableError as err:
        raise TableError("bad-request", str(err)) from None
    if spec.one_player:
        raise TableError("bad-request", f"{spec.title} is a one-player game: play it at a table (POST /api/tables)")
    if spec.table is None or not spec.bots:
        raise TableError("bad-request", f"{spec.title} is not offered in the browser")
    return spec


class Rooms:
    """Every room of the server. ``bot_pause`` is the bots' visible pause in seconds;
    ``clock`` gives the time (tests pass their own).

    >>> from cardtable.web.database import Database
    >>> Rooms(Database(":memory:")).get("NOPE") is None
    True
    """

    def __init__(self, db: Database, bot_pause: float = BOT_PAUSE, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.bot_pause = bot_pause
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        for row in db.rooms():
            self._rooms[row.code] = self._rebuild(row)

    def _rebuild(self, row: RoomRow) -> Room:
        seats = [SeatInfo(**s) for s in json.loads(row.seats)]
        room = Room(
            row.code,
            row.game,
            json.loads(row.options),
            seats,
            row.deal,
            row.game_no,
            row.status,
            row.created,
            row.empty_since,
            player=row.player,
            started=row.started,
            ended=row.ended,
            hints=row.hints,
            redo=json.loads(row.redo),
        )
        if row.status != "lobby" and row.deal is not None:
            room.game = self._new_game(room, row.deal)
            for text in self.db.moves(row.code, row.game_no):
                self._apply(room, room.game.parse_move(text))
        return room

    @staticmethod
    def _new_game(room: Room, deal: int) -> MultiplayerGame[Any, Any]:
        # A room's game is a multi-player one: its declaration was checked when the room was made.
        return cast("MultiplayerGame[Any, Any]", new_game(room.name, deal=deal, **room.options))

    # --- making rooms -----------------------------------------------------------------

    def create(
        self,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        name: str,
        game: str | None = None,
        player: str | None = None,
    ) -> tuple[str, str]:
        """A new room of ``game`` (None: :func:`default_game`): its options, one entry a seat (``{"kind": "human"}`` or
        ``{"kind": "bot", "bot": NAME, "budget": {...}}``), the creator's name (the creator
        takes the first human seat) and player id. Returns the room code and the
        creator's seat token. A solo room is dealt at once; it replaces the creator's
        other solo room of the same game, whose game counts as abandoned if they moved.

        >>> from cardtable.web.database import Database
        >>> Rooms(Database(":memory:")).create({}, [{"kind": "bot", "bot": "greedy"}] * 2, "Ana")
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: a room needs at least one seat for a person (yours)
        """
        spec = _spec(default_game() if game is None else game)
        low, high = spec.seats
        if not isinstance(seats, list) or not low <= len(seats) <= high:
            raise TableError("bad-request", f"a room of {spec.title} has {low} to {high} seats")
        infos: list[SeatInfo] = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
                raise TableError("bad-request", f"seat {i + 1}: kind is 'human' or 'bot'")
            if seat["kind"] == "bot":
                bot, budget = str(seat.get("bot")), seat.get("budget") or {}
                if bot not in spec.bots:
                    raise TableError(
                        "bad-request", f"seat {i + 1}: no bot {bot!r} plays {spec.title} ({', '.join(spec.bots)})"
                    )
                if not isinstance(budget, dict):
                    raise TableError("bad-request", f"seat {i + 1}: a budget is an object, e.g. {{'iterations': 200}}")
                try:
                    bots.make(bot, **budget).check_game(spec.name)
                except (CardtableError, TypeError) as err:
                    raise TableError("bad-request", f"seat {i + 1}: {err}") from None
                infos.append(SeatInfo("bot", name=f"{bot.capitalize()} {i + 1}", bot=bot, budget=budget))
            else:
                infos.append(SeatInfo("human"))
        humans = [s for s in infos if s.kind == "human"]
        if not humans:
            raise TableError("bad-request", "a room needs at least one seat for a person (yours)")
        options = dict(options or {})
        if any(o.name == "players" for o in spec.rules.OPTIONS):
            options["players"] = len(infos)
        try:
            made = new_game(spec.name, deal=0, **options)
        except CardtableError as err:
            raise TableError("bad-request", str(err)) from None
        players = cast("MultiplayerGame[Any, Any]", made).players
        if players != len(infos):
            raise TableError("bad-request", f"these options make a table of {players} seats, not {len(infos)}")
        token = secrets.token_urlsafe(16)
        humans[0].name = self._check_name(name)
        humans[0].token = _hash(token)
        humans[0].creator = True
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        while code in self._rooms:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        now = self.clock()
        room = Room(code, spec.name, options, infos, None, 0, "lobby", now, now, player=player)
        if room.solo and player is not None:
            self._replace_solo(room)
        if room.solo:
            self._deal(room)  # nobody to wait for
        else:
            self.db.put_room(room.row())
        self._rooms[code] = room
        return code, token

    def _replace_solo(self, room: Room) -> None:
        """Close the creator's other solo rooms of the same game being played (one game of a
        kind in progress, as at the one-player tables): abandoned if the person moved there."""
        for code, other in sorted(self._rooms.items()):
            if other.player != room.player or other.name != room.name or not other.solo or other.status != "playing":
                continue
            if other.game is not None and other.started is not None and other.player is not None:
                self._record(other, "abandoned")
            other.closed = True
            del self._rooms[code]
            self.db.delete_room(code)

    @staticmethod
    def _check_name(name: Any) -> str:
        if not isinstance(name, str) or not name.strip():
            raise TableError("bad-request", "a display name is needed")
        shown = " ".join(name.split())
        if len(shown) > MAX_NAME:
            raise TableError("bad-request", f"a display name has at most {MAX_NAME} characters")
        return shown

    def get(self, code: str) -> Room | None:
        """The room with this code (any case), or None.

        >>> from cardtable.web.database import Database
        >>> Rooms(Database(":memory:")).get("abc") is None
        True
        """
        return self._rooms.get(code.upper()) if isinstance(code, str) else None

    def summary(self, room: Room) -> dict[str, Any]:
        """What anyone with the link sees of a room before joining: game, seats and status."""
        return {
            "code": room.code,
            "game": room.name,
            "status": room.status,
            "options": {k: v for k, v in room.options.items()},
            "seats": [self._seat_json(room, i) for i in range(len(room.seats))],
        }

    def _seat_json(self, room: Room, i: int) -> dict[str, Any]:
        seat = room.seats[i]
        connected = any(s == i for s in room.sockets.values())
        return {
            "seat": i,
            "kind": seat.kind,
            "bot": seat.bot,
            "name": seat.name,
            "taken": seat.kind == "bot" or seat.token is not None,
            "away": seat.kind == "human" and seat.token is not None and not connected,
            "creator": seat.creator,
        }

    # --- sockets --------------------------------------------------------------------

    async def connect(self, room: Room, socket: Connection, token: str | None) -> int | None:
        """A socket joins the room: as the seat its token names, else as a spectator. It
        gets a full snapshot; the others see the seat back."""
        seat = None
        if isinstance(token, str) and token:
            hashed = _hash(token)
            seat = next((i for i, s in enumerate(room.seats) if s.token == hashed), None)
        async with room.lock:
            room.sockets[socket] = seat
            if seat is not None and room.empty_since is not None:
                room.empty_since = None
                self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)  # a new solo room, or after a restart: a bot that is to move has no task yet
        return seat

    async def disconnect(self, room: Room, socket: Connection) -> None:
        """A socket left: its seat shows as away; a room with no person left starts its day."""
        async with room.lock:
            room.sockets.pop(socket, None)
            if not any(s is not None for s in room.sockets.values()) and room.empty_since is None and not room.closed:
                room.empty_since = self.clock()
                self.db.put_room(room.row())
        await self.broadcast(room)

    async def handle(self, room: Room, socket: Connection, text: str) -> None:
        """One message from a socket (see the module docstring); errors go to it alone."""
        try:
            if room.closed:
                raise TableError("not-found", f"room {room.code} was closed: a new game was started")
            try:
                message = json.loads(text)
            except (ValueError, TypeError):
                raise TableError("bad-request", "a message is a JSON object") from None
            if not isinstance(message, dict):
                raise TableError("bad-request", "a message is a JSON object")
            kind = message.get("type")
            actions: dict[str, Callable[[Room, Connection, dict[str, Any]], Awaitable[None]]] = {
                "move": self._move,
                "join": self._join,
                "start": self._start,
                "rematch": self._rematch,
                "undo": self._undo,
                "redo": self._redo,
                "restart": self._restart,
                "hint": self._hint,
            }
            if kind not in actions:
                raise TableError("bad-request", f"unknown message type {kind!r} ({', '.join(actions)})")
            await actions[kind](room, socket, message)
        except TableError as err:
            async with room.send_lock:
                await self._send(socket, {"type": "error", **err.json()})
                if err.kind == "stale":
                    await self._send(socket, self.snapshot(room, room.sockets.get(socket)))

    async def _join(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        async with room.lock:
            if room.sockets.get(socket) is not None:
                raise TableError("bad-request", "this browser already has a seat here")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
                raise TableError("bad-request", f"no seat {seat!r}")
            info = room.seats[seat]
            if info.kind != "human" or info.token is not None:
                raise TableError("seat-taken", "that seat is taken")
            info.name = self._check_name(message.get("name"))
            token = secrets.token_urlsafe(16)
            info.token = _hash(token)
            room.sockets[socket] = seat
            room.empty_since = None
            self.db.put_room(room.row())
        await self._send(socket, {"type": "joined", "code": room.code, "seat": seat, "token": token})
        await self.broadcast(room)

    async def _start(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = room.sockets.get(socket)
            if seat is None or not room.seats[seat].creator:
                raise TableError("not-ready", "only the room's creator starts the game")
            if room.status != "lobby":
                raise TableError("not-ready", "the game has started")
            free = [i + 1 for i, s in enumerate(room.seats) if s.kind == "human" and s.token is None]
            if free:
                raise TableError(
                    "not-ready", f"seat{'s' if len(free) > 1 else ''} {', '.join(map(str, free))} still free"
                )
            self._deal(room)
        await self.broadcast(room)
        self._bots(room)

    async def _rematch(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            if room.sockets.get(socket) is None:
                raise TableError("spectator", "spectators watch: only players ask for a rematch")
            if room.status != "over":
                raise TableError("not-ready", "a rematch comes when the game is over")
            room.game_no += 1
            self._deal(room)
        await self.broadcast(room)
        self._bots(room)

    def _deal(self, room: Room) -> None:
        room.deal = secrets.randbits(62)  # the server's own random source; never sent
        room.game = self._new_game(room, room.deal)
        room.movers, room.redo = [], []
        room.status = "playing"
        room.started, room.ended, room.hints = None, None, 0
        self.db.put_room(room.row())

    async def _move(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        text, at = message.get("move"), message.get("at")
        drop: dict[str, Any] = {k: message[k] for k in ("from", "index", "to") if k in message}
        if text is not None and drop:
            raise TableError("bad-request", "a move is given in notation ('move') or as a drop, not both")
        if not drop and (not isinstance(text, str) or len(text) > 32):
            raise TableError(
                "bad-request",
                f"a move is text in the game's notation ({spec_for(room.name).rules.NOTATION}), "
                "or a drop ('from', 'index', 'to')",
            )
        if isinstance(at, bool) or not isinstance(at, int):
            raise TableError("bad-request", "a move names the move count it was made on ('at')")
        async with room.lock:
            seat = room.sockets.get(socket)
            if seat is None:
                raise TableError("spectator", "spectators watch: they cannot play")
            self._take(room, seat, at, text if not drop else None, drop or None)
        await self.broadcast(room)
        self._bots(room)

    def _take(self, room: Room, seat: int, at: int, wanted: Any, drop: dict[str, Any] | None = None) -> None:
        """Check and take one move (the room's lock held): stored, then applied. ``wanted``:
        a move, or its text; else ``drop``, cards dropped on the seat's table."""
        game = room.game
        if room.status != "playing" or game is None:
            raise TableError("not-ready", "no game is being played in this room")
        if at != room.at:
            raise TableError("stale", f"the game has moved on (move {room.at}, not {at})")
        if game.to_move != seat:
            raise TableError("not-your-turn", f"it is {room.names()[game.to_move or 0]}'s turn")
        move = wanted if drop is None else requested_move(game, None, drop, seat)
        if isinstance(move, str):
            try:
                move = game.parse_move(move)
            except MoveParseError as err:
                raise TableError("unparsable", str(err)) from None
        if not game.is_legal(move):
            raise TableError("illegal", f"Not allowed: {game.rules.explain_in_words(game.state, move)}.")
        self.db.add_move(room.code, room.game_no, room.at, str(move))  # stored before anyone hears of it
        self._apply(room, move)
        changed = bool(room.redo)
        room.redo = []
        if room.started is None and room.seats[seat].kind == "human":
            room.started, changed = self.clock(), True
        if self._settle(room) or changed:
            self.db.put_room(room.row())

    def _apply(self, room: Room, move: Any) -> None:
        game = room.game
        assert game is not None
        room.movers.append(game.to_move if game.to_move is not None else -1)
        game.play(move)
        room.status = "over" if game.outcome.over else "playing"

    def _settle(self, room: Room) -> bool:
        """Note the end of a game that just ended, or un-end one an undo took back (a solo
        room's statistics with it); whether the room's row changed."""
        game = room.game
        if game is None:
            return False
        if game.outcome.over and room.ended is None:
            room.ended = self.clock()
            if room.solo and room.player is not None:
                person = next(i for i, s in enumerate(room.seats) if s.kind == "human")
                self._record(room, "won" if room.won(person) else "lost")
            return True
        if not game.outcome.over and room.ended is not None:
            room.ended = None
            self.db.delete(room.stats_id)
            return True
        return False

    def _record(self, room: Room, result: str) -> None:
        assert room.game is not None and room.player is not None
        record(
            self.db,
            room.stats_id,
            room.player,
            room.game,
            ["you" if s.kind == "human" else s.bot or "bot" for s in room.seats],
            result=result,
            created=room.created,
            started=room.started,
            ended=room.ended if room.ended is not None else self.clock(),
            hints=room.hints,
        )

    # --- what a solo room also offers: undo, redo, restart, a hint -----------------------

    def _solo_action(self, room: Room, socket: Connection, message: dict[str, Any], action: str) -> int:
        """The seat of the person asking for ``action`` in a solo room, checked (the room's
        lock held): a player of a solo room whose game has started, on the current move
        count, when no bot is to move."""
        seat = room.sockets.get(socket)
        if seat is None:
            raise TableError("spectator", f"spectators watch: only the player may ask for {action}")
        if room.game is None or room.status == "lobby":
            raise TableError("not-ready", "no game is being played in this room")
        if not room.solo:
            raise TableError("unavailable", f"{action} is offered only in a room where every seat but yours is a bot")
        at = message.get("at")
        if isinstance(at, bool) or not isinstance(at, int):
            raise TableError("bad-request", "a request names the move count it was made on ('at')")
        if at != room.at:
            raise TableError("stale", f"the game has moved on (move {room.at}, not {at})")
        mover = room.game.to_move
        if mover is not None and mover != seat:
            raise TableError("not-your-turn", f"wait: it is {room.names()[mover]}'s turn")
        return seat

    async def _undo(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = self._solo_action(room, socket, message, "undo")
            game = room.game
            assert game is not None
            if room.won(seat):
                raise TableError("finished", "a won game stays won")
            if seat not in room.movers:
                raise TableError("illegal", "nothing to undo")
            while True:  # back to before the person's last move
                mover = room.movers.pop()
                room.redo.append(str(game.undo()))
                if mover == seat:
                    break
            self.db.delete_moves(room.code, room.game_no, room.at)
            room.status = "playing"
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)

    async def _redo(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = self._solo_action(room, socket, message, "redo")
            game = room.game
            assert game is not None
            if not room.redo or room.won(seat):
                raise TableError("illegal", "nothing to redo")
            while room.redo:  # the person's move, and the bots' after it, as they were
                try:
                    move = game.parse_move(room.redo[-1])
                    if not game.is_legal(move):
                        raise IllegalMoveError(f"illegal move {move}")
                except CardtableError as err:  # a stored redo list that no longer fits: drop it
                    room.redo.clear()
                    self.db.put_room(room.row())
                    raise TableError("illegal", f"cannot redo: {err}") from None
                room.redo.pop()
                self.db.add_move(room.code, room.game_no, room.at, str(move))
                self._apply(room, move)
                if game.to_move in (seat, None):
                    break
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    async def _restart(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = self._solo_action(room, socket, message, "restart")
            game = room.game
            assert game is not None
            if room.won(seat):
                raise TableError("finished", "a won game stays won")
            game.restart()
            room.movers, room.redo = [], []
            self.db.delete_moves(room.code, room.game_no, 0)
            room.status = "playing"
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    async def _hint(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = self._solo_action(room, socket, message, "a hint")
            game = room.game
            assert game is not None
            if room.status == "over":
                raise TableError("finished", "the game is over")
            spec = spec_for(room.name)
            name = HINT_BOT if HINT_BOT in spec.bots else spec.bots[0]
            move = bots.make(name, seed=room.at).choose(game, seat)
            room.hints += 1
            self.db.put_room(room.row())
            hint = {
                "move": str(move),
                "source": name,
                "status": "unknown",
                "text": f"The {name} bot would play: {game.rules.describe_move(game.state, move)}.",
            }
            answer = {"type": "hint", "at": room.at, "hint": hint, "hints": room.hints}
        async with room.send_lock:
            await self._send(socket, answer)

    # --- bots --------------------------------------------------------------------------

    def _bots(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot is to move and none is thinking."""
        game = room.game
        if room.closed or room.status != "playing" or game is None or game.to_move is None:
            return
        if room.seats[game.to_move].kind != "bot" or (room.bot_task is not None and not room.bot_task.done()):
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))

    async def _bot_turn(self, room: Room) -> None:
        while True:
            game = room.game
            if room.closed or room.status != "playing" or game is None or game.to_move is None:
                return
            seat = game.to_move
            info = room.seats[seat]
            if info.kind != "bot":
                return
            await asyncio.sleep(self.bot_pause)
            at, game_no = room.at, room.game_no
            if room.game is not game or game.to_move != seat:
                continue  # the person took moves back or restarted meanwhile
            bot = bots.make(info.bot or "", seed=secrets.randbits(32), **info.budget)
            move = await asyncio.to_thread(bot.choose, game, seat) if info.bot == "ismcts" else bot.choose(game, seat)
            async with room.lock:
                if room.closed or room.at != at or room.game_no != game_no:
                    continue
                self._take(room, seat, at, move)
            await self.broadcast(room)

    # --- what each socket is sent ---------------------------------------------------------

    def snapshot(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The full state of the room as ``seat`` may see it (None: a spectator)."""
        names = room.names()
        game = room.game
        # What the person of a solo room may ask for now (when no bot is to move).
        free = seat is not None and room.solo and game is not None and game.to_move in (seat, None)
        won = free and seat is not None and room.won(seat)
        data: dict[str, Any] = {
            "type": "snapshot",
            "code": room.code,
            "game": room.name,
            "title": spec_for(room.name).title,
            "status": room.status,
            "game_no": room.game_no,
            "at": room.at,
            "you": seat,
            "solo": room.solo,
            "seats": [self._seat_json(room, i) for i in range(len(room.seats))],
            "table": None,
            "log": [],
            "log_from": 0,
            "result": None,
            "can_undo": free and seat in room.movers and not won,
            "can_redo": free and bool(room.redo) and not won,
            "hints": room.hints,
            "started": room.started,
            "ended": room.ended,
            "now": self.clock(),
        }
        if game is not None and room.status != "lobby":
            data["table"] = seat_table(game, seat, names)
            shown = [n if i != seat else "You" for i, n in enumerate(names)]
            history = game.history(seat)
            data["log_from"] = max(0, len(history) - LOG_LINES)
            data["log"] = [event.told(shown) for event in history[data["log_from"] :]]
            outcome = game.outcome
            result = outcome.result
            if result is not None:
                data["result"] = {
                    "scores": list(result.scores),
                    "ranks": list(result.ranks),
                    "winners": list(result.winners),
                    "reason": outcome.describe(shown, seat),
                }
        return data

    async def broadcast(self, room: Room) -> None:
        """Send every socket of the room its own snapshot. The snapshots are made under
        the room's lock (one position for all), and broadcasts go out one after the
        other in the order they were made, so no socket misses a state or goes back."""
        async with room.lock:
            frames = [(socket, self.snapshot(room, seat)) for socket, seat in room.sockets.items()]
        async with room.send_lock:  # queued before the lock above lets the next broadcast make its frames
            for socket, frame in frames:
                await self._send(socket, frame)

    @staticmethod
    async def _send(socket: Connection, data: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a socket that went away: its disconnect cleans up
            await socket.send_json(data)

    # --- housekeeping ------------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> list[str]:
        """Remove the rooms nobody has been in for :data:`ROOM_TTL` seconds; their codes.

        >>> from cardtable.web.database import Database
        >>> rooms = Rooms(Database(":memory:"), clock=lambda: 0.0)
        >>> code, _ = rooms.create({}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "Ana")
        >>> rooms.sweep(now=ROOM_TTL + 1) == [code]
        True
        """
        now = self.clock() if now is None else now
        gone = [
            code
            for code, room in sorted(self._rooms.items())
            if not room.sockets and room.empty_since is not None and now - room.empty_since > ROOM_TTL
        ]
        for code in gone:
            self._rooms[code].closed = True
            del self._rooms[code]
            self.db.delete_room(code)
        return gone


__all__ = ["BOT_PAUSE", "HINT_BOT", "ROOM_TTL", "Room", "Rooms", "SeatInfo", "default_game"]

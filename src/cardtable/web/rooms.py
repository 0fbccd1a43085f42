"""Deserto online: rooms of 2 to 4 seats, people and bots, over one WebSocket per browser.

A :class:`Room` holds one Deserto table. People take its human seats by the
invite link (a short room code) and get a seat token, kept by the browser:
the token, never what a message claims, says which seat a socket plays. The
other seats are bots, run by the server after a short visible pause.

The server deals (a deal number drawn from the operating system's random
source, never sent), and every message to a seat is built from that seat's
``view`` only; spectators get the public view. Every move names the turn it
was made on (the number of moves played); a move out of turn, from a
spectator, on a stale turn, illegal or malformed gets an error to that socket
alone and changes nothing, and a stale one is followed by a fresh snapshot.
Moves of one room are taken one at a time, so of two moves sent for the same
turn exactly one is taken.

Every accepted move is written to SQLite before it is broadcast; a room is
rebuilt after a restart by replaying its stored moves on its deal, so hands
and deck are as they were. A room where no person has been connected for a
day is removed.

>>> import asyncio
>>> from cardtable.web.store import Store
>>> rooms = Rooms(Store(":memory:"), bot_pause=0)
>>> code, token = rooms.create({"players": 2}, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "Ana")
>>> rooms.get(code).seats[1].name
'Greedy 2'
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
from typing import Any, Protocol

from .. import bots
from ..api import new_game
from ..core.errors import CardtableError, IllegalMoveError, MoveParseError
from ..core.multiplayer import MultiplayerGame
from .positions import seat_position
from .store import RoomRow, Store
from .story import tell

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


class Connection(Protocol):
    """What the rooms need of a socket: to send it a JSON message."""

    async def send_json(self, data: Any) -> None:
        """Send one JSON message."""


class RoomError(Exception):
    """A message the room refuses: ``kind`` (``bad-request``, ``not-found``, ``stale``,
    ``not-your-turn``, ``illegal``, ``spectator``, ``seat-taken``, ``not-ready``) and a line.

    >>> RoomError("stale", "the game has moved on").kind
    'stale'
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


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
    """One Deserto room (see the module docstring)."""

    code: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    deal: int | None
    game_no: int
    status: str
    created: float
    empty_since: float | None
    game: MultiplayerGame[Any, Any] | None = None
    sockets: dict[Connection, int | None] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # broadcasts go out in order
    bot_task: asyncio.Task[None] | None = None

    def row(self) -> RoomRow:
        """The room as a stored row."""
        seats = json.dumps([asdict(s) for s in self.seats])
        return RoomRow(
            self.code,
            json.dumps(self.options),
            seats,
            self.deal,
            self.game_no,
            self.status,
            self.created,
            self.empty_since,
        )

    @property
    def turn(self) -> int:
        """The number of moves of the current game (0 before it starts)."""
        return len(self.game.moves) if self.game is not None else 0

    def names(self) -> list[str]:
        """Display names of the seats."""
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Rooms:
    """Every room of the server. ``bot_pause`` is the bots' visible pause in seconds;
    ``clock`` gives the time (tests pass their own).

    >>> from cardtable.web.store import Store
    >>> Rooms(Store(":memory:")).get("NOPE") is None
    True
    """

    def __init__(self, store: Store, bot_pause: float = BOT_PAUSE, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.bot_pause = bot_pause
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        for row in store.rooms():
            self._rooms[row.code] = self._rebuild(row)

    def _rebuild(self, row: RoomRow) -> Room:
        seats = [SeatInfo(**s) for s in json.loads(row.seats)]
        room = Room(
            row.code, json.loads(row.options), seats, row.deal, row.game_no, row.status, row.created, row.empty_since
        )
        if row.status != "lobby" and row.deal is not None:
            room.game = new_game("deserto", deal=row.deal, **room.options)
            for text in self.store.moves(row.code, row.game_no):
                self._apply(room, room.game.parse_move(text))
        return room

    # --- making rooms -----------------------------------------------------------------

    def create(self, options: dict[str, Any], seats: list[dict[str, Any]], name: str) -> tuple[str, str]:
        """A new room: game options, one entry a seat (``{"kind": "human"}`` or ``{"kind":
        "bot", "bot": NAME, "budget": {...}}``), the creator's name (the creator takes
        the first human seat). Returns the room code and the creator's seat token.

        >>> from cardtable.web.store import Store
        >>> Rooms(Store(":memory:")).create({}, [{"kind": "bot", "bot": "greedy"}] * 2, "Ana")
        Traceback (most recent call last):
        ...
        cardtable.web.rooms.RoomError: a room needs at least one seat for a person (yours)
        """
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
            raise RoomError("bad-request", "a room has 2 to 4 seats")
        infos: list[SeatInfo] = []
        for i, spec in enumerate(seats):
            if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
                raise RoomError("bad-request", f"seat {i + 1}: kind is 'human' or 'bot'")
            if spec["kind"] == "bot":
                bot, budget = spec.get("bot"), spec.get("budget") or {}
                if not isinstance(budget, dict):
                    raise RoomError("bad-request", f"seat {i + 1}: a budget is an object, e.g. {{'iterations': 200}}")
                try:
                    bots.make(str(bot), **budget)
                except (CardtableError, TypeError) as err:
                    raise RoomError("bad-request", f"seat {i + 1}: {err}") from None
                infos.append(SeatInfo("bot", name=f"{str(bot).capitalize()} {i + 1}", bot=str(bot), budget=budget))
            else:
                infos.append(SeatInfo("human"))
        humans = [s for s in infos if s.kind == "human"]
        if not humans:
            raise RoomError("bad-request", "a room needs at least one seat for a person (yours)")
        options = dict(options or {})
        options["players"] = len(infos)
        try:
            new_game("deserto", deal=0, **options)
        except CardtableError as err:
            raise RoomError("bad-request", str(err)) from None
        token = secrets.token_urlsafe(16)
        humans[0].name = self._check_name(name)
        humans[0].token = _hash(token)
        humans[0].creator = True
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        while code in self._rooms:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
        now = self.clock()
        room = Room(code, options, infos, None, 0, "lobby", now, now)
        self.store.put_room(room.row())
        self._rooms[code] = room
        return code, token

    @staticmethod
    def _check_name(name: Any) -> str:
        if not isinstance(name, str) or not name.strip():
            raise RoomError("bad-request", "a display name is needed")
        shown = " ".join(name.split())
        if len(shown) > MAX_NAME:
            raise RoomError("bad-request", f"a display name has at most {MAX_NAME} characters")
        return shown

    def get(self, code: str) -> Room | None:
        """The room with this code (any case), or None.

        >>> from cardtable.web.store import Store
        >>> Rooms(Store(":memory:")).get("abc") is None
        True
        """
        return self._rooms.get(code.upper()) if isinstance(code, str) else None

    def summary(self, room: Room) -> dict[str, Any]:
        """What anyone with the link sees of a room before joining: seats and status."""
        return {
            "code": room.code,
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
                self.store.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)  # after a restart, a bot that was to move has no task yet
        return seat

    async def disconnect(self, room: Room, socket: Connection) -> None:
        """A socket left: its seat shows as away; a room with no person left starts its day."""
        async with room.lock:
            room.sockets.pop(socket, None)
            if not any(s is not None for s in room.sockets.values()) and room.empty_since is None:
                room.empty_since = self.clock()
                self.store.put_room(room.row())
        await self.broadcast(room)

    async def handle(self, room: Room, socket: Connection, text: str) -> None:
        """One message from a socket (see the module docstring); errors go to it alone."""
        try:
            try:
                message = json.loads(text)
            except (ValueError, TypeError):
                raise RoomError("bad-request", "a message is a JSON object") from None
            if not isinstance(message, dict):
                raise RoomError("bad-request", "a message is a JSON object")
            kind = message.get("type")
            actions: dict[str, Callable[[Room, Connection, dict[str, Any]], Awaitable[None]]] = {
                "move": self._move,
                "join": self._join,
                "start": self._start,
                "rematch": self._rematch,
            }
            if kind not in actions:
                raise RoomError("bad-request", f"unknown message type {kind!r} (move, join, start, rematch)")
            await actions[kind](room, socket, message)
        except RoomError as err:
            async with room.send_lock:
                await self._send(socket, {"type": "error", "kind": err.kind, "error": err.message})
                if err.kind == "stale":
                    await self._send(socket, self.snapshot(room, room.sockets.get(socket)))

    async def _join(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        async with room.lock:
            if room.sockets.get(socket) is not None:
                raise RoomError("bad-request", "this browser already has a seat here")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
                raise RoomError("bad-request", f"no seat {seat!r}")
            info = room.seats[seat]
            if info.kind != "human" or info.token is not None:
                raise RoomError("seat-taken", "that seat is taken")
            info.name = self._check_name(message.get("name"))
            token = secrets.token_urlsafe(16)
            info.token = _hash(token)
            room.sockets[socket] = seat
            room.empty_since = None
            self.store.put_room(room.row())
        await self._send(socket, {"type": "joined", "code": room.code, "seat": seat, "token": token})
        await self.broadcast(room)

    async def _start(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            seat = room.sockets.get(socket)
            if seat is None or not room.seats[seat].creator:
                raise RoomError("not-ready", "only the room's creator starts the game")
            if room.status != "lobby":
                raise RoomError("not-ready", "the game has started")
            free = [i + 1 for i, s in enumerate(room.seats) if s.kind == "human" and s.token is None]
            if free:
                raise RoomError(
                    "not-ready", f"seat{'s' if len(free) > 1 else ''} {', '.join(map(str, free))} still free"
                )
            self._deal(room)
        await self.broadcast(room)
        self._bots(room)

    async def _rematch(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with room.lock:
            if room.sockets.get(socket) is None:
                raise RoomError("spectator", "spectators watch: only players ask for a rematch")
            if room.status != "over":
                raise RoomError("not-ready", "a rematch comes when the game is over")
            room.game_no += 1
            self._deal(room)
        await self.broadcast(room)
        self._bots(room)

    def _deal(self, room: Room) -> None:
        room.deal = secrets.randbits(62)  # the server's own random source; never sent
        room.game = new_game("deserto", deal=room.deal, **room.options)
        room.status = "playing"
        self.store.put_room(room.row())

    async def _move(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        text, turn = message.get("move"), message.get("turn")
        if not isinstance(text, str) or len(text) > 8:
            raise RoomError("bad-request", "a move is text in the game's notation, e.g. V3")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise RoomError("bad-request", "a move names the turn it was made on ('turn')")
        async with room.lock:
            seat = room.sockets.get(socket)
            if seat is None:
                raise RoomError("spectator", "spectators watch: they cannot play")
            self._take(room, seat, text, turn)
        await self.broadcast(room)
        self._bots(room)

    def _take(self, room: Room, seat: int, text: str, turn: int) -> None:
        """Check and take one move (the room's lock held): stored, then applied."""
        game = room.game
        if room.status != "playing" or game is None:
            raise RoomError("not-ready", "no game is being played in this room")
        if turn != room.turn:
            raise RoomError("stale", f"the game has moved on (turn {room.turn}, not {turn})")
        if game.to_move != seat:
            raise RoomError("not-your-turn", f"it is {room.names()[game.to_move or 0]}'s turn")
        try:
            move = game.parse_move(text)
        except MoveParseError as err:
            raise RoomError("bad-request", str(err)) from None
        if not game.is_legal(move):
            raise RoomError(
                "illegal", str(IllegalMoveError(f"illegal move {move}: {game.rules.explain_illegal(game.state, move)}"))
            )
        self.store.add_move(room.code, room.game_no, room.turn, str(move))  # stored before anyone hears of it
        self._apply(room, move)
        if room.status == "over":
            self.store.put_room(room.row())

    def _apply(self, room: Room, move: Any) -> None:
        game = room.game
        assert game is not None
        game.play(move)
        room.status = "over" if game.outcome.over else "playing"

    # --- bots --------------------------------------------------------------------------

    def _bots(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot is to move and none is thinking."""
        game = room.game
        if room.status != "playing" or game is None or game.to_move is None:
            return
        if room.seats[game.to_move].kind != "bot" or (room.bot_task is not None and not room.bot_task.done()):
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))

    async def _bot_turn(self, room: Room) -> None:
        while True:
            game = room.game
            if room.status != "playing" or game is None or game.to_move is None:
                return
            seat = game.to_move
            info = room.seats[seat]
            if info.kind != "bot":
                return
            await asyncio.sleep(self.bot_pause)
            turn, game_no = room.turn, room.game_no
            bot = bots.make(info.bot or "greedy", seed=secrets.randbits(32), **info.budget)
            move = await asyncio.to_thread(bot.choose, game, seat) if info.bot == "ismcts" else bot.choose(game, seat)
            async with room.lock:
                if room.turn != turn or room.game_no != game_no:
                    continue
                self._take(room, seat, str(move), turn)
            await self.broadcast(room)

    # --- what each socket is sent ---------------------------------------------------------

    def snapshot(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The full state of the room as ``seat`` may see it (None: a spectator)."""
        names = room.names()
        data: dict[str, Any] = {
            "type": "snapshot",
            "code": room.code,
            "status": room.status,
            "game_no": room.game_no,
            "state": room.turn,
            "you": seat,
            "seats": [self._seat_json(room, i) for i in range(len(room.seats))],
            "table": None,
            "log": [],
            "log_from": 0,
            "result": None,
        }
        game = room.game
        if game is not None and room.status != "lobby":
            table = seat_position(game, seat)
            table["names"] = names
            data["table"] = table
            shown = [n if i != seat else "You" for i, n in enumerate(names)]
            history = game.history(seat)
            data["log_from"] = max(0, len(history) - LOG_LINES)
            data["log"] = [tell(event, shown) for event in history[data["log_from"] :]]
            result = game.outcome.result
            if result is not None:
                data["result"] = {
                    "scores": list(result.scores),
                    "ranks": list(result.ranks),
                    "winners": list(result.winners),
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

        >>> from cardtable.web.store import Store
        >>> rooms = Rooms(Store(":memory:"), clock=lambda: 0.0)
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
            del self._rooms[code]
            self.store.delete_room(code)
        return gone

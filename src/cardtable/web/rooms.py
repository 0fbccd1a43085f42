"""Multi-player games online: rooms of people and bots, over one WebSocket per browser.

A :class:`Room` holds one table of a multi-player game (any game whose
declaration, :func:`cardtable.games.spec_for`, has more than one seat and a
browser table); it names its game, and its seats (how many, which bots) are
checked against that declaration. People take its human seats by the invite
link and get a seat token, kept by the browser: the token, never what a message
claims, says which seat a socket plays. The invite link holds the room's short
code (to read aloud) and a long secret (128 bits, its ``key``): the code alone
opens nothing. A socket says who it is in its first message (``hello``, with
the seat token or the key; never in the URL); a wrong key, token or code gets
the same answer, and an address's lookups that miss are rate-limited. The other seats
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

A room is played at a pace chosen when it is made (:mod:`cardtable.web.clocks`):
with a clock, a person whose time for a move runs out has that turn played by
a bot (:func:`~cardtable.web.clocks.stand_in`), which goes on playing the seat
(``stand_in``) until the person comes back (reconnects, moves, or says
``back``). The creator can free the seat of someone who left, or give it to a
bot; a browser holds one seat a room.

Nothing a socket does can hold the room back: each socket has its own outbox
and writer (:class:`~cardtable.web.peers.Peer`), bots search in a bounded pool
(:class:`~cardtable.web.botpool.BotPool`) under the server's budget caps, and a
room's search is cancelled when the room ends. Caps (:class:`~cardtable.web.limits.Limits`)
bound the rooms a browser or an address keeps open and the spectators of a
room. Each room event (created, joined, back, started, move, ended, timed out,
seat freed or given to a bot, closed, socket dropped) is one log line at the
default level (``INFO``, logger ``cardtable.web``).

Every accepted move is written to the database (SQLite, or PostgreSQL)
before it is broadcast; a room is rebuilt after a restart by replaying its
stored moves on its deal, so hands and deck are as they were (the person to
move gets their whole time again). A room where no person has been connected
for a day is removed.

Several server processes may share one PostgreSQL database (a
:class:`~cardtable.web.hub.Hub` tells them of each other): a change of a room
is made by one process at a time, on the room's newest stored state, and the
others reload it and send their sockets the new state; the key of the stored
moves takes each move number once, so two processes never both take a turn
(the second is answered ``stale``). The bots, the clock and the sweep of a
room run at the process holding its lease, and another one takes the lease
over when that process dies. A socket that comes back says the last move it
saw (``hello``'s ``game_no`` and ``at``): its first snapshot's log tells every
move since.

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
import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, cast

from .. import bots
from ..api import new_game
from ..core.errors import CardtableError, IllegalMoveError, MoveParseError
from ..core.multiplayer import MultiplayerGame
from ..core.spec import GameSpec
from ..games import spec_for, specs
from . import clocks, limits, peers
from .botpool import BotPool
from .database import Database, FinishedGame, MoveTaken, Rating, RoomRow
from .drops import requested_move
from .errors import TableError
from .hub import Hub, LocalHub
from .ratings import NEW, bot_rating, rate_game
from .statistics import record
from .table_json import seat_table

BOT_PAUSE = 0.7
"""Seconds a bot waits before it plays, so that people can follow."""

ROOM_TTL = 24 * 3600
"""Seconds a room is kept after its last person left."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes use these (no I, O, 0, 1: easy to read aloud)."""

MAX_NAME = limits.MAX_NAME
"""The longest display name."""

LOG_LINES = 40
"""The log lines a snapshot tells (the newest); the page shows the last 12."""

MISSED_LINES = 500
"""The most log lines the first snapshot of a socket that comes back tells (from the move it saw last)."""

FINISHED = "the game is over, won or lost: its replay shows every card, so it is not taken back; start a new game"
"""The refusal of an undo, a redo or a restart once a room's game is over (:attr:`Room.finished`)."""

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


log = logging.getLogger("cardtable.web.rooms")


class Connection(Protocol):
    """What the rooms need of a socket (a :class:`~cardtable.web.peers.Peer`): to queue a
    message for it without waiting, its network address, its browser (``holder``: a hash
    of its cookie, or None) and a label for log lines."""

    address: str
    holder: str | None
    label: str

    def put(self, data: dict[str, Any]) -> None:
        """Queue one JSON message."""

    def put_text(self, text: str, snapshot: bool = False) -> None:
        """Queue one encoded message (a snapshot replaces the snapshots still waiting)."""

    def refuse(self, err: TableError, code: int | None = None) -> None:
        """Answer with an error frame (and a log line); with ``code``, close the socket."""


SEAT_KEYS: dict[str, tuple[str, ...]] = {"human": ("kind",), "bot": ("kind", "bot", "budget")}
"""What a seat of a new room may say, by its kind: anything else is refused."""


@dataclass
class SeatInfo:
    """A seat of a room: a person's (``token`` is the hash of the seat token, None while
    the seat is free; ``holder`` stands for the browser holding it; ``stand_in`` names
    the bot playing for the person since their time ran out) or a bot's (``bot`` and
    its ``budget``)."""

    kind: str
    name: str = ""
    bot: str | None = None
    budget: dict[str, Any] = field(default_factory=dict)
    token: str | None = None
    creator: bool = False
    holder: str | None = None
    stand_in: str | None = None


@dataclass
class Room:
    """One room (see the module docstring). ``name`` is its game's name; ``game`` the
    game being played (None in the lobby); ``movers`` the seat of each of its moves;
    ``started``, ``ended``, ``hints`` and
    ``redo`` are the current game's, as at a one-player table. ``pace`` is its clock,
    ``key`` the secret of its invite link, ``address`` where its creator came from;
    ``turn`` is the turn the clock runs for (game, move count, seat) since ``turn_since``.
    ``rev`` counts the room's changes and ``epoch`` the times its moves were dealt anew or
    taken back (a copy of another ``epoch`` replays them all); ``elsewhere`` are the seats
    other processes have a socket of; ``stale``: another process changed it since;
    ``public``: the lobby lists it; ``rated``: its games change the players' ratings;
    ``replay``: the replay id of its current game once that game is over."""

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
    bot_task: asyncio.Task[None] | None = None
    pace: str = clocks.DEFAULT_PACE
    key: str = ""
    address: str | None = None
    turn: tuple[int, int, int | None] | None = None
    turn_since: float = 0.0
    timer: asyncio.TimerHandle | None = None
    rev: int = 0
    epoch: int = 0
    elsewhere: set[int] = field(default_factory=set)
    stale: bool = False
    refreshing: bool = False
    public: bool = False
    rated: bool = False
    replay: str | None = None

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
            pace=self.pace,
            secret=self.key,
            address=self.address,
            rev=self.rev,
            epoch=self.epoch,
            public=self.public,
            rated=self.rated,
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

    @property
    def finished(self) -> bool:
        """Whether the room's game is over. It then stays over, won or lost: its replay
        shows every card (the other hands, the deck's order, every gift), so a game taken
        back or dealt again after it could be played knowing them."""
        return self.game is not None and self.game.outcome.over


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def holder_of(player: str | None) -> str | None:
    """What a room keeps of the browser (its player id) that holds a seat: a hash of it.

    >>> holder_of(None) is None, len(holder_of("abc"))
    (True, 64)
    """
    return None if not player else _hash(player)


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
    ``clock`` gives the time (tests pass their own); ``limits`` the caps; ``paces`` the
    paces a room may choose (tests pass short ones); ``hub`` the other processes sharing
    the database (:mod:`cardtable.web.hub`; none by default).

    One process alone keeps every room in memory. Processes sharing a database keep
    the rooms they have sockets of or hold the lease of: each change of a room is made
    in a transaction of the room (:meth:`~cardtable.web.database.Database.room_transaction`)
    on its newest state (reloaded if another process changed it), and the others hear
    of it (the hub's ``changed``), reload it and send their sockets the new state.

    >>> from cardtable.web.database import Database
    >>> Rooms(Database(":memory:")).get("NOPE") is None
    True
    """

    def __init__(
        self,
        db: Database,
        bot_pause: float = BOT_PAUSE,
        clock: Callable[[], float] = time.time,
        limits: limits.Limits = limits.Limits(),  # noqa: B008 - a frozen value
        paces: Mapping[str, float | None] = clocks.PACES,
        hub: Hub | None = None,
    ) -> None:
        self.db = db
        self.hub: Hub = hub if hub is not None else LocalHub()
        self.bot_pause = bot_pause
        self.clock = clock
        self.limits = limits
        self.paces = paces
        self.pool = BotPool(limits.bot_workers)
        self.misses = _throttle(limits)
        self.play_nows = _play_now_throttle(limits)
        self._tasks: set[asyncio.Future[None]] = set()
        self._rooms: dict[str, Room] = {}
        if not self.hub.shared:  # shared: the rooms are loaded when asked for, or their lease taken
            for row in db.rooms():
                self._rooms[row.code] = self._rebuild(row)

    @staticmethod
    def _fill(room: Room, row: RoomRow) -> None:
        """Set the room's stored fields from its row (not its game)."""
        room.name, room.options = row.game, json.loads(row.options)
        room.seats = [SeatInfo(**s) for s in json.loads(row.seats)]
        room.deal, room.game_no, room.status = row.deal, row.game_no, row.status
        room.created, room.empty_since, room.player = row.created, row.empty_since, row.player
        room.started, room.ended, room.hints, room.redo = row.started, row.ended, row.hints, json.loads(row.redo)
        room.pace, room.key, room.address = row.pace, row.secret or "", row.address
        room.rev, room.epoch = row.rev, row.epoch
        room.public, room.rated = bool(row.public), bool(row.rated)

    def _replay(self, room: Room) -> None:
        """Deal the room's game again and play its stored moves."""
        room.game, room.movers = None, []
        if room.status != "lobby" and room.deal is not None:
            room.game = self._new_game(room, room.deal)
            for text in self.db.moves(room.code, room.game_no, epoch=room.epoch):
                self._apply(room, room.game.parse_move(text))
            self._find_replay(room)

    def _find_replay(self, room: Room) -> None:
        """The replay of the room's game, once it is over, as kept by whichever process saw the end."""
        if room.game is not None and room.game.outcome.over:
            room.replay = self.db.finished_id(self.room_id(room), room.game_no)

    def _reload(self, room: Room) -> bool:
        """Bring the room up to its stored state (another process changed it): its row, the
        moves it has not played yet (all of them, dealt anew, if its game or epoch changed)
        and who is where; False if it is no longer stored."""
        row = self.db.room(room.code)
        if row is None:
            return False
        same = room.game is not None and (row.game_no, row.deal, row.epoch) == (room.game_no, room.deal, room.epoch)
        stood_in = [s.stand_in is not None for s in room.seats]
        self._fill(room, row)
        if any(was and s.stand_in is None for was, s in zip(stood_in, room.seats, strict=False)):
            room.turn = None  # a person took their seat back at another process: their whole time again
        if same and room.status != "lobby" and room.game is not None:
            for text in self.db.moves(room.code, room.game_no, first=room.at, epoch=room.epoch):
                self._apply(room, room.game.parse_move(text))
            room.status = "over" if room.game.outcome.over else "playing"
            if room.replay is None:
                self._find_replay(room)
        else:
            self._replay(room)
        self._find_elsewhere(room)
        room.stale = False
        return True

    def _find_elsewhere(self, room: Room) -> None:
        """The seats of the room other processes have a socket of (processes sharing a database)."""
        if self.hub.shared:
            room.elsewhere = set(self.db.presence(room.code, self.hub.process))

    def _rebuild(self, row: RoomRow) -> Room:
        room = Room(row.code, row.game, {}, [], None, 0, "lobby", 0.0, None)
        self._fill(room, row)
        seats = room.seats
        self._find_elsewhere(room)
        repaired = not room.key
        if repaired:  # a room of an older file: its invite link gets its secret now
            room.key = secrets.token_urlsafe(16)
        for i, seat in enumerate(seats):
            if seat.kind == "human" and seat.name:
                try:
                    limits.clean_name(seat.name)
                except TableError:  # a name an older server let through: never sent again
                    log.info(
                        "room %s seat %d: a stored name that is not a display name, shown as 'Seat %d'",
                        row.code,
                        i,
                        i + 1,
                    )
                    seat.name, repaired = f"Seat {i + 1}", True
        self._replay(room)
        if room.game is not None and room.game.outcome.over:  # kept and rated once, even if the end was not processed
            self._finish(room)
        if repaired:
            self.db.put_room(room.row())
        return room

    @asynccontextmanager
    async def _change(self, room: Room) -> AsyncIterator[None]:
        """The room's lock, and a change of the room (:meth:`_changing`)."""
        async with room.lock:
            with self._changing(room):
                yield

    @contextmanager
    def _changing(self, room: Room) -> Iterator[None]:
        """A change of the room (call with its lock held): in the room's transaction, on its
        newest state (reloaded if another process changed it; ``not-found`` if it was removed);
        what the change writes counts one more change of the room, told to the other processes."""
        with self.db.room_transaction(room.code):
            if self.db.shared:
                rev = self.db.room_rev(room.code)
                if rev is None:
                    self._forget(room, "removed by another process")
                    raise TableError("not-found", f"room {room.code} was closed")
                if rev != room.rev or room.stale:
                    self._reload(room)  # the new state goes to this process's sockets too, after this change
                    room.refreshing = True
                    self._spawn(self._refresh(room))
            before = self.db.writes
            try:
                yield
            finally:
                if self.db.writes != before and not room.closed:
                    room.rev = self.db.bump(room.code)

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
        pace: str = clocks.DEFAULT_PACE,
        address: str | None = None,
        public: bool = False,
        rated: bool | None = None,
    ) -> tuple[str, str]:
        """A new room of ``game`` (None: :func:`default_game`): its options, one entry a seat (``{"kind": "human"}`` or
        ``{"kind": "bot", "bot": NAME, "budget": {...}}``), the creator's name (the creator
        takes the first human seat), player id, pace and network address; whether the lobby
        lists it (``public``) and whether its games are ``rated`` (None: rated when every seat
        is a person's). Returns the room code and the creator's seat token (the invite link's
        key is the room's ``key``).
        Everything is checked before anything is built; over a cap of open rooms (lobby
        or playing) for the browser or the address it is ``too-many``. A solo room is
        dealt at once; it replaces the creator's other solo room of the same game, whose
        game counts as abandoned if they moved.

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
            keys = SEAT_KEYS[seat["kind"]]
            unknown = sorted(str(k) for k in seat if k not in keys)
            if unknown:
                raise TableError(
                    "bad-request",
                    f"seat {i + 1}: no {unknown[0][:40]!r} in a {seat['kind']}'s seat ({', '.join(keys)})",
                )
            if seat["kind"] == "bot":
                infos.append(self._bot_seat(spec, i, seat.get("bot"), seat.get("budget")))
            else:
                infos.append(SeatInfo("human"))
        humans = [s for s in infos if s.kind == "human"]
        if not humans:
            raise TableError("bad-request", "a room needs at least one seat for a person (yours)")
        asked = (options or {}).get("players") if isinstance(options, dict) else None
        options = limits.check_options(spec, options or {})
        clocks.limit_of(pace, self.paces)
        shown = self._check_name(name)
        counted = next((o for o in spec.rules.OPTIONS if o.name == "players"), None)
        if counted is not None:
            if asked is not None and counted.convert(spec.name, asked) != len(infos):
                raise TableError("bad-request", f"players {asked} does not match the {len(infos)} seats given")
            options["players"] = len(infos)
        try:
            made = new_game(spec.name, deal=0, **options)
        except CardtableError as err:
            raise TableError("bad-request", str(err)) from None
        players = cast("MultiplayerGame[Any, Any]", made).players
        if players != len(infos):
            raise TableError("bad-request", f"these options make a table of {players} seats, not {len(infos)}")
        solo = len(humans) == 1
        self._check_caps(spec.name, player, address, solo)
        token = secrets.token_urlsafe(16)
        humans[0].name = shown
        humans[0].token = _hash(token)
        humans[0].creator = True
        humans[0].holder = holder_of(player)
        now = self.clock()
        room = Room("", spec.name, options, infos, None, 0, "lobby", now, now, player=player)
        room.pace, room.key, room.address = pace, secrets.token_urlsafe(16), address
        room.public = bool(public)
        room.rated = not any(s.kind == "bot" for s in infos) if rated is None else bool(rated)
        if room.solo and player is not None:
            self._replace_solo(room)
        if room.solo:
            self._deal(room, store=False)  # nobody to wait for
        while not room.code or not self.db.add_room(room.row()):  # a code no other room has (nor had meanwhile)
            room.code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if room.code in self._rooms:
                room.code = ""
        code = room.code
        self._rooms[code] = room
        self.hub.want(code)
        log.info(
            "room %s created: %s, seats %s, pace %s, by %s",
            code,
            spec.name,
            ",".join(s.bot or s.kind for s in infos),
            pace,
            address or "?",
        )
        return code, token

    def _bot_seat(self, spec: GameSpec, i: int, bot: Any, budget: Any) -> SeatInfo:
        """A bot's seat from a request, checked: a bot the game declares, a budget under the caps."""
        if not isinstance(bot, str) or bot not in spec.bots:
            shown = repr(bot)[:40]
            raise TableError("bad-request", f"seat {i + 1}: no bot {shown} plays {spec.title} ({', '.join(spec.bots)})")
        try:
            checked = limits.check_budget(bot, budget, self.limits)
        except TableError as err:
            raise TableError("bad-request", f"seat {i + 1}: {err.message}") from None
        return SeatInfo("bot", name=f"{bot.capitalize()} {i + 1}", bot=bot, budget=checked)

    def _check_caps(self, game: str, player: str | None, address: str | None, solo: bool) -> None:
        """Refuse (``too-many``) a new room over the caps of open rooms a browser or an
        address may keep (a solo room replaces the browser's solo room of that game); the
        stored rooms count (those of every process)."""
        mine = theirs = 0
        for other in self.db.open_rooms(player, address):
            humans = sum(1 for s in json.loads(other.seats) if s.get("kind") == "human")
            if solo and player is not None and other.player == player and humans == 1 and other.game == game:
                continue  # to be replaced
            mine += player is not None and other.player == player
            theirs += address is not None and other.address == address
        if mine >= self.limits.rooms_per_client:
            raise TableError("too-many", f"a browser keeps at most {self.limits.rooms_per_client} rooms open")
        if theirs >= self.limits.rooms_per_address:
            raise TableError("too-many", f"an address keeps at most {self.limits.rooms_per_address} rooms open")

    def _replace_solo(self, room: Room) -> None:
        """Close the creator's other solo rooms of the same game being played (one game of a
        kind in progress, as at the one-player tables): abandoned if the person moved there."""
        assert room.player is not None
        for row, _ in sorted(self.db.player_rooms(room.player), key=lambda found: found[0].code):
            code, other = row.code, self.get(row.code)
            if other is None or other.player != room.player or other.name != room.name:
                continue
            if not other.solo or other.status != "playing":
                continue
            if other.game is not None and other.started is not None and other.player is not None:
                self._record(other, "abandoned")
            self._close(other, "replaced by a new game against bots")
            self._rooms.pop(code, None)
            self.db.delete_room(code)
            self.hub.release(code)

    @staticmethod
    def _check_name(name: Any, others: list[str] | None = None) -> str:
        return limits.clean_name(name, others or [])

    def get(self, code: str) -> Room | None:
        """The room with this code (any case), or None.

        >>> from cardtable.web.database import Database
        >>> Rooms(Database(":memory:")).get("abc") is None
        True
        """
        if not isinstance(code, str) or len(code) >= 20:
            return None
        code = code.upper()
        room = self._rooms.get(code)
        if room is None:  # made, or kept, by another process (or none)
            row = self.db.room(code)
            if row is None:
                return None
            room = self._rooms[code] = self._rebuild(row)
        elif room.stale:
            with self.db.room_transaction(code):
                if not self._reload(room):
                    self._forget(room, "removed by another process")
                    return None
        return room

    def find(self, code: Any, address: str, token: Any = None, key: Any = None) -> tuple[Room, int | None]:
        """The room a seat ``token`` or the invite link's ``key`` opens, and the seat the
        token holds (None for the key: a spectator, who may take a free seat). A wrong
        code, key or token is the same ``not-found``; an address's misses are rate-limited
        (``too-many``).

        >>> from cardtable.web.database import Database
        >>> rooms = Rooms(Database(":memory:"))
        >>> code, token = rooms.create({}, [{"kind": "human"}, {"kind": "human"}], "Ana")
        >>> rooms.find(code, "127.0.0.1", token=token)[1], rooms.find(code, "127.0.0.1", key=rooms.get(code).key)[1]
        (0, None)
        >>> rooms.find(code, "127.0.0.1", key="guess")
        Traceback (most recent call last):
        ...
        cardtable.web.errors.TableError: no room ... here, or not with that invite link
        """
        if not self.misses.allowed(address):
            raise TableError("too-many", "too many rooms looked for that were not there: wait a minute")
        room = self.get(code) if isinstance(code, str) else None
        if room is not None:
            found = self._open(room, token, key)
            if found is None and self.db.shared:  # a seat taken at another process a moment ago: read it afresh
                with self.db.room_transaction(room.code):
                    self._reload(room)
                found = self._open(room, token, key)
            if found is not None:
                return found
        self.misses.take(address)
        log.info("room lookup from %s missed (%s)", address, "no such room" if room is None else "wrong key or token")
        shown = code[:12] if isinstance(code, str) else "?"
        raise TableError("not-found", f"no room {shown!r} here, or not with that invite link")

    @staticmethod
    def _open(room: Room, token: Any, key: Any) -> tuple[Room, int | None] | None:
        """The room and seat a token or key opens, or None."""
        if isinstance(token, str) and 0 < len(token) <= 100:
            hashed = _hash(token)
            held = [i for i, s in enumerate(room.seats) if s.token and hmac.compare_digest(s.token, hashed)]
            if held:
                return room, held[0]
        opened = isinstance(key, str) and 0 < len(key) <= 100 and room.key
        if opened and hmac.compare_digest(room.key.encode(), str(key).encode()):
            return room, None
        return None

    def summary(self, room: Room) -> dict[str, Any]:
        """What anyone with the invite link sees of a room before joining: game, seats, pace and status."""
        return {
            "code": room.code,
            "game": room.name,
            "status": room.status,
            "pace": room.pace,
            "public": room.public,
            "rated": room.rated,
            "options": {k: v for k, v in room.options.items()},
            "seats": [self._seat_json(room, i) for i in range(len(room.seats))],
        }

    def _seat_json(self, room: Room, i: int) -> dict[str, Any]:
        seat = room.seats[i]
        connected = self._connected(room, i)
        return {
            "seat": i,
            "kind": seat.kind,
            "bot": seat.bot,
            "name": seat.name,
            "taken": seat.kind == "bot" or seat.token is not None,
            "away": seat.kind == "human" and seat.token is not None and not connected,
            "creator": seat.creator,
            "stand_in": seat.stand_in,
        }

    # --- sockets --------------------------------------------------------------------

    async def connect(
        self, room: Room, socket: Connection, seat: int | None, seen: tuple[int, int] | None = None
    ) -> int | None:
        """A socket joins the room: as ``seat`` (its token's, see :meth:`find`), else as a
        spectator; over the caps (spectators a room, sockets a seat) it is ``too-many``. It
        gets a full snapshot (for a socket that comes back, ``seen``: the game number and the
        move count it saw last, whose log tells every move since); for a seat the others see
        it back (and a bot playing for the person since their time ran out stops: they are back)."""
        async with self._change(room):
            self._rooms.setdefault(room.code, room)
            if seat is None and sum(1 for s in room.sockets.values() if s is None) >= self.limits.spectators:
                raise TableError("too-many", f"a room has at most {self.limits.spectators} spectators")
            if seat is not None and sum(1 for s in room.sockets.values() if s == seat) >= self.limits.sockets_per_seat:
                raise TableError("too-many", f"a seat is open in at most {self.limits.sockets_per_seat} places at once")
            room.sockets[socket] = seat
            socket.label = f"room {room.code} {'spectator' if seat is None else f'seat {seat}'} ({socket.address})"
            changed = False
            if seat is not None:
                info = room.seats[seat]
                log.info("room %s seat %d (%r) back", room.code, seat, info.name)
                changed = self._come_back(room, seat)
                if room.empty_since is not None:
                    room.empty_since = None
                    changed = True
                self._note_presence(room)
            if changed:
                self.db.put_room(room.row())
            since = seen[1] if seen is not None and seen[0] == room.game_no and 0 <= seen[1] <= room.at else None
            self._put_frame(room, socket, seat, since)
        if seat is not None:
            await self.broadcast(room, skip=socket)
        if self.hub.shared:
            self.hub.want(room.code)  # a room nobody holds: the process its people are at takes it
        self._bots(room)  # a new solo room, or after a restart: a bot that is to move has no task yet
        return seat

    def _note_presence(self, room: Room) -> None:
        """Store the seats this process has a socket of (processes sharing a database)."""
        if self.hub.shared:
            here = sorted({s for s in room.sockets.values() if s is not None})
            self.db.set_presence(room.code, self.hub.process, here)

    def _connected(self, room: Room, seat: int) -> bool:
        """Whether a socket of ``seat`` is open (here or at another process)."""
        return seat in room.elsewhere or any(s == seat for s in room.sockets.values())

    def _come_back(self, room: Room, seat: int) -> bool:
        """The person of ``seat`` is back: a bot playing for them stops, their clock starts
        afresh (the room's lock held); whether the room's row changed."""
        info = room.seats[seat]
        if info.stand_in is None:
            return False
        log.info("room %s seat %d (%r) takes the seat back from %s", room.code, seat, info.name, info.stand_in)
        info.stand_in = None
        room.turn = None
        return True

    async def disconnect(self, room: Room, socket: Connection) -> None:
        """A socket left: its seat shows as away; a room with no person left starts its day."""
        if room.closed:
            room.sockets.pop(socket, None)
            return
        try:
            await self._disconnect(room, socket)
        except TableError:  # removed by another process meanwhile
            room.sockets.pop(socket, None)

    async def _disconnect(self, room: Room, socket: Connection) -> None:
        async with self._change(room):
            seat = room.sockets.pop(socket, None)
            if seat is not None:
                log.info("room %s seat %d (%r) left", room.code, seat, room.seats[seat].name)
                if not any(s == seat for s in room.sockets.values()):
                    self._note_presence(room)
            nobody = not any(s is not None for s in room.sockets.values()) and not room.elsewhere
            if nobody and room.empty_since is None and not room.closed:
                room.empty_since = self.clock()
                self.db.put_room(room.row())
        if seat is not None:
            await self.broadcast(room)

    async def handle(self, room: Room, socket: Connection, text: str) -> None:
        """One message from a socket (see the module docstring); errors go to it alone
        (with one log line for a malformed one)."""
        try:
            if room.closed:
                raise TableError("not-found", f"room {room.code} was closed: a new game was started")
            try:
                message = json.loads(text)
            except (ValueError, TypeError, RecursionError):
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
                "back": self._back,
                "public": self._public,
                "free-seat": self._free_seat,
                "bot-seat": self._give_seat,
            }
            if not isinstance(kind, str) or kind not in actions:
                shown = repr(kind)[:40]
                raise TableError("bad-request", f"unknown message type {shown} ({', '.join(actions)})")
            await actions[kind](room, socket, message)
        except TableError as err:
            if err.kind in ("bad-request", "unparsable"):
                socket.refuse(err)  # a malformed message: one log line
            else:
                socket.put({"type": "error", **err.json()})
            if err.kind == "stale":
                async with room.lock:
                    self._put_frame(room, socket, room.sockets.get(socket))

    async def _join(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        async with self._change(room):
            if room.sockets.get(socket) is not None:
                raise TableError("bad-request", "this browser already has a seat here")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
                raise TableError("bad-request", f"no seat {str(seat)[:20]!r}")
            info = room.seats[seat]
            if info.kind != "human" or info.token is not None:
                raise TableError("seat-taken", "that seat is taken")
            held = next((i for i, s in enumerate(room.seats) if socket.holder and s.holder == socket.holder), None)
            if held is not None:
                raise TableError("seat-taken", f"you already hold seat {held + 1} here: one seat a person")
            others = [s.name for i, s in enumerate(room.seats) if i != seat and (s.kind == "bot" or s.token)]
            info.name = self._check_name(message.get("name"), others)
            token = secrets.token_urlsafe(16)
            info.token = _hash(token)
            info.holder = socket.holder
            info.stand_in = None
            room.sockets[socket] = seat
            room.empty_since = None
            socket.label = f"room {room.code} seat {seat} ({socket.address})"
            self._note_presence(room)
            self.db.put_room(room.row())
            log.info("room %s seat %d joined by %r", room.code, seat, info.name)
            socket.put({"type": "joined", "code": room.code, "seat": seat, "token": token})
            self._start_if_full(room)
        await self.broadcast(room)
        self._bots(room)

    async def _start(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
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
        async with self._change(room):
            if room.sockets.get(socket) is None:
                raise TableError("spectator", "spectators watch: only players ask for a rematch")
            if room.status != "over":
                raise TableError("not-ready", "a rematch comes when the game is over")
            room.game_no += 1
            self._deal(room)
        await self.broadcast(room)
        self._bots(room)

    # --- seats of people who left, and people who come back ------------------------------

    async def _back(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
            seat = room.sockets.get(socket)
            if seat is None:
                raise TableError("spectator", "spectators watch: they have no seat to take back")
            if not self._come_back(room, seat):
                raise TableError("illegal", "no bot is playing for you")
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    def _creators_seat(self, room: Room, socket: Connection, message: dict[str, Any]) -> int:
        """The seat the creator asks to free or give to a bot, checked (the room's lock held):
        a person's seat, not the creator's, free or held by someone who is not connected."""
        mine = room.sockets.get(socket)
        if mine is None or not room.seats[mine].creator:
            raise TableError("not-ready", "only the room's creator frees a seat or gives it to a bot")
        seat = message.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise TableError("bad-request", f"no seat {str(seat)[:20]!r}")
        info = room.seats[seat]
        if info.kind != "human" or seat == mine:
            raise TableError("bad-request", "only another person's seat can be freed or given to a bot")
        if self._connected(room, seat):
            raise TableError("seat-taken", f"{info.name} is here: a seat is freed only when its person has left")
        return seat

    async def _free_seat(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
            seat = self._creators_seat(room, socket, message)
            info = room.seats[seat]
            log.info("room %s seat %d (%r) freed by its creator", room.code, seat, info.name)
            info.name, info.token, info.holder = "", None, None
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    async def _give_seat(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
            seat = self._creators_seat(room, socket, message)
            spec = spec_for(room.name)
            room.seats[seat] = self._bot_seat(spec, seat, message.get("bot"), message.get("budget"))
            log.info("room %s seat %d given to the %s bot by its creator", room.code, seat, room.seats[seat].bot)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    def _deal(self, room: Room, store: bool = True) -> None:
        room.deal = secrets.randbits(62)  # the server's own random source; never sent
        room.game = self._new_game(room, room.deal)
        room.movers, room.redo = [], []
        room.status = "playing"
        room.started, room.ended, room.hints = None, None, 0
        room.epoch += 1
        room.replay = None
        if store:
            self.db.put_room(room.row())
            log.info("room %s game %d started", room.code, room.game_no)

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
        async with self._change(room):
            seat = room.sockets.get(socket)
            if seat is None:
                raise TableError("spectator", "spectators watch: they cannot play")
            back = room.seats[seat].stand_in is not None and room.game is not None and room.game.to_move == seat
            if back:  # a person who moves is back: their move, not the bot's
                self._come_back(room, seat)
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
        try:
            # stored before anyone hears of it
            self.db.add_move(room.code, room.game_no, room.at, str(move), room.epoch)
        except MoveTaken:  # another process took this turn: its state, and this move refused
            self._reload(room)
            raise TableError("stale", f"the game has moved on (move {room.at}, not {at})") from None
        self._apply(room, move)
        info = room.seats[seat]
        who = f"{info.stand_in} bot for {info.name!r}" if info.stand_in else info.bot or repr(info.name)
        log.info("room %s move %d by seat %d (%s)", room.code, room.at, seat, who)
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
        """Note the end of a game that just ended; whether the room's row changed. A game
        over is never taken back (:attr:`Room.finished`), so an end is noted once."""
        game = room.game
        if game is None:
            return False
        if game.outcome.over and room.ended is None:
            room.ended = self.clock()
            result = game.outcome.result
            log.info(
                "room %s game %d ended: scores %s", room.code, room.game_no, list(result.scores) if result else "?"
            )
            if room.solo and room.player is not None:
                person = next(i for i, s in enumerate(room.seats) if s.kind == "human")
                self._record(room, "won" if room.won(person) else "lost")
            self._finish(room)
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
        if room.rated:
            raise TableError("unavailable", f"{action} is not offered in a rated game")
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
        async with self._change(room):
            seat = self._solo_action(room, socket, message, "undo")
            game = room.game
            assert game is not None
            if room.finished:
                raise TableError("finished", FINISHED)
            if seat not in room.movers:
                raise TableError("illegal", "nothing to undo")
            while True:  # back to before the person's last move
                mover = room.movers.pop()
                room.redo.append(str(game.undo()))
                if mover == seat:
                    break
            self.db.keep_moves(room.code, room.game_no, room.at, old=room.epoch, new=room.epoch + 1)
            room.epoch += 1
            room.status = "playing"
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)

    async def _redo(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
            seat = self._solo_action(room, socket, message, "redo")
            game = room.game
            assert game is not None
            if room.finished:
                raise TableError("finished", FINISHED)
            if not room.redo:
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
                self.db.add_move(room.code, room.game_no, room.at, str(move), room.epoch)
                self._apply(room, move)
                if game.to_move in (seat, None):
                    break
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    async def _restart(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
            self._solo_action(room, socket, message, "restart")
            game = room.game
            assert game is not None
            if room.finished:
                raise TableError("finished", FINISHED)
            game.restart()
            room.movers, room.redo = [], []
            room.epoch += 1  # a new epoch with no move: the moves of the old one stay
            room.status = "playing"
            self._settle(room)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    async def _hint(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        async with self._change(room):
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
            socket.put({"type": "hint", "at": room.at, "hint": hint, "hints": room.hints})

    # --- replays, ratings, the lobby -----------------------------------------------------

    @staticmethod
    def room_id(room: Room) -> str:
        """What a room's finished games and rated games are kept under: its code and a hash
        of its invite key (a code is used again once its room is gone)."""
        return f"{room.code}-{_hash(room.key)[:16]}"

    def _finish(self, room: Room) -> None:
        """The current game is over: keep it for its replay (its deal and moves), and in a
        rated room rate it (once: see :meth:`_rate`). Safe to call again for the same end."""
        game = room.game
        result = game.outcome.result if game is not None else None
        if game is None or result is None or room.deal is None:
            return
        seats = [{"name": n, "kind": s.kind, "bot": s.bot} for n, s in zip(room.names(), room.seats, strict=True)]
        kept = FinishedGame(
            secrets.token_urlsafe(16),
            self.room_id(room),
            room.game_no,
            room.name,
            json.dumps(room.options),
            room.deal,
            json.dumps(seats),
            json.dumps([str(m) for m in game.moves]),
            json.dumps(list(result.ranks)),
            room.rated,
            room.ended if room.ended is not None else self.clock(),
        )
        room.replay = self.db.put_finished(kept, [s.holder for s in room.seats if s.kind == "human" and s.holder])
        if room.rated:
            self._rate(room, list(result.ranks))

    def _rate(self, room: Room, ranks: list[int]) -> None:
        """Update the ratings of the people of a rated game that ended (once: the database
        notes the game as counted in the same transaction). Bots keep their fixed ratings; a
        seat no person holds counts as a newcomer; a person holding two seats moves once.
        The ratings are read and written with no other process between
        (:meth:`~cardtable.web.database.Database.ratings_transaction`)."""
        holders = [s.holder if s.kind == "human" else None for s in room.seats]
        with self.db.ratings_transaction():
            known = self.db.ratings(room.name, sorted({h for h in holders if h}))
            before: list[Rating] = []
            moving: list[bool] = []
            seen: set[str] = set()
            for seat, holder in zip(room.seats, holders, strict=True):
                if seat.kind == "bot":
                    before.append(bot_rating(room.name, seat.bot or ""))
                else:
                    before.append(known.get(holder, NEW) if holder and holder not in seen else NEW)
                moving.append(bool(holder) and holder not in seen)
                if holder:
                    seen.add(holder)
            after = rate_game(before, ranks, moving)
            updates = {h: r for h, r, m in zip(holders, after, moving, strict=True) if m and h}
            if not self.db.rate_game(self.room_id(room), room.game_no, room.name, updates, self.clock()):
                return
        for seat in room.seats:
            if seat.holder and seat.holder in updates and seat.name:
                self.db.set_name(seat.holder, seat.name)
        log.info("room %s game %d rated: %d people", room.code, room.game_no, len(updates))

    def _start_if_full(self, room: Room) -> None:
        """A public room starts by itself when its last free seat is taken (the room's lock held)."""
        if room.public and room.status == "lobby" and all(s.kind == "bot" or s.token for s in room.seats):
            self._deal(room)

    async def _public(self, room: Room, socket: Connection, message: dict[str, Any]) -> None:
        flag = message.get("public")
        async with self._change(room):
            seat = room.sockets.get(socket)
            if seat is None or not room.seats[seat].creator:
                raise TableError("not-ready", "only the room's creator makes it public or private")
            if not isinstance(flag, bool):
                raise TableError("bad-request", "'public' is true or false")
            room.public = flag
            log.info("room %s made %s by its creator", room.code, "public" if flag else "private")
            self._start_if_full(room)
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    def lobby(self) -> list[dict[str, Any]]:
        """The public rooms waiting for people (in their lobby, a seat free), oldest first, at
        most :attr:`~cardtable.web.limits.Limits.lobby_rooms`: each one's game, seats (how many,
        how many taken), pace, whether it is rated, and its invite link.

        >>> from cardtable.web.database import Database
        >>> rooms = Rooms(Database(":memory:"))
        >>> code, _ = rooms.create({}, [{"kind": "human"}, {"kind": "human"}], "Ana", public=True)
        >>> [(r["code"], r["seats"], r["taken"], r["rated"]) for r in rooms.lobby()] == [(code, 2, 1, True)]
        True
        """
        listed = self._load_public()
        found = []
        for _, room in sorted(self._rooms.items(), key=lambda item: (item[1].created, item[0])):
            if listed is not None and room.code not in listed:
                continue  # another process made it private, or started it: its stored row says so
            if room.closed or not room.public or room.status != "lobby":
                continue
            taken = sum(1 for s in room.seats if s.kind == "bot" or s.token)
            if taken == len(room.seats):
                continue
            spec = spec_for(room.name)
            found.append(
                {
                    "code": room.code,
                    "game": room.name,
                    "title": spec.title,
                    "seats": len(room.seats),
                    "taken": taken,
                    "names": [s.name for s in room.seats if s.kind == "bot" or s.token],
                    "pace": room.pace,
                    "clock": clocks.describe(self.paces.get(room.pace)),
                    "rated": room.rated,
                    "link": f"/room/{room.code}#key={room.key}",
                }
            )
            if len(found) >= self.limits.lobby_rooms:
                break
        return found

    def _load_public(self) -> set[str] | None:
        """With other processes (a shared database): read the public rooms in their lobby
        that this process does not hold yet, so that its lobby and "play now" see them; the
        codes of the public rooms in their lobby as stored (None: one process, whose rooms
        are as stored), each held here up to date (:meth:`get` reloads a stale copy). A room
        of another code that this process holds may be an older copy: another process may
        have made it private or started it (found by the 2026-11-28 audit: the lobby still
        listed such a room, and "play now" seated a stranger in it)."""
        if not self.db.shared:
            return None
        codes = self.db.public_lobby_rooms(self.limits.lobby_rooms)
        for code in codes:
            self.get(code)
        return set(codes)

    async def play_now(
        self,
        players: Any,
        name: Any,
        game: str | None = None,
        player: str | None = None,
        address: str | None = None,
        pace: str = clocks.DEFAULT_PACE,
    ) -> dict[str, Any]:
        """Seat a person in the oldest public room of ``game`` with ``players`` seats that has
        a free seat (and none of theirs, nor their name), or open such a room (public, rated,
        every seat a person's, at ``pace``) with them in its first seat. Returns the room's
        ``code``, the seat ``token`` (None when this browser already holds a seat of that room:
        it has the token), the invite ``key`` and ``link``. Rate-limited per address
        (``too-many``). The room starts once its seats are all taken.

        >>> import asyncio
        >>> from cardtable.web.database import Database
        >>> rooms = Rooms(Database(":memory:"))
        >>> first = asyncio.run(rooms.play_now(2, "Ana", player="a", address="1"))
        >>> second = asyncio.run(rooms.play_now(2, "Ben", player="b", address="2"))
        >>> first["code"] == second["code"], rooms.get(first["code"]).status
        (True, 'playing')
        """
        if not self.play_nows.take(address or "?"):
            raise TableError("too-many", "too many games asked for: wait a minute")
        spec = _spec(default_game() if game is None else game)
        low, high = spec.seats
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise TableError("bad-request", f"a room of {spec.title} has {low} to {high} seats")
        shown = self._check_name(name)
        clocks.limit_of(pace, self.paces)
        holder = holder_of(player)
        listed = self._load_public()
        for _, room in sorted(self._rooms.items(), key=lambda item: (item[1].created, item[0])):
            # With other processes this one's copy may be old: the stored rows decide.
            in_lobby = room.public and room.status == "lobby" if listed is None else room.code in listed
            if room.closed or not in_lobby or room.name != spec.name:
                continue
            if len(room.seats) != players:
                continue
            if holder is not None and any(s.holder == holder for s in room.seats):
                return {"code": room.code, "token": None, "key": room.key, "link": f"/room/{room.code}#key={room.key}"}
            async with self._change(room):  # on its newest state, told to the other processes
                free = [i for i, s in enumerate(room.seats) if s.kind == "human" and s.token is None]
                others = [s.name for s in room.seats if s.kind == "bot" or s.token]
                if room.closed or room.status != "lobby" or not room.public or not free:
                    continue
                try:
                    limits.clean_name(shown, others)
                except TableError:
                    continue  # their name is taken there: another room
                info = room.seats[free[0]]
                token = secrets.token_urlsafe(16)
                info.name, info.token, info.holder, info.stand_in = shown, _hash(token), holder, None
                log.info("room %s seat %d taken by %r (play now)", room.code, free[0], shown)
                self._start_if_full(room)
                self.db.put_room(room.row())
            await self.broadcast(room)
            self._bots(room)
            return {"code": room.code, "token": token, "key": room.key, "link": f"/room/{room.code}#key={room.key}"}
        seats = [{"kind": "human"} for _ in range(players)]
        code, token = self.create(
            {}, seats, shown, game=spec.name, player=player, pace=pace, address=address, public=True
        )
        made = self._rooms[code]
        return {"code": code, "token": token, "key": made.key, "link": f"/room/{code}#key={made.key}"}

    # --- bots and clocks -----------------------------------------------------------------

    def _bots(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot (or a bot standing in for a person
        out of time) is to move and none is thinking; if a person is to move, set the
        clock of their turn (at a pace with one)."""
        game = room.game
        held = self.hub.holds(room.code)  # the process that holds the room's lease does its timed work
        if room.closed or not held or room.status != "playing" or game is None or game.to_move is None:
            self._stop_clock(room)
            return
        info = room.seats[game.to_move]
        if info.kind == "bot" or info.stand_in is not None:
            self._stop_clock(room)
            if room.bot_task is None or room.bot_task.done():
                room.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(room))
            return
        self._arm(room)

    async def _bot_turn(self, room: Room) -> None:
        seat = -1
        try:
            while True:
                game = room.game
                done = room.closed or room.status != "playing" or game is None or game.to_move is None
                if done or not self.hub.holds(room.code) or game is None or game.to_move is None:
                    return
                seat = game.to_move
                if _player_bot(room.seats[seat]) is None:
                    self._bots(room)  # a person is to move (back meanwhile): their clock
                    return
                await asyncio.sleep(self.bot_pause)
                at, game_no = room.at, room.game_no
                info = room.seats[seat]
                name = _player_bot(info)
                if room.game is not game or game.to_move != seat or name is None:
                    continue  # the person took moves back, restarted or came back meanwhile
                budget = limits.run_budget(name, info.budget if info.kind == "bot" else {}, self.limits)
                bot = bots.make(name, seed=secrets.randbits(32), **budget)
                if budget:  # a search: in the bounded pool, cancelled if the room ends
                    owner = room.address or room.code
                    move = await self.pool.run(owner, functools.partial(bot.choose, game, seat), bot.cancel)
                else:
                    move = bot.choose(game, seat)
                async with self._change(room):
                    if room.closed or room.at != at or room.game_no != game_no or _player_bot(room.seats[seat]) is None:
                        continue
                    self._take(room, seat, at, move)
                await self.broadcast(room)
        except Exception:  # a bot that fails must say so: the room would wait for it
            log.exception("room %s: the bot of seat %d failed", room.code, seat)

    @staticmethod
    def _turn_key(room: Room) -> tuple[int, int, int | None]:
        """The turn being played: the game, its move count, the seat to move."""
        return (room.game_no, room.at, room.game.to_move if room.game is not None else None)

    def _turn_since(self, room: Room) -> float:
        """When the turn being played began (noted the first time it is asked for)."""
        key = self._turn_key(room)
        if room.turn != key:
            room.turn, room.turn_since = key, self.clock()
        return room.turn_since

    def _stop_clock(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None

    def _arm(self, room: Room) -> None:
        """Set the clock of the person to move (at a pace with one): when it runs out, a bot plays for them."""
        self._stop_clock(room)
        limit = self.paces.get(room.pace)
        if limit is None or room.closed:
            return
        since = self._turn_since(room)
        turn = room.turn
        delay = max(0.0, since + limit - self.clock())
        loop = asyncio.get_running_loop()
        room.timer = loop.call_later(delay, lambda: self._spawn(self._time_out(room, turn, limit)))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _time_out(self, room: Room, turn: tuple[int, int, int | None] | None, limit: float) -> None:
        """The time of a turn ran out: a bot plays for its person until they come back."""
        async with self._change(room):
            game = room.game
            if room.closed or room.turn != turn or game is None or room.status != "playing" or game.to_move is None:
                return
            if self._turn_key(room) != turn:  # a move came in from another process: not that turn
                return
            seat = game.to_move
            info = room.seats[seat]
            if info.kind != "human" or info.stand_in is not None:
                return
            info.stand_in = clocks.stand_in(spec_for(room.name))
            log.info(
                "room %s seat %d (%r) out of time (%s): the %s bot plays for them",
                room.code,
                seat,
                info.name or "free",
                clocks.describe(limit),
                info.stand_in,
            )
            self.db.put_room(room.row())
        await self.broadcast(room)
        self._bots(room)

    def resume(self) -> None:
        """Set every room going after a start: its bot to move plays, its clock runs (call
        from the running event loop).

        >>> import asyncio
        >>> from cardtable.web.database import Database
        >>> async def main():
        ...     rooms = Rooms(Database(":memory:"))
        ...     rooms.resume()
        ...     rooms.close()
        >>> asyncio.run(main())
        """
        self.hub.start(self._changed, self._gained)
        for _, room in sorted(self._rooms.items()):
            self._bots(room)

    # --- other processes sharing the database ---------------------------------------------

    def _changed(self, code: str, rev: int) -> None:
        """Another process changed room ``code`` (to ``rev``; -1: removed it): a room with
        sockets here or whose lease this process holds is reloaded, its sockets sent the
        new state and its timed work done; another is reloaded when next asked for."""
        room = self._rooms.get(code)
        if room is None or 0 <= rev <= room.rev:
            return
        if rev < 0:
            self._forget(room, "removed by another process")
            return
        if not room.sockets and not self.hub.holds(code):
            room.stale = True
            return
        if not room.refreshing:
            room.refreshing = True
            self._spawn(self._refresh(room))

    def _gained(self, code: str) -> None:
        """This process took the lease of room ``code``: its timed work goes on here."""
        room = self.get(code)
        if room is not None:
            log.info("room %s: its lease is this process's", code)
            room.turn = None  # the person to move has their whole time again, as after a restart
            room.refreshing = True
            self._spawn(self._refresh(room))

    async def _refresh(self, room: Room) -> None:
        """Reload the room (if another process changed it), send its sockets the new state, go on with its bots."""
        try:
            async with room.lock:
                room.refreshing = False
                with self.db.room_transaction(room.code):
                    rev = self.db.room_rev(room.code)
                    if rev is None or ((rev != room.rev or room.stale) and not self._reload(room)):
                        self._forget(room, "removed by another process")
                        return
            await self.broadcast(room)
            self._bots(room)
        except Exception:  # a room that cannot be reloaded must say so: its sockets would wait
            log.exception("room %s: reloading it failed", room.code)

    def _forget(self, room: Room, why: str) -> None:
        """The room was removed (by another process): closed here too."""
        if not room.closed:
            self._close(room, why)
        if self._rooms.get(room.code) is room:
            del self._rooms[room.code]
        self.hub.release(room.code)

    def _clock_json(self, room: Room) -> dict[str, Any] | None:
        """The room's clock for a snapshot (None at a casual pace): its pace, the seconds a
        move has, the seat whose time runs now and what it has left, and the bot that
        plays for a person out of time."""
        limit = self.paces.get(room.pace)
        if limit is None:
            return None
        game = room.game
        seat: int | None = None
        left: float | None = None
        if room.status == "playing" and game is not None and game.to_move is not None:
            info = room.seats[game.to_move]
            if info.kind == "human" and info.stand_in is None:
                seat = game.to_move
                left = round(max(0.0, self._turn_since(room) + limit - self.clock()), 3)
        return {
            "pace": room.pace,
            "limit": limit,
            "seat": seat,
            "left": left,
            "bot": clocks.stand_in(spec_for(room.name)),
        }

    # --- what each socket is sent ---------------------------------------------------------

    def snapshot(self, room: Room, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """The full state of the room as ``seat`` may see it (None: a spectator); its log
        tells the last :data:`LOG_LINES` moves, or every move from move ``since`` on (at
        most :data:`MISSED_LINES`)."""
        names = room.names()
        game = room.game
        # What the person of a solo room may ask for now (when no bot is to move).
        free = seat is not None and room.solo and game is not None and game.to_move in (seat, None)
        ended = room.finished
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
            "can_undo": free and seat in room.movers and not ended,
            "can_redo": free and bool(room.redo) and not ended,
            "hints": room.hints,
            "started": room.started,
            "ended": room.ended,
            "now": self.clock(),
            "public": room.public,
            "rated": room.rated,
            "replay": None if room.replay is None or room.status != "over" else f"/replay/{room.replay}",
        }
        if game is not None and room.status != "lobby":
            data["table"] = seat_table(game, seat, names)
            shown = [n if i != seat else "You" for i, n in enumerate(names)]
            history = game.history(seat)
            start = len(history) - LOG_LINES
            if since is not None:
                start = min(start, max(since, len(history) - MISSED_LINES))
            data["log_from"] = max(0, start)
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

    def frame(self, room: Room, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """What a socket of ``seat`` (None: a spectator) is sent: the :meth:`snapshot`, the
        room's invite link (``invite``: its code and key) and its clock (``clock``); ``since``:
        the log from that move on (see :meth:`snapshot`).

        >>> from cardtable.web.database import Database
        >>> rooms = Rooms(Database(":memory:"))
        >>> code, _ = rooms.create({}, [{"kind": "human"}, {"kind": "human"}], "Ana", pace="2m")
        >>> frame = rooms.frame(rooms.get(code), 0)
        >>> frame["invite"].startswith(f"/room/{code}#key="), frame["clock"]["limit"], frame["clock"]["left"]
        (True, 120.0, None)
        """
        data = self.snapshot(room, seat, since)
        data["invite"] = f"/room/{room.code}#key={room.key}"
        data["clock"] = self._clock_json(room)
        return data

    def _encoded(self, room: Room, seat: int | None, since: int | None = None) -> str | None:
        """The frame of ``seat``, encoded; None (and a log line) if it cannot be made."""
        try:
            return peers.encode(self.frame(room, seat, since))
        except Exception:
            log.exception("room %s: the snapshot of %s could not be made", room.code, seat)
            return None

    def _put_frame(self, room: Room, socket: Connection, seat: int | None, since: int | None = None) -> None:
        text = self._encoded(room, seat, since)
        if text is not None:
            socket.put_text(text, snapshot=True)

    async def broadcast(self, room: Room, skip: Connection | None = None) -> None:
        """Send every socket of the room (but ``skip``) its own snapshot. The snapshots are made under the
        room's lock (one position for all; one encoding a seat) and put in each socket's
        own outbox at once, so broadcasts reach every socket in the order they were made
        and no socket waits for another (a socket that is behind gets the newest)."""
        async with room.lock:
            texts: dict[int | None, str | None] = {}
            for socket, seat in list(room.sockets.items()):
                if socket is skip:
                    continue
                if seat not in texts:
                    texts[seat] = self._encoded(room, seat)
                text = texts[seat]
                if text is not None:
                    socket.put_text(text, snapshot=True)

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
        for code, room in sorted(self._rooms.items()):
            # A room whose people were all at a process that died (or at this one before it
            # was started again): nobody here saw them leave, so its empty day starts now, else
            # it would never be swept. A change of the room, told to the other processes (this
            # runs on the event loop, where nothing else changes the room meanwhile).
            if self.hub.holds(code) and not room.closed and not room.sockets and room.empty_since is None:
                with contextlib.suppress(TableError), self._changing(room):
                    self._find_elsewhere(room)
                    if not room.elsewhere and room.empty_since is None:
                        room.empty_since = now
                        self.db.put_room(room.row())
        gone = [
            code
            for code, room in sorted(self._rooms.items())
            if self.hub.holds(code)
            and not room.sockets
            and not room.elsewhere
            and room.empty_since is not None
            and now - room.empty_since > ROOM_TTL
        ]
        for code in gone:
            self._close(self._rooms[code], f"nobody came for {ROOM_TTL // 3600} h")
            del self._rooms[code]
            self.db.delete_room(code)
            self.hub.release(code)
        return gone

    def _close(self, room: Room, why: str) -> None:
        """The room ends: its bot's search is cancelled, its clock stopped."""
        room.closed = True
        if room.bot_task is not None and not room.bot_task.done():
            room.bot_task.cancel()
        self._stop_clock(room)
        log.info("room %s closed: %s", room.code, why)

    def close(self) -> None:
        """Stop the rooms' bots and clocks (the server is stopping).

        >>> from cardtable.web.database import Database
        >>> Rooms(Database(":memory:")).close()
        """
        for room in self._rooms.values():
            if room.bot_task is not None and not room.bot_task.done():
                room.bot_task.cancel()
            self._stop_clock(room)
        self.pool.close()
        self.hub.close()


def _player_bot(seat: SeatInfo) -> str | None:
    """The bot that plays ``seat`` now: a bot seat's, or the one standing in for its person."""
    return seat.bot if seat.kind == "bot" else seat.stand_in


def _play_now_throttle(caps: limits.Limits) -> limits.Throttle:
    """The rate limit on an address's "play now" requests."""
    return limits.Throttle(caps.play_now_burst, caps.play_now_per_minute / 60)


def _throttle(caps: limits.Limits) -> limits.Throttle:
    """The rate limit on an address's room lookups that miss."""
    return limits.Throttle(caps.misses_burst, caps.misses_per_minute / 60)


__all__ = ["BOT_PAUSE", "HINT_BOT", "ROOM_TTL", "Room", "Rooms", "SeatInfo", "default_game", "holder_of"]

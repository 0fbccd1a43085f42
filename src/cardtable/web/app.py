"""The web app: FastAPI routes over the one-player tables
(:class:`~cardtable.web.solitaire_tables.SolitaireTables`) and the rooms of the
multi-player games (:class:`~cardtable.web.rooms.Rooms`, one WebSocket a browser).

The pages are one static front end (``static/``: ES modules, HTML and CSS,
no build step); the API speaks JSON. A browser is known by a random cookie
(``cardtable_player``), made on its first request: its games and statistics
are its own, and another browser's game id answers "not found".

Every error is a JSON answer ``{"error": one line, "kind": ...}`` with the
HTTP status of its kind (see :mod:`cardtable.web.errors`; a room's socket gets
the same kinds); a stale request also carries the table afresh (``"table"``),
so the page never drifts. Every answer carries the security headers, and a
request for another host name, from another site or with a body over its cap
is refused before any route runs (:mod:`cardtable.web.guard`).

A room's socket (``/ws/rooms/{code}``) says who it is in its first message,
``{"type": "hello", "token": T}`` (a seat's token) or ``{"type": "hello",
"key": K}`` (the invite link's key), and coming back, the last move it saw
(``"game_no": G, "at": N``); see :mod:`cardtable.web.peers` for the close codes.

With ``database`` (``cardtable serve --database postgresql://...``) everything
is kept in PostgreSQL, and several server processes may share it
(:mod:`cardtable.web.postgres`).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(":memory:"), base_url="http://localhost")
>>> [g["name"] for g in client.get("/api/games").json()["games"]][:2]
['klondike', 'desturado']
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, cast

import psycopg
from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from ..bots import BOTS
from ..core.errors import CardtableError
from ..games import spec_for, specs
from ..levels import LEVELS
from ..rulebook import rules_text
from .clocks import DEFAULT_PACE, PACES, describe
from .daily import Daily
from .database import Database, Rating
from .errors import KINDS, TableError
from .guard import Guard
from .hub import Hub
from .limits import Limits, Throttle, clean_name
from .peers import CLOSE_BAD_HELLO, CLOSE_NO_HELLO, CLOSE_NOT_FOUND, CLOSE_TOO_MANY, Peer
from .postgres import LEASE_SECONDS, PostgresDatabase, PostgresHub
from .ratings import bot_ratings, shown
from .replays import replay
from .rooms import BOT_PAUSE, Rooms, default_game, holder_of
from .rules_pages import layout_svg, rules_html
from .serving import MAX_CONNECTIONS, IdleClosingHttp
from .solitaire_tables import SolitaireTables
from .statistics import in_progress, stats

SWEEP_SECONDS = 600
"""How often rooms without players for a day are looked for and removed."""

PLAYER_COOKIE = "cardtable_player"
"""The cookie that tells one browser's games from another's."""

STATIC = Path(str(files("cardtable").joinpath("web", "static")))
"""The front end's files."""

PAGES = (
    "/",
    "/play/{game}",
    "/stats",
    "/rules/{game}",
    "/room/{code}",
    "/daily",
    "/daily/play",
    "/leaderboard",
    "/replay/{replay_id}",
    "/lobby",
    "/ratings",
    "/me",
)
"""The paths that answer with the front end's page (it reads the path itself)."""


WS_MAX_BYTES = 65536
"""The largest WebSocket message the server reads at all (uvicorn closes with 1009 above it,
before the app sees it); the app's own, smaller cap is :attr:`Limits.message_bytes`."""

SERVER_OPTIONS: dict[str, Any] = {
    "ws_max_size": WS_MAX_BYTES,
    "ws_per_message_deflate": False,
    "log_level": "warning",
    "http": IdleClosingHttp,
    "limit_concurrency": MAX_CONNECTIONS,
}
"""uvicorn's options for this app: the message cap, no per-message compression (the frames
are small, and deflating them was a third of the rooms' send time), uvicorn's own lines at
warnings only (the app logs each room event itself: :func:`log_events`), connections with
no request under way closed after a while, and a request refused (503) while
:data:`~cardtable.web.serving.MAX_CONNECTIONS` connections are open (:mod:`cardtable.web.serving`)."""


def log_events(stream: Any = None) -> None:
    """Write the app's log lines (one a room event, one a refusal) at the default level
    (``INFO``) to ``stream`` (standard error), as ``cardtable serve`` does.

    >>> import io, logging
    >>> out = io.StringIO(); log_events(out)
    >>> logging.getLogger("cardtable.web.rooms").info("room ABC created"); "room ABC created" in out.getvalue()
    True
    >>> logging.getLogger("cardtable").handlers.clear(); logging.getLogger("cardtable").setLevel(logging.NOTSET)
    """
    logger = logging.getLogger("cardtable")
    logger.setLevel(logging.INFO)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)


_UNION_MEMBERS = frozenset({"str", "int", "bool", "none"})
"""How pydantic names the kinds of an option's value (``str | int | bool``) in an error's place."""


class _Body(BaseModel):
    # strict: a number is a JSON number and a yes or no is true or false, never "3", 3.0 or 1.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


class NewTable(_Body):
    """A new one-player table: game, options, and a deal number or a level (with a seed)."""

    game: str
    options: dict[str, str | int | bool | None] = {}
    deal: int | None = None
    level: str | None = None
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None  # kept in SQLite: 64 bits, signed


class NewRoom(_Body):
    """A new room of a multi-player game: the game (none: the first multi-player game
    offered), the creator's name, the game's options, one entry a seat, and its pace (see
    :mod:`cardtable.web.clocks`)."""

    game: str | None = None
    name: str
    options: dict[str, str | int | bool] = {}
    seats: list[dict[str, Any]]
    pace: str = DEFAULT_PACE
    public: bool = False
    rated: bool | None = None


class PlayNow(_Body):
    """A seat now in a public room of a multi-player game (none: the first offered) with
    ``players`` seats, under the person's ``name``; a room opened for it has this ``pace``."""

    game: str | None = None
    players: int
    name: str
    pace: str = DEFAULT_PACE


class Me(_Body):
    """A person's display name."""

    name: str


class Adopt(_Body):
    """An identity carried from another browser: its player id."""

    id: str


class Act(_Body):
    """A request on a table: the move count it was made on."""

    at: int


class HintRequest(Act):
    """A hint: ``plain`` (from what the player sees) or ``solver`` (sees the face-down cards)."""

    kind: str = "solver"


class Move(Act):
    """A move: in notation, or as a drop (``from``, ``index``, ``to``); ``auto`` for autoplay."""

    move: str | None = None
    from_: str | None = None
    index: int | None = None
    to: str | None = None
    auto: bool = False

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, strict=True, alias_generator=lambda n: n.rstrip("_")
    )


class DailyPlayRequest(_Body):
    """A daily deal to play: its mode (a level key's label) and day (``YYYY-MM-DD``; none: today)."""

    mode: str
    day: str | None = None


class DailyEntryRequest(_Body):
    """A leaderboard entry asked for: the won table it is made from (by the server), and the
    browser's display name when it has none yet. Nothing else: no score is read from a browser."""

    table: str
    name: str | None = None


class DailyName(_Body):
    """The browser's display name for the leaderboards."""

    name: str


def catalogue() -> list[dict[str, Any]]:
    """The games the browser offers (those that declare a table), with their titles,
    players, options and levels, the family of their cards and the colour of their backs,
    the ways they are scored (each with its rule, and whether its scores add up in a bank),
    and for a multi-player game its seats and bots (exactly those its declaration lists),
    for the home page.

    >>> [o["name"] for o in catalogue()[0]["options"]], catalogue()[0]["cards"]
    (['draw', 'redeals', 'foundation_return', 'numbering'], 'french')
    >>> [(g["players"], g["seats"], g["bots"]) for g in catalogue() if g["players"] != "1"][0]
    ('2-4', [2, 4], ['random', 'greedy', 'ismcts'])
    >>> [(s["name"], s["bank"]) for s in catalogue()[0]["scorings"]]
    [('standard', False), ('vegas', True)]
    """
    games = []
    for spec in specs():
        table = spec.table
        if table is None or not (spec.one_player or spec.bots):
            continue  # no table in the browser; a multi-player game with no bot has no room
        cls = spec.rules
        low, high = spec.seats
        games.append(
            {
                "name": spec.name,
                "title": cls.title,
                "players": "1" if spec.one_player else f"{low}-{high}",
                "seats": [low, high],
                "bots": list(spec.bots),
                "cards": table.cards,
                "back": table.back,
                "levels": [] if spec.level_keys is None else list(LEVELS),
                "options": [
                    {
                        "name": o.name,
                        "kind": o.kind.__name__,
                        "default": o.show(o.default),
                        "choices": [o.show(c) for c in o.choices]
                        or (["on", "off"] if o.kind is bool else [o.none_text] if o.none_text else []),
                        "help": o.help,
                        "seat": o.seat,
                    }
                    for o in cls.OPTIONS
                    if o.name not in ("autoplay",)
                ],
                "scorings": [
                    {"name": sc.name, "title": sc.title, "rule": sc.rule, "bank": sc.bank} for sc in spec.scoring
                ],
            }
        )
    return games


def create_app(
    data: str | Path = "cardtable-data",
    hint_seconds: float | None = None,
    bot_pause: float = BOT_PAUSE,
    limits: Limits | None = None,
    paces: Mapping[str, float | None] | None = None,
    hosts: Iterable[str] = (),
    database: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> FastAPI:
    """The app, keeping its SQLite file ``cardtable.sqlite`` in the folder ``data``
    (``":memory:"`` keeps nothing, for tests); ``bot_pause``: the room bots' pause;
    ``limits``: the caps (:class:`~cardtable.web.limits.Limits`); ``paces``: the paces a
    room may choose (:data:`~cardtable.web.clocks.PACES`); ``hosts``: the host names the
    server answers for besides IP addresses and ``localhost``; ``database``: a PostgreSQL
    URL (``postgresql://...``) to keep everything in instead (``data`` is then not used),
    shared with the other server processes given it (:mod:`cardtable.web.postgres`; they
    look for rooms whose lease nobody holds every ``lease_seconds``).

    >>> create_app(":memory:").title
    'cardtable'
    """
    caps = limits or Limits()
    hub: Hub | None = None
    db: Database
    if database is not None:
        try:
            db = PostgresDatabase(database)
        except psycopg.Error as err:
            raise OSError(str(err).strip().splitlines()[0] if str(err).strip() else "no connection") from None
        hub = PostgresHub(database, lease_seconds=lease_seconds)
    elif str(data) == ":memory:":
        db = Database(":memory:")
    else:
        folder = Path(data)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        db = Database(str(folder / "cardtable.sqlite"))
    tables = SolitaireTables(db) if hint_seconds is None else SolitaireTables(db, hint_seconds=hint_seconds)
    rooms = Rooms(db, bot_pause=bot_pause, limits=caps, paces=PACES if paces is None else paces, hub=hub)
    daily = Daily(tables)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                rooms.sweep()
                await asyncio.sleep(SWEEP_SECONDS)

        task = asyncio.create_task(sweep())
        rooms.resume()  # bots to move and clocks of the rooms rebuilt from the file
        yield
        task.cancel()
        rooms.close()

    app = FastAPI(title="cardtable", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.db = db
    app.state.tables = tables
    app.state.rooms = rooms
    app.state.daily = daily

    @app.middleware("http")
    async def player_cookie(request: Request, call_next: Any) -> Response:
        player = request.cookies.get(PLAYER_COOKIE) or ""
        fresh = not player or len(player) > 64
        if fresh:
            player = secrets.token_urlsafe(16)
        request.state.player = player
        response: Response = await call_next(request)
        if fresh and not getattr(request.state, "adopted", False):
            response.set_cookie(PLAYER_COOKIE, player, max_age=10 * 365 * 86400, httponly=True, samesite="lax")
        return response

    @app.exception_handler(TableError)
    async def table_error(request: Request, err: TableError) -> JSONResponse:
        body: dict[str, Any] = err.json()
        if err.kind == "stale":
            body["table"] = tables.get(request.state.player, str(request.path_params.get("table_id")))
        return JSONResponse(body, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = [str(p) for p in first.get("loc", ()) if p != "body"]
        said = first.get("msg", "invalid")
        if where and where[-1] in _UNION_MEMBERS:  # an option's value fits none of its kinds
            where.pop()
            said = "Input should be text, a whole number, true or false"
        error = TableError("bad-request", f"bad request: {'.'.join(where) or 'body'}: {said}")
        return JSONResponse(error.json(), status_code=error.status)

    @app.exception_handler(CardtableError)
    async def library_error(request: Request, err: CardtableError) -> JSONResponse:
        error = TableError("bad-request", str(err))
        return JSONResponse(error.json(), status_code=error.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, err: HTTPException) -> JSONResponse:
        # Starlette's own refusals (no such path, a method a path does not answer, a body
        # that is not JSON) in the one vocabulary.
        kinds = {status: kind for kind, status in list(KINDS.items())[::-1]}  # a status's first kind
        kind = kinds.get(err.status_code, "bad-request")
        error = TableError(kind, str(err.detail) if err.status_code in kinds else f"bad request: {err.detail}")
        return JSONResponse(error.json(), status_code=error.status, headers=getattr(err, "headers", None))

    def player(request: Request) -> str:
        return str(request.state.player)

    @app.get("/api/games")
    def games() -> dict[str, Any]:
        return {
            "games": catalogue(),
            "bots": list(BOTS),
            "paces": [{"name": n, "seconds": t, "text": describe(t)} for n, t in rooms.paces.items()],
        }

    @app.get("/api/rules/{game}")
    def rules(game: str) -> dict[str, Any]:
        try:
            spec = spec_for(game)
        except CardtableError as err:
            raise TableError("not-found", str(err)) from None
        html = rules_html(spec.name)
        picture = layout_svg(spec.name) if spec.table is not None else ""
        return {"game": spec.name, "title": spec.title, "text": rules_text(spec.name), "html": html, "layout": picture}

    @app.get("/api/tables")
    def unfinished(request: Request) -> dict[str, Any]:
        return {"tables": in_progress(db, player(request))}

    # Requests that search (a deal by level, which may be a live search; a hint) are sync
    # routes, run in threads at once: one address may make only so many (found by the
    # bad-input audit: ten level requests with new options took 18 to 73 s each, and others' requests waited).
    searches = Throttle(caps.search_burst, caps.searches_per_minute / 60)
    searches_lock = threading.Lock()

    def search_allowed(request: Request) -> None:
        with searches_lock:
            if not searches.take(address(request)):
                raise TableError(
                    "too-many", "too many searches (deals by level, hints) from one address: wait a little"
                )

    @app.post("/api/tables")
    def create(request: Request, body: NewTable) -> dict[str, Any]:
        if body.level is not None:
            search_allowed(request)
        return tables.create(
            player(request),
            body.game,
            dict(body.options),
            deal=body.deal,
            level=body.level,
            seed=body.seed,
        )

    @app.get("/api/tables/{table_id}")
    def get(request: Request, table_id: str) -> dict[str, Any]:
        return tables.get(player(request), table_id)

    @app.post("/api/tables/{table_id}/move")
    def move(request: Request, table_id: str, body: Move) -> dict[str, Any]:
        drop = (
            None if body.from_ is None and body.to is None else {"from": body.from_, "index": body.index, "to": body.to}
        )
        return tables.play(player(request), table_id, body.at, move=body.move, drop=drop, auto=body.auto)

    @app.post("/api/tables/{table_id}/hint")
    def hint(request: Request, table_id: str, body: HintRequest) -> dict[str, Any]:
        search_allowed(request)
        return tables.hint(player(request), table_id, body.at, kind=body.kind)

    @app.post("/api/tables/{table_id}/{action}")
    def act(request: Request, table_id: str, action: str, body: Act) -> dict[str, Any]:
        actions = {
            "undo": tables.undo,
            "redo": tables.redo,
            "restart": tables.restart,
            "finish": tables.finish,
            "verdict": tables.verdict,
            "give-up": tables.give_up,
        }
        if action not in actions:
            raise TableError("not-found", f"no action {action!r} (actions: {', '.join(actions)}, hint, move)")
        return actions[action](player(request), table_id, body.at)

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "?"

    @app.post("/api/rooms")
    async def create_room(request: Request, body: NewRoom) -> dict[str, Any]:
        # On the event loop, as every other change to the rooms.
        code, token = rooms.create(
            dict(body.options),
            body.seats,
            body.name,
            game=body.game,
            player=player(request),
            pace=body.pace,
            address=address(request),
            public=body.public,
            rated=body.rated,
        )
        room = rooms.get(code)
        key = room.key if room is not None else ""
        return {"code": code, "token": token, "key": key, "link": f"/room/{code}#key={key}"}

    @app.get("/api/rooms/{code}")
    async def room_summary(request: Request, code: str) -> dict[str, Any]:
        # The invite link's key or a seat token, in the header X-Room-Key: a code alone opens nothing.
        secret = request.headers.get("x-room-key")
        room, _ = rooms.find(code, address(request), token=secret, key=secret)
        return rooms.summary(room)

    @app.websocket("/ws/rooms/{code}")
    async def room_socket(socket: WebSocket, code: str) -> None:
        await socket.accept()
        peer = Peer(socket, address(socket), holder_of(socket.cookies.get(PLAYER_COOKIE)), caps)
        try:
            text = await peer.read(timeout=caps.hello_seconds)
            if text is None:
                if not peer.gone:
                    error = TableError("bad-request", f"say who you are (hello) within {caps.hello_seconds:g} s")
                    peer.refuse(error, CLOSE_NO_HELLO)
                return
            try:
                token, key, seen = _hello(text)
                room, seat = rooms.find(code, peer.address, token=token, key=key)
                await rooms.connect(room, peer, seat, seen)
            except TableError as err:
                peer.refuse(
                    err, {"not-found": CLOSE_NOT_FOUND, "too-many": CLOSE_TOO_MANY}.get(err.kind, CLOSE_BAD_HELLO)
                )
                return
            try:
                while (text := await peer.read()) is not None:
                    await rooms.handle(room, peer, text)
            finally:
                await rooms.disconnect(room, peer)
        finally:
            await peer.finish()

    @app.get("/api/lobby")
    async def lobby() -> dict[str, Any]:
        return {"rooms": rooms.lobby()}

    @app.post("/api/play-now")
    async def play_now(request: Request, body: PlayNow) -> dict[str, Any]:
        return await rooms.play_now(
            body.players, body.name, game=body.game, player=player(request), address=address(request), pace=body.pace
        )

    @app.get("/api/replays/{replay_id}")
    def replays(replay_id: str, view: str | None = None, at: str | None = None) -> dict[str, Any]:
        return replay(db, replay_id, view=view, at=at)

    @app.get("/api/ratings")
    def ratings(request: Request, game: str | None = None) -> dict[str, Any]:
        return board(game or default_game(), holder_of(player(request)) or "")

    def board(game: str, me: str) -> dict[str, Any]:
        if game not in {g["name"] for g in catalogue() if g["players"] != "1"}:
            raise TableError("not-found", f"no rated game {game[:20]!r}")
        rows: list[dict[str, Any]] = [
            {"name": name or "(no name)", "bot": None, "you": holder == me, **_rating(rating)}
            for holder, name, rating in db.leaderboard(game, LEADERBOARD_ROWS)
        ]
        rows += [
            {"name": f"{bot.capitalize()} (bot)", "bot": bot, "you": False, **_rating(rating)}
            for bot, rating in bot_ratings().get(game, {}).items()
        ]
        rows.sort(key=lambda r: (-r["rating"], r["bot"] is not None, r["name"]))
        return {"game": game, "title": spec_for(game).title, "rows": rows}

    @app.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        return identity(player(request))

    def identity(who: str) -> dict[str, Any]:
        holder = holder_of(who) or ""
        games = [g["name"] for g in catalogue() if g["players"] != "1"]
        return {
            "id": who,
            "link": f"/me#id={who}",
            "name": db.name(holder) or "",
            "ratings": [
                {"game": g, "title": spec_for(g).title, **_rating(r)}
                for g in games
                for r in db.ratings(g, [holder]).values()
            ],
            "games": [
                {
                    "replay": f"/replay/{g.id}",
                    "title": spec_for(g.game).title,
                    "seats": [s["name"] for s in json.loads(g.seats)],
                    "ranks": json.loads(g.ranks),
                    "rated": g.rated,
                    "ended": g.ended,
                }
                for g in db.player_finished(holder, RECENT_GAMES)
            ],
        }

    @app.post("/api/me")
    def rename(request: Request, body: Me) -> dict[str, Any]:
        db.set_name(holder_of(player(request)) or "", clean_name(body.name))
        return identity(player(request))

    @app.post("/api/me/adopt")
    def adopt(request: Request, body: Adopt) -> JSONResponse:
        if not IDENTITY.fullmatch(body.id):
            raise TableError("bad-request", "an identity is 22 to 64 letters, digits, '-' or '_'")
        request.state.adopted = True
        response = JSONResponse(identity(body.id))
        response.set_cookie(PLAYER_COOKIE, body.id, max_age=10 * 365 * 86400, httponly=True, samesite="lax")
        return response

    @app.get("/api/daily")
    def daily_page(request: Request, day: str | None = None) -> dict[str, Any]:
        return daily.overview(player(request), day)

    @app.post("/api/daily/play")
    def daily_play(request: Request, body: DailyPlayRequest) -> dict[str, Any]:
        return daily.play(player(request), body.mode, body.day)

    @app.post("/api/daily/enter")
    def daily_enter(request: Request, body: DailyEntryRequest) -> dict[str, Any]:
        return daily.enter(player(request), body.table, body.name)

    @app.post("/api/daily/name")
    def daily_name(request: Request, body: DailyName) -> dict[str, Any]:
        return {"name": daily.set_name(player(request), body.name)}

    @app.get("/api/daily/leaderboard")
    def daily_leaderboard(request: Request, mode: str, day: str | None = None) -> dict[str, Any]:
        return daily.leaderboard(player(request), mode, day)

    @app.get("/api/stats")
    def statistics(request: Request) -> dict[str, Any]:
        return stats(db, player(request))

    index = STATIC / "index.html"
    for path in PAGES:
        app.add_api_route(path, lambda: FileResponse(index), methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Outermost: before any route.
    app.add_middleware(Guard, hosts=tuple(hosts), body_bytes=caps.body_bytes, body_seconds=caps.body_seconds)
    return app


RECENT_GAMES = 20
"""The finished room games (with their replay links) the "you" page lists."""

LEADERBOARD_ROWS = 100
"""The most people the leaderboard lists (the bots come on top of them)."""

IDENTITY = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""What a player id carried from another browser looks like (128 bits and more, URL-safe)."""


def _rating(rating: Rating) -> dict[str, Any]:
    """A rating as the pages show it: the rating (``mu - 3 sigma``), ``mu``, ``sigma``, games.

    >>> _rating(Rating(25.0, 25 / 3, 0))
    {'rating': 0.0, 'mu': 25.0, 'sigma': 8.33, 'games': 0}
    """
    return {"rating": shown(rating), "mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2), "games": rating.games}


def _hello(text: str) -> tuple[str | None, str | None, tuple[int, int] | None]:
    """The seat token, invite key and what was seen of a socket's first message,
    ``{"type": "hello", "token": T}`` and/or ``"key": K``; a socket that comes back
    adds the game number and the move count it saw last (``"game_no": G, "at": N``:
    its first snapshot's log tells every move since). Anything else is a ``bad-request``.

    >>> _hello('{"type": "hello", "key": "abc"}')
    (None, 'abc', None)
    >>> _hello('{"type": "hello", "token": "t", "game_no": 0, "at": 12}')
    ('t', None, (0, 12))
    >>> _hello('{"type": "move"}')
    Traceback (most recent call last):
    ...
    cardtable.web.errors.TableError: the first message says who you are: {"type": "hello", "token": ...} or "key"
    """
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or message.get("type") != "hello":
        raise TableError("bad-request", 'the first message says who you are: {"type": "hello", "token": ...} or "key"')
    token, key = message.get("token"), message.get("key")
    if not all(v is None or isinstance(v, str) for v in (token, key)):
        raise TableError("bad-request", "a hello's token and key are text")
    game_no, at = message.get("game_no"), message.get("at")
    if at is None and game_no is None:
        return token, key, None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**31 for v in (game_no, at)):
        raise TableError("bad-request", "a hello's game_no and at are whole numbers, given together")
    return token, key, (cast("int", game_no), cast("int", at))

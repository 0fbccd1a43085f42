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
so the page never drifts.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(":memory:"))
>>> [g["name"] for g in client.get("/api/games").json()["games"]][:2]
['klondike', 'desturado']
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict

from ..bots import BOTS
from ..core.errors import CardtableError
from ..games import spec_for, specs
from ..levels import LEVELS
from ..rulebook import rules_text
from .database import Database
from .errors import TableError
from .rooms import BOT_PAUSE, Rooms
from .rules_pages import layout_svg, rules_html
from .solitaire_tables import SolitaireTables
from .statistics import in_progress, stats

SWEEP_SECONDS = 600
"""How often rooms without players for a day are looked for and removed."""

PLAYER_COOKIE = "cardtable_player"
"""The cookie that tells one browser's games from another's."""

STATIC = Path(str(files("cardtable").joinpath("web", "static")))
"""The front end's files."""

PAGES = ("/", "/play/{game}", "/stats", "/rules/{game}", "/room/{code}")
"""The paths that answer with the front end's page (it reads the path itself)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class NewTable(_Body):
    """A new one-player table: game, options, and a deal number or a level (with a seed)."""

    game: str
    options: dict[str, str | int | bool | None] = {}
    deal: int | None = None
    level: str | None = None
    seed: int | None = None


class NewRoom(_Body):
    """A new room of a multi-player game: the game (none: the first multi-player game
    offered), the creator's name, the game's options, one entry a seat."""

    game: str | None = None
    name: str
    options: dict[str, str | int | bool] = {}
    seats: list[dict[str, Any]]


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

    model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=lambda n: n.rstrip("_"))


def catalogue() -> list[dict[str, Any]]:
    """The games the browser offers (those that declare a table), with their titles,
    players, options and levels, the family of their cards and the colour of their backs,
    and for a multi-player game its seats and bots (exactly those its declaration lists),
    for the home page.

    >>> [o["name"] for o in catalogue()[0]["options"]], catalogue()[0]["cards"]
    (['draw', 'redeals', 'foundation_return', 'numbering'], 'french')
    >>> [(g["players"], g["seats"], g["bots"]) for g in catalogue() if g["players"] != "1"][0]
    ('2-4', [2, 4], ['random', 'greedy', 'ismcts'])
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
            }
        )
    return games


def create_app(
    data: str | Path = "cardtable-data", hint_seconds: float | None = None, bot_pause: float = BOT_PAUSE
) -> FastAPI:
    """The app, keeping its SQLite file ``cardtable.sqlite`` in the folder ``data``
    (``":memory:"`` keeps nothing, for tests); ``bot_pause``: the room bots' pause.

    >>> create_app(":memory:").title
    'cardtable'
    """
    if str(data) == ":memory:":
        db = Database(":memory:")
    else:
        folder = Path(data)
        folder.mkdir(parents=True, exist_ok=True)
        db = Database(str(folder / "cardtable.sqlite"))
    tables = SolitaireTables(db) if hint_seconds is None else SolitaireTables(db, hint_seconds=hint_seconds)
    rooms = Rooms(db, bot_pause=bot_pause)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                rooms.sweep()
                await asyncio.sleep(SWEEP_SECONDS)

        task = asyncio.create_task(sweep())
        yield
        task.cancel()

    app = FastAPI(title="cardtable", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.db = db
    app.state.tables = tables
    app.state.rooms = rooms

    @app.middleware("http")
    async def player_cookie(request: Request, call_next: Any) -> Response:
        player = request.cookies.get(PLAYER_COOKIE) or ""
        fresh = not player or len(player) > 64
        if fresh:
            player = secrets.token_urlsafe(16)
        request.state.player = player
        response: Response = await call_next(request)
        if fresh:
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
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        error = TableError("bad-request", f"bad request: {where or 'body'}: {first.get('msg', 'invalid')}")
        return JSONResponse(error.json(), status_code=error.status)

    @app.exception_handler(CardtableError)
    async def library_error(request: Request, err: CardtableError) -> JSONResponse:
        error = TableError("bad-request", str(err))
        return JSONResponse(error.json(), status_code=error.status)

    def player(request: Request) -> str:
        return str(request.state.player)

    @app.get("/api/games")
    def games() -> dict[str, Any]:
        return {"games": catalogue(), "bots": list(BOTS)}

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

    @app.post("/api/tables")
    def create(request: Request, body: NewTable) -> dict[str, Any]:
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
        return tables.hint(player(request), table_id, body.at, kind=body.kind)

    @app.post("/api/tables/{table_id}/{action}")
    def act(request: Request, table_id: str, action: str, body: Act) -> dict[str, Any]:
        actions = {
            "undo": tables.undo,
            "redo": tables.redo,
            "restart": tables.restart,
            "finish": tables.finish,
            "verdict": tables.verdict,
        }
        if action not in actions:
            raise TableError("not-found", f"no action {action!r} (actions: {', '.join(actions)}, hint, move)")
        return actions[action](player(request), table_id, body.at)

    @app.post("/api/rooms")
    async def create_room(request: Request, body: NewRoom) -> dict[str, Any]:
        # On the event loop, as every other change to the rooms.
        code, token = rooms.create(dict(body.options), body.seats, body.name, game=body.game, player=player(request))
        return {"code": code, "token": token, "link": f"/room/{code}"}

    @app.get("/api/rooms/{code}")
    def room_summary(code: str) -> dict[str, Any]:
        room = rooms.get(code)
        if room is None:
            raise TableError("not-found", f"no room {code!r} (it may have been closed after a day without players)")
        return rooms.summary(room)

    @app.websocket("/ws/rooms/{code}")
    async def room_socket(socket: WebSocket, code: str, token: str | None = None) -> None:
        await socket.accept()
        room = rooms.get(code)
        if room is None:
            await socket.send_json({"type": "error", **TableError("not-found", f"no room {code!r}").json()})
            await socket.close(code=4404)
            return
        await rooms.connect(room, socket, token)
        try:
            while True:
                try:
                    text = await socket.receive_text()
                except (WebSocketDisconnect, RuntimeError):  # gone (Starlette's "not connected" is a RuntimeError)
                    break
                await rooms.handle(room, socket, text)
        finally:
            await rooms.disconnect(room, socket)

    @app.get("/api/stats")
    def statistics(request: Request) -> dict[str, Any]:
        return stats(db, player(request))

    index = STATIC / "index.html"
    for path in PAGES:
        app.add_api_route(path, lambda: FileResponse(index), methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

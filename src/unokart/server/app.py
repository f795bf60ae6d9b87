"""The ASGI app: the HTTP API, the websocket protocol and the browser client's files (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..i18n import LANGUAGES, catalogue, current_language, t
from .hub import Connection, Hub, Settings
from .protocol import ServerError, check_fields, parse_message
from .store import Store

log = logging.getLogger("unokart.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY_BYTES = 16384
CREATE_SCHEMA = {"seats": ((int,), False), "options": ((dict,), False), "turn_timer": ((float, None), False),
                 "bots": ((dict,), False), "start": ((bool,), False)}
JOIN_SCHEMA = {"name": ((str,), True), "seat": ((int,), False)}
# Errors about an action carry the table's current version (PROTOCOL.md section 6).
_VERSIONED = frozenset(("stale_version", "duplicate", "illegal_action", "not_playing"))


def create_app(db_path: str | Path, settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        store = Store(db_path)
        hub = Hub(store, settings)
        hub.restore()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.close()
            store.close()

    routes = [
        Route("/api/health", health),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables),
        Route("/api/tables/{code}", get_table),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/games", list_games),
        Route("/api/games/{game_id:int}", get_game),
        Route("/api/games/{game_id:int}/replay", get_replay),
        Route("/api/i18n/{lang}", get_catalogue),
        WebSocketRoute("/ws/{code}", websocket_endpoint),
        Route("/", index),
        Route("/t/{code}", index),
        Mount("/static", app=StaticFiles(directory=WEB_DIR, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={ServerError: _http_error})


def _http_error(request: Request, err: Exception) -> Response:
    assert isinstance(err, ServerError)
    return JSONResponse(err.payload(current_language()), status_code=err.status)


async def _body(request: Request, schema: dict) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ServerError("too_large", limit=MAX_BODY_BYTES)
    if not raw.strip():
        data: Any = {}
    else:
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise ServerError("bad_request") from None
    if not isinstance(data, dict):
        raise ServerError("not_object")
    check_fields(data, schema)
    return data


# ---------------------------------------------------------------------- HTTP
async def health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def create_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    body = await _body(request, CREATE_SCHEMA)
    bots = {}
    for seat, level in body.get("bots", {}).items():
        if not seat.isascii() or not seat.isdigit():
            raise ServerError("no_such_seat", seat=seat[:8])
        if not isinstance(level, str):
            raise ServerError("wrong_type", field="bots", expected=t("server.type.level"))
        bots[int(seat)] = level
    table = hub.create_table(body.get("seats", 4), body.get("options"), body.get("turn_timer"), bots,
                             body.get("start", False))
    return JSONResponse({"code": table.code, "link": hub.link(table), "table": hub.summary(table)}, status_code=201)


async def list_tables(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    tables = sorted(hub.tables.values(), key=lambda table: table.created, reverse=True)[:200]
    return JSONResponse({"tables": [hub.summary(table) for table in tables]})


async def get_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    return JSONResponse(hub.summary(hub.table(request.path_params["code"])))


async def join_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    table = hub.table(request.path_params["code"])
    body = await _body(request, JOIN_SCHEMA)
    seat, token = hub.join(table, body["name"], body.get("seat"))
    return JSONResponse({"code": table.code, "seat": seat, "token": token, "link": hub.link(table)})


async def list_games(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    return JSONResponse({"games": hub.store.finished_games()})


async def get_game(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    game = hub.finished_game(request.path_params["game_id"])
    if game is None:
        raise ServerError("no_such_game", status=404, id=request.path_params["game_id"])
    return JSONResponse(game)


async def get_replay(request: Request) -> Response:
    """A finished game's round, frame by frame, for the browser's replay viewer (it has no rules engine)."""
    from ..web.replay import replay_round

    hub: Hub = request.app.state.hub
    game = hub.finished_game(request.path_params["game_id"])
    if game is None:
        raise ServerError("no_such_game", status=404, id=request.path_params["game_id"])
    number, lang = request.query_params.get("round", "1"), request.query_params.get("lang")
    rounds = len(game["record"]["rounds"])
    if not number.isascii() or not number.isdigit() or not 1 <= int(number) <= rounds:
        raise ServerError("no_such_round", round=number[:8], rounds=rounds)
    return JSONResponse(replay_round(game["record"], int(number), lang if lang in LANGUAGES else None))


async def get_catalogue(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        raise ServerError("no_such_language", status=404, language=lang[:8])
    return JSONResponse({**catalogue("en"), **catalogue(lang)})


async def index(request: Request) -> Response:
    page = WEB_DIR / "index.html"
    if page.is_file():
        return FileResponse(page)
    return PlainTextResponse(t("server.no_web"))


# ---------------------------------------------------------------------- websocket
async def websocket_endpoint(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    conn = Connection(hub.settings.rate_limit)
    try:
        table = hub.table(websocket.path_params["code"])
    except ServerError as err:
        await websocket.send_text(json.dumps(err.payload(conn.lang)))
        await websocket.close(code=4404)
        return
    writer = asyncio.create_task(_write(websocket, conn))
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            allowed, tell = conn.allow()
            if not allowed:
                if tell:
                    conn.push(json.dumps(ServerError("rate_limited").payload(conn.lang)))
                continue
            msg: dict = {}
            try:
                msg = parse_message(frame.get("text") if frame.get("text") is not None else frame.get("bytes"))
                hub.handle(conn, table, msg)
            except ServerError as err:
                version = table.version if err.code in _VERSIONED else None
                conn.push(json.dumps(err.payload(conn.lang, version, msg.get("id"))))
            except Exception:
                log.exception("message %r at table %s", msg, table.code)
                conn.push(json.dumps(ServerError("internal").payload(conn.lang, re=msg.get("id"))))
    finally:
        hub.disconnect(conn)
        await writer


async def _write(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's frames in order; a slow or gone client never blocks the table."""
    while True:
        text = await conn.outbox.get()
        if text is None:
            break
        try:
            await websocket.send_text(text)
        except Exception:  # the client is gone; the reader will notice
            conn.closed = True
            break
    with contextlib.suppress(Exception):
        await websocket.close()

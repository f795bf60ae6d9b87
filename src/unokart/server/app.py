"""The transport: the HTTP API, the websocket and the browser client's files (docs/PROTOCOL.md).

This layer owns what belongs to connections and client addresses: body and
frame limits, rate limits (per connection for messages, per address for
table creation and joins), validation into the protocol's models, and the
language each answer is written in. Everything about tables happens behind
the table directory (directory.py): the routes are module-level handlers that
read it, the settings, the clock and the limits from ``app.state``
(docs/DESIGN.md, "The server: composition").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as InPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.routing import Route
from starlette.staticfiles import StaticFiles

from ..i18n import LANGUAGES, catalogue, current_language, t
from . import protocol
from .clock import REAL, Clock
from .directory import ClusterDirectory, TableDirectory, directory_for
from .limits import AddressLimits, Now, TokenBucket, talk_bucket, talk_limited, talk_limits
from .messages import dumps
from .protocol import MAX_BODY_BYTES, ServerError
from .store import STORE_ERRORS
from .tables import Listener, Settings, Table, TableService

log = logging.getLogger("unokart.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
OUTBOX_LIMIT = 2000  # queued messages; a client this far behind is dropped
MAX_CONNECTIONS_PER_ADDRESS = 64
ADDRESS_SHARE = 5  # the connections of one address share five connections' worth of messages
SWEEP_EVERY = 30.0  # seconds between sweeps of idle tables out of memory


class InvalidUTF8Log(logging.Filter):
    """uvicorn logs each websocket text frame of invalid UTF-8 (it closes the connection with 1007) as an error
    with a traceback: one client grew the log by 1 MB in 2 s. Here they are counted, one line every few
    seconds at most, no traceback."""

    EVERY = 5.0

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.told = -self.EVERY

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Invalid UTF-8"):
            return True
        self.count += 1
        now = time.monotonic()
        if now - self.told < self.EVERY:
            return False
        self.told = now
        record.msg, record.args = "websocket frames of invalid UTF-8, each closed with 1007: %d so far", (self.count,)
        record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.WARNING, "WARNING"
        return True


def _quiet_invalid_utf8() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, InvalidUTF8Log) for f in logger.filters):
        logger.addFilter(InvalidUTF8Log())


class Connection:
    """One websocket: where it sits, its language, and a queue of frames to send."""

    def __init__(self, rate: float, lang: str, now: Now = time.monotonic, chat_rate: float = 0.5) -> None:
        self.table: Table | None = None
        self.seat: int | None = None
        self.hello = False
        self.lang = lang
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        self.now = now
        self.bucket = TokenBucket(rate, 2 * rate, now)
        self.talk = talk_bucket(chat_rate, now)  # chat and reactions: a budget of their own
        self._last_limit_error = 0.0

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Close once what is queued is sent (1012: the table moved to another process, reconnect)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.outbox.put_nowait(None)

    def allow(self, by_address: "AddressLimits", address: str) -> tuple[bool, bool]:
        """(may this message be handled, should a rate_limited error be sent): at most one such error a second.

        A connection has its own budget, and all connections from one address share a larger one, so that
        opening many connections does not multiply what one client may send."""
        if not self.bucket.take() and not by_address.take(address):
            return True, False
        now = self.now()
        tell = now - self._last_limit_error >= 1.0
        if tell:
            self._last_limit_error = now
        return False, tell

    def may_talk(self, by_address: AddressLimits, address: str) -> None:
        """ServerError rate_limited when this connection, or its address, is over its chat and reaction budget.

        Checked where the client is connected (the table's owner may be another process, which checks the
        seat's own budget): a connection over its budget does not spend its address's, so one flooding
        connection does not silence the others of its address."""
        wait = self.talk.take() or by_address.take(address)
        if wait:
            raise talk_limited(wait)


def _language(request: Request) -> str:
    """The answer's language: ?lang=, else the first Accept-Language the game speaks, else the server's."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(",")[:8]:
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return current_language()


class BodyLimit:
    """Refuses a request body over MAX_BODY_BYTES with 413 too_large, never holding more than that in memory.

    A declared Content-Length over the limit is refused before anything is read; a body without one (chunked)
    is read up to the limit and refused as soon as it goes past it. The app is handed the body read.
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
            await self._too_large(scope, receive, send)
            return
        if declared is None and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > MAX_BODY_BYTES:
                await self._too_large(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> dict:
            nonlocal body
            if body is not None:
                given, body = body, None
                return given
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _too_large(scope: dict, receive: Any, send: Any) -> None:
        refused = ServerError("too_large", status=413, sentence="body_too_large", limit=MAX_BODY_BYTES)
        await JSONResponse(refused.payload(_language(Request(scope))), status_code=413)(scope, receive, send)


def _uncount(sockets: dict[str, int], who: str) -> None:
    """One websocket of ``who`` fewer."""
    sockets[who] -= 1
    if not sockets[who]:
        del sockets[who]


# What each refusal status means, as the OpenAPI document says it (the codes: PROTOCOL.md section 6).
_STATUS_WORDS = {
    400: "refused: the body or a value is not allowed",
    404: "no such table, game, round or language",
    409: "the seat is taken or not at this table, the table is full or its game has started",
    413: "the body is over 16 KiB",
    429: "too many requests from this address; Retry-After says when to try again",
    503: "the server holds as many tables as it may (server_full), or the table is moving or its database out of "
         "reach (table_unavailable)",
}
_ERROR = "#/components/schemas/ErrorReply"
_UNHEALTHY = {"type": "object", "required": ["status", "down"], "properties": {
    "status": {"const": "unavailable"}, "down": {"type": "array", "items": {"enum": ["database", "redis"]}}}}
# The query's round: digits for 1 to 9999 (leading zeros read as none); a round the game did not play is 404.
# Stated, not checked by FastAPI: the routes check them and refuse in their own words.
ROUND = Annotated[str, Query(json_schema_extra={"maxLength": 4, "pattern": "^0*[1-9][0-9]*$"})]
LANGUAGE = Annotated[str, InPath(json_schema_extra={"enum": list(LANGUAGES)})]


def _refusals(codes: dict[int, tuple[str, ...]]) -> dict:
    """A route's refusals by status, each with the codes it may carry (the error body's ``code``)."""
    return {status: {"description": f"{_STATUS_WORDS[status]}: " + ", ".join(named),
                     "content": {"application/json": {"schema": {
                         "allOf": [{"$ref": _ERROR}], "properties": {"code": {"enum": list(named)}}}}}}
            for status, named in codes.items()}


@dataclass
class Limits:
    """What the transport counts per client address (table creations, joins, websocket frames, chat) and the
    websockets each address has open."""

    creations: AddressLimits
    joins: AddressLimits
    frames: AddressLimits
    talks: AddressLimits
    sockets: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, settings: Settings, now: Now) -> "Limits":
        share = ADDRESS_SHARE * settings.rate_limit
        return cls(AddressLimits(settings.http_rate, 20, now=now), AddressLimits(settings.http_rate, 20, now=now),
                   AddressLimits(share, 2 * share, now=now), talk_limits(settings.chat_rate, now))


# The app's parts, as the routes read them (create_app puts them on app.state).
def directory_of(request: HTTPConnection) -> TableDirectory:
    return request.app.state.directory


def service_of(request: HTTPConnection) -> TableService:
    return request.app.state.directory.service


def limits_of(request: HTTPConnection) -> Limits:
    return request.app.state.limits


def address(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


Directory = Annotated[TableDirectory, Depends(directory_of)]
Service = Annotated[TableService, Depends(service_of)]
Limited = Annotated[Limits, Depends(limits_of)]
router = APIRouter()


# ---------------------------------------------------------------------------------------------------- errors
async def server_error(request: Request, err: ServerError) -> Response:
    headers = {"Retry-After": str(err.fields["seconds"])} if "seconds" in err.fields and err.status == 429 else None
    return JSONResponse(err.payload(_language(request)), status_code=err.status, headers=headers)


async def invalid(request: Request, err: RequestValidationError) -> Response:
    first = err.errors()[0] if err.errors() else {}
    if first.get("type") == "json_invalid" or first.get("loc") == ("body",) and first.get("type") == "missing":
        refused = ServerError("bad_request")
    elif first.get("loc") == ("body",):  # not an object: JSON of another kind, or not JSON at all
        refused = ServerError("not_object" if _is_json(err.body) else "bad_request")
    else:
        refused = protocol.refusal(err.errors(), skip=1)  # locations start with "body"
    return JSONResponse(refused.payload(_language(request)), status_code=refused.status)


async def http_error(request: Request, err: HTTPException) -> Response:
    code = {404: "not_found", 405: "not_allowed"}.get(err.status_code, "bad_request")
    refused = ServerError(code, status=err.status_code)
    if err.status_code == 400 and isinstance(err.__cause__, ValueError):
        body = await request.body()  # FastAPI's "error parsing the body": JSON, but a number too long to read?
        if _number_too_long(body):
            refused = protocol.number_too_large(body)
    headers = {"Allow": _allowed(request)} if err.status_code == 405 else None
    return JSONResponse(refused.payload(_language(request)), status_code=err.status_code, headers=headers)


async def store_out_of_reach(request: Request, err: Exception) -> Response:
    # The database is restarting or gone (a read outside any table): said plainly, logged once a while.
    service_of(request).outage(err)
    return JSONResponse(ServerError("table_unavailable", status=503).payload(_language(request)), status_code=503)


async def service_out_of_reach(request: Request, err: Exception) -> Response:
    # A service the directory needs (Redis, for several processes) is out of reach.
    refused = directory_of(request).unreachable(err)
    return JSONResponse(refused.payload(_language(request)), status_code=503)


async def crashed(request: Request, err: Exception) -> Response:
    log.exception("request %s %s", request.method, request.url.path)
    return JSONResponse(ServerError("internal").payload(_language(request)), status_code=500)


# ---------------------------------------------------------------------------------------------------- HTTP
async def metrics_page(request: Request) -> Response:
    body, kind = request.app.state.metrics.exposition()
    return Response(body, media_type=kind)


@router.get("/api/health", responses={503: {"description": "this process cannot serve tables: what it cannot reach",
                                            "content": {"application/json": {"schema": _UNHEALTHY}}}})
async def health(directory: Directory) -> Response:
    """Readiness, for a load balancer: 200 when this process can serve tables, else 503 naming what it
    cannot reach (its database, Redis)."""
    down = directory.down()
    if down:
        return JSONResponse({"status": "unavailable", "down": down}, status_code=503)
    return JSONResponse({"status": "ok"})


@router.post("/api/tables", status_code=201, responses=_refusals({
    400: ("bad_request", "not_object", "unknown_field", "wrong_type", "bad_value", "bad_options", "bad_seats",
          "bad_timer", "bad_level", "no_such_model", "no_such_seat", "seats_empty", "number_too_large"),
    413: ("too_large",), 429: ("too_many_requests", "too_many_tables"), 503: ("server_full", "table_unavailable")}))
async def create_table(request: Request, directory: Directory, limits: Limited,
                       body: protocol.CreateTable | None = None) -> dict:
    if body is None and (await request.body()).strip():
        raise ServerError("not_object")  # `null`: refused as a join's is (no body at all is the defaults)
    limits.creations.check(address(request))
    return await directory.create(body or protocol.CreateTable(), address(request))


@router.get("/api/tables", responses=_refusals({503: ("table_unavailable",)}))
async def list_tables(directory: Directory) -> dict:
    return {"tables": await directory.lobby(200)}


@router.get("/api/tables/{code}", responses=_refusals({404: ("no_such_table",), 503: ("table_unavailable",)}))
async def get_table(directory: Directory, code: str) -> dict:
    return await directory.summary(code)


@router.post("/api/tables/{code}/join", responses=_refusals({
    400: ("bad_request", "not_object", "unknown_field", "wrong_type", "missing_field", "bad_value", "bad_name",
          "no_such_seat", "number_too_large"),
    404: ("no_such_table",), 409: ("seat_taken", "table_full", "already_started", "no_such_seat"),
    413: ("too_large",), 429: ("too_many_requests",), 503: ("table_unavailable",)}))
async def join_table(request: Request, directory: Directory, limits: Limited, code: str,
                     body: protocol.JoinTable) -> dict:
    limits.joins.check(address(request))
    return await directory.join(code, body.name, body.seat)


@router.get("/api/games", responses=_refusals({503: ("table_unavailable",)}))
async def list_games(service: Service) -> dict:
    return {"games": service.store.finished_games()}


async def _finished(service: TableService, game_id: str) -> dict:
    if not (game_id.isascii() and game_id.isdigit() and len(game_id) <= 20 and 1 <= int(game_id) <= protocol.MAX_GAME_ID):
        raise ServerError("no_such_game", status=404, sentence="game_id_range", limit=protocol.MAX_GAME_ID)
    game = await service.finished_game(int(game_id))
    if game is None:
        raise ServerError("no_such_game", status=404, id=int(game_id))
    return game


@router.get("/api/games/{game_id}", responses=_refusals({404: ("no_such_game",), 503: ("table_unavailable",)}))
async def get_game(service: Service, game_id: str) -> dict:
    return await _finished(service, game_id)


@router.get("/api/games/{game_id}/replay", responses=_refusals({
    400: ("no_such_round",), 404: ("no_such_game", "no_such_round"), 503: ("table_unavailable",)}))
async def get_replay(request: Request, service: Service, game_id: str, round: ROUND = "1") -> dict:
    """A finished game's round, frame by frame, for the browser's replay viewer (it has no rules engine)."""
    game = await _finished(service, game_id)
    rounds = len(game["record"]["rounds"])
    if round.isascii() and round.isdigit() and len(round) > 8:  # said too large, not shown cut
        raise ServerError("no_such_round", sentence="round_too_large", digits=len(round), rounds=rounds)
    if not round.isascii() or not round.isdigit() or not 1 <= int(round[:4]) or len(round) > 4:
        raise ServerError("no_such_round", round=protocol.echo(round, 8), rounds=rounds)
    if int(round) > rounds:  # a round this game did not play: not found, as an unknown game is
        raise ServerError("no_such_round", status=404, round=int(round), rounds=rounds)
    lang = request.query_params.get("lang")
    return await service.replay_frames(game, int(round), lang if lang in LANGUAGES else None)


@router.get("/api/i18n/{lang}", responses=_refusals({404: ("no_such_language",)}))
async def get_catalogue(lang: LANGUAGE) -> dict:
    if lang not in LANGUAGES:
        raise ServerError("no_such_language", status=404, language=protocol.echo(lang, 8))
    return {**catalogue("en"), **catalogue(lang)}


@router.get("/", include_in_schema=False)
@router.get("/t/{code}", include_in_schema=False)
async def index() -> Response:
    page = WEB_DIR / "index.html"
    if page.is_file():
        return FileResponse(page)
    return PlainTextResponse(t("server.no_web"))


# ---------------------------------------------------------------------------------------------------- websocket
@router.websocket("/ws/{code}")
async def websocket_endpoint(websocket: WebSocket, code: str) -> None:
    directory, limits = directory_of(websocket), limits_of(websocket)
    settings, clock = websocket.app.state.settings, websocket.app.state.clock
    await websocket.accept()
    conn = Connection(settings.rate_limit, current_language(), clock.monotonic, settings.chat_rate)
    who, sockets = address(websocket), limits.sockets
    if sockets.get(who, 0) >= MAX_CONNECTIONS_PER_ADDRESS:
        await websocket.send_text(dumps(ServerError("too_many_connections", limit=MAX_CONNECTIONS_PER_ADDRESS).payload()))
        await websocket.close(code=1013)
        return
    sockets[who] = sockets.get(who, 0) + 1  # counted before any wait: handshakes during a reload count too
    try:
        session = await directory.open(conn, code, functools.partial(_admit, conn, who, limits))
    except ServerError as err:
        _uncount(sockets, who)
        await websocket.send_text(dumps(err.payload(conn.lang)))
        await websocket.close(code=4404 if err.status == 404 else 1013)
        return
    except BaseException:
        _uncount(sockets, who)
        raise
    writer = asyncio.create_task(_write(websocket, conn))
    try:
        await _read(websocket, conn, session.handle, lambda: conn.allow(limits.frames, who))
    finally:
        _uncount(sockets, who)
        conn.close()
        session.close()
        await writer


# ---------------------------------------------------------------------------------------------------- the app
def create_app(directory: TableDirectory | str | Path, settings: Settings | None = None, database: str | None = None,
               redis_url: str | None = None, clock: Clock | None = None) -> FastAPI:
    """The server over a table directory (directory.py): its tables, local or shared with other processes.

    A path instead of a directory is a SQLite file (or, with ``database``, PostgreSQL), alone or as one of
    several processes sharing their tables through Redis (``redis_url``). ``clock`` times everything the
    server waits for or stores (clock.py; a test's, moved by hand); a directory brings its service's own."""
    settings = settings or Settings()
    if isinstance(directory, (str, Path)):
        directory = directory_for(directory, settings, clock or REAL, database, redis_url)
    clock = directory.service.clock
    _quiet_invalid_utf8()
    app = FastAPI(title="unokart", summary="UNO Mario Kart: tables, seats and games (docs/PROTOCOL.md)",
                  lifespan=_lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.directory, app.state.settings, app.state.clock = directory, settings, clock
    app.state.service = directory.service  # its tables, as tests and tools look at them
    app.state.limits = Limits.of(settings, clock.monotonic)
    app.state.metrics = None
    app.add_middleware(BodyLimit)
    app.openapi = lambda: _openapi(app, settings.models)  # type: ignore[method-assign]
    app.add_exception_handler(ServerError, server_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    for kind in STORE_ERRORS:
        app.add_exception_handler(kind, store_out_of_reach)  # type: ignore[arg-type]
    for kind in directory.unreachable_errors:
        app.add_exception_handler(kind, service_out_of_reach)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, crashed)
    if settings.metrics:
        app.add_api_route("/metrics", metrics_page, include_in_schema=False)
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI):
    directory: TableDirectory = app.state.directory
    service, settings = directory.service, app.state.settings
    if settings.metrics:
        from .metrics import Prometheus

        sockets = app.state.limits.sockets
        metrics = app.state.metrics = service.metrics = Prometheus(service, lambda: sum(sockets.values()))
        service.bots.waited = metrics.bot_wait
    await directory.start()
    sweeper = asyncio.create_task(_sweep(service, settings))
    # The OpenAPI document is made before the first request: its name patterns read the Unicode tables (a
    # third of a second here, several on a loaded machine), which the first client asking for it once waited
    # on past its timeout, the event loop blocked for every table meanwhile.
    app.openapi()
    log.info("ready: %d tables in memory, store %s%s%s", len(service.tables), type(service.store).__name__,
             ", several processes" if isinstance(directory, ClusterDirectory) else "",
             ", /metrics on" if app.state.metrics else "")
    try:
        yield
    finally:
        sweeper.cancel()
        await directory.close()
        if app.state.metrics is not None:
            app.state.metrics.close()


async def _sweep(service: TableService, settings: Settings) -> None:
    while True:
        await asyncio.sleep(min(SWEEP_EVERY, max(settings.idle, 1.0)))
        service.sweep()


def _admit(conn: Connection, who: str, limits: Limits, message: protocol.Message) -> None:
    """The transport's say on a valid websocket message: a join takes a seat as an HTTP join does, so it spends
    the same budget of the address; chat and reactions spend their own, per connection and per address."""
    if message.type == "join" and not conn.hello:  # type: ignore[attr-defined]
        limits.joins.check(who, websocket=True)
    elif message.type in protocol.TALK:  # type: ignore[attr-defined]
        conn.may_talk(limits.talks, who)


async def _read(websocket: WebSocket, conn: Connection, handle: Any, allow: Any) -> None:
    while not conn.closed:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
        allowed, tell = allow()
        if not allowed:
            if tell:  # at most once a second, so reading the dropped frame's id costs nothing that matters
                conn.push(dumps(ServerError("rate_limited").payload(conn.lang, re=protocol.frame_id(text))))
            continue
        handle(text)


async def _write(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's frames in order; a slow or gone client never blocks the table."""
    while True:
        text = await conn.outbox.get()
        if text is None:
            break
        try:
            await websocket.send_text(text)
        except Exception:  # noqa: BLE001 - the client is gone; the reader will notice
            conn.closed = True
            break
    with contextlib.suppress(Exception):
        await websocket.close(code=conn.close_code)


def _openapi(app: FastAPI, models: frozenset[str]) -> dict:
    """FastAPI's document, less what this server never answers (its 422 validation errors: refusals are 400
    with the protocol's error body), with the levels this server offers, and links from a new table to its
    summary and its seats, and from the list of games to the newest (so a tester asks for what exists)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        document = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
        for path in document.get("paths", {}).values():
            for operation in path.values():
                operation.get("responses", {}).pop("422", None)
                for media in operation.get("requestBody", {}).get("content", {}).values():
                    # An optional body is sent or not; `null` is not a body (400 not_object).
                    branches = media["schema"].get("anyOf", [])
                    if len(branches) == 2 and {"type": "null"} in branches:
                        media["schema"] = next(branch for branch in branches if branch != {"type": "null"})
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        schemas["ErrorReply"] = protocol.ErrorReply.model_json_schema()
        created = document["paths"]["/api/tables"]["post"]["responses"]["201"]
        code = {"code": "$response.body#/code"}
        created["links"] = {"GetTable": {"operationId": "get_table_api_tables__code__get", "parameters": code},
                            "JoinTable": {"operationId": "join_table_api_tables__code__join_post", "parameters": code}}
        newest = {"game_id": "$response.body#/games/0/id"}
        document["paths"]["/api/games"]["get"]["responses"]["200"]["links"] = {
            "GetGame": {"operationId": "get_game_api_games__game_id__get", "parameters": newest},
            "GetReplay": {"operationId": "get_replay_api_games__game_id__replay_get", "parameters": newest}}
        offered, anything = protocol.level_pattern(models), protocol.level_pattern(frozenset())
        app.openapi_schema = json.loads(json.dumps(document).replace(json.dumps(anything), json.dumps(offered)))
    return app.openapi_schema


def _allowed(request: Request) -> str:
    """A 405's ``Allow`` (RFC 9110): every method some route serves at this address. Starlette's own names
    only the first route matched, and /api/tables is two routes (GET and POST)."""
    methods: set[str] = set()
    for route in _routes(request.app.routes):
        if isinstance(route, Route) and route.path_regex.fullmatch(request.scope["path"]):
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


def _routes(routes: list) -> Iterator[Any]:
    """Every route, those of included routers too (FastAPI keeps an included router whole, as one entry)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        yield from _routes(included.routes) if included is not None else (route,)


def _number_too_long(body: Any) -> bool:
    """JSON refused only for an integer longer than Python reads (not a syntax error, not bytes that are not UTF-8)."""
    try:
        json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return False
    except ValueError:
        return True
    return False


def _is_json(body: Any) -> bool:
    if not isinstance(body, (bytes, str)):
        return True  # FastAPI parsed it: JSON, just not an object
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return False
    return True


__all__ = ["create_app", "Connection", "Listener", "Settings"]

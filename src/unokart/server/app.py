"""The transport: the HTTP API, the websocket and the browser client's files (docs/PROTOCOL.md).

This layer owns what belongs to connections and client addresses: body and
frame limits, rate limits (per connection for messages, per address for
table creation and joins), validation into the protocol's models, and the
language each answer is written in. Everything about tables happens in the
table service (tables.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as InPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Route
from starlette.staticfiles import StaticFiles

from ..i18n import LANGUAGES, catalogue, current_language, t
from . import protocol
from .limits import AddressLimits, Now, TokenBucket, talk_bucket, talk_limited, talk_limits
from .messages import dumps
from .protocol import MAX_BODY_BYTES, ServerError
from .store import STORE_ERRORS, SQLiteStore
from .clock import REAL, Clock
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


def create_app(db_path: str | Path, settings: Settings | None = None, database: str | None = None,
               redis_url: str | None = None, clock: Clock | None = None) -> FastAPI:
    """The server on a SQLite file, or on PostgreSQL (``database``), alone or as one of several processes
    sharing their tables through Redis (``redis_url``, cluster.py). ``clock`` times the tables' turns, grace
    periods and round pauses (the running loop's by default; a test's, moved by hand)."""
    settings = settings or Settings()
    clock = clock or REAL
    _quiet_invalid_utf8()
    creations = AddressLimits(settings.http_rate, 20, now=clock.monotonic)
    joins = AddressLimits(settings.http_rate, 20, now=clock.monotonic)
    frames = AddressLimits(ADDRESS_SHARE * settings.rate_limit, 2 * ADDRESS_SHARE * settings.rate_limit, now=clock.monotonic)
    talks = talk_limits(settings.chat_rate, clock.monotonic)
    sockets: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        if database:
            from .store_postgres import PostgresStore

            store: Any = PostgresStore(database, now=clock.time)
        else:
            store = SQLiteStore(db_path, now=clock.time)
        service = TableService(store, settings, clock)
        metrics = None
        if settings.metrics:
            from .metrics import Prometheus

            metrics = service.metrics = Prometheus(service, lambda: sum(sockets.values()))
            service.bots.waited = metrics.bot_wait
        app.state.metrics = metrics
        cluster = None
        if redis_url:
            from .cluster import Cluster, connect

            cluster = Cluster(service, await connect(redis_url), ttl=settings.lease_ttl)
            await cluster.start()  # tables in play are taken over as their leases allow, not all at once
        else:
            service.restore()
        app.state.service, app.state.cluster = service, cluster

        async def stop_serving() -> None:
            if cluster is not None:
                await cluster.hand_over()

        app.state.stop_serving = stop_serving

        async def sweep() -> None:
            while True:
                await asyncio.sleep(min(SWEEP_EVERY, max(settings.idle, 1.0)))
                service.sweep()

        sweeper = asyncio.create_task(sweep())
        # The OpenAPI document is made before the first request: its name patterns read the Unicode tables (a
        # third of a second here, several on a loaded machine), which the first client asking for it once waited
        # on past its timeout, the event loop blocked for every table meanwhile.
        app.openapi()
        log.info("ready: %d tables in memory, store %s%s%s", len(service.tables), type(store).__name__,
                 ", several processes" if cluster is not None else "", ", /metrics on" if metrics else "")
        try:
            yield
        finally:
            sweeper.cancel()
            if cluster is not None:
                await cluster.close()
            await service.close()
            store.close()
            if metrics is not None:
                metrics.close()

    app = FastAPI(title="unokart", summary="UNO Mario Kart: tables, seats and games (docs/PROTOCOL.md)",
                  lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(BodyLimit)
    app.openapi = lambda: _openapi(app, settings.models)  # type: ignore[method-assign]

    def service_of(request: Request | WebSocket) -> TableService:
        return request.app.state.service

    def cluster_of(request: Request | WebSocket) -> Any:
        return request.app.state.cluster

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    @app.exception_handler(ServerError)
    async def server_error(request: Request, err: ServerError) -> Response:
        headers = {"Retry-After": str(err.fields["seconds"])} if "seconds" in err.fields and err.status == 429 else None
        return JSONResponse(err.payload(_language(request)), status_code=err.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> Response:
        first = err.errors()[0] if err.errors() else {}
        if first.get("type") == "json_invalid" or first.get("loc") == ("body",) and first.get("type") == "missing":
            refused = ServerError("bad_request")
        elif first.get("loc") == ("body",):  # not an object: JSON of another kind, or not JSON at all
            refused = ServerError("not_object" if _is_json(err.body) else "bad_request")
        else:
            refused = protocol.refusal(err.errors(), skip=1)  # locations start with "body"
        return JSONResponse(refused.payload(_language(request)), status_code=refused.status)

    @app.exception_handler(HTTPException)
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

    for kind in STORE_ERRORS:
        app.add_exception_handler(kind, store_out_of_reach)  # type: ignore[arg-type]
    if redis_url:
        import redis.exceptions

        async def redis_out_of_reach(request: Request, err: Exception) -> Response:
            refused = cluster_of(request).unreachable(err)
            return JSONResponse(refused.payload(_language(request)), status_code=503)

        app.add_exception_handler(redis.exceptions.RedisError, redis_out_of_reach)  # type: ignore[arg-type]

    @app.exception_handler(Exception)
    async def crashed(request: Request, err: Exception) -> Response:
        log.exception("request %s %s", request.method, request.url.path)
        return JSONResponse(ServerError("internal").payload(_language(request)), status_code=500)

    # ------------------------------------------------------------------ HTTP
    if settings.metrics:
        @app.get("/metrics", include_in_schema=False)
        async def metrics_page(request: Request) -> Response:
            """Prometheus' text format (serve --metrics): on the same port, so firewall it from the players."""
            body, kind = request.app.state.metrics.exposition()
            return Response(body, media_type=kind)

    @app.get("/api/health", responses={503: {"description": "this process cannot serve tables: what it cannot reach",
                                              "content": {"application/json": {"schema": _UNHEALTHY}}}})
    async def health(request: Request) -> Response:
        """Readiness, for a load balancer: 200 when this process can serve tables, else 503 naming what it
        cannot reach (its database, Redis)."""
        service, cluster = service_of(request), cluster_of(request)
        down = []
        if not service.store_ready():
            down.append("database")
        if cluster is not None and not cluster.ready():
            down.append("redis")
        if down:
            return JSONResponse({"status": "unavailable", "down": down}, status_code=503)
        return JSONResponse({"status": "ok"})

    @app.post("/api/tables", status_code=201, responses=_refusals({
        400: ("bad_request", "not_object", "unknown_field", "wrong_type", "bad_value", "bad_options", "bad_seats",
              "bad_timer", "bad_level", "no_such_model", "no_such_seat", "seats_empty", "number_too_large"),
        413: ("too_large",), 429: ("too_many_requests", "too_many_tables"), 503: ("server_full", "table_unavailable")}))
    async def create_table(request: Request, body: protocol.CreateTable | None = None) -> dict:
        if body is None and (await request.body()).strip():
            raise ServerError("not_object")  # `null`: refused as a join's is (no body at all is the defaults)
        creations.check(address(request))
        service, cluster = service_of(request), cluster_of(request)
        if cluster is None:
            table = service.create_table(body or protocol.CreateTable(), creator=address(request))
        else:
            code = service.new_code()
            await cluster.claim_new(code)  # its rows are written under its lease
            try:
                table = service.create_table(body or protocol.CreateTable(), code, creator=address(request))
            except BaseException:
                await cluster.abandon(code)
                raise
            await cluster.created(table)
        return {"code": table.code, "link": service.link(table), "table": service.summary(table)}

    @app.get("/api/tables", responses=_refusals({503: ("table_unavailable",)}))
    async def list_tables(request: Request) -> dict:
        service, cluster = service_of(request), cluster_of(request)
        if cluster is not None:
            return {"tables": await cluster.lobby(200)}
        tables = sorted(service.tables.values(), key=lambda table: table.created, reverse=True)[:200]
        return {"tables": [service.summary(table) for table in tables]}

    @app.get("/api/tables/{code}", responses=_refusals({404: ("no_such_table",), 503: ("table_unavailable",)}))
    async def get_table(request: Request, code: str) -> dict:
        service, cluster = service_of(request), cluster_of(request)
        if cluster is not None:
            return await cluster.on_table(code, service.summary, "summary")
        return service.summary(await service.table_apart(code))

    @app.post("/api/tables/{code}/join", responses=_refusals({
        400: ("bad_request", "not_object", "unknown_field", "wrong_type", "missing_field", "bad_value", "bad_name",
              "no_such_seat", "number_too_large"),
        404: ("no_such_table",), 409: ("seat_taken", "table_full", "already_started", "no_such_seat"),
        413: ("too_large",), 429: ("too_many_requests",), 503: ("table_unavailable",)}))
    async def join_table(request: Request, code: str, body: protocol.JoinTable) -> dict:
        joins.check(address(request))
        service, cluster = service_of(request), cluster_of(request)

        def join_here(table: Table) -> dict:
            seat, token = service.join(table, body.name, body.seat)
            return {"code": table.code, "seat": seat, "token": token, "link": service.link(table)}

        if cluster is not None:
            return await cluster.on_table(code, join_here, "join", name=body.name, seat=body.seat)
        return join_here(await service.table_apart(code))

    @app.get("/api/games", responses=_refusals({503: ("table_unavailable",)}))
    async def list_games(request: Request) -> dict:
        return {"games": service_of(request).store.finished_games()}

    async def finished(request: Request, game_id: str) -> dict:
        if not (game_id.isascii() and game_id.isdigit() and len(game_id) <= 20 and 1 <= int(game_id) <= protocol.MAX_GAME_ID):
            raise ServerError("no_such_game", status=404, sentence="game_id_range", limit=protocol.MAX_GAME_ID)
        game = await service_of(request).finished_game(int(game_id))
        if game is None:
            raise ServerError("no_such_game", status=404, id=int(game_id))
        return game

    @app.get("/api/games/{game_id}", responses=_refusals({404: ("no_such_game",), 503: ("table_unavailable",)}))
    async def get_game(request: Request, game_id: str) -> dict:
        return await finished(request, game_id)

    @app.get("/api/games/{game_id}/replay", responses=_refusals({
        400: ("no_such_round",), 404: ("no_such_game", "no_such_round"), 503: ("table_unavailable",)}))
    async def get_replay(request: Request, game_id: str, round: ROUND = "1") -> dict:
        """A finished game's round, frame by frame, for the browser's replay viewer (it has no rules engine)."""
        game = await finished(request, game_id)
        rounds = len(game["record"]["rounds"])
        if round.isascii() and round.isdigit() and len(round) > 8:  # said too large, not shown cut
            raise ServerError("no_such_round", sentence="round_too_large", digits=len(round), rounds=rounds)
        if not round.isascii() or not round.isdigit() or not 1 <= int(round[:4]) or len(round) > 4:
            raise ServerError("no_such_round", round=protocol.echo(round, 8), rounds=rounds)
        if int(round) > rounds:  # a round this game did not play: not found, as an unknown game is
            raise ServerError("no_such_round", status=404, round=int(round), rounds=rounds)
        lang = request.query_params.get("lang")
        return await service_of(request).replay_frames(game, int(round), lang if lang in LANGUAGES else None)

    @app.get("/api/i18n/{lang}", responses=_refusals({404: ("no_such_language",)}))
    async def get_catalogue(lang: LANGUAGE) -> dict:
        if lang not in LANGUAGES:
            raise ServerError("no_such_language", status=404, language=protocol.echo(lang, 8))
        return {**catalogue("en"), **catalogue(lang)}

    @app.get("/", include_in_schema=False)
    @app.get("/t/{code}", include_in_schema=False)
    async def index() -> Response:
        page = WEB_DIR / "index.html"
        if page.is_file():
            return FileResponse(page)
        return PlainTextResponse(t("server.no_web"))

    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")

    # ------------------------------------------------------------------ websocket
    @app.websocket("/ws/{code}")
    async def websocket_endpoint(websocket: WebSocket, code: str) -> None:
        service, cluster = service_of(websocket), cluster_of(websocket)
        await websocket.accept()
        conn = Connection(settings.rate_limit, current_language(), clock.monotonic, settings.chat_rate)
        who = address(websocket)
        if sockets.get(who, 0) >= MAX_CONNECTIONS_PER_ADDRESS:
            await websocket.send_text(dumps(ServerError("too_many_connections", limit=MAX_CONNECTIONS_PER_ADDRESS).payload()))
            await websocket.close(code=1013)
            return
        sockets[who] = sockets.get(who, 0) + 1  # counted before any wait: handshakes during a reload count too
        try:
            where = await service.table_apart(code) if cluster is None else await cluster.locate(code)
        except ServerError as err:
            _uncount(sockets, who)
            await websocket.send_text(dumps(err.payload(conn.lang)))
            await websocket.close(code=4404 if err.status == 404 else 1013)
            return
        except BaseException:
            _uncount(sockets, who)
            raise

        admit = functools.partial(_admit, conn, who, joins, talks)

        writer = asyncio.create_task(_write(websocket, conn))
        relay = None
        try:
            if isinstance(where, Table):
                table = where

                def handle(text: Any) -> None:
                    service.handle_text(conn, table, text, admit)
            else:  # another process owns the table: checked here, decided there
                relay = cluster.relay_open(conn, where, TableService.valid_code(code) or "")

                def handle(text: Any) -> None:
                    re = None
                    try:
                        message, re = protocol.parse_message(text)
                        admit(message)
                    except ServerError as err:
                        conn.push(dumps(err.payload(conn.lang, re=re if re is not None else err.re)))
                        return
                    cluster.relay_frame(relay, text.decode("utf-8") if isinstance(text, bytes) else text)
            await _read(websocket, conn, handle, lambda: conn.allow(frames, who))
        finally:
            _uncount(sockets, who)
            conn.close()
            if relay is not None:
                cluster.relay_close(relay)
            service.disconnect(conn)
            await writer

    return app


def _admit(conn: Connection, who: str, joins: AddressLimits, talks: AddressLimits, message: protocol.Message) -> None:
    """The transport's say on a valid websocket message: a join takes a seat as an HTTP join does, so it spends
    the same budget of the address; chat and reactions spend their own, per connection and per address."""
    if message.type == "join" and not conn.hello:  # type: ignore[attr-defined]
        joins.check(who, websocket=True)
    elif message.type in protocol.TALK:  # type: ignore[attr-defined]
        conn.may_talk(talks, who)


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
    for route in request.app.routes:
        if isinstance(route, Route) and route.path_regex.fullmatch(request.scope["path"]):
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


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

"""Where tables are: one interface for a server alone and for one of several processes (docs/DESIGN.md, "The
server: composition").

The routes (app.py) ask a directory for a table's summary, a seat, the lobby or a websocket session, and never
which kind of directory they hold. ``LocalDirectory`` serves every table from this process's table service on
its own store; ``ClusterDirectory`` serves the tables whose lease this process holds and relays the others to
their owners through Redis (cluster.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from . import protocol
from .clock import Clock
from .messages import dumps
from .protocol import ServerError
from .store import SQLiteStore
from .tables import Listener, Settings, Table, TableService

Admit = Callable[[protocol.Message], None]  # the transport's say on a valid message (its rate limits)


class Session(Protocol):
    """One websocket's way to its table: each frame as it came, then the end."""

    def handle(self, text: Any) -> None: ...
    def close(self) -> None: ...


class TableDirectory(Protocol):
    service: TableService  # this process's tables (its finished games and replays are read through it too)
    unreachable_errors: tuple[type[BaseException], ...]  # errors that mean a service it needs is out of reach

    async def start(self) -> None: ...
    async def hand_over(self) -> None: ...
    async def close(self) -> None: ...
    def down(self) -> list[str]: ...
    def unreachable(self, err: BaseException) -> ServerError: ...
    async def create(self, request: protocol.CreateTable, creator: str) -> dict: ...
    async def lobby(self, limit: int) -> list[dict]: ...
    async def summary(self, code: str) -> dict: ...
    async def join(self, code: str, name: str, seat: int | None) -> dict: ...
    async def open(self, conn: Listener, code: str, admit: Admit) -> Session: ...


def created_reply(service: TableService, table: Table) -> dict:
    return {"code": table.code, "link": service.link(table), "table": service.summary(table)}


class LocalSession:
    """A websocket at a table this process serves."""

    def __init__(self, service: TableService, conn: Listener, table: Table, admit: Admit):
        self.service, self.conn, self.table, self.admit = service, conn, table, admit

    def handle(self, text: Any) -> None:
        self.service.handle_text(self.conn, self.table, text, self.admit)

    def close(self) -> None:
        self.service.disconnect(self.conn)


class LocalDirectory:
    """Every table in this process, on its store (a SQLite file, or PostgreSQL)."""

    unreachable_errors: tuple[type[BaseException], ...] = ()

    def __init__(self, service: TableService):
        self.service = service

    async def start(self) -> None:
        self.service.restore()

    async def hand_over(self) -> None:
        """Nothing to hand over: no other process serves these tables."""

    async def close(self) -> None:
        await self.service.close()
        self.service.store.close()

    def down(self) -> list[str]:
        return [] if self.service.store_ready() else ["database"]

    def unreachable(self, err: BaseException) -> ServerError:
        return ServerError("table_unavailable", status=503)  # never asked: it names no errors of its own

    async def create(self, request: protocol.CreateTable, creator: str) -> dict:
        return created_reply(self.service, self.service.create_table(request, creator=creator))

    async def lobby(self, limit: int) -> list[dict]:
        tables = sorted(self.service.tables.values(), key=lambda table: table.created, reverse=True)[:limit]
        return [self.service.summary(table) for table in tables]

    async def summary(self, code: str) -> dict:
        return self.service.summary(await self.service.table_apart(code))

    async def join(self, code: str, name: str, seat: int | None) -> dict:
        return self.service.join_reply(await self.service.table_apart(code), name, seat)

    async def open(self, conn: Listener, code: str, admit: Admit) -> Session:
        return LocalSession(self.service, conn, await self.service.table_apart(code), admit)


class RelaySession:
    """A websocket at a table another process owns: each frame checked here, decided there."""

    def __init__(self, cluster: Any, conn: Any, owner: str, code: str, admit: Admit):
        self.cluster, self.conn, self.admit = cluster, conn, admit
        self.ident = cluster.relay_open(conn, owner, TableService.valid_code(code) or "")

    def handle(self, text: Any) -> None:
        re = None
        try:
            message, re = protocol.parse_message(text)
            self.admit(message)
        except ServerError as err:
            self.conn.push(dumps(err.payload(self.conn.lang, re=re if re is not None else err.re)))
            return
        self.cluster.relay_frame(self.ident, text.decode("utf-8") if isinstance(text, bytes) else text)

    def close(self) -> None:
        self.cluster.relay_close(self.ident)
        self.cluster.service.disconnect(self.conn)


class ClusterDirectory:
    """One of several processes sharing their tables through Redis (and their rows in PostgreSQL)."""

    def __init__(self, service: TableService, redis_url: str, ttl: float):
        import redis.exceptions

        self.service, self.redis_url, self.ttl = service, redis_url, ttl
        self.unreachable_errors = (redis.exceptions.RedisError,)
        self.cluster: Any = None

    async def start(self) -> None:
        from .cluster import Cluster, connect

        self.cluster = Cluster(self.service, await connect(self.redis_url), ttl=self.ttl)
        await self.cluster.start()  # tables in play are taken over as their leases allow, not all at once

    async def hand_over(self) -> None:
        await self.cluster.hand_over()

    async def close(self) -> None:
        if self.cluster is not None:
            await self.cluster.close()
        await self.service.close()
        self.service.store.close()

    def down(self) -> list[str]:
        return [name for name, up in (("database", self.service.store_ready()), ("redis", self.cluster.ready()))
                if not up]

    def unreachable(self, err: BaseException) -> ServerError:
        return self.cluster.unreachable(err)

    async def create(self, request: protocol.CreateTable, creator: str) -> dict:
        code = self.service.new_code()
        await self.cluster.claim_new(code)  # its rows are written under its lease
        try:
            table = self.service.create_table(request, code, creator=creator)
        except BaseException:
            await self.cluster.abandon(code)
            raise
        await self.cluster.created(table)
        return created_reply(self.service, table)

    async def lobby(self, limit: int) -> list[dict]:
        return await self.cluster.lobby(limit)

    async def summary(self, code: str) -> dict:
        return await self.cluster.on_table(code, self.service.summary, "summary")

    async def join(self, code: str, name: str, seat: int | None) -> dict:
        return await self.cluster.on_table(code, lambda table: self.service.join_reply(table, name, seat), "join",
                                           name=name, seat=seat)

    async def open(self, conn: Listener, code: str, admit: Admit) -> Session:
        where = await self.cluster.locate(code)
        if isinstance(where, Table):
            return LocalSession(self.service, conn, where, admit)
        return RelaySession(self.cluster, conn, where, code, admit)


def directory_for(db_path: str | Path | None, settings: Settings, clock: Clock, database: str | None = None,
                  redis_url: str | None = None) -> TableDirectory:
    """The directory ``serve``'s flags ask for: a SQLite file, or PostgreSQL (``database``), alone or with the
    other processes on ``redis_url``."""
    if database:
        from .store_postgres import PostgresStore

        store: Any = PostgresStore(database, now=clock.time)
    else:
        store = SQLiteStore(db_path or "unokart.sqlite", now=clock.time)
    service = TableService(store, settings, clock)
    if redis_url:
        return ClusterDirectory(service, redis_url, settings.lease_ttl)
    return LocalDirectory(service)

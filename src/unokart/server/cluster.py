"""Several server processes serving the same tables: ``unokart serve --redis URL --database URL``.

Every process is the same program behind any load balancer, with no sticky
sessions. A client may land on any of them:

- **One owner per table.** The process that creates a table, or first needs one
  that nobody holds, takes its lease in Redis (lease.py) and loads it from
  PostgreSQL; it alone runs that table's service (its rules, timers and bots)
  and writes its rows, fenced by the lease's token. It renews the lease while it
  lives; when it dies, the lease runs out and another process takes the table
  over from the store, where every acknowledged action already is.
- **Relays.** A connection that lands on another process is relayed: its
  frames are checked and rate-limited where it landed, then go to the owner
  through the owner's inbox (a pub/sub channel per process); the owner treats
  it as one of its own connections, and what it tells that connection (its
  seat's view only, in its language) comes back through the relay's inbox.
  So updates fan out through Redis to exactly the processes with clients at
  the table, and a process never receives a view meant for a seat it does
  not serve.
- **Failover.** A relay that sees its owner's inbox go quiet (the process is
  gone) or the lease change hands closes its relayed connections with 1012
  (service restart); clients reconnect anywhere with their tokens. Each
  process also takes over tables in play whose lease has lapsed, so a table of
  bots alone carries on too.
- **The lobby** lists what every process holds: owners keep a short-lived
  summary of each of their tables in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from .lease import LEASE_PREFIX, FanOut, Lease, process_id
from .protocol import Said, ServerError
from .store import STORE_ERRORS
from .tables import Outage, Table, TableService

log = logging.getLogger("unokart.cluster")

INBOX_PREFIX = "unokart:proc:"  # one pub/sub channel per process
SUMMARY_PREFIX = "unokart:summary:"  # a table's lobby summary, kept by its owner while it holds the table
LISTED = "unokart:tables"  # codes of held tables, scored by creation time (newest first in the lobby)
CALL_SECONDS = 10.0  # an owner that does not answer a request in this time is taken for gone
WATCH_EVERY = 0.5  # seconds between looks at owners, relays and orphaned tables
CLOSE_MOVED = 1012  # websocket close code "service restart": the table moved, reconnect


class RemoteConnection:
    """On the owner: a client connected to another process, as the table service sees any connection."""

    def __init__(self, cluster: "Cluster", relay: str, ident: str, code: str, lang: str):
        self.cluster, self.relay, self.ident, self.code = cluster, relay, ident, code
        self.lang = lang
        self.seat: int | None = None
        self.hello = False
        self.table: Table | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if not self.closed:
            self.cluster._forward(self.relay, self.ident, text)

    def close(self, code: int = CLOSE_MOVED) -> None:
        """This process gives the table up: the relay closes its client, which reconnects."""
        if not self.closed:
            self.closed = True
            self.cluster._send(self.relay, {"op": "closed", "conn": self.ident})


class Relayed:
    """On the process a client landed on: the connection and the owner its frames go to."""

    __slots__ = ("conn", "owner", "code", "asked")

    def __init__(self, conn: Any, owner: str, code: str):
        self.conn, self.owner, self.code = conn, owner, code
        self.asked: float | None = None  # when a frame went to the owner with no answer back yet (relay latency)


class Cluster:
    """This process's part in serving tables with the others (see the module's account)."""

    def __init__(self, service: TableService, client: redis.Redis, ttl: float = 3.0, me: str | None = None):
        self.service = service
        self.client = client
        self.ttl = ttl
        self.me = me or process_id()
        self.leases: dict[str, Lease] = {}
        self.remote: dict[str, RemoteConnection] = {}  # as owner: clients of other processes, by connection id
        self.relayed: dict[str, Relayed] = {}  # as relay: this process's clients at tables owned elsewhere
        self.calls: dict[str, asyncio.Future] = {}
        self._suspects: set[str] = set()  # relayed connections whose owner looked gone at the last watch
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._pending: dict[str, list[tuple[str, str]]] = {}  # relay -> (connection, text) to forward this tick
        self._tasks: list[asyncio.Task] = []
        self.stopping = False  # handing over on the way out: no table is taken here any more
        # One log line every few seconds while Redis is out of reach.
        self.redis_outage = Outage("redis", log, now=service.clock.monotonic)
        self.inbox = FanOut(client, self._receive, prefix=INBOX_PREFIX)
        service.forgotten = self._forgotten
        service.lease_lost = self._lost
        if hasattr(service.store, "fence"):
            service.store.fence = self.token_of  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        await self.inbox.subscribe(self.me)
        self._tasks = [asyncio.create_task(self._send_loop(), name="cluster-send"),
                       asyncio.create_task(self._keep_leases(), name="cluster-leases"),
                       asyncio.create_task(self._watch(), name="cluster-watch")]

    async def hand_over(self) -> None:
        """Give every table up before anyone is told to reconnect: the tables leave this process (nothing more is
        written here), their leases are released, and only then are their clients, and the clients relayed
        from here, closed with 1012: wherever they reconnect, the table can be taken at once, never relayed
        back to this process on its way out."""
        self.stopping = True
        if self.service.writer is not None:  # the changes being committed are told first
            await self.service.writer.drain()
        self.service.forgotten = None  # the leases are given up below, in one place
        tables = [table for code in list(self.leases) if (table := self.service.forget(code)) is not None]
        for code in list(self.leases):
            await self._release(code)
        for table in tables:
            for conn in list(table.connections):
                conn.close(CLOSE_MOVED)
        for relayed in list(self.relayed.values()):
            relayed.conn.close(CLOSE_MOVED)
        await self._drain()

    async def close(self) -> None:
        """Leave cleanly: every table handed over (if not yet), then this process's part in the cluster ends."""
        if not self.stopping:
            await self.hand_over()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for code in list(self.leases):
            await self._release(code)
        await self.inbox.close()
        await self.client.aclose()

    def token_of(self, code: str) -> int | None:
        """The fencing token this process holds for a table (the store refuses writes without the newest)."""
        lease = self.leases.get(code)
        return lease.token if lease is not None else None

    # ------------------------------------------------------------------ where a table is
    async def locate(self, code: object) -> Table | str:
        """The table, when this process owns it (taking it if nobody does), else the id of the process that does."""
        valid = TableService.valid_code(code)
        if valid is None:
            raise ServerError("no_such_table", status=404, table=str(code)[:16])
        try:
            return await self._locate(valid)
        except (redis.RedisError, OSError) as err:
            raise self.unreachable(err) from None

    async def _locate(self, valid: str) -> Table | str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ttl + CALL_SECONDS / 2
        while True:
            if self.stopping:
                raise ServerError("table_unavailable", status=503)
            table = self.service.tables.get(valid) if valid in self.leases else None
            if table is not None:
                table.touch(self.service.clock.monotonic())
                return table
            holder = await self.client.get(LEASE_PREFIX + valid)
            holder = holder.decode() if isinstance(holder, bytes) else holder
            if holder is None:
                table = await self.take(valid)
                if table is not None:
                    return table
            elif holder != self.me and await self._alive(holder):
                return holder
            # A dead owner's lease runs out within its ttl; a taking-over process loads within moments.
            if loop.time() > deadline:
                raise ServerError("table_unavailable", status=503)
            await asyncio.sleep(0.1)

    async def take(self, code: str) -> Table | None:
        """Take a table nobody holds: its lease, then its state from the store. None when another process won;
        ServerError no_such_table when there is no such table."""
        if self.stopping:
            return None
        lease = self._lease(code)
        if await self._acquire(lease) is None:
            return None
        self._hold(code, lease)
        try:
            table = await self.service.load_apart(code)
        except ServerError:  # no room here (--max-tables), or the database out of reach: another may take it
            await self._release(code)
            raise
        if table is None:
            await self._release(code)
            raise ServerError("no_such_table", status=404, table=code)
        await self._publish_summaries([table])
        log.info("table %s taken by %s (lease %s)", code, self.me, lease.token)
        return table

    async def claim_new(self, code: str) -> None:
        """The lease of a code not yet used (table creation writes under it)."""
        lease = self._lease(code)
        if await self._acquire(lease) is None:
            raise ServerError("table_unavailable", status=503)
        self._hold(code, lease)

    async def created(self, table: Table) -> None:
        await self._publish_summaries([table])

    async def abandon(self, code: str) -> None:
        """A claimed code whose table was not created after all."""
        await self._release(code)

    def _lease(self, code: str) -> Lease:
        # Tokens from the database when it has a sequence for them (PostgreSQL): they survive Redis restarts.
        return Lease(self.client, code, self.me, self.ttl, draw=getattr(self.service.store, "next_fence_token", None))

    async def _acquire(self, lease: Lease) -> int | None:
        try:
            return await lease.acquire()
        except STORE_ERRORS as err:  # no token without the database: the table waits for it
            self.service.outage(err)
            raise ServerError("table_unavailable", status=503) from None
        except (redis.RedisError, OSError) as err:
            raise self.unreachable(err) from None

    def ready(self) -> bool:
        """Whether this process reaches Redis (as its last look found): what /api/health tells a balancer."""
        return self.redis_outage.since is None

    def unreachable(self, err: BaseException) -> ServerError:
        """Redis is out of reach: logged as part of the outage, and every client relayed from here is closed
        with 1012 at once (its owner cannot be reached, and silence would leave it waiting for nothing);
        returns the refusal to answer with."""
        self.redis_outage.failed(err)
        for ident, relayed in list(self.relayed.items()):
            self.relayed.pop(ident, None)
            relayed.conn.close(CLOSE_MOVED)
        return ServerError("table_unavailable", status=503)

    def _hold(self, code: str, lease: Lease) -> None:
        self.leases[code] = lease

    async def _keep_leases(self) -> None:
        """Renew every lease this process holds, all in one pipeline, every third of the ttl (one round trip
        however many tables). A lease Redis no longer gives us is dropped. When Redis has not answered for a
        whole ttl, the tables with a client at another process are given up (those clients cannot be reached);
        the tables whose clients are all here play on: no process can take a lease while Redis is down, and
        should one take a table over once it is back (or while this process alone cannot reach it), its newer
        fencing token makes PostgreSQL refuse this process's next write, and the table leaves here then."""
        loop = asyncio.get_running_loop()
        confirmed = loop.time()
        while True:
            await asyncio.sleep(self.ttl / 3)
            held = list(self.leases.items())
            if not held:
                confirmed = loop.time()
                continue
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for _, lease in held:
                        # Reclaimed when Redis came back empty: the tables played on through the outage go on.
                        await lease.renew_in(pipe, reclaim=True)
                    kept = await pipe.execute()
                confirmed = loop.time()
            except (redis.RedisError, OSError) as err:
                self.redis_outage.failed(err)
                if loop.time() - confirmed < self.ttl:
                    continue
                kept = [0 if self._reaches_elsewhere(code) else 1 for code, _ in held]
                if not all(kept):
                    log.warning("leases unconfirmed for %.1f s: %d tables with clients elsewhere given up, %d play on",
                                self.ttl, kept.count(0), sum(kept))
            for (code, lease), ok in zip(held, kept):
                if not ok and self.leases.get(code) is lease:
                    log.warning("lease of table %s lost by %s", code, self.me)
                    self._lost(code)

    def _reaches_elsewhere(self, code: str) -> bool:
        """Whether a table held here has a client at another process (relayed through Redis)."""
        table = self.service.tables.get(code)
        return table is None or any(isinstance(conn, RemoteConnection) for conn in table.connections)

    def _lost(self, code: str) -> None:
        """The lease ran out under us (Redis unreachable, or this process paused past it): drop the table."""
        self.leases.pop(code, None)
        table = self.service.forget(code)
        if table is not None:
            for conn in list(table.connections):
                conn.close(CLOSE_MOVED)

    def _forgotten(self, table: Table) -> None:
        """The table left memory (idle): its lease goes too, so any process may load it when asked."""
        if table.code in self.leases:
            asyncio.get_running_loop().create_task(self._release(table.code))

    async def _release(self, code: str) -> None:
        lease = self.leases.pop(code, None)
        if lease is not None:
            with contextlib.suppress(redis.RedisError, OSError):
                await lease.release()
                await self.client.delete(SUMMARY_PREFIX + code)
                await self.client.zrem(LISTED, code)

    async def _alive(self, process: str) -> bool:
        """Whether a process is listening on its inbox (a killed process's subscription ends with its socket)."""
        return bool((await self.client.pubsub_numsub(INBOX_PREFIX + process))[0][1])

    # ------------------------------------------------------------------ requests to an owner
    async def call(self, owner: str, what: str, code: str, **args: Any) -> Any:
        """Ask the owner of ``code`` to do ``what`` (summary or join); its ServerError is raised here."""
        ident = uuid.uuid4().hex
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self.calls[ident] = future
        self._send(owner, {"op": "call", "id": ident, "from": self.me, "what": what, "code": code, "args": args})
        started = time.perf_counter()
        try:
            reply = await asyncio.wait_for(future, CALL_SECONDS)
            self.service.metrics.relay("call", time.perf_counter() - started)
        except asyncio.TimeoutError:
            raise ServerError("table_unavailable", status=503) from None
        finally:
            self.calls.pop(ident, None)
        if "error" in reply:
            error = reply["error"]
            raise ServerError(error["code"], rule=error.get("rule"), status=error["status"], sentence=error["sentence"],
                              **{k: Said.unwire(v) for k, v in error["fields"].items()})
        if "moved" in reply:
            raise _Moved()
        return reply["ok"]

    async def on_table(self, code: object, here: Callable[[Table], Any], what: str, **args: Any) -> Any:
        """``here(table)`` when this process owns the table, else the owner's answer to ``what``."""
        for _ in range(3):
            where = await self.locate(code)
            if isinstance(where, Table):
                return here(where)
            try:
                return await self.call(where, what, TableService.valid_code(code) or "", **args)
            except _Moved:
                await asyncio.sleep(0.1)
        raise ServerError("table_unavailable", status=503)

    def _answer_call(self, message: dict) -> None:
        code, caller = message["code"], message["from"]
        table = self.service.tables.get(code) if code in self.leases else None
        if table is None:
            self._send(caller, {"op": "reply", "id": message["id"], "moved": True})
            return
        try:
            if message["what"] == "join":
                args = message["args"]
                result: Any = self.service.join_reply(table, args["name"], args.get("seat"))
            else:
                result = self.service.summary(table)
            reply: dict = {"op": "reply", "id": message["id"], "ok": result}
        except ServerError as err:
            reply = {"op": "reply", "id": message["id"], "error": {
                "code": err.code, "rule": err.rule, "status": err.status, "sentence": err.sentence,
                "fields": {k: v if isinstance(v, (int, float, str, type(None))) else v.wire() if isinstance(v, Said)
                           else str(v) for k, v in err.fields.items()}}}
        self._send(caller, reply)

    # ------------------------------------------------------------------ relayed connections
    def relay_open(self, conn: Any, owner: str, code: str) -> str:
        ident = f"{self.me}/{uuid.uuid4().hex[:12]}"
        self.relayed[ident] = Relayed(conn, owner, code)
        self._send(owner, {"op": "open", "conn": ident, "from": self.me, "code": code, "lang": conn.lang})
        return ident

    def relay_frame(self, ident: str, text: str) -> None:
        relayed = self.relayed.get(ident)
        if relayed is not None:
            if relayed.asked is None:
                relayed.asked = time.perf_counter()
            self._send(relayed.owner, {"op": "msg", "conn": ident, "text": text})

    def relay_close(self, ident: str) -> None:
        relayed = self.relayed.pop(ident, None)
        if relayed is not None:
            self._send(relayed.owner, {"op": "close", "conn": ident})

    # ------------------------------------------------------------------ the inbox
    def _receive(self, _me: str, text: str) -> None:
        message = json.loads(text)
        op = message["op"]
        if op == "pushes":  # as relay: what owners tell our clients
            for idents, frame in message["items"]:
                for ident in idents:
                    relayed = self.relayed.get(ident)
                    if relayed is not None:
                        if relayed.asked is not None:
                            self.service.metrics.relay("frame", time.perf_counter() - relayed.asked)
                            relayed.asked = None
                        relayed.conn.push(frame)
        elif op == "open":
            code = message["code"]
            if code not in self.leases or code not in self.service.tables:
                self._send(message["from"], {"op": "closed", "conn": message["conn"]})
                return
            self.remote[message["conn"]] = RemoteConnection(self, message["from"], message["conn"], code,
                                                             message["lang"])
        elif op == "msg":
            remote = self.remote.get(message["conn"])
            table = self.service.tables.get(remote.code) if remote is not None and remote.code in self.leases else None
            if remote is None or table is None:
                self._send(message["conn"].split("/")[0], {"op": "closed", "conn": message["conn"]})
                return
            self.service.handle_text(remote, table, message["text"])
        elif op == "close":
            remote = self.remote.pop(message["conn"], None)
            if remote is not None:
                remote.closed = True
                self.service.disconnect(remote)
        elif op == "closed":  # as relay: the owner gave the table up
            relayed = self.relayed.get(message["conn"])
            if relayed is not None:
                relayed.conn.close(CLOSE_MOVED)
        elif op == "call":
            self._answer_call(message)
        elif op == "reply":
            future = self.calls.get(message["id"])
            if future is not None and not future.done():
                future.set_result(message)

    # ------------------------------------------------------------------ sending, in order
    def _send(self, process: str, message: dict) -> None:
        self._flush()  # what was queued for forwarding goes first: one order per process
        self._outbox.put_nowait((process, json.dumps(message, ensure_ascii=False, separators=(",", ":"))))

    def _forward(self, relay: str, ident: str, text: str) -> None:
        """Collect this tick's frames for a relay: one message per relay however many of its clients are told."""
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        self._pending.setdefault(relay, []).append((ident, text))

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for relay, frames in pending.items():
            items: list[list] = []
            for ident, text in frames:
                if items and items[-1][1] is text:  # a broadcast: one text for each (seat, language)
                    items[-1][0].append(ident)
                else:
                    items.append([[ident], text])
            self._outbox.put_nowait((relay, json.dumps({"op": "pushes", "items": items}, ensure_ascii=False,
                                                       separators=(",", ":"))))

    async def _send_loop(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for process, text in batch:
                        pipe.publish(INBOX_PREFIX + process, text)
                    await pipe.execute()
            except (redis.RedisError, OSError) as err:  # lost: the receivers see a gap in versions and resync
                self.unreachable(err)
            for _ in batch:
                self._outbox.task_done()

    async def _drain(self) -> None:
        self._flush()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._outbox.join(), 2)

    # ------------------------------------------------------------------ watching the others
    async def _watch(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(WATCH_EVERY)
            ticks += 1
            try:
                await self.client.ping()
                if self.redis_outage.since is not None:
                    # Back: the idle connections of before the outage are dropped, new ones opened as needed.
                    await self.client.connection_pool.disconnect(inuse_connections=False)
                self.redis_outage.over()
                await self._check_owners()
                await self._check_relays()
                if ticks % 2 == 0:
                    await self._publish_summaries([t for c, t in self.service.tables.items() if c in self.leases])
                    await self._take_orphans()
            except (redis.RedisError, OSError) as err:
                self.unreachable(err)
            except STORE_ERRORS as err:  # the database is out of reach: part of the outage's log, no traceback
                self.service.outage(err)
            except Exception:  # noqa: BLE001 - the watch must go on whatever one look finds
                log.exception("cluster watch")

    async def _check_owners(self) -> None:
        """Relayed clients whose owner is gone, or whose table changed hands, reconnect."""
        if not self.relayed:
            return
        pairs = {(r.code, r.owner) for r in self.relayed.values()}
        codes = sorted({code for code, _ in pairs})
        holders = dict(zip(codes, await self.client.mget([LEASE_PREFIX + c for c in codes])))
        owners = sorted({owner for _, owner in pairs})
        counts = dict(await self.client.pubsub_numsub(*[INBOX_PREFIX + o for o in owners]))
        for ident, relayed in list(self.relayed.items()):
            holder = holders.get(relayed.code)
            holder = holder.decode() if isinstance(holder, bytes) else holder
            inbox = (INBOX_PREFIX + relayed.owner).encode()
            listening = counts.get(inbox, counts.get(inbox.decode(), 0))
            if holder == relayed.owner and listening:
                self._suspects.discard(ident)
            elif ident not in self._suspects:  # seen twice, half a second apart: not a moment's blip
                self._suspects.add(ident)
            else:
                log.info("table %s: owner %s gone, client %s reconnects", relayed.code, relayed.owner, ident)
                self._suspects.discard(ident)
                self.relayed.pop(ident, None)
                relayed.conn.close(CLOSE_MOVED)

    async def _check_relays(self) -> None:
        """Clients of a relay that is gone have left their seats (their grace begins)."""
        if not self.remote:
            return
        relays = sorted({r.relay for r in self.remote.values()})
        counts = dict(await self.client.pubsub_numsub(*[INBOX_PREFIX + r for r in relays]))
        for ident, remote in list(self.remote.items()):
            inbox = (INBOX_PREFIX + remote.relay).encode()
            if not counts.get(inbox, counts.get(inbox.decode(), 0)):
                self.remote.pop(ident, None)
                remote.closed = True
                self.service.disconnect(remote)

    async def _take_orphans(self) -> None:
        """Tables in play whose owner is gone carry on here (bots and timers need an owner to move)."""
        codes = [code for code in self.service.store.live_tables() if code not in self.leases]
        if not codes:
            return
        holders = await self.client.mget([LEASE_PREFIX + c for c in codes])
        for code, holder in zip(codes, holders):
            if holder is None:
                with contextlib.suppress(ServerError):
                    await self.take(code)

    async def _publish_summaries(self, tables: list[Table]) -> None:
        if not tables:
            return
        async with self.client.pipeline(transaction=False) as pipe:
            for table in tables:
                pipe.set(SUMMARY_PREFIX + table.code, json.dumps(self.service.summary(table), ensure_ascii=False),
                         px=int(self.ttl * 3000))
                pipe.zadd(LISTED, {table.code: table.created})
            await pipe.execute()

    async def lobby(self, limit: int = 200) -> list[dict]:
        """The tables every process holds, newest first (summaries a moment old for other processes' tables)."""
        try:
            return await self._lobby(limit)
        except (redis.RedisError, OSError) as err:
            raise self.unreachable(err) from None

    async def _lobby(self, limit: int) -> list[dict]:
        codes = [c.decode() if isinstance(c, bytes) else c for c in await self.client.zrevrange(LISTED, 0, 2 * limit - 1)]
        if not codes:
            return []
        found = await self.client.mget([SUMMARY_PREFIX + c for c in codes])
        out, gone = [], []
        for code, text in zip(codes, found):
            table = self.service.tables.get(code) if code in self.leases else None
            if table is not None:
                out.append(self.service.summary(table))
            elif text is not None:
                out.append(json.loads(text))
            else:
                gone.append(code)
        if gone:
            await self.client.zrem(LISTED, *gone)
        return out[:limit]


class _Moved(Exception):
    """The process asked no longer owns the table: locate it again."""


REDIS_CONNECTIONS = 32  # per process: work beyond waits for a free connection instead of opening more


async def connect(url: str) -> redis.Redis:
    """A Redis client that has answered a PING (the caller says in one sentence why not)."""
    # A pooled connection opened before Redis restarted is dead without knowing it: a command on it fails
    # once, and is tried again at once on a new connection (a publish was lost 15 to 61 s after a restart).
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=10,
                                                 socket_connect_timeout=5, health_check_interval=10,
                                                 retry=Retry(NoBackoff(), 1),
                                                 retry_on_error=[redis.ConnectionError, redis.TimeoutError])
    client = redis.Redis(connection_pool=pool)
    await client.ping()
    return client


__all__ = ["Cluster", "RemoteConnection", "connect", "CLOSE_MOVED"]

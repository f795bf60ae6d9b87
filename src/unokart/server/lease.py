"""Several server processes on Redis: who owns a table (a lease), and how its updates reach every process (pub/sub).

Lease: one Redis key per table, ``SET key OWNER NX PX ttl``: the process that
sets it owns the table until the key expires. The owner renews it (a Lua
script that extends the key only while it still holds the owner's id, so a
process that lost it cannot extend another's) and releases it the same way
(delete only if still its own). A process that dies stops renewing; after at
most ``ttl`` another process's ``acquire`` succeeds: that is the failover.
Each acquisition also draws a fencing token (a counter that only grows): a
store can refuse writes carrying an older token than the table's last one, so
an owner paused past its lease (a long GC, a frozen VM) cannot write after the
next owner has begun. The server draws its tokens from PostgreSQL (a
sequence), since Redis without persistence forgets its counter when it
restarts; Redis's own counter is the default for a lease alone.

Fan-out: one channel per table; the owner publishes each update once and
every process subscribed to that table (because it has clients there) hands
it on. Redis pub/sub delivers at most once and only to current subscribers,
so messages carry the table's version: a process that sees a gap (or has just
subscribed) reloads the table's state from the store instead of trusting the
stream.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable

import redis.asyncio as redis

log = logging.getLogger("unokart.lease")

LEASE_PREFIX = "unokart:lease:"
FENCE_PREFIX = "unokart:fence:"
CHANNEL_PREFIX = "unokart:table:"

# KEYS[1] lease, KEYS[2] fence; ARGV[1] owner, ARGV[2] ttl in ms. The token is drawn only when the lease is won.
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false
"""
# Extend or delete only while the key still names this owner (a check and a change in one atomic step).
# ARGV[3] '1': a key gone with nobody else's in its place (Redis restarted empty) is set again for this owner;
# should another process have owned the table meanwhile, its newer fencing token refuses this owner's writes.
_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not holder and ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def process_id() -> str:
    """An owner id unique to this process (host, pid and a random part, since pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


class Lease:
    """One table's ownership lease in Redis, for ``owner`` (default: this process)."""

    def __init__(self, client: redis.Redis, table: str, owner: str | None = None, ttl: float = 5.0,
                 draw: Callable[[], int] | None = None):
        """``draw``: where fencing tokens come from when not from Redis (the PostgreSQL store's sequence,
        which no restart of Redis sets back)."""
        if ttl <= 0:
            raise ValueError("a lease's ttl is a positive number of seconds")
        self.client = client
        self.table = table
        self.key, self.fence_key = LEASE_PREFIX + table, FENCE_PREFIX + table
        self.owner = owner or process_id()
        self.ttl = ttl
        self.draw = draw
        self.token: int | None = None  # the fencing token of the current holding
        self.lost = asyncio.Event()
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    @property
    def _ttl_ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    async def acquire(self) -> int | None:
        """Take the lease if nobody holds it: its fencing token, or None when another process holds it."""
        if self.draw is None:
            token = await self._acquire(keys=[self.key, self.fence_key], args=[self.owner, self._ttl_ms])
            if token is None:
                return None
        else:
            if not await self.client.set(self.key, self.owner, nx=True, px=self._ttl_ms):
                return None
            try:
                token = self.draw()
            except BaseException:
                await self._release(keys=[self.key], args=[self.owner])
                raise
            # Still ours after the draw: then no later owner can have drawn before us, so its token is newer.
            if not await self.renew():
                return None
        self.token = int(token)
        self.lost.clear()
        return self.token

    async def renew(self) -> bool:
        """Extend the lease by ``ttl`` from now; False when it is no longer this owner's (expired or taken)."""
        return bool(await self._renew(keys=[self.key], args=[self.owner, self._ttl_ms, "0"]))

    async def renew_in(self, pipe: "redis.client.Pipeline", reclaim: bool = False) -> None:
        """Queue this lease's renewal in a pipeline (its result: 1 when still ours, 0 when not); ``reclaim``: a
        key that is gone (Redis restarted) and nobody else's is set again for this owner."""
        await self._renew(keys=[self.key], args=[self.owner, self._ttl_ms, "1" if reclaim else "0"], client=pipe)

    async def release(self) -> bool:
        """Give the lease up at once (another process may take the table now); False when it was not ours."""
        released = bool(await self._release(keys=[self.key], args=[self.owner]))
        self.token = None
        return released

    async def holder(self) -> str | None:
        """The owner id holding the table now, if any."""
        value = await self.client.get(self.key)
        return value.decode() if isinstance(value, bytes) else value

    async def keep(self, on_lost: Callable[[], object] | None = None) -> None:
        """Renew every third of the ttl until cancelled. When the lease is lost, or Redis cannot confirm it
        for a whole ttl (another process may own the table by then), set ``lost``, call ``on_lost`` and return."""
        confirmed = time.monotonic()
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                if not await self.renew():
                    break
                confirmed = time.monotonic()
            except (redis.RedisError, OSError) as err:
                if time.monotonic() - confirmed >= self.ttl:
                    log.warning("lease of %s unconfirmed for %.1f s: %s", self.table, self.ttl, err)
                    break
        log.warning("lease of table %s lost by %s", self.table, self.owner)
        self.lost.set()
        if on_lost is not None:
            result = on_lost()
            if isinstance(result, Awaitable):
                await result


class FanOut:
    """Messages over Redis pub/sub, one channel per name (a table's, by default): ``publish`` from one process,
    ``deliver(name, message)`` in every subscribed process (in the order they were published, at most once)."""

    def __init__(self, client: redis.Redis, deliver: Callable[[str, str], object], prefix: str = CHANNEL_PREFIX):
        self.client = client
        self.deliver = deliver
        self.prefix = prefix
        self.pubsub = client.pubsub()
        self._confirmed: dict[str, asyncio.Event] = {}
        self._reader: asyncio.Task | None = None
        self._complained = -1e9

    async def publish(self, table: str, message: str) -> int:
        """Send one update of ``table`` to every process subscribed to it; returns how many received it."""
        return int(await self.client.publish(self.prefix + table, message))

    async def subscribe(self, table: str) -> None:
        """Receive ``table``'s updates from now on (returns once Redis has confirmed the subscription)."""
        channel = self.prefix + table
        confirmed = self._confirmed[channel] = asyncio.Event()
        await self.pubsub.subscribe(channel)
        if self._reader is None:
            self._reader = asyncio.create_task(self._read(), name="fan-out")
        await confirmed.wait()

    async def unsubscribe(self, table: str) -> None:
        self._confirmed.pop(self.prefix + table, None)
        await self.pubsub.unsubscribe(self.prefix + table)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
            except (redis.ConnectionError, OSError) as err:
                # redis-py reconnects and subscribes again on the next read; what was sent meanwhile is lost,
                # which the versions in the messages reveal to the receivers. Said once every few seconds.
                now = time.monotonic()
                if now - self._complained >= 5.0:
                    self._complained = now
                    log.warning("fan-out connection lost, reconnecting: %s", err)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
            if message["type"] == "subscribe":
                event = self._confirmed.get(channel)
                if event is not None:
                    event.set()
            elif message["type"] == "message" and channel.startswith(self.prefix):
                data = message["data"]
                try:
                    result = self.deliver(channel[len(self.prefix):],
                                          data.decode("utf-8") if isinstance(data, bytes) else data)
                    if isinstance(result, Awaitable):
                        await result
                except Exception:  # noqa: BLE001 - one bad delivery must not stop every table's updates
                    log.exception("fan-out delivery failed on %s", channel)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except asyncio.CancelledError:
                pass
            self._reader = None
        await self.pubsub.aclose()

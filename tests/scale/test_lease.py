"""Table ownership leases and update fan-out against the real redis-server of the test session.

Each "process" here is its own Redis connection and owner id, as separate
server processes would be.
"""

from __future__ import annotations

import asyncio
import time

import redis.asyncio as redis

from unokart.server.lease import FanOut, Lease


def _run(redis_url, body):
    async def main():
        clients = [redis.Redis.from_url(redis_url) for _ in range(3)]
        try:
            return await body(*clients)
        finally:
            for client in clients:
                await client.aclose()
    return asyncio.run(main())


async def _eventually(check, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.02)


def test_one_process_at_a_time_holds_a_table_and_tokens_only_grow(redis_url):
    async def body(a, b, _):
        first, second = Lease(a, "K7Q2XM", "process-a", ttl=30), Lease(b, "K7Q2XM", "process-b", ttl=30)
        token = await first.acquire()
        assert token == 1
        assert await second.acquire() is None  # held: nobody else gets it
        assert await second.holder() == "process-a"
        assert await first.acquire() is None  # not even its owner twice: a holding is one acquisition
        assert not await second.release() and await first.holder() == "process-a"  # not second's to release
        assert not await second.renew()
        assert await first.release()
        assert await second.acquire() == 2  # released: taken at once, with a later token
        assert await Lease(a, "OTHER1", "process-a", ttl=30).acquire() == 1  # tables are independent
    _run(redis_url, body)


def test_a_dead_owners_table_is_taken_over_and_it_can_no_longer_renew_or_release_it(redis_url):
    async def body(a, b, _):
        dead, heir = Lease(a, "FAILOV", "dead", ttl=0.3), Lease(b, "FAILOV", "heir", ttl=30)
        assert await dead.acquire() == 1
        # The owner dies (stops renewing): its key expires on its own and the heir takes it.
        await _eventually(lambda: heir.acquire())
        assert heir.token == 2 and await heir.holder() == "heir"
        assert not await dead.renew()  # woken up late: it cannot extend the heir's lease...
        assert not await dead.release()  # ...nor delete it
        assert await heir.holder() == "heir"
    _run(redis_url, body)


def test_renewing_extends_the_lease_from_now(redis_url):
    async def body(a, _, __):
        lease = Lease(a, "RENEWS", "owner", ttl=60)
        await lease.acquire()
        await a.pexpire(lease.key, 500)  # as if most of the ttl had passed
        assert await a.pttl(lease.key) <= 500
        assert await lease.renew()
        assert await a.pttl(lease.key) > 50_000
    _run(redis_url, body)


def test_a_kept_lease_outlives_its_ttl_and_a_lost_one_is_reported(redis_url):
    async def body(a, b, _):
        owner, rival = Lease(a, "KEPT01", "owner", ttl=1.0), Lease(b, "KEPT01", "rival", ttl=1.0)
        await owner.acquire()
        lost: list[str] = []
        keeper = asyncio.create_task(owner.keep(on_lost=lambda: lost.append("lost")))
        deadline = time.monotonic() + 3.0  # three ttls
        while time.monotonic() < deadline:
            assert await rival.acquire() is None
            await asyncio.sleep(0.1)
        assert not lost and not owner.lost.is_set()
        await a.delete(owner.key)  # taken from it (e.g. it was paused past its ttl and another took over)
        await rival.acquire()
        await asyncio.wait_for(keeper, 10)
        assert lost == ["lost"] and owner.lost.is_set()
        assert await rival.holder() == "rival"
    _run(redis_url, body)


def test_updates_reach_every_subscribed_process_in_order_and_only_those(redis_url):
    async def body(a, b, c):
        got_b: list[tuple[str, str]] = []
        got_c: list[tuple[str, str]] = []
        in_b = FanOut(b, lambda table, message: got_b.append((table, message)))
        in_c = FanOut(c, lambda table, message: got_c.append((table, message)))
        owner = FanOut(a, lambda table, message: None)
        await in_b.subscribe("TABLE1")
        await in_c.subscribe("TABLE1")
        await in_c.subscribe("TABLE2")
        sent = [f'{{"type": "state", "version": {v}}}' for v in range(100)]
        for message in sent:
            assert await owner.publish("TABLE1", message) == 2
        assert await owner.publish("TABLE2", "தமிழ் ✓") == 1
        assert await owner.publish("NOBODY", "lost") == 0

        async def arrived():
            return len(got_b) == 100 and len(got_c) == 101
        await _eventually(arrived)
        assert got_b == [("TABLE1", m) for m in sent]
        assert [m for t, m in got_c if t == "TABLE1"] == sent and ("TABLE2", "தமிழ் ✓") in got_c
        await in_b.unsubscribe("TABLE1")
        await _eventually(lambda: _count(a, "TABLE1", 1))
        assert await owner.publish("TABLE1", "after") == 1
        await _eventually(lambda: _has(got_c, ("TABLE1", "after")))
        assert ("TABLE1", "after") not in got_b
        for fan in (in_b, in_c, owner):
            await fan.close()
    _run(redis_url, body)


def test_a_failing_delivery_does_not_stop_the_others(redis_url):
    async def body(a, b, _):
        got: list[str] = []

        def deliver(table, message):
            if message == "bad":
                raise ValueError("a bug in one table's handler")
            got.append(message)
        receiver = FanOut(b, deliver)
        await receiver.subscribe("TABLE3")
        owner = FanOut(a, lambda table, message: None)
        for message in ("one", "bad", "two"):
            await owner.publish("TABLE3", message)
        await _eventually(lambda: _has_all(got, ["one", "two"]))
        await receiver.close()
        await owner.close()
    _run(redis_url, body)


async def _count(client, table: str, expected: int) -> bool:
    counts = dict(await client.pubsub_numsub("unokart:table:" + table))
    return counts.get(b"unokart:table:" + table.encode(), 0) == expected


async def _has(items, item) -> bool:
    return item in items


async def _has_all(items, wanted) -> bool:
    return items == wanted

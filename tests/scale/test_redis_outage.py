"""A Redis outage is said plainly (issue 26, item 16): three real processes, their real Redis stopped mid-game.

- a connection relayed to the owner is closed with 1012 (not left silent);
- HTTP answers `503 table_unavailable` (the lobby answered 500), a new websocket gets the error
  `table_unavailable` and close code 1013 (it was accepted, then dropped with 1006 and no word);
- `/api/health` answers 503 naming Redis while it is down, 200 once it is back;
- the log says it in a few lines, never a traceback;
- once Redis is back (empty: no persistence), the table plays on.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import websockets

from helpers.server import Client
from services import restart_redis, stop

DEADLINE = 60.0  # seconds for each awaited event on a busy machine (each comes within about a second here)


def _eventually(check, what: str):
    deadline = time.monotonic() + DEADLINE
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _health(server) -> tuple[int, dict]:
    response = httpx.get(server.url + "/api/health", timeout=10)
    return response.status_code, response.json()


def test_a_redis_outage_is_answered_table_unavailable_relays_close_and_health_says_so(processes, redis_server):
    owner, relay, third = processes
    code = owner.create(seats=2, bots={"0": "random", "1": "random"}, start=True, options={"target_score": 5000})["code"]

    async def relayed_then_closed() -> int:
        client = await Client.connect(relay, code)
        await client.send(type="watch")
        await client.reply("welcome")
        await client.reply("state")
        stop(redis_server.proc)  # Redis is gone
        try:
            while True:
                await client.recv(DEADLINE)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None

    try:
        assert asyncio.run(relayed_then_closed()) == 1012
        lobby = httpx.get(relay.url + "/api/tables", timeout=10)
        assert lobby.status_code == 503 and lobby.json()["code"] == "table_unavailable", lobby.text
        one = httpx.get(f"{relay.url}/api/tables/{code}", timeout=10)
        assert one.status_code == 503 and one.json()["code"] == "table_unavailable", one.text

        async def new_websocket() -> tuple[dict, int]:
            client = await Client.connect(relay, code)
            said = await client.recv(DEADLINE)
            try:
                await client.recv(DEADLINE)
            except websockets.ConnectionClosed as closed:
                return said, closed.rcvd.code if closed.rcvd else None
            raise AssertionError("still open")

        said, closed = asyncio.run(new_websocket())
        assert (said["type"], said["code"], closed) == ("error", "table_unavailable", 1013), (said, closed)
        status, body = _eventually(lambda: (s := _health(relay))[0] == 503 and s, "health never said unavailable")
        assert body == {"status": "unavailable", "down": ["redis"]}
    finally:
        restart_redis(redis_server)
    _eventually(lambda: all(_health(server)[0] == 200 for server in processes), "health never came back")

    async def plays_on() -> None:
        client = await Client.connect(third, code)
        await client.send(type="watch")
        await client.reply("welcome")
        first = (await client.reply("state", DEADLINE))["version"]
        await client.until(lambda m: m["type"] == "state" and m["version"] > first + 5, DEADLINE)
        await client.close()

    asyncio.run(plays_on())
    for server in processes:
        log = server.log.read_text()
        assert "Traceback" not in log, log[-3000:]
        assert sum("redis unavailable" in line for line in log.splitlines()) <= 10, log[-3000:]


def test_while_redis_is_down_a_table_whose_clients_are_all_its_owners_plays_on(processes, redis_server):
    """Nothing needs Redis at a table whose clients are all at its owner: it plays on through the outage (the
    fence, in PostgreSQL, keeps that safe), where it was given up after one lease ttl. Once Redis is back
    (empty), the table plays on, at its owner or, taken over, at another process."""
    from services import LEASE_TTL

    owner = processes[0]
    code = owner.create(seats=2, bots={"0": "random", "1": "random"}, start=True, options={"target_score": 5000})["code"]

    async def through_the_outage() -> tuple[int, int]:
        client = await Client.connect(owner, code)
        await client.send(type="watch")
        await client.reply("welcome")
        before = (await client.reply("state"))["version"]
        stop(redis_server.proc)
        stopped = time.monotonic()
        try:  # states keep coming for three lease ttls of outage (the owner gave the table up after one)
            while time.monotonic() - stopped < 3 * LEASE_TTL:
                last = (await client.reply("state", DEADLINE))["version"]
        except websockets.ConnectionClosed as closed:
            raise AssertionError(f"closed {closed.rcvd.code if closed.rcvd else None} during the outage") from None
        finally:
            await client.close()
        return before, last

    try:
        before, during = asyncio.run(through_the_outage())
        assert during > before + 10, (before, during)
    finally:
        restart_redis(redis_server)
    _eventually(lambda: all(_health(server)[0] == 200 for server in processes), "health never came back")

    async def plays_on() -> None:
        client = await Client.connect(processes[1], code)
        await client.send(type="watch")
        await client.reply("welcome")
        await client.until(lambda m: m["type"] == "state" and m["version"] > during + 5, DEADLINE)
        await client.close()

    asyncio.run(plays_on())
    assert "Traceback" not in owner.log.read_text()


def test_a_connection_pooled_before_redis_restarted_does_not_lose_the_next_publish(redis_server):
    """The server's Redis client (cluster.connect) after Redis restarts: the connection it pooled before is
    dead without knowing it, and the first publish on it was lost (15 to 61 s after a restart, before the
    health check came round); it is now tried again on a new connection and delivered."""
    from unokart.server.cluster import connect

    async def main() -> list:
        client = await connect(redis_server.url)
        listener = await connect(redis_server.url)
        try:
            await client.publish("unokart:test", "before")  # a connection now idle in the pool
            restart_redis(redis_server)
            pubsub = listener.pubsub()
            await pubsub.subscribe("unokart:test")
            await pubsub.get_message(timeout=5)  # the subscription's confirmation
            delivered = await client.publish("unokart:test", "after")  # on the pooled, dead connection first
            got = await pubsub.get_message(ignore_subscribe_messages=True, timeout=10)
            await pubsub.aclose()
            return [delivered, got and got["data"]]
        finally:
            await client.aclose()
            await listener.aclose()

    assert asyncio.run(main()) == [1, b"after"]

"""`serve --metrics` with several processes: a process that relays a client to the table's owner reports the
relay's latency (a relayed frame to the owner's first answer, and a call such as an HTTP join), and the owner
counts the table and the action."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from helpers.server import Client, Server
from services import LEASE_TTL


@pytest.fixture
def two(redis_url, postgres_url, tmp_path) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for index in range(2):
            servers.append(Server(tmp_path / f"process{index}.sqlite", extra=[
                "--redis", redis_url, "--database", postgres_url, "--lease-ttl", str(LEASE_TTL), "--metrics"]))
        yield servers
    finally:
        for server in servers:
            server.stop()


def _samples(server: Server) -> dict[tuple[str, tuple], float]:
    text = httpx.get(server.url + "/metrics").text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_a_relaying_process_reports_relay_latency_and_the_owner_its_table(two):
    owner, relay = two
    code = owner.create(seats=2)["code"]  # claimed by the process that created it
    joined = httpx.post(f"{relay.url}/api/tables/{code}/join", json={"name": "Ann"})  # a call to the owner
    assert joined.status_code == 200, joined.text

    async def main() -> None:
        client = await Client.connect(relay, code)
        await client.resume(joined.json()["token"])
        await client.send(type="ping", id=7)
        assert (await client.reply("pong"))["re"] == 7
        await client.close()

    asyncio.run(main())
    relayed = _samples(relay)
    assert relayed[("unokart_relay_seconds_count", (("kind", "call"),))] >= 1
    assert relayed[("unokart_relay_seconds_count", (("kind", "frame"),))] >= 1
    assert relayed[("unokart_tables", (("status", "lobby"),))] == 0  # the table is not this process's
    assert _samples(owner)[("unokart_tables", (("status", "lobby"),))] == 1

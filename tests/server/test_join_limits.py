"""Joins over the websocket spend the same per-address budget as joins over HTTP.

Once, 50 websocket connections from one address, each sending a join and
closing, took every seat of five tables in a fraction of a second, and the
HTTP join limit never saw them.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from helpers.server import Client, Server, serve_for_module

BURST = 20  # the address's joins in a burst (--http-rate 0.01: one a 100 s after that, none while the test runs
# on a busy machine: at 1 a second, a slow run got its token back before the HTTP join that must be refused)


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("joins") / "unokart.sqlite", extra=["--http-rate", "0.01"])


def _taken(server: Server, codes: list[str]) -> int:
    return sum(seat["kind"] == "human" for code in codes
               for seat in httpx.get(f"{server.url}/api/tables/{code}").json()["seats"])


def test_websocket_joins_from_one_address_are_limited_like_http_joins(strict_server):
    server = strict_server
    codes = [server.create(seats=10)["code"] for _ in range(3)]

    async def squat() -> tuple[int, list[dict]]:
        welcomed, refused = 0, []
        for number in range(30):
            client = await Client.connect(server, codes[number // 10], source="127.0.0.5")
            await client.send(type="join", name=f"squat{number}", id=number)
            reply = await client.until(lambda m: m["type"] in ("welcome", "error"))
            if reply["type"] == "welcome":
                welcomed += 1
            else:
                refused.append(reply)
            await client.close()
        return welcomed, refused

    welcomed, refused = asyncio.run(squat())
    # The burst, and at most a token or two that came back while the test ran (none at this rate).
    assert BURST <= welcomed <= BURST + 3 and len(refused) == 30 - welcomed, (welcomed, refused[:2])
    assert _taken(server, codes) == welcomed  # a refused join took no seat
    for error in refused:
        assert error["code"] == "rate_limited" and isinstance(error["re"], int), error
        assert error["retry_after"] >= 1 and str(error["retry_after"]) in error["message"], error

    # The same budget: an HTTP join from that address is now refused too (429), not answered table_full later.
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.5")) as same_address:
        response = same_address.post(f"{server.url}/api/tables/{codes[2]}/join", json={"name": "Eve"})
    assert response.status_code == 429 and response.json()["code"] == "too_many_requests", response.text
    assert int(response.headers["retry-after"]) >= 1

    async def another_address() -> dict:
        client = await Client.connect(server, codes[2], source="127.0.0.6")
        welcome = await client.join("Dee")
        await client.close()
        return welcome

    assert asyncio.run(another_address())["seat"] is not None  # other addresses keep their own budget


def test_resume_and_watch_spend_no_join_budget(strict_server):
    server = strict_server
    code = server.create(seats=2)["code"]

    async def main() -> None:
        for _ in range(BURST + 5):
            client = await Client.connect(server, code, source="127.0.0.7")
            await client.send(type="watch")
            assert (await client.reply("welcome"))["seat"] is None
            await client.close()
        client = await Client.connect(server, code, source="127.0.0.7")
        assert (await client.join("Fay"))["seat"] == 0
        await client.close()

    asyncio.run(main())

"""The limits answer as docs/PROTOCOL.md says: 413 for any body over 16 KiB, `re` on every error that
answers a message with an id, out-of-range ids said to be out of range."""

from __future__ import annotations

import asyncio
import json

import httpx

from helpers.server import Client, seated
from unokart.server import protocol


def _chunks(total: int, size: int = 1024):
    body = json.dumps({"seats": 2, "padding": "x" * total}).encode()
    for start in range(0, len(body), size):
        yield body[start:start + size]


def test_a_streamed_body_over_16_kib_is_413_too_large_like_a_declared_one(server):
    url = server.url + "/api/tables"
    declared = httpx.post(url, content=b"x" * (protocol.MAX_BODY_BYTES + 1), headers={"content-type": "application/json"})
    streamed = httpx.post(url, content=_chunks(protocol.MAX_BODY_BYTES + 100), headers={"content-type": "application/json"})
    assert "content-length" not in {k.lower() for k in streamed.request.headers}  # chunked, no length declared
    for response in (declared, streamed):
        assert response.status_code == 413 and response.json()["code"] == "too_large", response.text
        assert str(protocol.MAX_BODY_BYTES) in response.json()["message"]
    # A streamed body within the limit is read whole and handled as usual.
    small = httpx.post(url, content=(part for part in [b'{"seats"', b': 3}']), headers={"content-type": "application/json"})
    assert small.status_code == 201 and len(small.json()["table"]["seats"]) == 3, small.text
    joined = httpx.post(f"{server.url}/api/tables/{small.json()['code']}/join",
                        content=_chunks(protocol.MAX_BODY_BYTES), headers={"content-type": "application/json"})
    assert joined.status_code == 413 and joined.json()["code"] == "too_large"


def test_too_large_and_rate_limited_errors_carry_the_id_of_the_message_they_answer(server):
    async def main():
        code, (ann,) = await seated(server, names=("Ann",), seats=2, start=False)
        await ann.send(type="ping", id="big", padding="x" * (protocol.MAX_MESSAGE_BYTES + 10))
        refused = await ann.reply("error")
        assert refused["code"] == "too_large" and refused["re"] == "big", refused
        for number in range(3000):  # far over --rate-limit: some are dropped, and the one error says which
            await ann.send(type="ping", id=number)
        limited = await ann.until(lambda m: m.get("code") == "rate_limited")
        assert isinstance(limited["re"], int) and 0 <= limited["re"] < 3000, limited
        await ann.close()

    asyncio.run(main())


def test_a_game_id_out_of_range_is_said_to_be_out_of_range_not_cut(server):
    for game_id in ("1" + "0" * 30, "0", "-1", "9" * 20, str(protocol.MAX_GAME_ID + 1)):
        for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay"):
            response = httpx.get(server.url + path)
            error = response.json()
            assert response.status_code == 404 and error["code"] == "no_such_game", (path, error)
            assert "out of range" in error["message"] and str(protocol.MAX_GAME_ID) in error["message"], error
            assert "10000000000" not in error["message"]
    unknown = httpx.get(server.url + "/api/games/123456789").json()
    assert unknown["code"] == "no_such_game" and "123456789" in unknown["message"]
    assert "out of range" not in unknown["message"]
    tamil = httpx.get(server.url + "/api/games/" + "1" + "0" * 30 + "?lang=ta").json()["message"]
    assert "range" not in tamil and str(protocol.MAX_GAME_ID) in tamil


def test_a_name_too_long_over_the_websocket_names_its_length_and_the_limit(server):
    async def main():
        code = server.create(seats=2)["code"]
        eve = await Client.connect(server, code)
        await eve.send(type="join", name="E" * 300, id="long")
        refused = await eve.reply("error")
        assert refused["code"] == "bad_name" and refused["re"] == "long", refused
        assert "300" in refused["message"] and str(protocol.MAX_NAME_CHARS) in refused["message"]
        await eve.close()

    asyncio.run(main())

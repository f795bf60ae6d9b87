"""Bad input at a real server: every malformed or hostile message gets a clear error and changes nothing."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from helpers.server import Client, ManualClock, Served, finished_game, seated, serving
from unokart.server.app import create_app
from unokart.server.tables import Settings


async def _error(client: Client, raw: str) -> dict:
    await client.send_raw(raw)
    return await client.reply("error")


def test_malformed_messages_are_refused_with_their_code_and_the_connection_lives_on(server):
    async def main():
        code, (ann, bob) = await seated(server)
        version = ann.last_state["version"]
        cases = {
            "{not json": "bad_json",
            "[1, 2]": "not_object",
            '{"type": "fly"}': "unknown_type",
            '{"kind": "ping"}': "unknown_type",
            '{"type": "ping", "extra": 1}': "unknown_field",
            '{"type": "action", "token": "t", "version": 1}': "missing_field",
            '{"type": "action", "token": "t", "version": "7", "action": "0: draw"}': "wrong_type",
            '{"type": "action", "token": "t", "version": true, "action": "0: draw"}': "wrong_type",
            '{"type": "action", "token": "t", "version": 1.5, "action": "0: draw"}': "wrong_type",
            '{"type": "ping", "id": {"a": 1}}': "wrong_type",
            '{"type": "ping", "id": "' + "x" * 65 + '"}': "bad_value",
            json.dumps({"type": "ping", "id": "x" * 5000}): "too_large",
            '{"type": "join", "name": "Eve"}': "already_hello",
            "[" * 10000: "too_large",
        }
        for raw, code_expected in cases.items():
            error = await _error(ann, raw)
            assert error["code"] == code_expected, (raw[:60], error)
            assert error["message"] and "Traceback" not in error["message"]
        await ann.ws.send(b"\x00\x01")
        assert (await ann.reply("error"))["code"] == "bad_json"
        await ann.send(type="ping", id=7)
        assert (await ann.reply("pong"))["re"] == 7
        await ann.send(type="sync")
        assert (await ann.reply("state"))["version"] == version
    asyncio.run(main())


def test_the_first_message_must_say_who_you_are(server):
    async def main():
        code, (ann,) = await seated(server, names=("Ann",), seats=2, start=False)
        stranger = await Client.connect(server, code)
        await stranger.send(type="start", token=ann.token)
        assert (await stranger.reply("error"))["code"] == "hello_first"
        await stranger.send(type="join", name="\x07bell")
        assert (await stranger.reply("error"))["code"] == "bad_name"
        await stranger.send(type="join", name="Eve", seat=0)
        assert (await stranger.reply("error"))["code"] == "seat_taken"
        await stranger.send(type="join", name="Eve", seat=9)
        assert (await stranger.reply("error"))["code"] == "no_such_seat"
        await stranger.send(type="resume", token="nope")
        assert (await stranger.reply("error"))["code"] == "bad_token"
        await stranger.send(type="watch")
        assert (await stranger.reply("welcome"))["seat"] is None
        await stranger.send(type="start", token=ann.token)
        assert (await stranger.reply("error"))["code"] == "spectator"
        await ann.send(type="start", token=ann.token)
        assert (await ann.reply("error"))["code"] == "seats_empty"
        await ann.send(type="bot", token=ann.token, seat=1, level="grandmaster")
        assert (await ann.reply("error"))["code"] == "bad_level"
        await ann.send(type="action", token=ann.token, version=0, action="0: draw")
        assert (await ann.reply("error"))["code"] == "not_playing"
    asyncio.run(main())


def test_an_unknown_table_is_refused_before_anything_else(server):
    async def main():
        async with websockets.connect(server.ws_url("NOPE42")) as ws:
            error = json.loads(await ws.recv())
            assert error["code"] == "no_such_table"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4404
    asyncio.run(main())


def test_a_flood_of_messages_is_rate_limited_not_disconnected(tmp_path):
    clock = ManualClock()  # the limits' time: it stands still while the flood arrives
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=0.0, round_pause=0.0), clock=clock)

    async def main(server):
        code, (ann,) = await seated(server, names=("Ann",), seats=2, start=False)
        for number in range(3000):
            await ann.send(type="ping", id=number)
        # Time moves on a second and a half at a time until the connection is served again: the bucket refills,
        # and the frames of the flood still unread spend it first. After each move one of two things comes: the
        # probe's pong, or a rate_limited (one a second at most) for a frame dropped before it or for the probe.
        pongs, limited, probes, served = 0, 0, set(), False
        for probe in range(100):
            clock.advance(1.5)
            probes.add(f"after {probe}")
            await ann.send(type="ping", id=f"after {probe}")
            while True:
                message = await ann.recv()
                served = message["type"] == "pong" and message["re"] in probes
                pongs += message["type"] == "pong" and not served
                limited += message.get("code") == "rate_limited"
                if served or message.get("code") == "rate_limited":
                    break
            if served:
                break
        assert served, "never served again"
        assert limited >= 1 and pongs < 3000
    with serving(app) as base:
        asyncio.run(main(Served(base)))


def test_a_frame_over_the_transport_limit_closes_only_that_connection(server):
    async def main():
        code, (ann, bob) = await seated(server)
        await ann.send_raw("x" * 70000)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await ann.recv()
        assert closed.value.rcvd.code == 1009
        await bob.send(type="ping", id=1)
        assert (await bob.reply("pong"))["re"] == 1
    asyncio.run(main())


def test_the_http_api_validates_and_explains(server):
    url = server.url
    assert httpx.get(url + "/api/health").json() == {"status": "ok"}
    bad = {
        "seats": ({"seats": 11}, "bad_seats"),
        "options": ({"options": {"turbo": True}}, "bad_options"),
        "option type": ({"options": {"stacking": "yes"}}, "bad_options"),
        "hands": ({"seats": 10, "options": {"hand_size": 11}}, "bad_options"),
        "timer": ({"turn_timer": 1}, "bad_timer"),
        "bot level": ({"bots": {"1": "ismcts:999999"}}, "bad_level"),
        "bot time": ({"bots": {"1": "ismcts:60000ms"}}, "bad_level"),
        "bot seat": ({"bots": {"7": "easy"}, "seats": 2}, "no_such_seat"),
        "field": ({"colour": "red"}, "unknown_field"),
        "type": ({"seats": "4"}, "wrong_type"),
        "start": ({"start": True}, "seats_empty"),
    }
    for what, (body, code) in bad.items():
        response = httpx.post(url + "/api/tables", json=body)
        assert response.status_code == 400 and response.json()["code"] == code, (what, response.text)
    assert httpx.post(url + "/api/tables", content=b"{oops").json()["code"] == "bad_request"
    assert httpx.get(url + "/api/tables/NOPE42").status_code == 404
    assert httpx.get(url + "/api/games/999999").json()["code"] == "no_such_game"
    assert httpx.get(url + "/api/i18n/xx").status_code == 404
    assert httpx.get(url + "/api/i18n/ta").json()["server.error.bad_json"]

    timed = httpx.post(url + "/api/tables", json={"seats": 2, "bots": {"1": "ismcts:150ms"}})  # once a server error
    assert timed.status_code == 201 and timed.json()["table"]["seats"][1]["level"] == "ismcts:150ms", timed.text

    created = httpx.post(url + "/api/tables", json={"seats": 2, "turn_timer": 30, "options": {"target_score": 200}}).json()
    code = created["code"]
    assert created["link"].endswith("/t/" + code) and created["table"]["turn_timer"] == 30
    assert code in {t["code"] for t in httpx.get(url + "/api/tables").json()["tables"]}
    joined = httpx.post(f"{url}/api/tables/{code.lower()}/join", json={"name": "  Ann  "}).json()
    assert joined["seat"] == 0 and len(joined["token"]) >= 32
    assert httpx.post(f"{url}/api/tables/{code}/join", json={"name": "Bob", "seat": 0}).json()["code"] == "seat_taken"
    assert httpx.post(f"{url}/api/tables/{code}/join", json={"name": ""}).json()["code"] == "bad_name"
    summary = httpx.get(f"{url}/api/tables/{code}").json()
    assert summary["seats"][0]["name"] == "Ann" and summary["options"]["target_score"] == 200
    assert "token" not in json.dumps(summary)

    async def resume():
        client = await Client.connect(server, code)
        assert (await client.resume(joined["token"]))["seat"] == 0
        await client.close()
    asyncio.run(resume())


def test_a_method_an_address_does_not_serve_is_405_with_allow_naming_every_method_it_does(server):
    for path, allowed in (("/api/tables", "GET, POST"), ("/api/games", "GET"), ("/api/games/1", "GET"),
                          ("/api/tables/ABCDEF/join", "POST"), ("/api/health", "GET")):
        for method in ("TRACE", "PUT", "DELETE"):
            response = httpx.request(method, server.url + path)
            assert response.status_code == 405, (method, path, response.status_code)
            assert response.headers["allow"] == allowed, (method, path, response.headers)  # RFC 9110 section 15.5.6
            assert response.json()["code"] == "not_allowed"


# Control (U+0014, NUL), format (U+200B, U+FEFF), bidirectional (U+202E, U+2067) and line-separating (U+2028)
# characters, and a lone surrogate: none of them reaches an error's message; each is named U+XXXX there.
HIDDEN = "\x14\x00\u200b\ufeff\u202e\u2067\u2028"


def _shown_escaped(message: str, *hidden: str) -> None:
    assert not any(char in message for char in HIDDEN + "\ud800"), ascii(message)
    for char in hidden:
        assert f"U+{ord(char):04X}" in message, (ascii(char), message)


def test_input_echoed_in_a_refusal_never_carries_control_format_or_bidirectional_characters(server):
    url = server.url
    refusals = [
        (httpx.post(url + "/api/tables", json={"bots": {"\x14\u202e": "easy"}}), "\x14\u202e"),  # "no seat òJ\x14Q…"
        (httpx.post(url + "/api/tables", json={"bots": {"1": "ea\u202esy"}}), "\u202e"),
        (httpx.post(url + "/api/tables", json={"bots": {"1": "policy:\u2067x"}}), "\u2067"),
        (httpx.post(url + "/api/tables", json={"options": {"\u200bturbo": True}}), "\u200b"),
        (httpx.post(url + "/api/tables", json={"\ufeffseats": 4}), "\ufeff"),
        (httpx.get(url + "/api/tables/%14%E2%80%AEAB"), "\x14\u202e"),
        (httpx.get(url + "/api/i18n/%E2%80%A8x"), "\u2028"),
    ]
    for response, hidden in refusals:
        assert response.status_code in (400, 404), response.text
        _shown_escaped(response.json()["message"], *hidden)
    game = finished_game(server)
    replay = httpx.get(f"{url}/api/games/{game}/replay", params={"round": "\x14\u202e"})
    assert replay.status_code == 400
    _shown_escaped(replay.json()["message"], "\x14", "\u202e")

    async def websocket():
        code = server.create(seats=2)["code"]
        client = await Client.connect(server, code)
        for raw, hidden in (('{"type": "fly\\u0014\\u202e"}', "\x14\u202e"), ('{"type": "ping", "\\u2067x": 1}', "\u2067")):
            _shown_escaped((await _error(client, raw))["message"], *hidden)
        await client.close()
    asyncio.run(websocket())


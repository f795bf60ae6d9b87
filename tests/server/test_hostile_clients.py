"""A real server against hostile clients: impersonation, malformed floods, hostile HTTP bodies, rate limits.

Whatever they send, the answer is a refusal that names the problem, nothing
changes at any table, the server logs no error, and another table's players
are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import time

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.server import Client, seated, serve_for_module, to_act

KNOWN_CODES = {
    "bad_json", "not_object", "too_large", "rate_limited", "unknown_type", "unknown_field", "missing_field",
    "wrong_type", "bad_value", "hello_first", "already_hello", "no_such_table", "no_such_seat", "seat_taken",
    "table_full", "already_started", "bad_name", "bad_level", "bad_token", "not_your_seat", "spectator",
    "stale_version", "duplicate", "bad_notation", "illegal_action", "not_playing", "seats_empty", "game_not_over",
    "no_effect", "no_such_model",
}


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    """A server with the default limits for addresses (the shared harness lifts them for speed)."""
    yield from serve_for_module(tmp_path_factory.mktemp("strict") / "unokart.sqlite", extra=["--http-rate", "1"])


@pytest.fixture(scope="module")
def real_limits(tmp_path_factory):
    """A server with the default message rate per connection (the shared harness lifts it for speed)."""
    yield from serve_for_module(tmp_path_factory.mktemp("limits") / "unokart.sqlite", extra=["--rate-limit", "20"])


def test_no_one_acts_for_another_seat_with_its_token_no_token_or_another_tables_token(server):
    async def main():
        code, (ann, bob) = await seated(server)
        other_code, (cy, dee) = await seated(server, names=("Cy", "Dee"))
        mover = await to_act([ann, bob])
        victim = bob if mover is ann else ann
        state = mover.last_state
        attempts = [
            ({"token": victim.token}, "not_your_seat"),   # the other seat's token on my connection
            ({"token": cy.token}, "bad_token"),           # a token of another table
            ({}, "missing_field"),                        # no token at all
            ({"token": ""}, "bad_token"),
            ({"token": "x" * 64}, "bad_token"),
        ]
        for extra, expected in attempts:
            await mover.send(type="action", version=state["version"], action=state["legal"][0], id=expected, **extra)
            refused = await mover.reply("error")
            assert refused["code"] == expected and refused["re"] == expected, refused
        # Acting for the other seat with one's own token.
        other_seat = victim.seat
        await mover.send(type="action", token=mover.token, version=state["version"], action=f"{other_seat}: draw", id="x")
        assert (await mover.reply("error"))["code"] == "not_your_seat"
        # Out of turn: the seat not to act tries to play.
        await victim.send(type="action", token=victim.token, version=state["version"], action=f"{victim.seat}: draw")
        refused = await victim.reply("error")
        assert refused["code"] == "illegal_action" and refused["rule"] == "R2.1"
        await mover.send(type="sync")
        assert (await mover.reply("state"))["version"] == state["version"]
        await cy.send(type="sync")
        assert (await cy.reply("state"))["version"] == cy.last_state["version"]
    asyncio.run(main())


def _hostile_frames(rng: random.Random, tokens: list[str], count: int) -> list[str]:
    """Malformed and hostile frames: wrong types, unknown fields, surrogates, huge numbers, deep nesting, junk."""
    values = [None, True, 1.5, -1, 2**70, 10**300, "", "x" * 3000, "\ud800", "\u202e", [], {}, [[[]]], {"a": {"b": 1}},
              "NaN", "0: play W+4 G uno", "9: catch 0", "0: swap 9"]
    types = ["join", "resume", "watch", "action", "bot", "start", "rematch", "leave", "sync", "ping", "fly", "", None, 7]
    fields = ["token", "version", "action", "seat", "level", "name", "lang", "id", "type", "extra", "__proto__"]
    frames: list[str] = []
    for number in range(count):
        kind = number % 6
        if kind == 0:  # raw junk
            frames.append(rng.choice(["{", "[" * rng.randint(1, 4000), "null", "1e999999", '{"type":', '"\\ud800"',
                                      "{}" * 100, "\x00", "💥" * 200, '{"type":"ping","id":' + "9" * 5000 + "}"]))
            continue
        message: dict = {"type": rng.choice(types)}
        for _ in range(rng.randint(0, 4)):
            message[rng.choice(fields)] = rng.choice(values + tokens)
        if kind == 1:
            message["id"] = rng.choice([number, str(number), "\ud800", 2**60, [number]])
        text = json.dumps(message)
        if kind == 2:
            text = text.replace('"', "", 1)
        elif kind == 3:
            text = '{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}"
        frames.append(text)
    return frames


def test_ten_thousand_hostile_messages_change_nothing_and_crash_nothing(server):
    async def main():
        code, (ann, bob) = await seated(server)
        before = [dict(ann.last_state), dict(bob.last_state)]
        rng = random.Random(12)
        fuzzers = [await Client.connect(server, code, source=f"127.0.0.{10 + n}") for n in range(10)]
        for index, fuzzer in enumerate(fuzzers):
            if index % 2:
                await fuzzer.send(type="watch")
                await fuzzer.reply("welcome")
        sent = 0
        for fuzzer in fuzzers:
            for frame in _hostile_frames(rng, [ann.token, bob.token, "nope"], 1000):
                await fuzzer.send_raw(frame)
                sent += 1
            await fuzzer.send(type="ping", id="done")
        errors = 0
        for fuzzer in fuzzers:
            while True:
                message = await fuzzer.recv()
                if message.get("re") == "done" and message["type"] == "pong":
                    break
                if message["type"] == "error":
                    errors += 1
                    assert message["code"] in KNOWN_CODES, message
                    assert message["message"] and "Traceback" not in message["message"]
        assert sent == 10000 and errors > 9000
        for client, seen in zip((ann, bob), before):
            await client.send(type="sync")
            now = await client.reply("state")
            assert now["version"] == seen["version"] and now["view"] == seen["view"]
        mover = await to_act([ann, bob])  # the table still plays
        await mover.act(mover.last_state["legal"][0], mover.last_state["version"], id="still")
        assert (await mover.until(lambda m: m["type"] == "state" and m.get("re") == "still"))["version"] == before[0]["version"] + 1
        summary = httpx.get(f"{server.url}/api/tables/{code}").json()
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bob"]
    asyncio.run(main())


def _flood(ws_url: str, source: str, tokens: list[str], seconds: float, ready) -> None:
    """In a process of its own (so the measuring client is not starved): 60 connections from one address
    sending syncs and junk as fast as they can, for a bounded time and count."""
    import websockets as ws_client

    async def one(index: int) -> None:
        async with ws_client.connect(ws_url, local_addr=(source, 0), max_queue=None) as ws:
            hello = {"type": "resume", "token": tokens[index]} if index < len(tokens) else {"type": "watch"}
            await ws.send(json.dumps(hello))
            ready.release()
            deadline, number = time.monotonic() + seconds, 0
            while time.monotonic() < deadline and number < 20000:
                await ws.send('{"type":"sync","id":%d}' % number if number % 2 else "{broken")
                number += 1
                if number % 50 == 0:
                    await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(*(one(i) for i in range(60)), return_exceptions=True)

    asyncio.run(main())


def test_a_flood_at_one_table_does_not_slow_another_tables_players(real_limits):
    server = real_limits
    flooded, (f1, f2) = asyncio.run(seated(server, names=("F1", "F2"), source="127.0.0.3"))
    context = multiprocessing.get_context("spawn")
    ready = context.Semaphore(0)
    flood = context.Process(target=_flood, args=(server.ws_url(flooded), "127.0.0.3", [f1.token, f2.token], 8.0, ready))
    flood.start()
    for _ in range(60):
        assert ready.acquire(timeout=60)

    async def main() -> list[float]:
        calm, (cy,) = await seated(server, names=("Cy",), seats=2, start=False, source="127.0.0.2")
        delays = []
        for number in range(40):
            start = time.monotonic()
            await cy.send(type="ping", id=number)
            await cy.until(lambda m: m.get("re") == number)
            delays.append(time.monotonic() - start)
            await asyncio.sleep(0.05)
        return delays

    delays = asyncio.run(main())
    flood.join(30)
    # Generous on a loaded 2-core machine, where any process can wait seconds for a core now and then:
    # starvation by the flood would delay most pings, not one.
    ordered = sorted(delays)
    assert ordered[len(ordered) // 2] < 0.25 and ordered[int(0.9 * len(ordered))] < 1.0, ordered


def test_errors_name_the_message_they_answer_even_when_it_is_invalid(server):
    async def main():
        code, (ann,) = await seated(server, names=("Ann",), seats=2, start=False)
        cases = [
            ({"type": "action", "id": "a1", "token": "t", "version": "7", "action": "0: draw"}, "wrong_type"),
            ({"type": "action", "id": 5, "token": "t"}, "missing_field"),
            ({"type": "ping", "id": "p", "colour": "red"}, "unknown_field"),
            ({"type": "join", "id": "j", "name": "Eve"}, "already_hello"),
            ({"type": "fly", "id": "f"}, "unknown_type"),
        ]
        for message, expected in cases:
            await ann.send(**message)
            refused = await ann.reply("error")
            assert refused["code"] == expected and refused["re"] == message["id"], refused
        await ann.send_raw('{"type": "ping", "id": "\\ud800"}')  # an id that cannot be sent back: no re, no crash
        refused = await ann.reply("error")
        assert refused["code"] == "bad_value" and "re" not in refused
    asyncio.run(main())


def test_hostile_http_requests_get_a_4xx_and_the_lobby_stays_up(server):
    url = server.url
    created = httpx.post(url + "/api/tables", json={"seats": 2}).json()
    code = created["code"]
    lone = b'{"name": "\\ud800"}'
    response = httpx.post(f"{url}/api/tables/{code}/join", content=lone, headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_name"
    assert httpx.get(f"{url}/api/tables/{code}").json()["seats"][0]["kind"] == "empty"
    cases = [
        ("POST", "/api/tables", b'{"seats": ' + b"9" * 5000 + b"}", 400),
        ("POST", "/api/tables", b'{"options": {"target_score": 1000000000000000000}}', 400),
        ("POST", "/api/tables", json.dumps({"bots": {"1": "policy:/etc/passwd"}}).encode(), 400),
        ("POST", "/api/tables", json.dumps({"bots": {"1": "ismcts:20000"}}).encode(), 400),
        ("POST", "/api/tables", json.dumps({"bots": {"1": "x" * 9000}}).encode(), 400),
        ("POST", "/api/tables", b"[" * 10000, 400),
        ("POST", "/api/tables", b"x" * 100000, 413),
        ("POST", f"/api/tables/{code}/join", json.dumps({"name": "\u202eevE"}).encode(), 400),
        ("POST", f"/api/tables/{code}/join", json.dumps({"name": "A" * 25}).encode(), 400),
        ("POST", f"/api/tables/{code}/join", json.dumps({"name": "\u200b"}).encode(), 400),
        ("POST", f"/api/tables/{code}/join", json.dumps({"name": "Eve", "seat": 10**30}).encode(), 400),
        ("GET", "/api/games/" + "1" + "0" * 30, b"", 404),
        ("GET", "/api/games/-1", b"", 404),
        ("GET", "/api/games/999999999/replay?round=99999999999999999999", b"", 404),
        ("GET", "/api/tables/" + "Z" * 5000, b"", 404),
        ("GET", "/static/../../../../etc/passwd", b"", 404),
        ("GET", "/static/%2e%2e/%2e%2e/server/app.py", b"", 404),
        ("DELETE", "/api/tables", b"", 405),
    ]
    for method, path, body, status in cases:
        response = httpx.request(method, url + path, content=body, headers={"content-type": "application/json"})
        assert response.status_code == status, (path, body[:60], response.status_code, response.text[:200])
        if path.startswith("/api"):
            error = response.json()
            assert error["type"] == "error" and error["message"], error
    too_long = httpx.post(f"{url}/api/tables/{code}/join", json={"name": "A" * 25}).json()
    assert "24" in too_long["message"]
    assert httpx.get(url + "/api/tables").status_code == 200
    assert httpx.get(f"{url}/api/tables/{code}").json()["seats"][0]["kind"] == "empty"
    assert "root:" not in httpx.get(url + "/static/../../../../etc/passwd").text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12)
create_fields = st.sampled_from(["seats", "options", "turn_timer", "bots", "start", "colour"])
option_names = st.sampled_from(["target_score", "hand_size", "stacking", "jump_in", "turbo"])
bodies = st.one_of(
    json_values,
    st.dictionaries(create_fields, json_values, max_size=5),
    st.fixed_dictionaries({"options": st.dictionaries(option_names, json_values, max_size=3)}),
    st.fixed_dictionaries({"bots": st.dictionaries(st.text(max_size=3), st.text(max_size=40), max_size=3)}),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_any_json_body_gets_a_201_or_a_4xx_never_a_500(server, body):
    response = httpx.post(server.url + "/api/tables", json=body)
    assert response.status_code in (201, 400, 404, 409, 413), (body, response.text)
    if response.status_code != 201:
        assert response.json()["type"] == "error"


def test_table_creation_and_joins_are_rate_limited_per_address_with_retry_after(strict_server):
    answers = [httpx.post(strict_server.url + "/api/tables", json={"seats": 2}) for _ in range(30)]
    statuses = [a.status_code for a in answers]
    assert statuses[:20] == [201] * 20 and 429 in statuses
    limited = next(a for a in answers if a.status_code == 429)
    assert int(limited.headers["retry-after"]) >= 1 and limited.json()["code"] == "too_many_requests"
    assert httpx.get(strict_server.url + "/api/tables").status_code == 200  # reading is not limited
    # Joins have a budget of their own, per address (another address here: its creations are untouched).
    with httpx.Client(base_url=strict_server.url, transport=httpx.HTTPTransport(local_address="127.0.0.3")) as other:
        code = other.post("/api/tables", json={"seats": 10}).json()["code"]
        joins = [other.post(f"/api/tables/{code}/join", json={"name": f"P{i}"}) for i in range(25)]
        assert [j.status_code for j in joins[:20]] == [200] * 10 + [409] * 10  # then the table is full
        assert 429 in [j.status_code for j in joins[20:]]
        limited = next(j for j in joins if j.status_code == 429)
        assert int(limited.headers["retry-after"]) >= 1 and limited.json()["code"] == "too_many_requests"
        assert other.post("/api/tables", json={"seats": 2}).status_code == 201  # creations are counted apart


def test_trained_policies_are_seated_by_name_only_and_play(server):
    url = server.url
    for level, code in (("policy:nope", "no_such_model"), ("policy:../../etc/passwd", "bad_level"),
                        ("policy:/tmp/x.npz", "bad_level"), ("policy:baseline.zip", "bad_level")):
        refused = httpx.post(url + "/api/tables", json={"seats": 2, "bots": {"1": level}})
        assert refused.status_code == 400 and refused.json()["code"] == code, (level, refused.text)
    table = httpx.post(url + "/api/tables", json={"seats": 2, "start": True, "bots": {"0": "policy:baseline", "1": "random"},
                                                  "options": {"target_score": 30}}).json()

    async def main():
        watcher = await Client.connect(server, table["code"])
        await watcher.send(type="watch")
        over = await watcher.until(lambda m: m["type"] == "state" and m["view"]["awaiting"] == "game_over", timeout=120)
        assert over["view"]["game_winner"] in (0, 1)
    asyncio.run(main())

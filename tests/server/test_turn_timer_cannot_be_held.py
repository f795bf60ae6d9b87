"""The turn timer protects the other players from one who stalls. A seat whose time ran out is played by the bot;
a message from it during that same decision (even a refused one, or a new connection) brings the player back from
the next decision on, without a fresh timer for this one: before, each such message restarted the timer and threw
the bot's move away, so one message a timer's length held the table still for ever. The tables' clock is moved
by the test."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from helpers.server import ManualClock, serving
from unokart.server.app import Settings, create_app


async def _recv_until(ws, predicate, timeout: float = 30) -> dict:
    async def find():
        while True:
            message = json.loads(await ws.recv())
            if predicate(message):
                return message
    return await asyncio.wait_for(find(), timeout)  # a bound for a hang


@pytest.mark.parametrize("signal", ["a refused message", "a new connection"])
def test_a_seat_back_during_the_decision_that_timed_out_gets_no_fresh_timer(tmp_path, signal):
    clock = ManualClock()
    # The bot waits a second of the test's clock: Ann's message comes while it is to decide for her.
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=1.0, round_pause=0.0), clock=clock)
    with serving(app) as base:
        code = httpx.post(base + "/api/tables", json={"seats": 2, "bots": {"1": "random"}, "turn_timer": 5,
                                                      "options": {"target_score": 5000}}).json()["code"]
        token = httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Ann", "seat": 0}).json()["token"]
        table_of = lambda: app.state.service.tables[code]  # noqa: E731
        url = base.replace("http", "ws") + f"/ws/{code}"

        async def main() -> None:
            async with websockets.connect(url) as ann, websockets.connect(url) as again:
                await ann.send(json.dumps({"type": "resume", "token": token}))
                await ann.send(json.dumps({"type": "start", "token": token}))
                state = await _recv_until(ann, lambda m: m["type"] == "state")
                while state["view"]["to_act"] != 0:  # the bot's turn first: its second passes, it moves
                    clock.advance(1.1)
                    version = state["version"]
                    state = await _recv_until(ann, lambda m: m["type"] == "state" and m["version"] > version)
                clock.advance(6)  # Ann's time is up: the bot plays her seat
                timed_out = table_of().version
                assert table_of().seats[0].away
                if signal == "a new connection":
                    await again.send(json.dumps({"type": "resume", "token": token}))
                    await _recv_until(again, lambda m: m["type"] == "welcome")
                else:
                    await again.send(json.dumps({"type": "watch"}))
                    await ann.send(json.dumps({"type": "start", "token": token, "id": 7}))
                    assert (await _recv_until(ann, lambda m: m.get("re") == 7))["code"] == "already_started"
                # The bot has not moved yet (its second has not passed): its move for this decision stands.
                assert table_of().version == timed_out
                assert table_of().seats[0].away and table_of().deadline is None, f"{signal} reset the timer"
                clock.advance(1.1)  # the bot's second (and its tick): it moves for Ann
                # Ann is back from the next decision on, once the bot's move for her stood.
                back = await _recv_until(again, lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"])
                assert back["table"]["seats"][0]["connected"] and table_of().version > timed_out
                moved = await _recv_until(again, lambda m: m["type"] == "state" and m["version"] > timed_out)
                assert any(event.get("seat") == 0 for event in moved["events"]), "the bot's move for Ann stood"

        asyncio.run(main())

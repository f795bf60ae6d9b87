"""The turn timer protects the other players from one who stalls. A seat whose time ran out is played by the bot;
a message from it during that same decision (even a refused one, or a new connection) brings the player back from
the next decision on, without a fresh timer for this one: before, each such message restarted the timer and threw
the bot's move away, so one message a timer's length held the table still for ever. The server runs in process;
its clock is moved by the test."""

from __future__ import annotations

import pytest

from helpers.server import Client, run_in_process


@pytest.mark.parametrize("signal", ["a refused message", "a new connection"])
def test_a_seat_back_during_the_decision_that_timed_out_gets_no_fresh_timer(tmp_path, signal):
    async def main(server):
        clock = server.clock
        code = (await server.create(seats=2, bots={"1": "random"}, turn_timer=5,
                                    options={"target_score": 5000}))["code"]
        token = (await server.http.post(f"/api/tables/{code}/join", json={"name": "Ann", "seat": 0})).json()["token"]
        table_of = lambda: server.service.tables[code]  # noqa: E731
        ann, again = await Client.connect(server, code), await Client.connect(server, code)
        await ann.resume(token)
        await ann.send(type="start", token=token)
        state = await ann.reply("state")
        while state["view"]["to_act"] != 0:  # the bot's turn first: its second passes, it moves
            clock.advance(1.1)
            version = state["version"]
            state = await ann.until(lambda m: m["type"] == "state" and m["version"] > version)
        clock.advance(6)  # Ann's time is up: the bot plays her seat
        timed_out = table_of().version
        assert table_of().seats[0].away
        if signal == "a new connection":
            await again.resume(token)
        else:
            await again.send(type="watch")
            await ann.send(type="start", token=token, id=7)
            assert (await ann.until(lambda m: m.get("re") == 7))["code"] == "already_started"
        # The bot has not moved yet (its second has not passed): its move for this decision stands.
        assert table_of().version == timed_out
        assert table_of().seats[0].away and table_of().deadline is None, f"{signal} reset the timer"
        clock.advance(1.1)  # the bot's second (and its tick): it moves for Ann
        # Ann is back from the next decision on, once the bot's move for her stood.
        back = await again.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"])
        assert back["table"]["seats"][0]["connected"] and table_of().version > timed_out
        moved = await again.until(lambda m: m["type"] == "state" and m["version"] > timed_out)
        assert any(event.get("seat") == 0 for event in moved["events"]), "the bot's move for Ann stood"

    run_in_process(main, tmp_path, bot_delay=1.0)

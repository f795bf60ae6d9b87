"""Bots at a real server: they fill seats, play for a player who is gone, and never hold up anyone else."""

from __future__ import annotations

import asyncio

import pytest

from helpers.server import Client, seated, serve_for_module, to_act


@pytest.fixture(scope="module")
def quick_grace(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("grace") / "unokart.sqlite", grace=0.3)


def test_a_player_gone_past_the_grace_period_is_played_by_the_bot_until_they_return(quick_grace):
    async def main():
        # To 200: at 30, the bot won the game in its first round before seat 0 had a turn in 1 game in 230 (by the
        # rules core), and a seat with nothing to decide is never away: none of 50,000 games did so at 200.
        code, (ann,) = await seated(quick_grace, names=("Ann",), seats=2, start=False,
                                    bots={"1": "easy"}, options={"target_score": 200, "hand_size": 3})
        spectator = await Client.connect(quick_grace, code)
        await spectator.send(type="watch")
        await ann.send(type="start", token=ann.token)
        await ann.reply("state")
        await ann.close()
        gone = await spectator.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"])
        assert gone["table"]["seats"][0]["connected"] is False
        # The game reaches its end with nobody at seat 0: the bot played it.
        final = await spectator.until(lambda m: m["type"] == "state" and m["view"]["awaiting"] == "game_over", timeout=120)
        assert any(e["type"] in ("play", "draw") and e.get("seat") == 0
                   for m in spectator.received if m["type"] == "state" for e in m["events"])
        back = await Client.connect(quick_grace, code)
        await back.resume(ann.token)
        assert (await back.reply("state"))["version"] == final["version"]
        returned = await spectator.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"])
        assert returned["table"]["seats"][0]["connected"] is True
    asyncio.run(main())


def test_leaving_during_a_game_hands_the_seat_to_the_bot_and_any_message_brings_it_back(quick_grace):
    async def main():
        code, (ann, bob) = await seated(quick_grace)
        await ann.send(type="leave", token=ann.token)
        away = await bob.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"])
        assert away["table"]["seats"][0]["connected"] is True
        await ann.send(type="ping")  # no token: not a sign of life from the seat
        await ann.send(type="sync")
        await ann.reply("state")
        await ann.send(type="rematch", token=ann.token)  # carries the token: Ann is back
        assert (await ann.reply("error"))["code"] == "game_not_over"
        await bob.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"])
    asyncio.run(main())


def test_people_are_answered_while_a_bot_searches(quick_grace):
    """A bot with one sensible move answers at once; one that searches must not hold up anyone meanwhile."""
    async def main():
        other_code, (cy, dee) = await seated(quick_grace, names=("Cy", "Dee"))
        code, (ann,) = await seated(quick_grace, names=("Ann",), seats=2, start=False, bots={"1": "ismcts:500"},
                                    options={"target_score": 5000})
        await ann.send(type="start", token=ann.token)
        await ann.reply("state")
        for trial in range(8):
            while True:  # play until it is the bot's turn
                state = ann.last_state
                if state["view"]["to_act"] == ann.seat:
                    await ann.act(state["legal"][-1], state["version"], id=f"move {trial}")
                    moved = await ann.until(lambda m: m["type"] == "state" and m.get("re") == f"move {trial}")
                    if moved["view"]["to_act"] == 1:
                        break
                else:
                    await ann.until(lambda m: m["type"] == "state" and m["view"]["to_act"] == ann.seat)
            await ann.send(type="ping", id=f"ping {trial}")
            mover = await to_act([cy, dee])
            await mover.act(mover.last_state["legal"][-1], mover.last_state["version"], id=f"other {trial}")
            await mover.until(lambda m: m["type"] == "state" and m.get("re") == f"other {trial}")
            first = await ann.until(lambda m: m["type"] == "pong" or (m["type"] == "state" and m["version"] > moved["version"]))
            if first["type"] == "pong":  # answered while the bot searched
                bot_move = await ann.until(lambda m: m["type"] == "state" and m["version"] > moved["version"])
                assert bot_move["events"][0]["seat"] == 1
                return
        raise AssertionError("in 8 bot turns the bot always moved before a ping was answered")
    asyncio.run(main())


def test_when_the_turn_timer_runs_out_the_bot_decides_until_the_player_acts_again(quick_grace):
    async def main():
        code, (ann,) = await seated(quick_grace, names=("Ann",), seats=2, start=False, turn_timer=5,
                                    bots={"1": "easy"})
        await ann.send(type="start", token=ann.token)
        state = await ann.until(lambda m: m["type"] == "state" and m["view"]["to_act"] == 0)
        assert state["deadline"]["seat"] == 0 and state["deadline"]["at"] > 0
        # Ann does nothing: when the time is up her seat is away and the bot plays it.
        away = await ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], timeout=20)
        assert away["table"]["seats"][0]["connected"] is True
        played = await ann.until(lambda m: m["type"] == "state" and any(e.get("seat") == 0 for e in m["events"]))
        assert played["version"] > state["version"]
        await ann.send(type="sync")
        latest = await ann.reply("state")
        await ann.send(type="action", token=ann.token, version=latest["version"] - 1, action="0: draw")
        await ann.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"])
    asyncio.run(main())

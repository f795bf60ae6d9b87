"""kill -9 in the middle of games, start again on the same database: every table resumes where it was."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx

from helpers.server import Client, Server, play_to_the_end, seated, to_act


def _children(pid: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def _acknowledged_moves(clients: list[Client], moves: int, rng: random.Random) -> None:
    for number in range(moves):
        mover = await to_act(clients)
        state = mover.last_state
        await mover.act(rng.choice(state["legal"]), state["version"], id=number)
        await mover.until(lambda m: m["type"] == "state" and m.get("re") == number)


def test_kill_9_and_restart_loses_no_acknowledged_action(tmp_path):
    server = Server(tmp_path / "unokart.sqlite", bot_delay=0.05)
    rng = random.Random(9)
    try:
        async def before():
            code, clients = await seated(server, options={"target_score": 60})
            await _acknowledged_moves(clients, 12, rng)
            await to_act(clients)  # both have seen the latest state
            bots = server.create(seats=3, bots={"0": "easy", "1": "heuristic", "2": "ismcts:20"}, start=True)["code"]
            for _ in range(400):  # until the bots have played a few moves, the search among them
                if httpx.get(f"{server.url}/api/tables/{bots}").json()["version"] > 3 and _children(server.proc.pid):
                    break
                await asyncio.sleep(0.05)
            return code, clients
        code, (ann, bob) = asyncio.run(before())
        acknowledged = max((ann.last_state, bob.last_state), key=lambda state: state["version"])
        bot_table = next(t for t in httpx.get(server.url + "/api/tables").json()["tables"] if t["code"] != code)
        assert bot_table["status"] == "playing" and bot_table["version"] > 1
        workers = _children(server.proc.pid)  # the ISMCTS search process, among others
        assert workers
        server.kill()
        deadline = time.monotonic() + 15
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers))  # nothing of the killed server lingers
        server.start()

        async def after():
            clients = []
            for old in (ann, bob):
                client = await Client.connect(server, code, old.name)
                await client.resume(old.token)
                state = await client.reply("state")
                assert state["version"] == acknowledged["version"]
                assert state["view"]["hands"][old.seat] == old.last_state["view"]["hands"][old.seat]
                clients.append(client)
            assert clients[acknowledged["seat"]].last_state["view"] == acknowledged["view"]
            assert clients[0].last_state["commitments"] == acknowledged["commitments"]
            # The bots' table resumed from its stored version and plays on.
            spectator = await Client.connect(server, bot_table["code"])
            await spectator.send(type="watch")
            watched = await spectator.reply("state")
            assert watched["version"] >= bot_table["version"]
            await spectator.until(lambda m: m["type"] == "state" and m["version"] > watched["version"])
            # And the people's game goes on to its end.
            finals = await asyncio.gather(*(play_to_the_end(c, rng, 60) for c in clients))
            return finals
        finals = asyncio.run(after())
        assert finals[0]["view"]["awaiting"] == "game_over"
        games = httpx.get(server.url + "/api/games").json()["games"]
        assert any(g["code"] == code for g in games)
    finally:
        server.stop()
    assert server.errors_logged() == ""


def test_an_action_in_flight_at_kill_9_is_either_stored_whole_or_not_at_all(tmp_path):
    server = Server(tmp_path / "unokart.sqlite")
    try:
        async def before():
            code, clients = await seated(server)
            mover = await to_act(clients)
            state = mover.last_state
            await mover.act(state["legal"][-1], state["version"])
            return code, mover, state
        code, mover, sent = asyncio.run(before())
        server.kill()
        server.start()

        async def after():
            client = await Client.connect(server, code)
            await client.resume(mover.token)
            return await client.reply("state")
        state = asyncio.run(after())
        assert state["version"] in (sent["version"], sent["version"] + 1)
        if state["version"] == sent["version"]:
            assert state["view"] == sent["view"]
        else:
            assert state["view"]["version"] == sent["view"]["version"] + 1
    finally:
        server.stop()

"""Several `unokart serve --redis --database` processes serving the same tables (issue 13).

Three real server processes share a real Redis and a real PostgreSQL; real
websocket clients connect to different processes at one table. Every check of
the one-process tests holds across processes: a whole game is played to its
end, each seat gets exactly its own view (the leak check of the server tests,
run on what came through Redis), seat tokens work wherever a client lands, and
`kill -9` of the owner loses no acknowledged action.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import httpx
import redis
import websockets

from unokart import Game

from services import LEASE_TTL
from helpers.server import Client, check_messages_against_record, play_to_the_end


def _owner(redis_url: str, code: str) -> str | None:
    client = redis.Redis.from_url(redis_url)
    try:
        holder = client.get("unokart:lease:" + code)
        return holder.decode() if holder else None
    finally:
        client.close()


def test_clients_on_three_processes_play_a_whole_game_and_see_only_their_seats(processes, redis_url):
    first, second, third = processes
    code = first.create(seats=3, bots={"2": "heuristic"}, options={"target_score": 150, "hand_size": 4})["code"]
    assert _owner(redis_url, code).split(":")[1] == str(first.proc.pid)  # the creator owns it; the others relay
    # The lobby and the table's summary are the same from every process.
    for server in processes:
        assert code in [t["code"] for t in httpx.get(server.url + "/api/tables").json()["tables"]]
        assert httpx.get(f"{server.url}/api/tables/{code}").json()["seats"][2]["kind"] == "bot"
    # Ann joins over HTTP at the second process (the owner seats her), Bob over the websocket at the third.
    joined = httpx.post(f"{second.url}/api/tables/{code}/join", json={"name": "Ann"})
    assert joined.status_code == 200, joined.text
    ann_token = joined.json()["token"]
    taken = httpx.post(f"{third.url}/api/tables/{code}/join", json={"name": "Eve", "seat": 0})
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"  # refused by the owner, in one sentence

    async def main():
        ann = await Client.connect(second, code, "Ann")
        await ann.resume(ann_token)
        bob = await Client.connect(third, code, "Bob")
        await bob.join("Bob")
        spectator = await Client.connect(third, code, "spectator")  # relayed too
        await spectator.send(type="watch")
        await spectator.reply("welcome")
        await ann.send(type="start", token=ann.token)
        rng = random.Random(7)
        watched = spectator.until(lambda m: m["type"] == "state" and m["view"]["awaiting"] == "game_over", 180)
        finals = await asyncio.gather(play_to_the_end(ann, rng, 180), play_to_the_end(bob, rng, 180), watched)
        for client in (ann, bob, spectator):
            await client.close()
        return {0: ann, 1: bob, None: spectator}, finals

    # Everything the processes tell each other, as Redis carries it.
    tap = redis.Redis.from_url(redis_url).pubsub()
    tap.psubscribe("unokart:proc:*")
    carried: list[tuple[str, dict]] = []
    tapping = threading.Event()

    def listen():
        while not tapping.is_set():
            message = tap.get_message(timeout=0.2)
            if message and message["type"] == "pmessage":
                carried.append((message["channel"].decode().split(":")[3], json.loads(message["data"])))

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        clients, finals = asyncio.run(main())
    finally:
        tapping.set()
        listener.join()
        tap.close()
    assert {f["version"] for f in finals} == {finals[0]["version"]}
    # The finished game, asked of a process that does not own the table.
    games = [g for g in httpx.get(third.url + "/api/games").json()["games"] if g["code"] == code]
    assert len(games) == 1
    stored = httpx.get(f"{third.url}/api/games/{games[0]['id']}").json()
    replayed = Game.from_record(stored["record"])
    assert replayed.awaiting == "game_over" and replayed.scores == stored["scores"] == finals[0]["view"]["scores"]
    # Every message matched its position; each of the three clients saw every action (a short game has few).
    actions = sum(len(rnd["actions"]) for rnd in stored["record"]["rounds"])
    assert check_messages_against_record(clients, 1, stored) >= 3 * actions > 0
    # Through Redis, each process received only the views of the seats connected to it: Ann's at the second
    # (her seat, 0), Bob's and the spectator's at the third (1 and None); the owner, whose clients are all
    # elsewhere, none.
    seats_at = {str(second.proc.pid): {0}, str(third.proc.pid): {1, None}, str(first.proc.pid): set()}
    states = 0
    for pid, message in carried:
        for _, frame in message.get("items", []):
            frame = json.loads(frame)
            if frame["type"] == "state":
                assert frame["seat"] in seats_at[pid], (pid, frame["seat"])
                states += 1
    assert states > 30
    for server in processes:
        assert server.errors_logged() == ""


def test_a_seat_token_works_at_every_process_and_a_bad_one_at_none(processes):
    code = processes[0].create(seats=2, options={"hand_size": 5})["code"]
    token = httpx.post(f"{processes[1].url}/api/tables/{code}/join", json={"name": "Ann"}).json()["token"]

    async def main():
        seen = []
        for server in processes:
            client = await Client.connect(server, code)
            welcome = await client.resume(token)
            seen.append(welcome["seat"])
            intruder = await Client.connect(server, code)
            await intruder.send(type="resume", token="x" * 32, id=9)
            refused = await intruder.reply("error")
            assert (refused["code"], refused.get("re")) == ("bad_token", 9)
            await client.close()
            await intruder.close()
        return seen

    assert asyncio.run(main()) == [0, 0, 0]
    missing = httpx.get(f"{processes[2].url}/api/tables/ZZZZZZ")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_table"


def test_kill_9_of_an_owner_mid_game_loses_no_acknowledged_action(processes, redis_url):
    """Two tables owned by the first process, their players connected to all three. The owner is killed with
    SIGKILL mid-game; the survivors take the tables over within seconds, the players reconnect with their
    tokens wherever they land, and every action a player saw acknowledged is in the finished game."""
    owner, *survivors = processes
    codes = [owner.create(seats=3, bots={"2": "random"}, options={"target_score": 150, "hand_size": 5})["code"]
             for _ in range(2)]
    tokens = {code: [httpx.post(f"{processes[seat + 1].url}/api/tables/{code}/join", json={"name": name}).json()["token"]
                     for seat, name in enumerate(("Ann", "Bob"))] for code in codes}
    killed_at: list[float] = []
    report: dict = {"acknowledged": [], "reconnects": 0, "resumed_after": []}

    async def player(code: str, seat: int, rng: random.Random) -> dict:
        # At the first table both players are relayed (to the second and third processes); at the second, one
        # of them is connected to the owner itself, so the kill cuts its socket.
        landing = processes[(seat + 1 + codes.index(code)) % 3]
        client = await Client.connect(landing, code)
        await client.resume(tokens[code][seat])
        if seat == 0:
            await client.send(type="start", token=client.token)
        pending: dict[int, tuple[int, str]] = {}  # message id -> (version, action)
        ident = 0
        deadline = time.monotonic() + 240

        async def reconnect() -> dict:
            """The connection closed under it (the owner is gone): back with the token, at a surviving process."""
            nonlocal client
            report["reconnects"] += 1
            gone = time.monotonic()
            for attempt in range(200):
                try:
                    client = await Client.connect(survivors[(seat + attempt) % 2], code)
                    await client.resume(tokens[code][seat])
                    break
                except Exception:  # noqa: BLE001 - not taken over yet: try again
                    await asyncio.sleep(0.1)
            pending.clear()  # not acknowledged: the game's record says whether they happened
            state = await client.reply("state", 30)
            report["resumed_after"].append(time.monotonic() - gone)
            return state

        while True:
            try:
                message = await client.recv(max(0.01, deadline - time.monotonic()))
            except websockets.ConnectionClosed:
                message = await reconnect()
            if message["type"] == "state":
                if message.get("re") in pending:
                    report["acknowledged"].append((code, *pending.pop(message["re"])))
                if message["view"]["awaiting"] == "game_over":
                    await client.close()
                    return message
                if message["view"]["to_act"] == seat and message["legal"]:
                    ident += 1
                    action = rng.choice(message["legal"])
                    pending[ident] = (message["version"], action)
                    try:
                        await client.act(action, message["version"], id=ident)
                    except websockets.ConnectionClosed:
                        pass  # the next recv notices and reconnects
            elif message["type"] == "error":
                assert message["code"] in ("stale_version", "not_playing"), message

    async def killer():
        # Mid-game: once each table has moved on a good way.
        while len(report["acknowledged"]) < 20:
            await asyncio.sleep(0.05)
        owner.kill()
        killed_at.append(time.monotonic())

    async def main():
        rng = random.Random(3)
        return await asyncio.gather(*(player(code, seat, random.Random(rng.random())) for code in codes for seat in (0, 1)),
                                    killer())

    results = asyncio.run(main())
    assert killed_at and report["reconnects"] >= 4  # every player was cut off, wherever it was connected
    assert all(r["view"]["awaiting"] == "game_over" for r in results[:-1])
    # Held by a survivor now (an owner id is host:pid:random).
    assert all((_owner(redis_url, code) or "::").split(":")[1] in {str(s.proc.pid) for s in survivors} for code in codes)
    # Taken over within a few seconds: the lease's ttl, then a reconnect.
    assert max(report["resumed_after"]) < LEASE_TTL + 8, report["resumed_after"]
    recovered = 0
    for code in codes:
        games = [g for g in httpx.get(survivors[0].url + "/api/games").json()["games"] if g["code"] == code]
        stored = httpx.get(f"{survivors[0].url}/api/games/{games[0]['id']}").json()
        game = Game.from_record(stored["record"])
        assert game.awaiting == "game_over"
        # Every acknowledged action is in the record, at the position its version names.
        by_version = _actions_by_version(stored["record"])
        for table, version, action in report["acknowledged"]:
            if table == code:
                assert by_version.get(version) == action, (code, version, action)
                recovered += 1
    assert recovered == len(report["acknowledged"]) > 20
    print(f"acknowledged {len(report['acknowledged'])}, recovered {recovered}, reconnects {report['reconnects']}, "
          f"resumed after {max(report['resumed_after']):.1f} s at most")
    for server in survivors:
        assert server.errors_logged() == ""


def _actions_by_version(record: dict) -> dict[int, str]:
    """version -> the action played at it (the version counts each deal and each action, PROTOCOL.md section 1)."""
    out, version = {}, 0
    for rnd in record["rounds"]:
        version += 1  # the deal
        for action in rnd["actions"]:
            out[version] = action
            version += 1
    return out


def test_sigterm_gives_the_tables_up_before_telling_clients_to_reconnect(processes, redis_url):
    """A stopping owner releases its leases first, then closes its clients with 1012: a client that reconnects
    at once to another process finds the table free to take, never relayed back to the owner on its way out
    (which closed it again moments later)."""
    owner, second, third = processes
    code = owner.create(seats=2, bots={"0": "random", "1": "random"}, start=True, options={"target_score": 5000})["code"]

    async def watch(server):
        client = await Client.connect(server, code)
        await client.send(type="watch")
        await client.reply("welcome")
        await client.reply("state")
        return client

    async def main():
        here, relayed = await watch(owner), await watch(second)
        owner.proc.terminate()
        closes = []
        for client, elsewhere in ((here, second), (relayed, third)):
            try:
                while True:
                    await client.recv(30)
            except websockets.ConnectionClosed as closed:
                closes.append(closed.rcvd.code if closed.rcvd else None)
            holder = _owner(redis_url, code)
            # Told to reconnect only once the owner has let the table go.
            assert holder is None or holder.split(":")[1] != str(owner.proc.pid), holder
            again = await watch(elsewhere)
            first = again.last_state["version"]
            await again.until(lambda m: m["type"] == "state" and m["version"] > first + 5, 30)  # it plays on
            await again.close()
        return closes

    assert asyncio.run(main()) == [1012, 1012]
    assert owner.proc.wait(30) is not None
    assert "Traceback" not in owner.log.read_text()

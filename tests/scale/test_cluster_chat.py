"""Chat and reactions across three `unokart serve --redis --database` processes: relayed as actions are.

Clients at one table connect to different processes; what one says reaches every connection of the table,
whichever process it is on, refusals come back to the sender alone, a seat's budget holds whichever process
its messages come by, and a reconnect at yet another process receives the history.
"""

from __future__ import annotations

import asyncio
import time

import httpx

from helpers.server import Client


def test_chat_and_reactions_reach_every_process_and_the_history_follows_a_reconnect(processes):
    first, second, third = processes
    code = first.create(seats=2)["code"]
    ann_token = httpx.post(f"{second.url}/api/tables/{code}/join", json={"name": "Ann"}).json()["token"]

    async def main():
        ann = await Client.connect(second, code)
        await ann.resume(ann_token)
        bob = await Client.connect(third, code)
        await bob.join("Bob")
        watcher = await Client.connect(first, code)  # at the owner
        await watcher.send(type="watch", lang="te")
        await watcher.reply("chat_history")
        await ann.send(type="chat", token=ann_token, text="\U0001F469\u200d\U0001F52C ready", id="a1")
        for client in (ann, bob, watcher):
            message = await client.reply("chat")
            assert (message["seat"], message["name"], message["text"]) == (0, "Ann", "\U0001F469\u200d\U0001F52C ready")
            assert message.get("re") == ("a1" if client is ann else None)
        await watcher.send(type="react", emoji="\U0001F44F")
        for client in (ann, bob):
            assert (await client.reply("react"))["seat"] is None
        await watcher.send(type="chat", token=bob.token, text="sneaky", id="w")
        assert (await watcher.reply("error"))["code"] == "spectator"
        await bob.send(type="chat", token=bob.token, text="ok \u202e", id="b")
        assert (await bob.reply("error"))["code"] == "bad_text"
        # Ann's seat budget (5 in a burst at the default rate) holds wherever her messages come from: each of her
        # two connections, at two processes, has a budget of 5 of its own, so without the seat's 10 would pass.
        other = await Client.connect(third, code)
        await other.resume(ann_token)
        senders = [ann, other] * 6
        for n, client in enumerate(senders):
            await client.send(type="chat", token=ann_token, text=f"n{n}", id=f"n{n}")
        answers = {}
        for client in (ann, other):  # each sender's answers, in whatever order its relay brings them
            wanted = {f"n{n}" for n, c in enumerate(senders) if c is client}
            while not wanted <= set(answers):
                message = await client.recv()
                if message.get("re") in wanted:
                    answers[message["re"]] = message
        answers = [answers[f"n{n}"] for n in range(len(senders))]
        accepted = [a["text"] for a in answers if a["type"] == "chat"]
        assert 1 <= len(accepted) <= 6, accepted  # 5, and the little the seat's budget refills meanwhile
        assert {a.get("code") for a in answers if a["type"] == "error"} == {"rate_limited"}
        heard = [m["text"] for m in bob.received if m["type"] == "chat"]
        heard += [m["text"] for m in await _chats(bob, len(accepted) + 1 - len(heard))]
        back = await Client.connect(first, code)
        await back.resume(bob.token)
        history = (await back.reply("chat_history"))["messages"]
        # One order for everyone, the history's: Ann's two connections' messages reach the owner through two relays, so
        # in whichever order they arrive, not necessarily the order they were sent in.
        assert [m["text"] for m in history] == heard
        assert heard[0] == "\U0001F469\u200d\U0001F52C ready" and sorted(heard[1:]) == sorted(accepted)
        for client in (ann, bob, watcher, other, back):
            await client.close()

    asyncio.run(main())


async def _chats(client: Client, count: int) -> list[dict]:
    return [await client.reply("chat") for _ in range(count)]


def test_the_chat_history_follows_the_table_to_the_process_that_takes_it_over_after_its_owner_is_killed(
        processes, postgres_url):
    import psycopg

    owner, second, third = processes
    code = owner.create(seats=2)["code"]
    token = httpx.post(f"{second.url}/api/tables/{code}/join", json={"name": "Ann"}).json()["token"]

    async def say() -> None:
        ann = await Client.connect(second, code)  # relayed to the owner
        await ann.resume(token)
        await ann.reply("chat_history")
        await ann.send(type="chat", token=token, text="still here?", id="k")
        await ann.until(lambda m: m.get("re") == "k" and m["type"] == "chat")
        await ann.close()

    asyncio.run(say())
    # Stored off the event loop (group commit) just after it is told: waited for in the database, with a bound.
    deadline = time.monotonic() + 30
    with psycopg.connect(postgres_url, autocommit=True) as db:
        while db.execute("SELECT count(*) FROM chat WHERE code = %s", (code,)).fetchone()[0] != 1:
            assert time.monotonic() < deadline, "the chat message was never stored"
            time.sleep(0.05)
    owner.kill()

    async def back() -> list[dict]:
        for _ in range(300):  # until its lease runs out and the third process takes the table over
            try:
                ann = await Client.connect(third, code)
                await ann.resume(token)
                history = (await ann.reply("chat_history"))["messages"]
                await ann.close()
                return history
            except Exception:  # noqa: BLE001 - not taken over yet: try again
                await asyncio.sleep(0.1)
        raise AssertionError("the table was never taken over")

    history = asyncio.run(back())
    assert [(m["seat"], m["name"], m["text"]) for m in history] == [(0, "Ann", "still here?")]
    for server in (second, third):
        assert server.errors_logged() == ""


def test_postgresql_keeps_each_tables_last_fifty_chat_messages_written_alone_or_in_groups(postgres_url):
    from unokart.server.store import StoredSeat
    from unokart.server.store_postgres import PostgresStore

    store = PostgresStore(postgres_url)
    try:
        with store.transaction() as tx:
            for code in ("AAAAAA", "BBBBBB"):
                tx.create_table(code, {}, None, [StoredSeat("human", "Ann", None, None)])
        for n in range(30):  # one at a time, as a change of its own
            with store.transaction() as tx:
                tx.add_chat("AAAAAA", {"text": f"a{n}"})

        async def grouped() -> None:  # the rest through the group writer: two tables' messages in each commit
            writer = store.group_writer()
            failures = []
            for n in range(30, 70):
                for code in ("AAAAAA", "BBBBBB"):
                    writer.submit(lambda tx, code=code, n=n: tx.add_chat(code, {"text": f"{code[0].lower()}{n}"}),
                                  failures.append)
            await writer.close()
            assert failures == [None] * 80

        asyncio.run(grouped())
        assert [m["text"] for m in store.load_table("AAAAAA").chat] == [f"a{n}" for n in range(20, 70)]
        assert [m["text"] for m in store.load_table("BBBBBB").chat] == [f"b{n}" for n in range(30, 70)]
        assert store.db.execute("SELECT code, count(*) FROM chat GROUP BY code ORDER BY code").fetchall() == \
            [("AAAAAA", 50), ("BBBBBB", 40)]
    finally:
        store.close()

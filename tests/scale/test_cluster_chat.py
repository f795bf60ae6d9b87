"""Chat and reactions across three `unokart serve --redis --database` processes: relayed as actions are.

Clients at one table connect to different processes; what one says reaches every connection of the table,
whichever process it is on, refusals come back to the sender alone, a seat's budget holds whichever process
its messages come by, and a reconnect at yet another process receives the history.
"""

from __future__ import annotations

import asyncio

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

"""Chat and reactions at a real server, against hostile clients on real websockets (PROTOCOL.md section 4).

Whatever a client sends, it alone gets a refusal naming the problem in its own language, the others are told
nothing but what was accepted, and the server logs no error.
"""

from __future__ import annotations

import asyncio

import pytest

from helpers.server import Client, seated, serve_for_module

CHAT_RATE = 5  # a second per seat, in bursts of 50: a flood of 200 still goes far over it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("chat") / "unokart.sqlite", extra=["--chat-rate", str(CHAT_RATE)])


async def chats(client: Client, count: int, timeout: float = 20) -> list[dict]:
    got = []
    while len(got) < count:
        message = await client.until(lambda m: m["type"] == "chat", timeout)
        got.append(message)
    return got


async def quiet(client: Client, seconds: float = 0.3) -> list[dict]:
    """What a client receives within a short while (after a ping's pong: everything sent before has arrived)."""
    await client.send(type="ping", id="quiet")
    before = len(client.received)
    await client.reply("pong")
    return client.received[before:-1]


def test_a_flood_is_refused_with_rate_limited_and_another_seat_still_chats(server):
    async def main():
        code, (ann, bob) = await seated(server, start=False)
        flood = 200
        for n in range(flood):
            await ann.send(type="chat", token=ann.token, text=f"flood {n}", id=n)
        await ann.send(type="ping", id="end")
        await ann.reply("pong")
        refused = [m for m in ann.received if m.get("code") == "rate_limited"]
        accepted = [m for m in ann.received if m["type"] == "chat"]
        assert refused and refused[0]["retry_after"] >= 1
        assert len(accepted) + len(refused) == flood and len(accepted) <= 10 * CHAT_RATE + 5
        await bob.send(type="chat", token=bob.token, text="can I speak?", id="b1")
        mine = await bob.until(lambda m: m["type"] == "chat" and m.get("re") == "b1")
        assert mine["seat"] == 1 and mine["text"] == "can I speak?"
        heard = [m for m in await chats(ann, 1) if m["seat"] == 1]
        assert heard and heard[0]["text"] == "can I speak?"
        for client in (ann, bob):
            await client.close()

    asyncio.run(main())


def test_ten_kilobytes_bidi_controls_and_markup(server):
    async def main():
        code, (ann, bob) = await seated(server, start=False)
        tamil = await Client.connect(server, code)
        await tamil.send(type="resume", token=ann.token, lang="ta")
        await tamil.reply("chat_history")
        await tamil.send(type="chat", token=ann.token, text="x" * 10_240, id="big")
        too_large = await tamil.reply("error")
        assert too_large["code"] == "too_large" and too_large["re"] == "big"
        await tamil.send(type="chat", token=ann.token, text="gg \u202eez", id="rlo")
        bidi = await tamil.reply("error")
        assert bidi["code"] == "bad_text" and bidi["re"] == "rlo" and "U+202E" in bidi["message"]
        assert any("\u0b80" <= c <= "\u0bff" for c in bidi["message"]), bidi["message"]  # in Tamil
        markup = '<img src=x onerror="alert(1)"><b>hi</b> &amp;'
        await tamil.send(type="chat", token=ann.token, text=markup, id="html")
        sent = await bob.until(lambda m: m["type"] == "chat")
        assert sent["text"] == markup and sent["name"] == "Ann"
        assert not [m for m in await quiet(bob) if m["type"] == "chat"]  # neither refused message was said
        for client in (ann, bob, tamil):
            await client.close()

    asyncio.run(main())


def test_a_token_from_another_table_and_a_spectator_cannot_chat_but_a_spectator_reacts(server):
    async def main():
        code, (ann, bob) = await seated(server, start=False)
        _, (eve,) = await seated(server, names=("Eve",), seats=2, start=False)
        watcher = await Client.connect(server, code)
        await watcher.send(type="watch")
        await watcher.reply("chat_history")
        await ann.send(type="chat", token=eve.token, text="hello from elsewhere", id=1)
        assert (await ann.reply("error"))["code"] == "bad_token"
        await watcher.send(type="chat", token=ann.token, text="I am Ann now", id=2)
        assert (await watcher.reply("error"))["code"] == "spectator"
        await watcher.send(type="react", emoji="\U0001F389")
        await ann.send(type="react", token=ann.token, emoji="\U0001F34C")
        await watcher.send(type="react", emoji="<script>")
        assert (await watcher.reply("error"))["code"] == "bad_emoji"
        reactions = [await bob.reply("react"), await bob.reply("react")]
        assert {(r["seat"], r["emoji"]) for r in reactions} == {(None, "\U0001F389"), (0, "\U0001F34C")}
        assert not [m for m in await quiet(bob) if m["type"] in ("chat", "react")]
        for client in (ann, bob, eve, watcher):
            await client.close()

    asyncio.run(main())


def test_a_reconnecting_player_receives_the_last_fifty_messages_and_no_more(server):
    async def main():
        code, (ann, bob) = await seated(server, start=True)
        for n in range(60):
            speaker = ann if n % 2 == 0 else bob
            await speaker.send(type="chat", token=speaker.token, text=f"line {n}")
        heard = await chats(ann, 60)  # the order the server said them in (two sockets: not the order sent)
        await ann.close()
        back = await Client.connect(server, code)
        await back.send(type="resume", token=ann.token)
        kinds = []
        while "chat_history" not in kinds:
            kinds.append((await back.recv())["type"])
        assert kinds[0] == "welcome" and "state" in kinds
        history = back.received[-1]["messages"]
        assert history == heard[-50:] and {m["text"] for m in heard} == {f"line {n}" for n in range(60)}
        for client in (bob, back):
            await client.close()

    asyncio.run(main())

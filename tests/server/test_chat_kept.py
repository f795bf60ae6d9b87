"""A table's chat outlives its time in memory: the last 50 messages are kept in the store (apart from any game's
record), loaded with the table when it is reloaded (after it left memory idle, after a kill -9), and a store that
fails to keep one never stops the game. In-process with a real SQLite file and a clock the test moves, and a real
`unokart serve` killed with SIGKILL."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import httpx

from helpers.server import Client, Server, play_to_the_end, seated

from test_chat import FakeClock, chat, new_service, run, said
from test_table_service import Seen, create, message, sit


def _stored_texts(path, code: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [json.loads(m)["text"] for (m,) in db.execute("SELECT message FROM chat WHERE code = ? ORDER BY id", (code,))]


def test_the_last_fifty_chat_messages_are_stored_and_follow_the_table_when_it_leaves_memory_and_reloads(tmp_path):
    async def main():
        clock = FakeClock()
        service = new_service(tmp_path, clock)
        table = create(service, seats=2)
        code = table.code
        ann, ann_token = sit(service, table, "Ann")
        for n in range(60):
            clock.now += 2  # within the seat's chat budget
            service.handle(ann, table, chat(ann, ann_token, f"message {n}", id=n))
        wanted = [f"message {n}" for n in range(10, 60)]
        assert _stored_texts(tmp_path / "tables.sqlite", code) == wanted  # trimmed as written: never more than 50
        service.disconnect(ann)
        table.touched -= service.settings.idle + 1  # idle long enough (the sweep's own clock is not moved)
        assert service.sweep() == 1 and code not in service.tables
        reloaded = service.table(code)
        assert reloaded is not table
        back = Seen()
        service.handle(back, reloaded, message(type="resume", token=ann_token))
        history = said(back, "chat_history")[0]["messages"]
        assert [m["text"] for m in history] == wanted
        assert history[-1] == {"type": "chat", "seat": 0, "name": "Ann", "text": "message 59",
                               "at": int(clock.now * 1000)}
        await service.close()
        service.store.close()

    run(main)


def test_a_chat_message_the_store_fails_to_keep_is_still_said_and_the_game_goes_on(tmp_path):
    async def main():
        service = new_service(tmp_path, FakeClock())
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        service.handle(ann, table, message(type="start", token=ann_token))
        with sqlite3.connect(tmp_path / "tables.sqlite") as db:
            # Every chat write fails from now on (as a full disk would fail it), and nothing else does.
            db.execute("CREATE TRIGGER refused BEFORE INSERT ON chat BEGIN SELECT RAISE(ABORT, 'no room'); END")
        service.handle(ann, table, chat(ann, ann_token, "still said"))
        assert said(bob, "chat")[0]["text"] == "still said" and not table.paused
        game, version = table.game, table.version
        action = next(a for a in game.legal_actions(game.to_act))
        conn, token = (ann, ann_token) if game.to_act == 0 else (bob, bob_token)
        service.handle(conn, table, message(type="action", token=token, version=version, action=str(action)))
        assert table.version > version and service.store.load_table(table.code).version == table.version
        back = Seen()
        service.handle(back, table, message(type="resume", token=bob_token))
        assert [m["text"] for m in said(back, "chat_history")[0]["messages"]] == ["still said"]  # this process's memory
        await service.close()
        service.store.close()

    run(main)


def test_the_chat_history_survives_a_kill_and_restart_and_the_games_record_holds_no_chat(tmp_path):
    server = Server(tmp_path / "unokart.sqlite")
    try:
        async def before() -> str:
            code, (ann, bob) = await seated(server, options={"target_score": 1})
            await ann.send(type="chat", token=ann.token, text="zebra-unicorn-4417", id="c")
            await ann.until(lambda m: m.get("re") == "c")
            await bob.reply("chat")  # told: committed to the store before anyone is told
            for client in (ann, bob):
                await client.close()
            return code, ann.token, bob.token

        code, ann_token, bob_token = asyncio.run(before())
        server.kill()
        server.start()

        async def after() -> None:
            ann, bob = await Client.connect(server, code), await Client.connect(server, code)
            await ann.resume(ann_token)
            await bob.resume(bob_token)
            for client in (ann, bob):
                history = (await client.reply("chat_history"))["messages"]  # after the state (last_state)
                assert [(m["seat"], m["name"], m["text"]) for m in history] == [(0, "Ann", "zebra-unicorn-4417")]
            rng = random.Random(5)
            await asyncio.gather(*(play_to_the_end(c, rng, 60) for c in (ann, bob)))
            for client in (ann, bob):
                await client.close()

        asyncio.run(after())
        games = httpx.get(server.url + "/api/games").json()["games"]
        record = httpx.get(f"{server.url}/api/games/{games[0]['id']}")
        assert record.status_code == 200 and record.json()["record"]["rounds"][0]["actions"]
        assert "zebra-unicorn" not in record.text and "chat" not in record.text
    finally:
        server.stop()
    assert server.errors_logged() == ""

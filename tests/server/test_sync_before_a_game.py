"""`sync` is always answered: before the first game there is no state to send, so the table summary answers it
(before, nothing did, and a client waiting on its `re` waited for ever)."""

from __future__ import annotations

from helpers.server import Client, run_in_process


def test_a_sync_in_the_lobby_is_answered_with_the_table(tmp_path):
    async def main(server):
        code = (await server.create(seats=3))["code"]
        watcher = await Client.connect(server, code)
        await watcher.send(type="watch")
        await watcher.send(type="sync", id=5)
        answer = await watcher.until(lambda m: m.get("re") == 5)
        assert answer["type"] == "table" and answer["table"]["code"] == code and answer["table"]["status"] == "lobby"
    run_in_process(main, tmp_path)

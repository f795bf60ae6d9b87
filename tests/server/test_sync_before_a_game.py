"""`sync` is always answered: before the first game there is no state to send, so the table summary answers it
(before, nothing did, and a client waiting on its `re` waited for ever)."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from helpers.server import ManualClock, serving
from unokart.server.app import Settings, create_app


def test_a_sync_in_the_lobby_is_answered_with_the_table(tmp_path):
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=0.0, round_pause=0.0), clock=ManualClock())
    with serving(app) as base:
        code = httpx.post(base + "/api/tables", json={"seats": 3}).json()["code"]

        async def main() -> dict:
            async with websockets.connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
                await ws.send(json.dumps({"type": "watch"}))
                await ws.send(json.dumps({"type": "sync", "id": 5}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))  # a bound for a hang
                    if message.get("re") == 5:
                        return message

        answer = asyncio.run(main())
        assert answer["type"] == "table" and answer["table"]["code"] == code and answer["table"]["status"] == "lobby"

"""The per-address cap on websockets holds while a table is being loaded: handshakes that arrive during the load
are counted from the start (before, the count grew only after the load, so 100 handshakes at a table coming back
from the store all got in, against a cap of 64). The test holds the load open until the handshakes wait in it."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from helpers.server import ManualClock, serving
from unokart.server.app import MAX_CONNECTIONS_PER_ADDRESS, Settings, create_app

EXTRA = 6


def test_handshakes_during_a_tables_load_count_against_the_address_cap(tmp_path):
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=0.0, round_pause=0.0), clock=ManualClock())
    with serving(app) as base:
        code = httpx.post(base + "/api/tables", json={"seats": 2}).json()["code"]
        service = app.state.service
        real_load = service.table_apart
        gate: dict = {"arrived": 0}

        async def held_load(table_code: str):  # on the server's loop
            if "open" not in gate:
                gate["loop"], gate["open"] = asyncio.get_running_loop(), asyncio.Event()
            gate["arrived"] += 1
            await gate["open"].wait()
            return await real_load(table_code)

        service.table_apart = held_load

        async def one() -> str:
            async with websockets.connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
                try:
                    await ws.send(json.dumps({"type": "watch"}))
                except websockets.ConnectionClosed:
                    pass  # refused at once: the refusal still waits to be read
                first = json.loads(await asyncio.wait_for(ws.recv(), 60))  # a bound for a hang
                return first["code"] if first["type"] == "error" else first["type"]

        async def main() -> list[str]:
            tasks = [asyncio.create_task(one()) for _ in range(MAX_CONNECTIONS_PER_ADDRESS + EXTRA)]
            for _ in range(6000):  # until the handshakes the cap lets through all wait in the load
                if gate["arrived"] >= MAX_CONNECTIONS_PER_ADDRESS and sum(task.done() for task in tasks) >= EXTRA \
                        or gate["arrived"] == MAX_CONNECTIONS_PER_ADDRESS + EXTRA:
                    break
                await asyncio.sleep(0.01)
            gate["loop"].call_soon_threadsafe(gate["open"].set)
            return await asyncio.gather(*tasks)

        answers = asyncio.run(main())
        assert answers.count("welcome") == MAX_CONNECTIONS_PER_ADDRESS, answers
        assert answers.count("too_many_connections") == EXTRA

"""No lock-outs (issue 26, item 1): one address filled `serve --max-tables 30` with 30 all-bot tables in 11 s
and every other client got 503 for hours. Now each address has a cap on its open tables (bot-only ones count
against their creator); a table in play with nobody connected stops after a grace period, on the server's clock
(moved here by the test), and comes back where it stopped when someone asks for it; and a full server stays open
to a new player while any table it holds has nobody at it (stopping the one left alone longest). A reload counts
against --max-tables as a creation does (item 2)."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import httpx
import websockets

from helpers.server import ManualClock, serving
from unokart.server.app import Settings, create_app

ALL_BOTS = {"seats": 4, "bots": {str(s): "easy" for s in range(4)}, "start": True, "options": {"target_score": 5000}}


def _server(tmp_path, **settings):
    clock = ManualClock()
    # Bots wait 5 s of real time a move: the tables stay in play for the whole test.
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=5.0, round_pause=0.0, **settings), clock=clock)
    return app, clock


def _status(tmp_path, code: str) -> str:
    with sqlite3.connect(tmp_path / "tables.sqlite") as db:
        return db.execute("SELECT status FROM tables WHERE code = ?", (code,)).fetchone()[0]


def _from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


async def _watch(base: str, code: str):
    ws = await websockets.connect(base.replace("http", "ws") + f"/ws/{code}")
    await ws.send('{"type": "watch"}')
    assert '"welcome"' in await asyncio.wait_for(ws.recv(), 20)
    return ws


def test_one_address_has_a_cap_on_its_open_tables_bot_only_ones_included(tmp_path):
    app, _clock = _server(tmp_path, tables_per_address=3, max_tables=30)
    with serving(app) as base, _from("127.0.0.1") as one, _from("127.0.0.2") as other:
        for _ in range(3):
            assert one.post(base + "/api/tables", json=ALL_BOTS).status_code == 201
        refused = one.post(base + "/api/tables", json=ALL_BOTS)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_tables", refused.text
        assert "3 tables in play" in refused.json()["message"]
        assert other.post(base + "/api/tables", json=ALL_BOTS).status_code == 201  # another address is not held


def test_a_table_nobody_is_at_stops_after_its_grace_and_resumes_for_a_spectator(tmp_path):
    app, clock = _server(tmp_path, unattended=60.0)
    with serving(app) as base:
        code = httpx.post(base + "/api/tables", json=ALL_BOTS).json()["code"]
        service = app.state.service
        clock.advance(59)
        assert code in service.tables and _status(tmp_path, code) == "playing"
        version = service.tables[code].version
        clock.advance(2)
        assert code not in service.tables and _status(tmp_path, code) == "stopped"  # out of memory, stored so

        async def watched() -> None:
            ws = await _watch(base, code)  # brings it back, where it stopped
            table = service.tables[code]
            assert table.status == "playing" and table.version >= version and _status(tmp_path, code) == "playing"
            clock.advance(600)
            assert service.tables.get(code) is table  # watched: it plays on
            await ws.close()
            for _ in range(200):  # the server notices the close on its own loop
                if not table.connections:
                    break
                await asyncio.sleep(0.05)
            clock.advance(61)
            assert code not in service.tables and _status(tmp_path, code) == "stopped"

        asyncio.run(watched())


def test_a_full_server_stays_open_to_a_new_player_until_every_table_has_someone_at_it(tmp_path):
    app, _clock = _server(tmp_path, max_tables=3, tables_per_address=0, unattended=3600.0)
    with serving(app) as base, _from("127.0.0.1") as griefer, _from("127.0.0.2") as player:
        codes = [griefer.post(base + "/api/tables", json=ALL_BOTS).json()["code"] for _ in range(3)]
        created = player.post(base + "/api/tables", json={"seats": 2})
        assert created.status_code == 201, created.text  # the table left alone longest made room
        assert _status(tmp_path, codes[0]) == "stopped"
        held = set(app.state.service.tables)
        assert held == {*codes[1:], created.json()["code"]}

        async def everyone_watched() -> httpx.Response:
            sockets = [await _watch(base, code) for code in sorted(held)]
            try:
                return player.post(base + "/api/tables", json={"seats": 2})
            finally:
                for ws in sockets:
                    await ws.close()

        full = asyncio.run(everyone_watched())
        assert full.status_code == 503 and full.json()["code"] == "server_full"


def test_a_reload_counts_against_max_tables(tmp_path):
    app, _clock = _server(tmp_path, max_tables=2, tables_per_address=0)
    with serving(app) as base:
        first = httpx.post(base + "/api/tables", json={"seats": 2}).json()["code"]

        async def main() -> httpx.Response:
            sockets = []
            for _ in range(2):  # each creation past the cap makes room by letting the unwatched first table go
                code = httpx.post(base + "/api/tables", json={"seats": 2}).json()["code"]
                sockets.append(await _watch(base, code))
            assert first not in app.state.service.tables
            try:
                return httpx.get(f"{base}/api/tables/{first}")  # a reload: no room, every table watched
            finally:
                for ws in sockets:
                    await ws.close()

        reloaded = asyncio.run(main())
        assert reloaded.status_code == 503 and reloaded.json()["code"] == "server_full", reloaded.text
        assert len(app.state.service.tables) <= 2


def test_tables_created_in_the_lobby_count_against_the_cap_as_they_start(tmp_path):
    app, _clock = _server(tmp_path, tables_per_address=2, max_tables=30)
    lobby = {"seats": 2, "bots": {"1": "easy"}, "options": {"target_score": 5000}}
    with serving(app) as base:
        codes, tokens = [], []
        for _ in range(3):
            code = httpx.post(base + "/api/tables", json=lobby).json()["code"]
            codes.append(code)
            tokens.append(httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Ann", "seat": 0}).json()["token"])

        async def start(code: str, token: str) -> dict:
            async with websockets.connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
                await ws.send(f'{{"type": "resume", "token": "{token}"}}')
                await ws.send(f'{{"type": "start", "token": "{token}", "id": 1}}')
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 20))  # a bound for a hang
                    if message.get("re") == 1 or message["type"] == "state":
                        return message

        answers = [asyncio.run(start(code, token)) for code, token in zip(codes, tokens)]
        assert [a["type"] for a in answers[:2]] == ["state", "state"]
        assert answers[2].get("code") == "too_many_tables", answers[2]
        assert app.state.service.tables[codes[2]].status == "lobby"  # refused: nothing changed

"""--join notices a state lost on its way (a relay dropped it): versions grow by one, so the next
state's jump makes the terminal client ask for the whole state again, and the lost events reach it.
A real server; between it and the client, a websocket relay on loopback that drops one state."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from unokart.rules import actions as A
from unokart.tui.remote import RemoteTable, SeatStore
from unokart.tui.source import TableError

from helpers.ports import free_port
from helpers.server import serve_for_module


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("missed") / "unokart.sqlite")


class DroppingRelay:
    """Relays one table's websocket both ways, and drops the first state that ``drop`` picks after the
    connection's first (whole) state."""

    def __init__(self, upstream: str, drop):
        self.upstream, self.drop = upstream, drop
        self.dropped: list[dict] = []
        self.sent: list[dict] = []  # what the client sent
        self.states = 0  # states passed on to the client

    async def __call__(self, client) -> None:
        async with websockets.connect(self.upstream + client.request.path) as server:
            async def up():
                async for frame in client:
                    self.sent.append(json.loads(frame))
                    await server.send(frame)

            async def down():
                async for frame in server:
                    message = json.loads(frame)
                    if not self.dropped and self.states and self.drop(message):
                        self.dropped.append(message)
                        continue
                    self.states += message.get("type") == "state"
                    await client.send(frame)

            tasks = [asyncio.create_task(up()), asyncio.create_task(down())]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()


def news_before_a_bot_moves(message: dict) -> bool:
    """A state after a bot's action (not the answer to Ann's own, which she waits for) with a bot to move
    next (so another state follows) and every hand of three cards or more (so the round goes on, and
    the sync's whole round still holds the lost events)."""
    view = message.get("view") or {}
    return (message.get("type") == "state" and bool(message.get("events")) and "re" not in message
            and view.get("to_act") not in (None, 0)
            and all(size >= 3 for size in (len(h) if isinstance(h, list) else h for h in view["hands"])))


async def test_a_dropped_state_is_noticed_and_the_client_asks_for_the_whole_state(server, tmp_path):
    code = server.create(seats=3, bots={"1": "easy", "2": "easy"})["code"]
    relay = DroppingRelay(f"ws://127.0.0.1:{server.port}", news_before_a_bot_moves)
    port = free_port()
    received: set[tuple[int, int]] = set()  # (round, i) of the events the client passed on
    async with websockets.serve(relay, "127.0.0.1", port):
        table = RemoteTable(f"http://127.0.0.1:{port}", code, "Ann", SeatStore(tmp_path / "seats.json"))
        await table.start(lambda fresh, notice: received.update((table.view["round"], e["i"]) for e in fresh))
        try:
            await asyncio.wait_for(play_until_synced(table, relay), 60)  # a bound for a hang
            lost = relay.dropped[0]
            wanted = {(lost["view"]["round"], e["i"]) for e in lost["events"]}
            await asyncio.wait_for(until(lambda: wanted <= received), 60)
        finally:
            await table.stop()


async def until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def play_until_synced(table: RemoteTable, relay: DroppingRelay) -> None:
    """Ann starts the game and plays on (her first legal turn action) until the client has asked for a sync."""
    await until(lambda: table.table is not None)
    await table.next_round()
    while not any(m.get("type") == "sync" for m in relay.sent):
        if table.view and table.view["to_act"] == 0 and table.legal:
            version = table.version
            turn = [a for a in table.legal if a.verb not in (A.UNO, A.CATCH)]
            await table.act(turn[0] if turn else table.legal[0])
            await until(lambda: table.version != version)
        else:
            await asyncio.sleep(0.01)
    assert relay.dropped, "the relay dropped no state"


def answer_before_a_bot_moves(message: dict) -> bool:
    """The state answering Ann's own action, when a bot moves next (so a newer state follows it)."""
    view = message.get("view") or {}
    return message.get("type") == "state" and "re" in message and view.get("to_act") not in (None, 0)


async def test_an_action_whose_answer_was_lost_is_settled_by_the_next_state_not_called_unanswered(server, tmp_path):
    code = server.create(seats=3, bots={"1": "easy", "2": "easy"})["code"]
    relay = DroppingRelay(f"ws://127.0.0.1:{server.port}", answer_before_a_bot_moves)
    port = free_port()
    async with websockets.serve(relay, "127.0.0.1", port):
        table = RemoteTable(f"http://127.0.0.1:{port}", code, "Ann", SeatStore(tmp_path / "seats.json"))
        await table.start(lambda fresh, notice: None)
        try:
            await asyncio.wait_for(until(lambda: table.table is not None), 60)
            await table.next_round()
            while not relay.dropped:
                await asyncio.wait_for(until(lambda: table.view and table.view["to_act"] == 0 and table.legal), 60)
                sent_at = table.version
                turn = [a for a in table.legal if a.verb not in (A.UNO, A.CATCH)]
                # answered, or its answer lost: act() returns once the table has moved on, never raising "no answer"
                await asyncio.wait_for(table.act(turn[0] if turn else table.legal[0]), 60)  # a bound for a hang
                assert table.version > sent_at
            assert any(m["type"] == "action" and m.get("id") == relay.dropped[0]["re"] for m in relay.sent), \
                "the dropped state answered one of Ann's actions"
        finally:
            await table.stop()


def answer_while_ann_still_acts(message: dict) -> bool:
    """The state answering Ann's own action while the decision is still hers (after a draw): no newer
    state follows it until she acts again."""
    view = message.get("view") or {}
    return message.get("type") == "state" and "re" in message and view.get("to_act") == 0


async def test_an_action_refused_as_stale_after_a_lost_answer_brings_the_table_back(server, tmp_path):
    code = server.create(seats=2, bots={"1": "easy"})["code"]
    relay = DroppingRelay(f"ws://127.0.0.1:{server.port}", answer_while_ann_still_acts)
    port = free_port()
    async with websockets.serve(relay, "127.0.0.1", port):
        table = RemoteTable(f"http://127.0.0.1:{port}", code, "Ann", SeatStore(tmp_path / "seats.json"))
        await table.start(lambda fresh, notice: None)
        try:
            await asyncio.wait_for(until(lambda: table.table is not None), 60)  # bounds for a hang, throughout
            await table.next_round()
            while not relay.dropped:
                await asyncio.wait_for(until(lambda: table.view and table.view["to_act"] == 0 and table.legal), 60)
                turn = [a for a in table.legal if a.verb not in (A.UNO, A.CATCH)]
                draw = [a for a in turn if a.verb == A.DRAW]
                first = asyncio.create_task(table.act((draw or turn)[0]))
                await asyncio.wait_for(until(lambda: first.done() or relay.dropped), 60)
                if not relay.dropped:
                    await first
            lost = relay.dropped[0]
            # Ann, still at the old version, acts again: refused as stale, which brings the whole table back,
            # and settles her first action, whose answer will never come.
            with pytest.raises(TableError):
                await asyncio.wait_for(table.act(table.legal[0]), 60)
            await asyncio.wait_for(first, 60)
            await asyncio.wait_for(until(lambda: table.version >= lost["version"]), 60)
            assert any(m["type"] == "sync" for m in relay.sent)
        finally:
            await table.stop()


async def test_a_seat_file_that_cannot_be_written_still_keeps_one_seat_and_says_so(server, tmp_path):
    code = server.create(seats=4)["code"]
    (tmp_path / "seats.json").mkdir()  # no file can be written there
    notices: list[str] = []
    table = RemoteTable(f"http://127.0.0.1:{server.port}", code, "Ann", SeatStore(tmp_path / "seats.json"))
    await table.start(lambda fresh, notice: notices.append(notice) if notice else None)
    try:
        await asyncio.wait_for(until(lambda: table.table is not None), 60)
        assert any("could not be saved" in notice for notice in notices), notices
        await table._ws.close()  # the connection drops: the client comes back to its seat from memory
        await asyncio.wait_for(until(lambda: sum("could not be saved" in notice for notice in notices) == 2), 60)
        seats = httpx.get(f"http://127.0.0.1:{server.port}/api/tables/{code}").json()["seats"]
        assert [place["name"] for place in seats if place["kind"] == "human"] == ["Ann"]
    finally:
        await table.stop()

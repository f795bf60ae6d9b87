"""A finished table in memory keeps what its readers are shown, not its game's history (issue 26, item 2).

Its game (every action of every round) is in the store, and the routes that show it (the record, the replay,
verify) read it from there. Everything a client asks of a finished table answers as it did when the table
held the whole game: the state a spectator or a returning player is sent, in two languages, the record, its
replay and its verification; before and after the table leaves memory and is reloaded.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import types

import httpx

from helpers.server import Client, Server
from unokart.replay.frames import replay_round
from unokart.rules import Action, Game
from unokart.server import messages
from unokart.server.shuffle import record_of, verify

from test_table_service import Seen, create, message, new_service, sit, until

# Held by a table's handles and closures: the event loop and everything on it, not the table's own.
_NOT_THE_TABLES = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                   asyncio.AbstractEventLoop, asyncio.Handle)


def _holds(root: object, kinds: tuple[type, ...]) -> list[object]:
    """Every object of ``kinds`` reachable from ``root`` (not through the event loop, classes or functions)."""
    seen, stack, found = set(), [root], []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _NOT_THE_TABLES):
            continue
        seen.add(id(obj))
        if isinstance(obj, kinds):
            found.append(obj)
        stack.extend(gc.get_referents(obj))
    return found


READERS = [(seat, lang) for seat in (None, 0, 1, 2) for lang in ("en", "ta")]
SHOWN = ("version", "game", "seat", "view", "legal", "events", "commitments")  # not "seats": who is connected


def _shown(state: dict) -> dict:
    return {key: state[key] for key in SHOWN}


def _states(table) -> dict:
    return {reader: _shown(messages.state_message(table, *reader, 0)) for reader in READERS}


def test_a_finished_table_holds_no_game_and_answers_every_reader_as_its_whole_game_did(tmp_path):
    async def main():
        service = new_service(tmp_path, grace=0.0)  # Ann gone: her seat is played for her at once
        table = create(service, seats=3, bots={"1": "random", "2": "random"}, options={"target_score": 60})
        ann, token = sit(service, table, "Ann")
        service.handle(ann, table, message(type="start", token=token))
        service.disconnect(ann)
        watcher = Seen("ta")
        service.handle(watcher, table, message(type="watch"))
        await until(lambda: table.status == "game_over")

        stored = service.store.load_game(table.game_id)
        whole = Game.from_record(record_of(stored.players, stored.options, stored.seeds, stored.actions))
        assert whole.awaiting == "game_over" and sum(map(len, stored.actions)) > 0  # a random game to 60 may be short (18 actions seen)
        as_before = copy.copy(table)  # the same table holding its whole game, as a finished table did
        as_before.game, as_before.full_states, as_before.digests = whole, {}, ((0, 0), [])
        expected = _states(as_before)
        assert expected[(None, "en")]["view"]["hands"] == [len(whole.hand(s)) for s in range(3)]  # none shown

        assert _holds(table, (Game, Action)) == []
        assert _states(table) == expected
        news = watcher.last("state")  # the broadcast of the end: its view, and the round's last events
        assert news["view"] == expected[(None, "ta")]["view"] and news["events"]
        assert news["events"] == expected[(None, "ta")]["events"][-len(news["events"]):]
        back = Seen()
        service.handle(back, table, message(type="resume", token=token))
        assert _shown(back.last("state")) == expected[(0, "en")]
        service.handle(back, table, message(type="sync", id=7))
        assert _shown(back.last("state")) == expected[(0, "en")]

        for conn in (back, watcher):
            service.disconnect(conn)
        service.forget(table.code)  # evicted, then asked for again
        reloaded = await service.table_apart(table.code)
        assert reloaded is not table and reloaded.status == "game_over"
        assert _holds(reloaded, (Game, Action)) == []
        assert _states(reloaded) == expected
        spectator = Seen("ta")
        service.handle(spectator, reloaded, message(type="watch"))
        assert _shown(spectator.last("state")) == expected[(None, "ta")]

        served = await service.finished_game(table.game_id)  # the record, read from the store
        assert served["record"] == whole.record() and served["scores"] == whole.scores
        assert verify(served["record"], served["commitments"], served).scores == whole.scores
        assert replay_round(served["record"], whole.round)["frames"][-1]["scores"] == whole.scores
        await service.close()
        service.store.close()

    asyncio.run(main())


def test_a_finished_game_is_served_the_same_by_a_real_server_before_and_after_a_restart(tmp_path):
    server = Server(tmp_path / "tables.sqlite")
    try:
        code = server.create(seats=3, bots={str(s): "random" for s in range(3)}, start=True,
                             options={"target_score": 40})["code"]

        async def watch() -> dict:
            client = await Client.connect(server, code)
            await client.send(type="watch", lang="ta")
            await client.until(lambda m: m["type"] == "state" and m["view"]["awaiting"] == "game_over", 60)
            await client.close()
            client = await Client.connect(server, code)  # a spectator of the game over: its whole state
            await client.send(type="watch", lang="ta")
            state = await client.reply("state")
            await client.close()
            return state

        def answers() -> dict:
            state = asyncio.run(watch())
            games = httpx.get(server.url + "/api/games").json()["games"]
            game_id = next(g["id"] for g in games if g["code"] == code)
            served = httpx.get(f"{server.url}/api/games/{game_id}").json()
            replay = httpx.get(f"{server.url}/api/games/{game_id}/replay", params={"round": 1, "lang": "ta"})
            assert replay.status_code == 200, replay.text
            summary = httpx.get(f"{server.url}/api/tables/{code}").json()
            return {"state": _shown(state), "game": served, "replay": replay.json(), "status": summary["status"],
                    "version": summary["version"]}

        before = answers()
        assert before["status"] == "game_over" and before["state"]["version"] == before["version"]
        verified = verify(before["game"]["record"], before["game"]["commitments"], before["game"])
        assert verified.scores == before["state"]["view"]["scores"]
        server.stop()
        server.start()  # nothing in memory: the finished table is reloaded when asked for
        assert answers() == before
    finally:
        server.stop()
    assert server.errors_logged() == ""

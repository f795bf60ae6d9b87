"""A table evicted from memory is reloaded off the event loop (issue 26, item 3): while its read and its
replay run in a thread, the server answers everyone else. In-process, on a real SQLite file; the reload is
held up by the test, not timed (bench/server_reload.py measures the latency others see)."""

from __future__ import annotations

import asyncio
import threading

from unokart.rules import Game
from unokart.server.shuffle import record_of
from unokart.server.store import SQLiteStore
from unokart.server.tables import REPLAY_SLICE, Settings, TableService, _replay_in_slices

from test_table_service import Seen, create, message


def test_while_an_evicted_table_reloads_the_event_loop_answers_others_and_one_copy_is_loaded(tmp_path):
    async def main():
        store = SQLiteStore(tmp_path / "tables.sqlite")
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        evicted = create(service, seats=3, bots={"0": "random", "1": "random", "2": "random"}, start=True,
                         options={"target_score": 30, "hand_size": 3})
        while evicted.status != "game_over":
            await asyncio.sleep(0.01)
        version, scores, shown = evicted.version, list(evicted.game.scores), evicted.game.view(None).to_json()
        service.forget(evicted.code)
        other = create(service, seats=2)
        watcher = Seen()
        service.handle(watcher, other, message(type="watch"))

        release, reading = threading.Event(), threading.Event()
        read = store.load_table_apart

        def held(code):
            reading.set()
            release.wait(30)
            return read(code)

        store.load_table_apart = held
        first = asyncio.create_task(service.table_apart(evicted.code))
        second = asyncio.create_task(service.table_apart(evicted.code.lower()))
        while not reading.is_set():
            await asyncio.sleep(0.01)
        service.handle(watcher, other, message(type="ping", id=1))  # the loop is free while the read waits
        assert watcher.messages[-1] == {"type": "pong", "re": 1}
        assert not first.done() and evicted.code not in service.tables
        release.set()
        reloaded = await first
        assert await second is reloaded and service.tables[evicted.code] is reloaded
        assert (reloaded.version, list(reloaded.game.scores), reloaded.status) == (version, scores, "game_over")
        assert reloaded.game.view(None).to_json() == shown and reloaded.game.events == evicted.game.events
        await service.close()
        store.close()

    asyncio.run(main())


def test_a_long_game_is_replayed_in_slices_with_the_event_loop_turning_between_them(tmp_path):
    async def main():
        store = SQLiteStore(tmp_path / "tables.sqlite")
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        table = create(service, seats=4, bots={str(s): "random" for s in range(4)}, start=True,
                       options={"target_score": 1000})  # 300 made a game of 276 actions once: too short
        while table.status != "game_over":
            await asyncio.sleep(0.01)
        await service.close()
        stored = store.load_game(table.game_id)
        store.close()
        actions = sum(len(a) for a in stored.actions)
        assert actions > 3 * REPLAY_SLICE
        turns = 0
        replay = asyncio.create_task(_replay_in_slices(stored))
        while not replay.done():  # this loop runs only when the replay gives the event loop a turn
            turns += 1
            await asyncio.sleep(0)
        game = await replay
        assert turns >= actions // REPLAY_SLICE
        whole = Game.from_record(record_of(stored.players, stored.options, stored.seeds, stored.actions))
        assert game.record() == whole.record() and game.events == whole.events and game.scores == whole.scores

    asyncio.run(main())

"""Group commit on SQLite (issue 26, item 11): the server's writes of actions leave the event loop, many tables'
actions go in one transaction, and an action is told to anyone only once its row is committed.

A real SQLite file, the table service in-process. The writer's commit is held up for as long as the test wants
(its transaction waits on an event before it begins, as it would behind a checkpoint waiting for the disk).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from unokart.server.store import SQLiteStore
from unokart.server.tables import Settings, TableService

from test_table_service import Seen, create, message, sit, until


def _rows(path, game_id: int) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]


def test_while_a_commit_waits_the_event_loop_serves_others_and_the_action_is_told_only_once_stored(tmp_path):
    async def main():
        path = tmp_path / "tables.sqlite"
        store = SQLiteStore(path, group_commit=True)
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        assert service.writer is not None
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        service.handle(ann, table, message(type="start", token=ann_token))
        other = create(service, seats=2)
        watcher = Seen()
        service.handle(watcher, other, message(type="watch"))

        release, holding = threading.Event(), threading.Event()
        begin = service.writer.transaction

        def held():
            holding.set()
            assert release.wait(30)
            return begin()

        service.writer.transaction = held
        seat = table.game.to_act
        conns, tokens = (ann, bob), (ann_token, bob_token)
        action = str(table.game.legal_actions(seat)[0])
        version, told = table.version, len(conns[1 - seat].messages)
        service.handle_text(conns[seat], table, f'{{"type":"action","id":5,"token":"{tokens[seat]}",'
                                                f'"version":{version},"action":"{action}"}}')
        await until(holding.is_set)
        service.handle(watcher, other, message(type="ping", id=1))  # the loop is free while the commit waits
        assert watcher.messages[-1] == {"type": "pong", "re": 1}
        assert table.version == version and len(conns[1 - seat].messages) == told  # nobody told yet
        assert _rows(path, table.game_id) == 0
        release.set()
        await until(lambda: table.version == version + 1)
        assert _rows(path, table.game_id) == 1
        assert conns[seat].last("state")["re"] == 5 and conns[1 - seat].last("state")["version"] == version + 1
        await service.close()
        store.close()

    asyncio.run(main())


def test_many_tables_actions_are_committed_together(tmp_path):
    async def main():
        store = SQLiteStore(tmp_path / "tables.sqlite", group_commit=True)
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        tables = [create(service, seats=2, bots={"0": "random", "1": "random"}, start=True,
                         options={"target_score": 5000}) for _ in range(20)]
        await until(lambda: service.writer.changes >= 2000)
        for table in tables:
            table.status = "lobby"  # stop them
        await service.close()
        store.close()
        assert service.writer.groups < service.writer.changes / 2  # groups of several tables' changes
        with sqlite3.connect(tmp_path / "tables.sqlite") as db:
            for table in tables:  # every version told is stored: the version counts its game's deals and actions
                stored = db.execute("SELECT (SELECT COUNT(*) FROM rounds WHERE game_id = ?)"
                                    " + (SELECT COUNT(*) FROM actions WHERE game_id = ?)",
                                    (table.game_id, table.game_id)).fetchone()[0]
                assert stored == table.version

    asyncio.run(main())

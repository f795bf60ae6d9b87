"""Group commit on PostgreSQL (issue 26, item 12): the store's writes of actions leave the event loop, many
tables' changes go in one transaction, and an acknowledgement is still sent only once its row is committed.

A real PostgreSQL; table services in-process. The commit is held up for as long as the test wants by another
session's lock on the actions table (the writer's INSERT waits for it, as it would for a slow disk).
"""

from __future__ import annotations

import asyncio
import json
import time

import psycopg

from unokart.server import protocol
from unokart.server.store_postgres import PostgresStore
from unokart.server.tables import Settings, TableService


class Seen:
    def __init__(self):
        self.seat = None
        self.lang = "en"
        self.hello = False
        self.table = None
        self.messages: list[dict] = []

    def push(self, text: str) -> None:
        self.messages.append(json.loads(text))


def send(service: TableService, conn: Seen, table, **fields) -> None:
    service.handle_text(conn, table, json.dumps(fields))


def two_players(service: TableService):
    table = service.create_table(protocol.CreateTable.model_validate({"seats": 2}))
    conns, tokens = [Seen(), Seen()], []
    for conn, name in zip(conns, ("Ann", "Bob")):
        send(service, conn, table, type="join", name=name)
        tokens.append(next(m for m in conn.messages if m["type"] == "welcome")["token"])
    send(service, conns[0], table, type="start", token=tokens[0])
    return table, conns, tokens


def act(service: TableService, table, conns, tokens, ident: str) -> Seen:
    seat = table.game.to_act
    legal = table.game.legal_actions(seat)
    action = next((a for a in legal if a.verb in ("draw", "pass")), legal[0])
    send(service, conns[seat], table, type="action", token=tokens[seat], version=table.version, action=str(action),
         id=ident)
    return conns[seat]


async def until(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def waiting_inserts(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as db:
        return db.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                          "AND query LIKE 'INSERT INTO actions%%'").fetchone()[0]


def rows(url: str, game_id: int) -> int:
    with psycopg.connect(url, autocommit=True) as db:
        return db.execute("SELECT count(*) FROM actions WHERE game_id = %s", (game_id,)).fetchone()[0]


def test_while_a_commit_waits_the_event_loop_serves_others_and_the_action_is_told_only_once_stored(postgres_url):
    async def main():
        service = TableService(PostgresStore(postgres_url), Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        assert service.writer is not None
        table, conns, tokens = two_players(service)
        other = service.create_table(protocol.CreateTable.model_validate({"seats": 2}))
        watcher = Seen()
        send(service, watcher, other, type="watch")
        version = table.version
        with psycopg.connect(postgres_url) as blocker:
            blocker.execute("LOCK TABLE actions IN EXCLUSIVE MODE")  # held until this transaction ends
            sender = act(service, table, conns, tokens, "held")
            await until(lambda: waiting_inserts(postgres_url) == 1)
            # The commit waits in the writer's thread; the event loop goes on.
            send(service, watcher, other, type="ping", id="p")
            assert watcher.messages[-1] == {"type": "pong", "re": "p"}
            send(service, sender, table, type="sync", id="s")  # the same table: waits, in order, after the action
            assert not any(m.get("re") in ("held", "s") for m in sender.messages)
            assert table.version == version and table.writing
            assert rows(postgres_url, table.game_id) == 0
        await service.writer.drain()  # the lock is gone: the commit goes through
        answers = [m for m in sender.messages if m.get("re") in ("held", "s")]
        assert [(m["type"], m["re"], m["version"]) for m in answers] == [("state", "held", version + 1),
                                                                          ("state", "s", version + 1)]
        assert rows(postgres_url, table.game_id) == 1
        await service.close()
        service.store.close()

    asyncio.run(main())


def test_many_tables_actions_waiting_for_the_disk_are_committed_together(postgres_url):
    async def main():
        service = TableService(PostgresStore(postgres_url), Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        tables = [two_players(service) for _ in range(10)]
        groups, changes = service.writer.groups, service.writer.changes
        with psycopg.connect(postgres_url) as blocker:
            blocker.execute("LOCK TABLE actions IN EXCLUSIVE MODE")
            senders = [act(service, *table, f"t{n}") for n, table in enumerate(tables)]
            await until(lambda: waiting_inserts(postgres_url) == 1)  # one transaction waits, whatever it holds
        await service.writer.drain()
        assert service.writer.changes - changes == 10
        # Ten tables' actions in one or two commits (the first action's alone if the writer took it before the
        # others came), not ten.
        assert service.writer.groups - groups <= 2
        for n, (sender, (table, _, _)) in enumerate(zip(senders, tables)):
            assert any(m["type"] == "state" and m.get("re") == f"t{n}" for m in sender.messages)
            assert rows(postgres_url, table.game_id) == 1
        await service.close()
        service.store.close()

    asyncio.run(main())

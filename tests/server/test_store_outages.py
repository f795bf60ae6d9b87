"""A write the store refuses changes nothing: the table pauses where the store last confirmed it, its clients are
told `table_unavailable`, and it goes on by itself once the store answers again (issue 26, item 14).

In-process on a real SQLite file. The fault is real too: another connection holds SQLite's write lock, so the
server's writes fail with "database is locked" (its busy timeout shortened so that the test does not wait 5 s)
while its reads go on (WAL).
"""

from __future__ import annotations

import asyncio
import sqlite3

from unokart.rules import Game
from unokart.server.shuffle import record_of

from test_table_service import create, message, new_service, sit, until


class WriteLock:
    """Another connection holding the database's write lock until released."""

    def __init__(self, path):
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.db.execute("COMMIT")
        self.db.close()


def stored_game(service, table) -> Game:
    g = service.store.load_game(table.game_id)
    return Game.from_record(record_of(g.players, g.options, g.seeds, g.actions))


def same_position(a: Game, b: Game) -> bool:
    return a.record() == b.record() and a.view(None).to_json() == b.view(None).to_json()


def test_a_bots_table_whose_write_fails_pauses_unchanged_and_plays_on_by_itself_when_the_store_is_back(tmp_path, caplog):
    async def main():
        service = new_service(tmp_path)
        service.store.db.execute("PRAGMA busy_timeout=50")
        table = create(service, seats=3, bots={"0": "random", "1": "random", "2": "random"}, start=True,
                       options={"target_score": 5000})
        await until(lambda: table.version > 20)
        lock = WriteLock(tmp_path / "tables.sqlite")
        await until(lambda: "database is locked" in caplog.text)  # the next bot move could not be stored
        paused_at = table.version
        for _ in range(20):  # it stays as the store has it: the unstored move is not applied
            assert table.version == paused_at
            assert same_position(table.game, stored_game(service, table))
            await asyncio.sleep(0.01)
        lock.release()
        await until(lambda: table.version > paused_at + 20)  # the bots were asked again, by nobody
        assert not table.paused and not service.paused
        assert same_position(table.game, stored_game(service, table))  # what is shown is what is stored
        await service.close()
    asyncio.run(main())


def test_a_players_action_that_cannot_be_stored_is_answered_table_unavailable_and_changes_nothing(tmp_path):
    async def main():
        service = new_service(tmp_path)
        service.store.db.execute("PRAGMA busy_timeout=50")
        table = create(service, seats=2, options={"target_score": 5000})
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        service.handle(ann, table, message(type="start", token=ann_token))
        tokens, conns = {0: ann_token, 1: bob_token}, {0: ann, 1: bob}
        seat = table.game.to_act
        action = str(table.game.legal_actions(seat)[0])
        version, before = table.version, table.game.record()
        lock = WriteLock(tmp_path / "tables.sqlite")
        service.handle_text(conns[seat], table, f'{{"type":"action","id":7,"token":"{tokens[seat]}",'
                                                f'"version":{version},"action":"{action}"}}')
        refused = conns[seat].last("error")
        assert (refused["code"], refused["re"]) == ("table_unavailable", 7)
        assert table.version == version and table.game.record() == before and table.paused
        # While paused, nothing moves: a second try is told the same, and nothing is stored.
        service.handle_text(conns[seat], table, f'{{"type":"action","id":8,"token":"{tokens[seat]}",'
                                                f'"version":{version},"action":"{action}"}}')
        assert conns[seat].last("error")["re"] == 8 and conns[seat].last("error")["code"] == "table_unavailable"
        told = len(conns[1 - seat].messages)
        lock.release()
        # Back: every connection is sent the whole state again, and the same move is now accepted.
        await until(lambda: not table.paused)
        again = conns[1 - seat].messages[told:]
        assert any(m["type"] == "state" and m["version"] == version for m in again)
        service.handle_text(conns[seat], table, f'{{"type":"action","id":9,"token":"{tokens[seat]}",'
                                                f'"version":{version},"action":"{action}"}}')
        assert conns[seat].last("state")["re"] == 9 and table.version == version + 1
        assert same_position(table.game, stored_game(service, table))
        await service.close()
    asyncio.run(main())

"""The store interface, the same tests over both backends: a real SQLite file and a real PostgreSQL database.

Whatever the table service writes through one store it reads back the same
from the other; a failed change leaves nothing behind; a whole game of bots
played by the real table service is stored as a record that replays to its
result and that `unokart verify` accepts.
"""

from __future__ import annotations

import asyncio
import threading
import time

import psycopg
import pytest

from unokart.rules import Game
from unokart.server import protocol
from unokart.server.shuffle import commitments_of, record_of, verify
from unokart.server.store import SQLiteStore, StoredSeat
from unokart.server.store_postgres import PostgresStore, migrations


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request, tmp_path):
    """Opens a store on the test's own database (each call a new connection, as a restarted process would)."""
    if request.param == "sqlite":
        def opener():
            return SQLiteStore(tmp_path / "unokart.sqlite")
    else:
        url = request.getfixturevalue("postgres_url")

        def opener():
            return PostgresStore(url)
    opened = []

    def tracked():
        opened.append(opener())
        return opened[-1]
    yield tracked
    for store in opened:
        store.close()


SEATS = [StoredSeat("human", "Ann", None, "hash-ann"), StoredSeat("bot", "Bot 1 (heuristic)", "heuristic"),
         StoredSeat("empty")]
OPTIONS = {"target_score": 200, "stacking": True, "hand_size": 5}


def test_a_new_table_reads_back_as_written(open_store):
    store = open_store()
    with store.transaction() as tx:
        tx.create_table("K7Q2XM", OPTIONS, 30.0, SEATS)
    table = store.load_table("K7Q2XM")
    assert (table.code, table.options, table.turn_timer, table.status, table.game_number, table.version) == \
        ("K7Q2XM", OPTIONS, 30.0, "lobby", 0, 0)
    assert list(table.options) == list(OPTIONS)  # key order kept: records replay byte for byte
    assert table.seats == SEATS and table.game is None and abs(table.created - time.time()) < 60
    assert store.load_table("NOSUCH") is None
    assert store.live_tables() == []


def test_a_game_round_by_round_action_by_action(open_store):
    store = open_store()
    seed1, seed2 = 2**63 - 1, 0  # the whole range of secrets.randbits(63)
    with store.transaction() as tx:
        tx.create_table("ABCDEF", {}, None, SEATS[:2])
    with store.transaction() as tx:
        game_id = tx.start_game("ABCDEF", 1, ["Ann", "Bot 1"], {}, seed1)
    for index, action in enumerate(["1: draw", "1: keep", "0: play R5"]):
        with store.transaction() as tx:
            tx.add_action(game_id, 1, index, action)
    with store.transaction() as tx:
        tx.add_round(game_id, 2, seed2)
        tx.add_action(game_id, 2, 0, "0: draw")
    table = store.load_table("ABCDEF")
    assert table.status == "playing" and table.game_number == 1
    assert table.version == 2 + 4  # deals and actions
    assert table.game.id == game_id and table.game.players == ["Ann", "Bot 1"] and table.game.finished is None
    assert table.game.seeds == [seed1, seed2]
    assert table.game.actions == [["1: draw", "1: keep", "0: play R5"], ["0: draw"]]
    assert store.live_tables() == ["ABCDEF"]
    assert store.finished_game(game_id) is None  # still being played


def test_a_change_that_fails_leaves_nothing_behind(open_store):
    store = open_store()
    with store.transaction() as tx:
        tx.create_table("FAILED", {}, None, SEATS[:2])
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.start_game("FAILED", 1, ["Ann", "Bot 1"], {}, 5)
            tx.set_seat("FAILED", 1, StoredSeat("human", "Eve", None, "hash-eve"))
            raise RuntimeError("the service refused the change half way")
    table = store.load_table("FAILED")
    assert table.status == "lobby" and table.game is None and table.version == 0 and table.seats == SEATS[:2]
    # The store still works after the rollback.
    with store.transaction() as tx:
        tx.set_seat("FAILED", 1, StoredSeat("human", "Bob", None, "hash-bob"))
    assert store.load_table("FAILED").seats[1].name == "Bob"


def test_a_seat_token_opens_one_seat_only(open_store):
    store = open_store()
    with store.transaction() as tx:
        tx.create_table("TOKENS", {}, None, [StoredSeat("human", "Ann", None, "same"), StoredSeat("empty")])
    with pytest.raises((psycopg.IntegrityError, __import__("sqlite3").IntegrityError)):
        with store.transaction() as tx:
            tx.set_seat("TOKENS", 1, StoredSeat("human", "Eve", None, "same"))
    assert store.load_table("TOKENS").seats[1] == StoredSeat("empty")


def test_finished_games_are_listed_newest_first_with_their_result(open_store):
    store = open_store()
    ids = []
    for number, code in enumerate(["AAAAAA", "BBBBBB"], 1):
        with store.transaction() as tx:
            tx.create_table(code, {}, None, [StoredSeat("human", "அனு", None, f"hash-{code}"), SEATS[1]])
            ids.append(tx.start_game(code, 1, ["அனு", "Bot 1 🤖"], {"target_score": 50}, 7 * number))
            tx.add_action(ids[-1], 1, 0, "0: play R5")
        with store.transaction() as tx:
            tx.finish_game(code, ids[-1], [50 * number, 0], 0)
        time.sleep(0.01)  # distinct finishing times
    listed = store.finished_games()
    assert [g["id"] for g in listed] == ids[::-1]
    newest = listed[0]
    assert {k: newest[k] for k in ("code", "game", "players", "scores", "winner", "rounds")} == \
        {"code": "BBBBBB", "game": 1, "players": ["அனு", "Bot 1 🤖"], "scores": [100, 0], "winner": 0, "rounds": 1}
    assert newest["finished_at"].endswith("Z")
    assert store.finished_game(ids[0])["code"] == "AAAAAA"
    assert store.finished_games(limit=1) == listed[:1]
    assert store.load_table("AAAAAA").status == "game_over" and store.live_tables() == []
    for missing in (10**9, 2**63 - 1, 0, -1):  # the app refuses longer ids before asking the store
        assert store.finished_game(missing) is None
        assert store.load_game(missing) is None


def test_what_one_store_commits_another_reads_at_once_and_after_a_restart(open_store):
    first, second = open_store(), open_store()  # two server processes on one database
    with first.transaction() as tx:
        tx.create_table("SHARED", {}, None, SEATS[:2])
        game_id = tx.start_game("SHARED", 1, ["Ann", "Bot 1"], {}, 3)
    assert second.load_table("SHARED").game.id == game_id
    with second.transaction() as tx:
        tx.add_action(game_id, 1, 0, "0: draw")
    assert first.load_table("SHARED").version == 2
    first.close()
    assert open_store().load_table("SHARED").game.actions == [["0: draw"]]


def test_a_whole_game_of_bots_through_the_table_service_is_stored_as_a_verifiable_record(open_store):
    from unokart.server.tables import Settings, TableService

    store = open_store()

    async def main():
        service = TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        table = service.create_table(protocol.CreateTable.model_validate(
            {"seats": 3, "bots": {"0": "heuristic", "1": "easy", "2": "random"}, "start": True,
             "options": {"target_score": 60, "hand_size": 4}}))
        deadline = time.monotonic() + 120
        while table.status != "game_over":
            assert time.monotonic() < deadline, "the game did not end"
            await asyncio.sleep(0.01)
        await service.close()
        return table.code, list(table.game.scores)
    code, scores = asyncio.run(main())
    summary = next(g for g in store.finished_games() if g["code"] == code)
    stored = store.load_game(summary["id"])
    record = record_of(stored.players, stored.options, stored.seeds, stored.actions)
    replayed = Game.from_record(record)
    assert replayed.awaiting == "game_over" and replayed.scores == scores == summary["scores"]
    assert stored.bound  # a game stored now: its first commitment binds the players and house rules
    verified = verify(record, commitments_of(stored.seeds, stored.players, stored.options), summary)
    assert verified.winner == summary["winner"] and len(verified.rounds) == summary["rounds"]
    assert store.load_table(code).version == sum(1 + len(a) for a in stored.actions)


def test_processes_starting_together_apply_each_migration_once(postgres_url):
    errors: list[BaseException] = []
    stores: list[PostgresStore] = []

    def start():
        try:
            stores.append(PostgresStore(postgres_url))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)
    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    with psycopg.connect(postgres_url) as db:
        applied = db.execute("SELECT version, name FROM unokart_migrations ORDER BY version").fetchall()
    assert applied == [(number, name) for number, name, _ in migrations()]
    assert applied[0] == (1, "001_init.sql")
    for store in stores:
        store.close()

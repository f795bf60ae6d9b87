"""Nothing is lost and no record breaks whatever PostgreSQL does (issue 26, item 14).

A real `unokart serve --database` on its own real PostgreSQL (started for this module, so that restarting it
disturbs no other test). Two tables play: one with two people (real websocket clients playing random legal
moves) and a bot, one of bots alone watched by a spectator. Mid-game, right while moves are being written,
PostgreSQL is restarted (`pg_ctl restart -m fast`) or killed with SIGKILL, every one of its processes at once,
and started again. Then:

- every action a client saw acknowledged is in the record, at the version it was acknowledged at;
- every `state` message any client received is the rules core's position at its version (no version shown
  with two different states), and the finished game verifies as `unokart verify` checks it;
- both tables play on by themselves within RESUME_BOUND seconds of the database answering again;
- clients saw only refusals that say what happened (`table_unavailable` while paused), never `internal`,
  and the server logged no traceback.

The server's PostgreSQL runs with synchronous_commit off by default (the test cluster's setting): the store
turns it on for its own sessions, so that the kill cannot take acknowledged rows with it.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import time
import uuid

import httpx
import psycopg
import pytest

from unokart.rules import Game
from unokart.server.shuffle import commitments_of, record_of, verify
from unokart.server.store_postgres import PostgresStore

from helpers.server import Client, Server, check_messages_against_record
from services import start_postgres
from test_cluster import _actions_by_version

RESUME_BOUND = 10.0  # seconds from the database answering again to the next move of each table (about 1 here)
ALLOWED = {"table_unavailable", "stale_version", "duplicate", "not_playing"}


@pytest.fixture(scope="module")
def own_postgres():
    server = start_postgres()
    try:
        yield server
    finally:
        server.ctl("stop", "-m", "immediate", "-w", "-t", "60")
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def database(own_postgres):
    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(own_postgres.url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')
    yield own_postgres.url(name)
    if own_postgres.ready():
        with psycopg.connect(own_postgres.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def restart_fast(pg) -> None:
    done = pg.ctl("restart", "-m", "fast", "-w", "-t", "60", "-l", os.path.join(pg.folder, "postgres.log"))
    assert done.returncode == 0, done.stderr


def kill_9_then_start(pg) -> None:
    pg.kill_9()
    done = pg.ctl("restart", "-w", "-t", "60", "-l", os.path.join(pg.folder, "postgres.log"))  # from postmaster.opts: the same options; crash recovery first
    assert done.returncode == 0, done.stderr


async def player(server: Server, code: str, token: str, seat: int, rng: random.Random, report: dict) -> dict:
    client = await Client.connect(server, code)
    await client.resume(token)
    report["clients"][code][seat] = client
    if seat == 0:
        await client.send(type="start", token=token)
    pending: dict[int, tuple[int, str]] = {}
    ident = 0
    while True:
        message = await client.recv(120)
        if message["type"] == "state":
            report["seen"].append((code, message["version"], time.monotonic()))
            if message.get("re") in pending:
                report["acknowledged"].append((code, *pending.pop(message["re"])))
            if message["view"]["awaiting"] == "game_over":
                await client.close()
                return message
            if message["view"]["to_act"] == seat and message["legal"]:
                ident += 1
                action = rng.choice(message["legal"])
                pending[ident] = (message["version"], action)
                await client.act(action, message["version"], id=ident)
        elif message["type"] == "error":
            report["errors"].append(message["code"])
            pending.pop(message.get("re"), None)  # refused: not acknowledged


async def spectator(server: Server, code: str, report: dict, stop: asyncio.Event) -> Client:
    client = await Client.connect(server, code)
    await client.send(type="watch")
    await client.reply("welcome")
    while not stop.is_set():
        try:
            message = await client.recv(0.5)
        except asyncio.TimeoutError:
            continue
        if message["type"] == "state":
            report["seen"].append((code, message["version"], time.monotonic()))
        elif message["type"] == "error":
            report["errors"].append(message["code"])
    await client.close()
    return client


@pytest.mark.parametrize("fault", [restart_fast, kill_9_then_start], ids=["restart_fast", "kill_9"])
def test_a_postgres_restart_or_crash_mid_game_loses_no_acknowledged_action_and_play_resumes(
        own_postgres, database, tmp_path, fault):
    server = Server(tmp_path / "unused.sqlite", grace=120.0, extra=["--database", database])
    try:
        people = server.create(seats=3, bots={"2": "random"}, options={"target_score": 200, "hand_size": 5})["code"]
        bots = server.create(seats=3, bots={str(s): "random" for s in range(3)}, start=True,
                             options={"target_score": 5000})["code"]
        tokens = [httpx.post(f"{server.url}/api/tables/{people}/join", json={"name": name}).json()["token"]
                  for name in ("Ann", "Bob")]
        report: dict = {"acknowledged": [], "errors": [], "seen": [], "clients": {people: {}}, "fault": {}}

        async def inject() -> None:
            while len(report["acknowledged"]) < 15:
                await asyncio.sleep(0.02)
            report["fault"]["at"] = time.monotonic()
            await asyncio.to_thread(fault, own_postgres)
            report["fault"]["back"] = time.monotonic()
            report["fault"]["versions"] = {code: max(v for c, v, _ in report["seen"] if c == code)
                                           for code in (people, bots)}

        async def main():
            stop = asyncio.Event()
            watching = asyncio.create_task(spectator(server, bots, report, stop))
            rng = random.Random(5)
            finals = await asyncio.gather(*(player(server, people, tokens[s], s, random.Random(rng.random()), report)
                                            for s in (0, 1)), inject())
            stop.set()
            return finals, await watching

        finals, watcher = asyncio.run(main())
    finally:
        server.stop()
    fault_at, back = report["fault"]["at"], report["fault"]["back"]
    # Play went on by itself, at both tables, soon after the database was back.
    resumed = {}
    for code in (people, bots):
        later = [t for c, v, t in report["seen"] if c == code and v > report["fault"]["versions"][code] and t > back]
        assert later, f"table {code} never moved after the database came back"
        resumed[code] = min(later) - back
    assert max(resumed.values()) < RESUME_BOUND, resumed
    # What clients saw: only refusals that say what happened.
    assert set(report["errors"]) <= ALLOWED, report["errors"]
    # The record: every acknowledged action at its version, every state shown is the core's, and it verifies.
    store = PostgresStore(database)
    try:
        games = [g for g in store.finished_games() if g["code"] == people]
        assert len(games) == 1
        stored_people = _as_served(store, games[0]["id"], games[0])
        bot_game = store.load_table(bots).game
        stored_bots = _as_served(store, bot_game.id, {})
    finally:
        store.close()
    by_version = _actions_by_version(stored_people["record"])
    for code, version, action in report["acknowledged"]:
        assert by_version.get(version) == action, (version, action)
    verify(stored_people["record"], stored_people["commitments"], stored_people)
    assert check_messages_against_record(report["clients"][people], 1, stored_people) > 30
    assert _states_match_record(watcher, stored_bots["record"]) > 30
    log = server.log.read_text()
    assert "Traceback" not in log and server.errors_logged() == "", server.errors_logged()[-3000:]
    outage_lines = log.count("store unavailable")
    print(f"{fault.__name__}: database down {back - fault_at:.2f} s, resumed after "
          f"{', '.join(f'{r:.2f}' for r in resumed.values())} s, acknowledged {len(report['acknowledged'])} "
          f"(all in the record), errors seen {sorted(set(report['errors']))} ({len(report['errors'])}), "
          f"outage log lines {outage_lines}")


def _states_match_record(client: Client, record: dict) -> int:
    """Every state a spectator was shown (it came in mid-game) is the public view of the record at its version."""
    shown: dict[int, list[dict]] = {}
    for message in client.received:
        if message["type"] == "state":
            shown.setdefault(message["version"], []).append(message["view"])
    rounds = record["rounds"]
    game = Game.new(record["players"], seed=rounds[0]["seed"], options=record["options"])
    version, checked = 1, 0
    for index, rnd in enumerate(rounds):
        if index:
            game.next_round(rnd["seed"])
            version += 1
        for position in range(len(rnd["actions"]) + 1):
            if position:
                game.apply(rnd["actions"][position - 1])
                version += 1
            for view in shown.pop(version, []):
                assert view == game.view(None).to_json(), version
                checked += 1
    assert not shown, sorted(shown)  # no state shown beyond what is stored
    return checked


def _as_served(store: PostgresStore, game_id: int, summary: dict) -> dict:
    """A game as GET /api/games/<id> gives it (its record and commitments), straight from the database."""
    g = store.load_game(game_id)
    record = Game.from_record(record_of(g.players, g.options, g.seeds, g.actions)).record()
    return {**summary, "record": record, "commitments": commitments_of(g.seeds, g.players, g.options, g.bound)}

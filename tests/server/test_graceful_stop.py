"""SIGTERM during play stops one process on SQLite in order (issue 26, items 7 and 17): it stops accepting,
stops its tables (no timer fires and no bot move is stored after), and closes the database last. Once this
logged `sqlite3.ProgrammingError: Cannot operate on a closed database` from a round dealt by a timer in two
shutdowns of three. After each stop the server starts again, and every table resumes from a store whose
records replay."""

from __future__ import annotations

import asyncio
import signal

import httpx

from unokart.rules import Game
from unokart.server import protocol
from unokart.server.shuffle import record_of
from unokart.server.store import SQLiteStore
from unokart.server.tables import Settings, TableService

from helpers.server import Server

TABLES = 12


def test_sigterm_mid_play_stops_cleanly_three_times_and_every_table_resumes(tmp_path):
    db = tmp_path / "unokart.sqlite"
    # Quick bots and short pauses between rounds: at any moment some table is between rounds, its deal due.
    server = Server(db, bot_delay=0.01, extra=["--round-pause", "0.05"])
    try:
        codes = [server.create(seats=3, bots={str(s): "random" for s in range(3)}, start=True,
                               options={"target_score": 5000, "hand_size": 2})["code"] for _ in range(TABLES)]
        for attempt in range(3):
            versions = {code: 0 for code in codes}
            while min(versions.values()) < 10 * (attempt + 1):  # every table playing
                versions = {code: httpx.get(f"{server.url}/api/tables/{code}").json()["version"] for code in codes}
            server.proc.send_signal(signal.SIGTERM)
            assert server.proc.wait(60) in (0, -signal.SIGTERM)  # uvicorn raises the signal again once stopped
            log = server.log.read_text()
            assert "closed database" not in log and "Traceback" not in log and server.errors_logged() == "", log[-3000:]
            store = SQLiteStore(db)
            try:
                for code in codes:
                    stored = store.load_table(code)
                    g = stored.game
                    Game.from_record(record_of(g.players, g.options, g.seeds, g.actions))  # replays
                    assert stored.version >= versions[code]  # nothing acknowledged was lost
            finally:
                store.close()
            server.start()
    finally:
        server.stop()


class HeldClock:
    """The service's clock with timers that fire only when the test says so (the real loop's handles, far off,
    so that cancelling one is real)."""

    def __init__(self):
        self.timers: list = []

    def time(self) -> float:
        return 0.0

    def monotonic(self) -> float:
        return self.time()

    def call_later(self, delay, callback, *args):
        handle = asyncio.get_running_loop().call_later(10**6, lambda: None)
        self.timers.append((handle, callback, args))
        return handle

    def fire_all(self) -> int:
        due, self.timers = self.timers, []
        fired = 0
        for handle, callback, args in due:
            if not handle.cancelled():
                handle.cancel()
                callback(*args)
                fired += 1
        return fired


def test_once_the_service_is_closed_no_timer_touches_the_store_it_closes_last(tmp_path):
    """The race itself: a round's deal was due when the store closed. After the service's close nothing
    it scheduled runs, so the store can close last and nothing uses it after."""
    async def main():
        clock = HeldClock()
        service = TableService(SQLiteStore(tmp_path / "t.sqlite"), Settings(bot_delay=0.0, round_pause=5.0), clock=clock)
        table = service.create_table(protocol.CreateTable.model_validate(
            {"seats": 2, "bots": {"0": "random", "1": "random"}, "start": True, "options": {"target_score": 5000}}))
        while table.game.awaiting != "round_over":  # the bots play the round out; its deal waits on the clock
            await asyncio.sleep(0.005)
        assert table.round_handle is not None
        await service.close()
        service.store.close()
        assert clock.fire_all() == 0  # the deal was cancelled with everything else: the closed store is untouched
    asyncio.run(main())

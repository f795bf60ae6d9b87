"""The server reads one clock (server/clock.py): the bots' delays and queue waits, the rate limits, the idle
sweep and the stored timestamps all follow a clock the test moves, and nothing waits for real time to pass."""

from __future__ import annotations

import asyncio
import sqlite3

from helpers.server import ManualClock
from unokart.server import protocol
from unokart.server.bots import BotScheduler, Job, Request
from unokart.server.store import SQLiteStore
from unokart.server.tables import Settings, TableService
from unokart import Game


def _job(code: str = "AAAAAA") -> Job:
    game = Game.new(["Ann", "Bob"], seed=3)
    seat = game.to_act
    return Job(code, 0, [Request(seat, "random", game.view(seat), list(game.legal_actions(seat)))], seat)


def test_a_bots_delay_and_its_queue_wait_are_the_clocks_not_the_loops():
    clock = ManualClock()
    answers, waits = [], []

    async def main():
        scheduler = BotScheduler(lambda job, result: answers.append(result), delay=5.0, clock=clock)
        scheduler.waited = waits.append
        scheduler.ask(_job())
        for _ in range(20):  # the loop turns, the thread is free: still nothing, the clock has not moved
            await asyncio.sleep(0)
        assert answers == []
        clock.advance(4.9)
        assert answers == [] and len(clock.pending) == 1
        clock.advance(0.2)  # the delay (rounded up to its tick) has passed
        for _ in range(2000):  # a bound for a hang: the thread decides at once
            if answers:
                break
            await asyncio.sleep(0.005)
        await scheduler.close()

    asyncio.run(main())
    assert len(answers) == 1 and answers[0] is not None
    assert waits == [0.0]  # decided as soon as due: the clock did not move while it waited


def test_stored_timestamps_and_the_idle_sweep_follow_the_clock(tmp_path):
    clock = ManualClock()
    clock.now = 1_800_000_000.0

    async def main():
        service = TableService(SQLiteStore(tmp_path / "t.sqlite", now=clock.time), Settings(idle=60.0), clock=clock)
        table = service.create_table(protocol.CreateTable.model_validate({"seats": 2}))
        assert table.created == 1_800_000_000.0
        clock.advance(59)
        assert service.sweep() == 0
        clock.advance(2)
        assert service.sweep() == 1 and table.code not in service.tables
        await service.close()
        service.store.close()
        return table.code

    code = asyncio.run(main())
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        assert db.execute("SELECT created FROM tables WHERE code = ?", (code,)).fetchone()[0] == 1_800_000_000.0

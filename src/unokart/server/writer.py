"""Group commit: the store's writes off the event loop, many tables' changes in one transaction.

The table service hands each change to the writer as a function that writes it through a transaction, with
a callback. A task takes every change waiting, commits them together in a thread (one round trip and one
wait for the disk for all of them, however many tables), then calls each change's callback on the event
loop: with None once its rows are durably committed (only then may anyone be told), or with the error. A
group that fails is written again one change at a time, so that one table's refused write (its lease moved
on, a fence) fails that table alone; during an outage each fails, and each table pauses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

Write = Callable[[Any], None]  # given a Transaction
Done = Callable[[BaseException | None], None]

log = logging.getLogger("unokart.server")

MAX_GROUP = 1000  # changes in one transaction at most
TELL_AT_ONCE = 20  # tables told of their commit before the event loop turns to other work


class GroupWriter:
    def __init__(self, transaction: Callable[[], Any]):
        self.transaction = transaction  # a context manager: one transaction on the writer's own connection
        self.waiting: list[tuple[Write, Done]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._idle: asyncio.Event | None = None
        self.groups = 0  # commits made, and changes in them: their ratio is the group's mean size
        self.changes = 0

    def submit(self, write: Write, done: Done) -> None:
        """Queue a change; ``done`` is called on the event loop once it is committed (None) or has failed."""
        if self._task is None:
            self._wake, self._idle = asyncio.Event(), asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())
        assert self._wake is not None and self._idle is not None
        self.waiting.append((write, done))
        self._idle.clear()
        self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None and self._idle is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.waiting:
                group, self.waiting = self.waiting[:MAX_GROUP], self.waiting[MAX_GROUP:]
                outcomes = await asyncio.to_thread(self._commit, [write for write, _ in group])
                self.groups += 1
                self.changes += len(group)
                for told, ((_, done), outcome) in enumerate(zip(group, outcomes), 1):
                    try:
                        done(outcome)  # may queue the table's next change, taken by this loop at once
                    except Exception:  # noqa: BLE001 - a bug at one table must not stop every table's writes
                        log.exception("after a group commit")
                    if told % TELL_AT_ONCE == 0:
                        await asyncio.sleep(0)  # the players of a large group are told between other work
            self._idle.set()

    def _commit(self, writes: list[Write]) -> list[BaseException | None]:
        """In the writer's thread: all in one transaction, else each alone."""
        try:
            with self.transaction() as tx:
                for write in writes:
                    write(tx)
            return [None] * len(writes)
        except Exception as err:  # noqa: BLE001 - told to the changes' tables
            if len(writes) == 1:
                return [err]
        outcomes: list[BaseException | None] = []
        for write in writes:
            try:
                with self.transaction() as tx:
                    write(tx)
                outcomes.append(None)
            except Exception as err:  # noqa: BLE001
                outcomes.append(err)
        return outcomes

    async def drain(self) -> None:
        """Wait until every change queued so far is committed (or failed) and its callback called."""
        if self._idle is not None and self._task is not None and not self._task.done():
            await self._idle.wait()

    async def close(self) -> None:
        await self.drain()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

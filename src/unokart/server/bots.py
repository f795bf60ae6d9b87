"""Bot scheduling: who thinks where, in what order, for how long, and what happens when a bot fails.

Cheap bots (random, easy, heuristic, policies) decide in microseconds, in one
thread, batched by tick. Searching bots (ISMCTS) run in a process pool, one
decision per process at a time, shared fairly between tables: the waiting
search taken next is the one that would leave its table's account of search
time the lowest (the time the table used lately, each account decaying by half
every ACCOUNT_HALF_LIFE seconds, plus what this search is expected to take, as
measured for its level; a level not measured yet goes by its table's account
alone, and its first search measures it). A table of expensive bots, or twenty tables of bots a
playout cheaper than the default, pay for what they use and wait their turn; a
table that asks little is answered first, even beside tables just created. No
decision computes longer than its cap (CPU time: a bot the machine is too busy
to run is waited for, up to HANG seconds). A bot that raises, answers nothing
when it must act, answers an illegal action or runs out of time is replaced for
that decision by the autopilot (the heuristic), and the incident is logged: a
table never freezes on a bot.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..bots.ismcts import DEFAULT_ITERATIONS
from ..rules import Action
from .clock import REAL, Clock

log = logging.getLogger("unokart.server")

AUTOPILOT = "heuristic"
BOT_TICK = 0.025  # seconds: cheap bots' moves falling due in one tick are decided together (fewer wake-ups)
SLACK = 2.0  # CPU seconds beyond three times its budget before a search counts as timed out
CHEAP_TIMEOUT = 2.0  # CPU seconds for a cheap bot's decision
# Wall-clock seconds after which a decision that does not compute (a bot blocked, a worker that never started)
# is abandoned. The caps above count CPU time: a machine too busy to give a bot any is not the bot's failure,
# and a decision answered late on one was logged as a bot failure (the tests' "no error logged" failed).
HANG = 60.0
ACCOUNT_HALF_LIFE = 10.0  # seconds: a table's search time counts half as much this long after it was used
ACCOUNT_FORGOTTEN = 1e-3  # seconds: an account decayed below this is dropped (the scheduler stays bounded)


@dataclass
class Request:
    """One seat the bots are asked about: its view and legal actions at one version of a table."""

    seat: int
    level: str
    view: Any
    legal: list[Action]


@dataclass
class Job:
    table: str
    version: int
    requests: list[Request]  # out-of-turn seats first, the seat to act last
    to_act: int | None
    due: float = 0.0  # the scheduler's clock (monotonic) when its decision fell due (after the bot delay)

    @property
    def level(self) -> str:
        """The costliest level among its requests: the one its search time is measured for."""
        return max((r.level for r in self.requests), key=level_cost)

    @property
    def cost(self) -> float:
        return level_cost(self.level)


class Accounts:
    """How much search time each table has used lately: seconds, each decaying by half every ``half_life``.

    Every account decays at the same rate, so the order of two accounts changes only when one of them is
    charged; the least served table is the one whose search goes next.
    """

    def __init__(self, half_life: float = ACCOUNT_HALF_LIFE, clock: Callable[[], float] = time.monotonic):
        self.half_life = half_life
        self.clock = clock
        self._used: dict[str, tuple[float, float]] = {}  # table -> (seconds, when they were last brought up to date)
        self._charges = 0

    def used(self, table: str, now: float | None = None) -> float:
        seconds, when = self._used.get(table, (0.0, 0.0))
        if not seconds:
            return 0.0
        now = self.clock() if now is None else now
        return seconds * 0.5 ** (max(0.0, now - when) / self.half_life)

    def charge(self, table: str, seconds: float) -> None:
        now = self.clock()
        self._used[table] = (self.used(table, now) + max(0.0, seconds), now)
        self._charges += 1
        if self._charges % 256 == 0:  # now and then: forget the tables long quiet
            for code in [code for code in self._used if self.used(code, now) < ACCOUNT_FORGOTTEN]:
                del self._used[code]

    def __len__(self) -> int:
        return len(self._used)


def level_cost(level: str) -> float:
    """A rough cost in milliseconds of one decision at this level (for its time cap)."""
    kind, _, budget = level.partition(":")
    if kind != "ismcts":
        return 0.0
    if not budget:
        return float(DEFAULT_ITERATIONS)
    if budget.endswith("ms"):
        return float(budget[:-2])
    return float(budget)  # about a millisecond a playout on this kind of machine


def is_search(level: str) -> bool:
    return level.startswith("ismcts")


def decide(bots: dict, requests: list[Request], seed: int, factory: Callable[[str], Any] = make_bot
           ) -> tuple[int, Action] | None:
    """Ask each bot in turn; the first that acts wins (a seat out of turn may let the moment pass)."""
    rng = random.Random(seed)
    for request in requests:
        bot = bots.get(request.level)
        if bot is None:
            bot = bots[request.level] = factory(request.level)
        choice = bot.choose(request.view, request.legal, rng)
        if choice is not None:
            return request.seat, choice
    return None


def autopilot(request: Request, seed: int) -> Action:
    """The seat's move when its own bot failed: the heuristic's, or else the first legal action."""
    try:
        choice = make_bot(AUTOPILOT).choose(request.view, request.legal, random.Random(seed))
        if choice in request.legal:
            return choice
    except Exception:  # noqa: BLE001 - the autopilot's own failure must not freeze the table either
        log.exception("the autopilot failed too")
    return request.legal[0]


_WORKER_BOTS: dict = {}


def watch_parent(parent: int) -> None:
    """In a pool process: exit as soon as the server is gone (even after a kill -9, which no pipe reports)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def decide_in_worker(requests: list[Request], seed: int) -> tuple[tuple[int, Action] | None, float]:
    """``decide`` in a search process, and the CPU seconds it took there (a worker runs one search at a time)."""
    start = time.process_time()
    choice = decide(_WORKER_BOTS, requests, seed)
    return choice, time.process_time() - start


# Where the system has no CPU clock for a thread (macOS) or no /proc (for a process's), the wall clock times a
# decision, as it always did.
THREAD_CLOCKS = hasattr(time, "pthread_getcpuclockid")
PROCESS_CLOCKS = os.path.isdir("/proc/self")


class ThreadTime:
    """The CPU time used so far by the work of one thread, read from another (its POSIX thread CPU clock)."""

    def __init__(self, cpu: Callable[[], float] | None = None) -> None:
        self.clock: int | None = None
        self.cpu = cpu  # a CPU clock of the caller's own (a test's, moved by its bots), else the thread's
        self.start: float | None = None  # None: not started yet

    def run(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in the calling thread, timed."""
        if THREAD_CLOCKS and self.cpu is None:
            self.clock = time.pthread_getcpuclockid(threading.get_ident())
        self.start = self.now()
        return work(*args)

    def now(self) -> float:
        if self.cpu is not None:
            return self.cpu()
        return time.monotonic() if self.clock is None else time.clock_gettime(self.clock)

    def used(self) -> float:
        return 0.0 if self.start is None else self.now() - self.start


class PoolTime:
    """The CPU time the search processes used since a search was sent: the least any of them used, so that a
    worker busy with another table's search does not count against this one (a runaway that this undercounts
    stops at HANG)."""

    TICKS = os.sysconf("SC_CLK_TCK")

    def __init__(self, pool: Executor):
        self.pool = pool
        self.sent = time.monotonic()
        self.start = {pid: self.cpu(pid) for pid in self.pids()}

    def pids(self) -> list[int]:
        return list(getattr(self.pool, "_processes", None) or {})

    @classmethod
    def cpu(cls, pid: int) -> float:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:  # gone: counted as nothing used (HANG bounds the search)
            return 0.0
        return (int(fields[11]) + int(fields[12])) / cls.TICKS  # utime and stime

    def used(self) -> float:
        if not PROCESS_CLOCKS:
            return time.monotonic() - self.sent
        spent = [self.cpu(pid) - self.start.get(pid, 0.0) for pid in self.pids()]
        return min(spent) if spent else 0.0  # a worker still starting: its start-up counts


async def within(future: "asyncio.Future[Any]", budget: float, used: Callable[[], float]) -> Any:
    """``future``'s result, or asyncio.TimeoutError once the work behind it has used ``budget`` CPU seconds
    (``used()``) or HANG seconds have passed; the work itself is not stopped (a thread cannot be)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + HANG
    while True:
        left = budget - used()
        if left <= 0 or loop.time() >= give_up:
            future.cancel()  # nobody waits for it now: its late answer or failure is dropped, not logged
            raise asyncio.TimeoutError
        # CPU time grows no faster than the wall clock: nothing to check before ``left`` seconds have passed.
        done, _ = await asyncio.wait({future}, timeout=min(max(left, 0.01), give_up - loop.time()))
        if done:
            return future.result()


def decide_each(batch: list[tuple[list[Request], int]], bots: dict, factory: Callable[[str], Any]) -> list:
    """``decide`` for several tables in one trip to the bots' thread; a failure is returned, not raised."""
    results: list = []
    for requests, seed in batch:
        try:
            results.append(decide(bots, requests, seed, factory))
        except Exception as err:  # noqa: BLE001 - one bot's bug must not cost the other tables their moves
            results.append(err)
    return results


Answer = Callable[[Job, "tuple[int, Action] | None"], None]


class BotScheduler:
    """Decides bots' moves off the event loop and hands each answer back to ``answer`` on the loop.

    ``answer(job, (seat, action) | None)`` is only ever called with a legal action for a seat of the job
    (the autopilot's, when the bot failed), or None when every seat let an out-of-turn moment pass.
    """

    def __init__(self, answer: Answer, delay: float = 0.8, processes: int = 1,
                 factory: Callable[[str], Any] | None = None, search_in_processes: bool = True,
                 cheap_timeout: float = CHEAP_TIMEOUT, models_dir: str | None = None, clock: Clock = REAL,
                 cpu: Callable[[], float] | None = None):
        self.answer = answer
        self.clock = clock  # its ticks, delays and queue waits (not the CPU time a search uses: that is measured)
        self.cpu = cpu  # the CPU clock searches in this process are measured on (None: each thread's own)
        self.cheap_timeout = cheap_timeout
        self.delay = delay
        # Trained policies (cheap, decided in the thread) come from the operator's folder, by name.
        self.factory = factory or (lambda level: make_bot(level, models_dir))
        self.processes = processes
        self.search_in_processes = search_in_processes
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
        self._thread_bots: dict = {}
        self._pool: Executor | None = None
        self._due: dict[float, list[Job]] = {}
        self._waiting: list[tuple[int, Job]] = []  # searches in the order they arrived
        self.accounts = Accounts(clock=clock.monotonic)  # search time used lately, per table: the least served goes first
        self._took: dict[str, float] = {}  # CPU seconds one search of each level took lately (a moving average)
        self._order = itertools.count()
        self._running = 0
        self._seeds = random.Random(secrets.randbits(64))  # bots' dice need no system entropy per move
        self._tasks: set[asyncio.Task] = set()
        self.incidents = 0
        self.current: Callable[[Job], bool] = lambda job: True  # is the job's version still the table's?
        self.waited: Callable[[float], None] = lambda seconds: None  # a decision's wait from due to started

    # ------------------------------------------------------------------ asking
    def ask(self, job: Job) -> None:
        if any(is_search(r.level) for r in job.requests):
            if self.delay:
                self.clock.call_later(self.delay, self._enqueue_search, job)
            else:
                self._enqueue_search(job)
            return
        now = self.clock.monotonic()
        when = math.ceil((now + self.delay) / BOT_TICK) * BOT_TICK if self.delay else 0.0
        batch = self._due.get(when)
        if batch is None:
            batch = self._due[when] = []
            if self.delay:
                self.clock.call_later(when - now, self._decide_due, when)
            else:
                asyncio.get_running_loop().call_soon(self._decide_due, when)
        batch.append(job)

    def _decide_due(self, when: float) -> None:
        jobs = [job for job in self._due.pop(when) if self.current(job)]
        for job in jobs:
            job.due = self.clock.monotonic()
        if jobs:
            self._spawn(self._decide_batch(jobs))

    async def _decide_batch(self, jobs: list[Job]) -> None:
        seeds = [self._seeds.getrandbits(64) for _ in jobs]
        work = [(job.requests, seed) for job, seed in zip(jobs, seeds)]
        loop = asyncio.get_running_loop()
        spent = ThreadTime(self.cpu)

        def run(*args: Any) -> Any:
            now = self.clock.monotonic()  # in the thread: the batch waited behind the one before it, if any
            for job in jobs:
                self.waited(now - job.due)
            return spent.run(*args)

        future = loop.run_in_executor(self._threads, run, decide_each, work, self._thread_bots, self.factory)
        try:
            results = await within(future, self.cheap_timeout * len(jobs), spent.used)
        except asyncio.TimeoutError:
            results = [TimeoutError(f"no answer within {self.cheap_timeout * len(jobs):.1f} s of CPU time")] * len(jobs)
            # The thread is stuck in a bot: later cheap moves go to a fresh thread.
            self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
            self._thread_bots = {}
        for job, seed, result in zip(jobs, seeds, results):
            self._finish(job, seed, result)

    # ------------------------------------------------------------------ searching, the least served table first
    def _enqueue_search(self, job: Job) -> None:
        if not self.current(job):
            return
        job.due = self.clock.monotonic()
        self._waiting.append((next(self._order), job))
        self._next_search()

    def _next_search(self) -> None:
        while self._running < self.processes and self._waiting:
            job = self._least_served()
            if job is not None:
                self._running += 1
                self._spawn(self._search(job))

    def expected(self, job: Job) -> float:
        """Seconds the job's search should take, as measured lately for its level; 0 for a level never measured.

        Not its nominal cost (a millisecond a playout, a cap, not a forecast: a search of 400 playouts takes
        about 5 ms here): a level whose nominal cost is over what busy tables' accounts ever reach was never
        served, so never measured, so never served (the default table starved beside tables of ismcts:59). Its
        first search goes by its table's account alone and measures it; its time is charged like any other."""
        return self._took.get(job.level, 0.0)

    def measured(self, job: Job, took: float) -> None:
        """A search's CPU seconds: charged to its table, and the moving average of its level's cost."""
        self.accounts.charge(job.table, took)
        level = job.level
        if len(self._took) >= 1000 and level not in self._took:  # levels a client may spell are many: stay bounded
            self._took.clear()
        self._took[level] = 0.8 * self._took.get(level, took) + 0.2 * took

    def _least_served(self) -> Job | None:
        """Take the waiting search that would leave its table's account the lowest (ties: the oldest).

        The account is what the table used lately; adding the search's expected time means that ten new
        tables of the most expensive bots do not go before a table that used only a little and asks little.
        Jobs whose moment has passed are dropped on the way. A scan, not a heap: the accounts change as
        searches finish, and the waiting list holds at most one current job per table."""
        now = self.accounts.clock()
        live = [(order, job) for order, job in self._waiting if self.current(job)]
        if not live:
            self._waiting = []
            return None
        best = min(live, key=lambda entry: (self.accounts.used(entry[1].table, now) + self.expected(entry[1]), entry[0]))
        live.remove(best)
        self._waiting = live
        return best[1]

    async def _search(self, job: Job) -> None:
        seed = self._seeds.getrandbits(64)
        loop = asyncio.get_running_loop()
        timeout = 3 * job.cost / 1000 + SLACK  # CPU seconds: a runaway search stops here
        self.waited(self.clock.monotonic() - job.due)
        started = time.monotonic()
        used: Callable[[], float] = lambda: time.monotonic() - started
        took = None  # the CPU seconds the search used, as its worker measured them
        try:
            if self.search_in_processes:
                pool = self._process_pool()
                used = PoolTime(pool).used
                future = loop.run_in_executor(pool, decide_in_worker, job.requests, seed)
                result, took = await within(future, timeout, used)
            else:
                spent = ThreadTime(self.cpu)
                used = spent.used
                future = loop.run_in_executor(self._threads, spent.run, decide, self._thread_bots, job.requests, seed,
                                              self.factory)
                result = await within(future, timeout, used)
        except asyncio.TimeoutError:
            result = TimeoutError(f"no answer within {timeout:.1f} s of CPU time")
            self._drop_pool()  # its worker is still busy with this search: later searches get a fresh one
        except BrokenExecutor as err:  # a worker died (killed, out of memory): the next search gets a new pool
            result = err
            self._drop_pool()
        except Exception as err:  # noqa: BLE001 - a bot's bug: the autopilot plays
            result = err
        finally:
            self._running -= 1
            # What the table took from the others: the search's CPU time, which a busy machine does not inflate
            # (its wall time did: the order of tables' searches changed with the machine's load).
            self.measured(job, used() if took is None else took)
        self._finish(job, seed, result)
        self._next_search()

    def _process_pool(self) -> Executor:
        if self._pool is None:
            # spawn, not fork: a forked worker would keep the server's sockets open after it closes them.
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()  # a search past its time is abandoned, not waited for

    # ------------------------------------------------------------------ answers
    def _finish(self, job: Job, seed: int, result: Any) -> None:
        """Check a bot's answer; replace a failure by the autopilot's move; hand it to the table if still current."""
        if not self.current(job):
            return
        failure = None
        if isinstance(result, BaseException):
            failure = type(result).__name__  # not its message: a bot's error may quote the cards it holds
        elif result is None:
            if job.to_act is not None:
                failure = "no action from the seat to act"
        else:
            seat, action = result
            request = next((r for r in job.requests if r.seat == seat), None)
            if request is None or action not in request.legal:
                # its kind, never its card: a log line must not show what a hand holds
                failure = f"illegal action ({getattr(action, 'verb', type(action).__name__)}) for seat {seat}"
        if failure is not None:
            self.incidents += 1
            log.error("bot failure at table %s, version %d: %s; the autopilot plays", job.table, job.version, failure)
            if job.to_act is None:
                return  # only out-of-turn seats were asked: the moment may pass
            request = next(r for r in job.requests if r.seat == job.to_act)
            result = (request.seat, autopilot(request, seed))
        self.answer(job, result)

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

"""The table service: tables, seats and games, and every transition between their states.

Everything here runs on one thread (the event loop's) and changes state only
in plain methods, so a table handles one message at a time, in the order the
server receives it (DESIGN 9). An accepted change is written through the store
in one transaction, then every connection of the table is told, each seat only
what its view shows. The service is given its store, its clock and its bot
scheduler, and talks to connections only through their ``push``: so it runs
in-process in tests, with a real SQLite file, beside the real-server tests.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ..narrate import describe_refusal
from ..rules import Action, Game, IllegalAction, NotationError, Options, UnoKartError
from ..rules.actions import CATCH
from ..rules.states import GAME_OVER, ROUND_OVER
from . import messages, protocol
from .bots import AUTOPILOT, BotScheduler, Job, Request
from .clock import REAL, Clock
from .finished import Finished
from .limits import TokenBucket, talk_bucket, talk_limited
from .metrics import Metrics
from .protocol import Said, ServerError
from .shuffle import commitments_of, new_seed, record_of
from .store import CHAT_KEPT, LeaseLost, Store, StoredSeat, StoredTable, Transaction
from .writer import GroupWriter

log = logging.getLogger("unokart.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
# Errors about an action carry the table's current version (PROTOCOL.md section 6).
VERSIONED = frozenset(("stale_version", "duplicate", "illegal_action", "not_playing", "no_effect"))
RETRY_FIRST = 0.1  # seconds before a paused table first tries the store again; doubled after each failure...
RETRY_MOST = 1.0  # ...up to this: a table resumes within about this long of the database answering again
OUTAGE_LOG_EVERY = 5.0  # seconds between two log lines about the same store outage
CHAT_HISTORY = CHAT_KEPT  # chat messages a table keeps (and stores), sent to each connection that says hello


class Outage:
    """The log of an outage (the store's, or Redis's): one line when it begins, one every OUTAGE_LOG_EVERY
    seconds while it lasts (however many calls fail meanwhile), one when it ends; never a traceback."""

    def __init__(self, what: str = "store", logger: logging.Logger = log,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.what, self.log, self.now = what, logger, now
        self.since: float | None = None
        self.logged = 0.0
        self.failures = 0

    def failed(self, err: BaseException, paused: int | None = None) -> None:
        now = self.now()
        self.failures += 1
        if self.since is None:
            self.since = now
        elif now - self.logged < OUTAGE_LOG_EVERY:
            return
        self.logged = now
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        held = f", {paused} tables paused" if paused is not None else ""
        self.log.warning("%s unavailable for %.1f s (%d failed calls%s): %s",
                         self.what, now - self.since, self.failures, held, reason)

    def over(self) -> None:
        if self.since is not None:
            self.log.warning("%s answers again after %.1f s", self.what, self.now() - self.since)
        self.since, self.failures = None, 0


@dataclass
class Settings:
    bot_delay: float = 0.8
    round_pause: float = 5.0
    grace: float = 30.0
    base_url: str = "http://127.0.0.1:8000"
    bot_processes: int = 1
    rate_limit: float = 20.0  # messages per second per connection, in bursts of twice that
    chat_rate: float = 0.5  # chat messages and reactions per second per seat, in bursts of ten seconds' worth
    http_rate: float = 1.0  # table creations and joins per second per client address, in bursts of 20
    max_tables: int = 5000  # tables held in memory at once; more answers server_full
    idle: float = 120.0  # seconds an unwatched table out of play stays in memory (it reloads when asked for)
    models: frozenset[str] = frozenset()  # trained policies offered by name (serve --models DIR)
    models_dir: Path | None = None
    lease_ttl: float = 3.0  # several processes: seconds a dead owner's tables wait before another takes them
    metrics: bool = False  # GET /metrics in Prometheus' format (serve --metrics)
    # Lock-outs (issue 26, item 1): a table in play with nobody connected stops after this many seconds (0:
    # never), and one client address may have this many tables in play at once (0: any number).
    unattended: float = 60.0
    tables_per_address: int = 10


class Listener(Protocol):
    """A connection as the service sees it: where it sits, its language, and how to tell it something."""

    seat: int | None
    lang: str
    hello: bool  # it has said who it is (join, resume or watch)
    table: "Table | None"

    def push(self, text: str) -> None: ...


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Seat:
    __slots__ = ("kind", "name", "level", "token_hash", "connections", "away", "returning", "last_action", "grace_handle")

    def __init__(self, stored: StoredSeat):
        self.kind = stored.kind
        self.name = stored.name
        self.level = stored.level
        self.token_hash = stored.token_hash
        self.connections: set[Listener] = set()
        self.away = False
        self.returning = False  # back during the decision its timer ran out on: the bot's move for it stands
        self.last_action: tuple[int, str] | None = None  # (version it was sent with, its text): spots resends
        self.grace_handle: asyncio.TimerHandle | None = None

    def stored(self) -> StoredSeat:
        return StoredSeat(self.kind, self.name, self.level, self.token_hash)

    @property
    def automatic(self) -> bool:
        """Played by the server: a bot, or a human who is away."""
        return self.kind == "bot" or (self.kind == "human" and self.away)


class Table:
    def __init__(self, code: str, options: Options, turn_timer: float | None, seats: list[Seat], created: float):
        self.code = code
        self.created = created
        self.touched = 0.0  # the last message or change (the clock's monotonic seconds): idle tables leave memory
        self.creator: str | None = None  # the client address that created it here (its tables in play are capped)
        self.unattended_handle: asyncio.TimerHandle | None = None  # nobody connected: the table stops when it fires
        self.options = options
        self.turn_timer = turn_timer
        self.seats = seats
        self.status = "lobby"
        self.game_number = 0
        self.version = 0
        self.game: Game | Finished | None = None  # once over, only what its readers are shown (finished.py)
        self.game_id = 0
        self.seeds: list[int] = []
        self.bound = True  # the first commitment binds the players and house rules (False: a game stored before)
        self.digests: tuple[tuple[int, int], list[str]] = ((0, 0), [])  # (game id, rounds) -> each round's commitment
        self._told = 0  # events of the current round already broadcast
        self.connections: set[Listener] = set()
        self.deadline: float | None = None
        self.timer_handle: asyncio.TimerHandle | None = None
        self.timer_for: tuple[int, int] | None = None  # (version, seat) the running clock is for
        self.timed_out: tuple[int, int] | None = None  # (version, seat) whose turn timer last ran out
        self.round_handle: asyncio.TimerHandle | None = None
        self._bots_version = -1  # the version the bots were last asked about
        self.tokens = {s.token_hash: i for i, s in enumerate(seats) if s.token_hash}
        self.full_states: dict[tuple, tuple] = {}  # (seat, lang) -> (what it was built for, its parts)
        self.paused = False  # a write failed: nothing moves until the store answers again and the table reloads
        # Its recent chat, as sent (also stored, apart from any game's record), and each seat's chat budget.
        self.chat: deque[dict] = deque(maxlen=CHAT_HISTORY)
        self.talk: dict[int, TokenBucket] = {}
        # A change is being committed (group commit): the table's messages, bot answers and timers wait here,
        # in order, so that nobody sees the change before it is stored and the table still takes one at a time.
        self.writing = False
        self.waiting: deque[Callable[[], None]] = deque()

    def seat_by_token(self, token: str) -> int:
        seat = self.tokens.get(token_hash(token))
        if seat is None:
            raise ServerError("bad_token")
        return seat

    # Its counters (version, game number, events told, the version its bots were asked about, when it was last
    # touched) move only here, each with what it counts.
    @classmethod
    def restored(cls, stored: StoredTable, game: Game | None = None) -> "Table":
        """The table as stored, its game replayed (or ``game``, replayed already); its events told already."""
        table = cls(stored.code, Options.from_dict(stored.options), stored.turn_timer, [Seat(s) for s in stored.seats],
                    stored.created)
        table.status, table.game_number, table.version = stored.status, stored.game_number, stored.version
        if stored.game is not None:
            g = stored.game
            game = game or Game.from_record(record_of(g.players, g.options, g.seeds, g.actions))
            table.game = Finished(game) if game.awaiting == GAME_OVER else game
            table.game_id, table.seeds, table.bound = g.id, g.seeds, g.bound
            table.told_all()
        table.chat.extend(stored.chat)
        return table

    def reloaded(self, fresh: "Table") -> None:
        """Becomes ``fresh`` (what the store holds) in place: its connections and timers stay."""
        self.status, self.game_number, self.version = fresh.status, fresh.game_number, fresh.version
        self.game, self.game_id, self.seeds, self.bound = fresh.game, fresh.game_id, fresh.seeds, fresh.bound
        for seat, now in zip(self.seats, fresh.seats):
            seat.kind, seat.name, seat.level, seat.token_hash = now.kind, now.name, now.level, now.token_hash
        self.tokens = fresh.tokens
        self.ask_bots_again()
        self.full_states.clear()

    def began(self, game: Game, game_id: int, seed: int) -> None:
        """A new game, stored as game ``game_number + 1``: the next version, nothing of it told yet."""
        self.game, self.game_id, self.seeds, self._told, self.bound = game, game_id, [seed], 0, True
        self.version, self.game_number, self.status = self.version + 1, self.game_number + 1, "playing"

    def acted(self) -> int:
        """An action is stored: the next version. Returns the version the action was sent with."""
        self.version += 1
        return self.version - 1

    def dealt(self, seed: int) -> None:
        """The next round, stored: dealt from ``seed``, the next version, none of its events told yet."""
        assert isinstance(self.game, Game)
        self.game.next_round(seed)
        self.seeds.append(seed)
        self.version += 1
        self._told = 0

    def news(self) -> int:
        """The index of the round's first event not yet told; from now on all of them are."""
        start = self._told
        self.told_all()
        return start

    def told_all(self) -> None:
        # not len(game.events): a copy of the round's events, at every action
        self._told = self.game.event_count() if self.game is not None else 0

    def touch(self, now: float) -> None:
        """A message or a change (``now``: monotonic seconds): idle tables leave memory."""
        self.touched = now

    def bots_asked(self) -> bool:
        return self._bots_version == self.version

    def asking_bots(self) -> None:
        self._bots_version = self.version

    def ask_bots_again(self) -> None:
        """What the server-played seats may do changed within this version (a seat went away, a bot was wrong)."""
        self._bots_version = -1


class TableService:
    def __init__(self, store: Store, settings: Settings, clock: Clock | None = None,
                 bots: Callable[["TableService"], BotScheduler] | None = None):
        self.store = store
        self.settings = settings
        self.clock: Clock = clock or REAL
        self.tables: dict[str, Table] = {}
        models_dir = str(settings.models_dir) if settings.models_dir else None
        self.bots = bots(self) if bots else BotScheduler(self._bot_answer, settings.bot_delay, settings.bot_processes,
                                                         models_dir=models_dir, clock=self.clock)
        self.bots.current = self._current
        # Called with each table that leaves memory (several processes: its lease is given up).
        self.forgotten: Callable[[Table], None] | None = None
        # Called with the code of a table whose write the store refused because another process owns it now.
        self.lease_lost: Callable[[str], None] | None = None
        self.paused: dict[str, Table] = {}  # tables whose write failed, waiting for the store (code -> table)
        self._retry: asyncio.TimerHandle | None = None
        self._retry_delay = RETRY_FIRST
        self._outage: Outage = Outage(now=self.clock.monotonic)
        self.closed = False
        # Finished games never change: their record and replay frames, once built, are kept (a few, the newest
        # asked), and replays are built one at a time in a thread, so that nobody's GETs stall the event loop.
        self._finished: OrderedDict[int, dict] = OrderedDict()
        self._replays: OrderedDict[tuple[int, int, str | None], dict] = OrderedDict()
        self._replaying = asyncio.Semaphore(1)
        self.metrics = Metrics()  # reports nothing unless serve --metrics puts a Prometheus one here
        # Actions and rounds committed in groups off the event loop, where the store offers it (PostgreSQL).
        group_writer = getattr(store, "group_writer", None)
        self.writer: GroupWriter | None = group_writer() if group_writer is not None else None

    @contextmanager
    def _writing(self, table: Table) -> Iterator[Transaction]:
        """A transaction on one table's rows, made before the table changes in memory.

        If the store refuses it because another process has taken the table over (several processes), the
        table leaves this one, whose players reconnect to the new owner. If the write fails otherwise (the
        database is restarting, gone, full), the table is paused: whether the commit happened is unknown, so
        the table changes nothing more until the store answers again and it is reloaded from what is stored."""
        if self.closed:  # stopping: the store is closing or closed
            raise ServerError("table_unavailable", status=503)
        try:
            with self.store.transaction() as tx:
                yield tx
        except ServerError:
            raise
        except Exception as err:  # noqa: BLE001 - any failed write: the table waits for the store
            raise self._write_failed(table, err) from None

    def _write_failed(self, table: Table, err: BaseException) -> ServerError:
        """The refusal of a change whose write failed, once the table has been dealt with: it leaves this
        process (another owns it now), or it pauses until the store answers again."""
        if isinstance(err, LeaseLost):
            log.warning("table %s: another process owns it now, write refused", table.code)
            if self.lease_lost is not None:
                self.lease_lost(table.code)
        else:
            self._pause(table, err)
        return ServerError("table_unavailable", status=503)

    def _commit(self, table: Table, write: Callable[[Transaction], None], then: Callable[[], None],
                undo: Callable[[], None] | None = None, sender: tuple[Listener, Any] | None = None) -> None:
        """Store a change, then make it (``then``: the table moves on and everyone is told); if the write fails,
        ``undo`` takes back what was changed in memory beforehand, and the table leaves or pauses.

        With a group writer the commit happens off the event loop, together with other tables' changes, and
        the table waits meanwhile (``table.writing``); a failure is then told to ``sender`` (a connection and
        its message's id). Without one it happens here, and a failure raises ServerError table_unavailable."""
        started = time.perf_counter()
        if self.writer is None:
            try:
                with self._writing(table) as tx:
                    write(tx)
            except ServerError:
                if undo is not None:
                    undo()
                raise
            self.metrics.commit(time.perf_counter() - started)
            then()
            return
        if self.closed:
            if undo is not None:
                undo()
            raise ServerError("table_unavailable", status=503)
        table.writing = True
        self.writer.submit(write, lambda err: self._committed(table, err, then, undo, sender, started))

    def _committed(self, table: Table, err: BaseException | None, then: Callable[[], None],
                   undo: Callable[[], None] | None, sender: tuple[Listener, Any] | None, started: float) -> None:
        """A group commit's outcome for one table's change, on the event loop; then what waited meanwhile."""
        table.writing = False
        if err is None:
            self.metrics.commit(time.perf_counter() - started)
        if self.tables.get(table.code) is not table:  # no longer this process's: its new owner reloads it
            table.waiting.clear()
            return
        if err is None:
            then()
        else:
            if undo is not None:
                undo()
            refused = self._write_failed(table, err)
            if sender is not None:
                sender[0].push(messages.dumps(refused.payload(sender[0].lang, re=sender[1])))
            if self.tables.get(table.code) is not table:  # it left this process (its lease moved on)
                table.waiting.clear()
                return
        while table.waiting and not table.writing:
            try:
                table.waiting.popleft()()
            except Exception:  # noqa: BLE001 - a bug: the rest of the table's queue must not wait for ever
                log.exception("table %s: after a commit", table.code)

    def _when_free(self, table: Table, then: Callable[[], None]) -> bool:
        """False when the table is free now; else ``then`` waits for its change to be committed (True)."""
        if not table.writing:
            return False
        table.waiting.append(then)
        return True

    # ------------------------------------------------------------------ store outages
    def _pause(self, table: Table, err: BaseException) -> None:
        """Stop the table where the store last confirmed it (its clock stopped, its bots not asked) and try the
        store again soon; a timer, not a loop, so the event loop serves everyone else meanwhile."""
        self._outage.failed(err, len(self.paused) + (not table.paused))
        if table.paused:
            return
        table.paused = True
        self.paused[table.code] = table
        if table.timer_handle is not None:  # a turn's clock does not run while nobody can play
            table.timer_handle.cancel()
            table.timer_handle = None
            table.deadline = None
        self._retry_soon()

    def _retry_soon(self) -> None:
        if self._retry is None and self.paused:
            self._retry = self.clock.call_later(self._retry_delay, self._try_resume)

    def _try_resume(self) -> None:
        """Reload each paused table from the store; at the first failure wait longer (up to RETRY_MOST) and
        stop: one attempt a period however many tables wait."""
        self._retry = None
        for code, table in list(self.paused.items()):
            if self.tables.get(code) is not table:  # left memory meanwhile (its lease went elsewhere)
                del self.paused[code]
                continue
            try:
                stored = self.store.load_table(code)
            except Exception as err:  # noqa: BLE001 - still out of reach
                self._outage.failed(err, len(self.paused))
                self._retry_delay = min(RETRY_MOST, self._retry_delay * 2)
                self._retry_soon()
                return
            del self.paused[code]
            self._resume(table, stored)
        self._retry_delay = RETRY_FIRST
        self._outage.over()

    def _resume(self, table: Table, stored: StoredTable | None) -> None:
        """The table as the store has it (the failed write's commit may or may not have happened), then every
        connection is sent the whole state and play goes on: bots asked again, clocks started again."""
        table.paused = False
        if stored is None:
            self.forget(table.code)
            return
        try:
            fresh = Table.restored(stored)
        except (UnoKartError, ValueError) as err:
            log.error("table %s cannot be restored: %s", table.code, err)
            self.forget(table.code)
            return
        table.reloaded(fresh)
        self._arm_timer(table)
        self._broadcast_table(table)
        if table.game is not None:
            for conn in list(table.connections):
                conn.push(messages.dumps(messages.state_message(table, conn.seat, conn.lang, 0)))
        self._after_change(table, broadcast=False)

    def store_ready(self) -> bool:
        """Whether the store answers: asked again (one small read) only while an outage is known."""
        if self._outage.since is None:
            return True
        try:
            self.store.load_table("")
        except Exception:  # noqa: BLE001 - still out of reach
            return False
        if not self.paused:  # paused tables end the outage themselves, once they have reloaded
            self._outage.over()
        return True

    def outage(self, err: BaseException) -> None:
        """A call to the store failed outside any table (a lobby's read): logged as part of the outage."""
        self._outage.failed(err, len(self.paused))

    def _unavailable(self, table: Table) -> None:
        if table.paused:
            raise ServerError("table_unavailable", status=503)

    # ------------------------------------------------------------------ life
    def restore(self) -> None:
        """Resume every table in play exactly where it was (after a restart, even a kill -9), up to --max-tables:
        the others are loaded when someone asks for them."""
        for code in self.store.live_tables():
            if len(self.tables) >= self.settings.max_tables:
                log.warning("restore: --max-tables %d reached; the other tables in play wait to be asked for",
                            self.settings.max_tables)
                return
            self.load(code)

    def load(self, code: str) -> Table | None:
        """A table from the store into memory (None: no such table, or one that cannot be restored)."""
        return self._adopt(code, self._restored(code, self._read(self.store.load_table, code)))

    async def load_apart(self, code: str) -> Table | None:
        """``load`` without holding the event loop: the store's read in a thread, and the game's replay (a
        long finished game takes a while) in slices between which the event loop serves everyone else (in a
        thread, the replay would take Python's lock from the event loop as much)."""
        read = getattr(self.store, "load_table_apart", self.store.load_table)
        stored = await asyncio.to_thread(self._read, read, code)
        table = None
        if stored is not None:
            try:
                game = await _replay_in_slices(stored.game) if stored.game is not None else None
                table = Table.restored(stored, game)
            except (UnoKartError, ValueError) as err:
                log.error("table %s cannot be restored: %s", code, err)
        loaded = self.tables.get(code)  # another request may have loaded it meanwhile: one table in memory
        return loaded if loaded is not None else self._adopt(code, table)

    def _read(self, read: Callable[[str], StoredTable | None], code: str) -> StoredTable | None:
        try:
            return read(code)
        except Exception as err:  # noqa: BLE001 - the database is out of reach: said plainly, logged once a while
            self._outage.failed(err, len(self.paused))
            raise ServerError("table_unavailable", status=503) from None

    def _restored(self, code: str, stored: StoredTable | None) -> Table | None:
        if stored is None:
            return None
        try:
            return Table.restored(stored)
        except (UnoKartError, ValueError) as err:
            log.error("table %s cannot be restored: %s", code, err)
            return None

    def _adopt(self, code: str, table: Table | None) -> Table | None:
        """A restored table now served here: its seats' grace periods and its bots resume."""
        if table is None:
            return None
        self._room()  # a reload counts against --max-tables as a creation does
        if table.status == "stopped":  # nobody was at it: someone is asking for it now, so play goes on
            with self._writing(table) as tx:
                tx.set_status(code, "playing")
            table.status = "playing"
        table.touch(self.clock.monotonic())
        self.tables[code] = table
        if table.status == "playing":
            for index, seat in enumerate(table.seats):
                if seat.kind == "human":
                    self._start_grace(table, index)
            self._after_change(table, broadcast=False)
            self._unattended_soon(table)
        return table

    async def close(self) -> None:
        """Stop before the store closes: no timer fires and no bot answer is stored after this (a round dealt
        by a timer into a closed database was the shutdown race); what was acknowledged is already stored."""
        self.closed = True
        if self.writer is not None:
            await self.writer.close()  # the changes being committed finish, and their players are told
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        for table in self.tables.values():
            _stop_timers(table)
        await self.bots.close()

    def sweep(self) -> int:
        """Let idle tables out of play leave memory (they reload from the store when someone asks); returns how many."""
        now = self.clock.monotonic()
        idle = [code for code, table in self.tables.items()
                if table.status != "playing" and not table.connections and now - table.touched > self.settings.idle]
        for code in idle:
            self.forget(code)
        self.metrics.eviction(len(idle))
        return len(idle)

    def _room(self) -> None:
        """Room for one more table, or ServerError server_full. A full server stays open to a new player while
        any table in memory has nobody connected: idle ones leave first, then the unwatched one out of play
        touched longest ago, then the table in play left unattended longest stops before its time (it resumes
        when someone asks for it). Full means that every table held has someone at it."""
        if len(self.tables) < self.settings.max_tables or self.sweep():
            return
        alone = sorted((t for t in self.tables.values() if not t.connections and not t.writing and not t.paused),
                       key=lambda t: (t.status == "playing", t.touched))
        for table in alone:
            if table.status != "playing":
                self.forget(table.code)
                self.metrics.eviction()
                return
            if self._stop_unattended(table):
                return
        raise ServerError("server_full", status=503, limit=self.settings.max_tables)

    # ------------------------------------------------------------------ tables nobody is at
    def _unattended_soon(self, table: Table) -> None:
        """A table in play with nobody connected (no player, no spectator) stops after ``unattended`` seconds:
        bots playing for nobody would hold their seats' CPU and the server's room for hours."""
        if (not self.settings.unattended or table.status != "playing" or table.connections
                or table.unattended_handle is not None):
            return
        table.unattended_handle = self.clock.call_later(self.settings.unattended, self._unattended_over, table)

    def _attended(self, table: Table) -> None:
        if table.unattended_handle is not None:
            table.unattended_handle.cancel()
            table.unattended_handle = None

    def _unattended_over(self, table: Table) -> None:
        table.unattended_handle = None
        if self.tables.get(table.code) is not table or table.connections or table.status != "playing":
            return
        if self._when_free(table, lambda: self._unattended_over(table)):
            return
        self._stop_unattended(table)

    def _stop_unattended(self, table: Table) -> bool:
        """Stored as stopped, then out of memory: not restored at a restart nor taken over by another process;
        whoever asks for it next (a spectator, a player, GET) brings it back into play where it stopped."""
        try:
            with self._writing(table) as tx:
                tx.set_status(table.code, "stopped")
        except ServerError:
            return False  # the store is out of reach: the table paused meanwhile, and stays
        log.info("table %s stopped: nobody at it", table.code)
        self.forget(table.code)
        return True

    def forget(self, code: str) -> Table | None:
        """Let a table leave memory now (its timers stopped; its bots' answers, when they come, are dropped)."""
        table = self.tables.pop(code, None)
        if table is None:
            return None
        self.paused.pop(code, None)
        _stop_timers(table)
        if self.forgotten is not None:
            self.forgotten(table)
        return table

    @staticmethod
    def valid_code(code: object) -> str | None:
        """A table code as typed (any case), or None when it cannot be one."""
        if not isinstance(code, str):
            return None
        code = code.upper()
        return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None

    # ------------------------------------------------------------------ tables
    def create_table(self, request: protocol.CreateTable, code: str | None = None, creator: str | None = None) -> Table:
        """A new table (under ``code`` when given: several processes claim the code first), created by the
        client address ``creator``, which may have at most ``tables_per_address`` tables in play at once (tables
        in the lobby leave memory when the server is full and nobody is at them, so they lock nobody out)."""
        self._within_cap(creator)
        self._room()
        try:
            opts = Options.from_dict(request.options.given())
            Game.check_table(request.seats, opts)  # the hands must fit the deck (R3.2)
        except UnoKartError as err:  # the core's refusal by its key: said in each reader's language
            raise ServerError("bad_options", rule=getattr(err, "rule", None) or None, reason=Said.of(err)) from None
        stored = [StoredSeat("empty") for _ in range(request.seats)]
        for key, level in request.bots.items():
            seat = int(key)
            if not 0 <= seat < request.seats:
                raise ServerError("no_such_seat", seat=seat)
            level = protocol.bot_level(level, self.settings.models)
            stored[seat] = StoredSeat("bot", messages.bot_name(seat, level), level)
        if request.start and any(s.kind == "empty" for s in stored):
            raise ServerError("seats_empty")
        code = code or self.new_code()
        try:
            with self.store.transaction() as tx:
                tx.create_table(code, asdict(opts), request.turn_timer, stored)
        except LeaseLost:
            raise ServerError("table_unavailable", status=503) from None
        except Exception as err:  # noqa: BLE001 - not stored: no table (it would be lost with the process)
            self._outage.failed(err, len(self.paused))
            raise ServerError("table_unavailable", status=503) from None
        table = Table(code, opts, request.turn_timer, [Seat(s) for s in stored], self.clock.time())
        table.creator = creator
        table.touch(self.clock.monotonic())
        self.tables[code] = table
        if request.start:
            self._begin_game(table)
        return table

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and self.store.load_table(code) is None:
                return code

    def table(self, code: str) -> Table:
        """The table with this code, from memory or reloaded from the store; ServerError no_such_table."""
        valid = self.valid_code(code)
        table = self.tables.get(valid) if valid else None
        if table is None and valid:
            table = self.load(valid)
        return self._found(code, table)

    async def table_apart(self, code: str) -> Table:
        """``table``, reloading off the event loop (load_apart): what the server's requests use."""
        valid = self.valid_code(code)
        table = self.tables.get(valid) if valid else None
        if table is None and valid:
            table = await self.load_apart(valid)
        return self._found(code, table)

    def _found(self, code: str, table: Table | None) -> Table:
        if table is None:
            raise ServerError("no_such_table", status=404, table=protocol.echo(code, 16))
        table.touch(self.clock.monotonic())
        return table

    def link(self, table: Table) -> str:
        return f"{self.settings.base_url}/t/{table.code}"

    def summary(self, table: Table) -> dict:
        return messages.table_summary(table, self.settings.base_url)

    async def finished_game(self, game_id: int) -> dict | None:
        """A finished game's summary, its record and its round commitments (what `unokart verify` reads), from
        the store (a finished table in memory keeps none of its history): read in a thread, replayed in slices
        between which the event loop serves everyone else, as a reload is."""
        if game_id in self._finished:
            self._finished.move_to_end(game_id)
            return self._finished[game_id]
        read = getattr(self.store, "finished_apart", None)
        if read is not None:
            found = await asyncio.to_thread(read, game_id)
        else:
            summary = self.store.finished_game(game_id)
            found = (summary, self.store.load_game(game_id)) if summary is not None else None
        if found is None:
            return None
        summary, g = found
        assert g is not None
        record = (await _replay_in_slices(g)).record()  # replayed: a record that does not replay is not served
        game = {**summary, "record": record, "commitments": commitments_of(g.seeds, g.players, g.options, g.bound)}
        return _keep(self._finished, game_id, game, FINISHED_KEPT)

    async def replay_frames(self, game: dict, number: int, lang: str | None) -> dict:
        """Round ``number`` of finished ``game`` (as ``finished_game`` gives it), frame by frame."""
        from ..replay.frames import replay_round

        key = (game["id"], number, lang)
        if key not in self._replays:
            async with self._replaying:
                if key not in self._replays:
                    frames = await asyncio.to_thread(replay_round, game["record"], number, lang)
                    _keep(self._replays, key, frames, REPLAYS_KEPT)
        self._replays.move_to_end(key)
        return self._replays[key]

    def join_reply(self, table: Table, name: str, seat: int | None = None) -> dict:
        """An HTTP join's answer (PROTOCOL.md section 2), wherever the client asked (cluster.py asks the owner)."""
        taken, token = self.join(table, name, seat)
        return {"code": table.code, "seat": taken, "token": token, "link": self.link(table)}

    def join(self, table: Table, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take an empty seat in the lobby; returns the seat and its new secret token. Refused: nothing changes."""
        name = protocol.clean_name(name)
        self._unavailable(table)
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        if seat is None:
            seat = next((i for i, s in enumerate(table.seats) if s.kind == "empty"), None)
            if seat is None:
                raise ServerError("table_full", status=409)
        elif not 0 <= seat < len(table.seats):  # a seat a table may have, not this one: 409, as a taken seat is
            raise ServerError("no_such_seat", status=409, seat=seat)
        elif table.seats[seat].kind != "empty":
            raise ServerError("seat_taken", status=409, seat=seat)
        token = secrets.token_urlsafe(24)
        taken = StoredSeat("human", name, None, token_hash(token))
        with self._writing(table) as tx:  # stored first: a failed write leaves the seat empty
            tx.set_seat(table.code, seat, taken)
        place = table.seats[seat]
        place.kind, place.name, place.level, place.token_hash = taken.kind, taken.name, None, taken.token_hash
        table.tokens[taken.token_hash] = seat  # type: ignore[index]
        self._broadcast_table(table)
        return seat, token

    # ------------------------------------------------------------------ connections
    def handle_text(self, conn: Listener, table: Table, text: str | bytes | None,
                    admit: Callable[[protocol.Message], None] | None = None) -> None:
        """One websocket frame from a connection: handled, or refused to that connection alone.

        ``admit`` is the transport's say on a valid message before it is handled (a join spends the address's
        join budget): its ServerError is the answer."""
        if self._when_free(table, lambda: self.handle_text(conn, table, text, admit)):
            return
        re: Any = None
        try:
            message, re = protocol.parse_message(text)
            if admit is not None:
                admit(message)
            self.handle(conn, table, message)
        except ServerError as err:
            version = table.version if err.code in VERSIONED else None
            conn.push(messages.dumps(err.payload(conn.lang, version, re if re is not None else err.re)))
        except Exception:  # noqa: BLE001 - a bug answers this message only; the table and the connection go on
            log.exception("message at table %s", table.code)
            conn.push(messages.dumps(ServerError("internal").payload(conn.lang, re=re)))

    def handle(self, conn: Listener, table: Table, msg: protocol.Message) -> None:
        """One validated client message (docs/PROTOCOL.md section 4)."""
        kind, re = msg.type, msg.id  # type: ignore[attr-defined]
        table.touch(self.clock.monotonic())
        if kind == "ping":
            conn.push(messages.dumps({"type": "pong", "re": re} if re is not None else {"type": "pong"}))
            return
        if kind in protocol.HELLOS:
            if conn.hello:
                raise ServerError("already_hello")
            self._hello(conn, table, msg, re)
            return
        if not conn.hello:
            raise ServerError("hello_first")
        if kind == "sync":
            if table.game is not None:
                conn.push(messages.dumps(messages.state_message(table, conn.seat, conn.lang, 0, re)))
            else:  # no game yet: the table is all there is to send, answered so that a client waiting on re is not left
                summary = {"type": "table", "table": messages.table_summary(table, self.settings.base_url)}
                conn.push(messages.dumps(summary if re is None else {**summary, "re": re}))
            return
        if kind in protocol.TALK:
            self._talk(conn, table, msg, re)
            return
        if conn.seat is None:
            raise ServerError("spectator")
        seat = table.seat_by_token(msg.token)  # type: ignore[attr-defined]
        if seat != conn.seat:
            raise ServerError("not_your_seat", seat=seat)
        self._unavailable(table)  # paused: nothing may change, and the client is told why
        self._returned(table, seat)
        self.SEATED[kind](self, conn, table, seat, msg, re)

    def _hello(self, conn: Listener, table: Table, msg: Any, re: Any) -> None:
        if msg.lang is not None:
            conn.lang = msg.lang
        token = None
        if msg.type == "join":
            seat, token = self.join(table, msg.name, msg.seat)
        elif msg.type == "resume":
            seat = table.seat_by_token(msg.token)
        else:
            seat = None
        conn.table, conn.seat, conn.hello = table, seat, True
        table.connections.add(conn)
        self._attended(table)
        welcome = {"type": "welcome", "code": table.code, "seat": seat,
                   "name": table.seats[seat].name if seat is not None else None}
        if token is not None:
            welcome["token"] = token
        if re is not None:
            welcome["re"] = re
        conn.push(messages.dumps(welcome))
        if seat is not None:
            table.seats[seat].connections.add(conn)
            self._returned(table, seat)
        self._broadcast_table(table)
        if table.game is not None:
            conn.push(messages.dumps(messages.state_message(table, seat, conn.lang, 0)))
        conn.push(messages.dumps({"type": "chat_history", "messages": list(table.chat)}))

    def disconnect(self, conn: Listener) -> None:
        table = conn.table
        if table is None or conn not in table.connections:
            return
        table.connections.discard(conn)
        table.touch(self.clock.monotonic())
        if not table.connections:  # the whole states kept for its readers' syncs: none is left to ask
            table.full_states = {}
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.connections.discard(conn)
            if not seat.connections and seat.kind == "human" and table.status == "playing":
                self._start_grace(table, conn.seat)
        self._unattended_soon(table)
        self._broadcast_table(table)

    def _start_grace(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        if seat.grace_handle is not None:
            seat.grace_handle.cancel()
        seat.grace_handle = self.clock.call_later(self.settings.grace, self._grace_over, table, index)

    def _grace_over(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        seat.grace_handle = None
        if self._when_free(table, lambda: self._grace_over(table, index)):
            return
        if not seat.connections and seat.kind == "human":
            self._set_away(table, index)

    def _set_away(self, table: Table, index: int) -> None:
        table.seats[index].returning = False
        if table.seats[index].away:
            return
        table.seats[index].away = True
        table.ask_bots_again()  # the bot now plays this seat: ask again
        self._broadcast_table(table)
        self._after_change(table)  # a new deadline (or none), and the bot takes over

    def _returned(self, table: Table, index: int) -> None:
        """A message with the seat's token: its player is back, at once, or from the next decision when this one
        is the one its timer ran out on (a fresh timer for it at each message would let one message a timer's
        length hold everyone's game still)."""
        seat = table.seats[index]
        if seat.grace_handle is not None:
            seat.grace_handle.cancel()
            seat.grace_handle = None
        if seat.away and table.timed_out == (table.version, index):
            seat.returning = True  # no fresh timer for the decision that timed out: back from the next one
        elif seat.away:
            seat.away = False
            table.ask_bots_again()
            self._broadcast_table(table)
            self._after_change(table)

    # ------------------------------------------------------------------ player messages
    def _on_action(self, conn: Listener, table: Table, seat: int, msg: protocol.Act, re: Any) -> None:
        if table.status != "playing" or table.game is None:
            raise ServerError("not_playing")
        try:
            action = Action.parse(msg.action)
        except NotationError as err:
            raise ServerError("bad_notation", reason=Said.of(err)) from None
        if action.seat != seat:
            raise ServerError("not_your_seat", seat=action.seat)
        if msg.version != table.version:
            if table.seats[seat].last_action == (msg.version, str(action)):
                raise ServerError("duplicate", version=table.version)
            raise ServerError("stale_version", sent=msg.version, version=table.version)
        self.submit(table, action, (conn, re))

    def _on_bot(self, conn: Listener, table: Table, seat: int, msg: protocol.SetBot, re: Any) -> None:
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        index = msg.seat
        if not 0 <= index < len(table.seats):
            raise ServerError("no_such_seat", seat=index)
        place = table.seats[index]
        if place.kind == "human":
            raise ServerError("seat_taken", status=409, seat=index)
        if msg.level is None:
            value = StoredSeat("empty")
        else:
            level = protocol.bot_level(msg.level, self.settings.models)
            value = StoredSeat("bot", messages.bot_name(index, level), level)
        with self._writing(table) as tx:
            tx.set_seat(table.code, index, value)
        place.kind, place.name, place.level = value.kind, value.name, value.level
        self._broadcast_table(table)

    def _on_start(self, conn: Listener, table: Table, seat: int, msg: Any, re: Any) -> None:
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        if any(s.kind == "empty" for s in table.seats):
            raise ServerError("seats_empty")
        self._within_cap(table.creator)  # tables created in the lobby, then started, count as they start
        self._begin_game(table)

    def _on_rematch(self, conn: Listener, table: Table, seat: int, msg: Any, re: Any) -> None:
        if table.status != "game_over":
            raise ServerError("game_not_over")
        self._within_cap(table.creator)
        self._begin_game(table)

    def _within_cap(self, creator: str | None) -> None:
        """Refuses (429) a table coming into play for an address that has ``tables_per_address`` in play already."""
        cap = self.settings.tables_per_address
        if cap and creator is not None and \
                sum(1 for t in self.tables.values() if t.creator == creator and t.status == "playing") >= cap:
            raise ServerError("too_many_tables", status=429, limit=cap)

    def _on_leave(self, conn: Listener, table: Table, seat: int, msg: Any, re: Any) -> None:
        place = table.seats[seat]
        if table.status == "lobby":
            with self._writing(table) as tx:
                tx.set_seat(table.code, seat, StoredSeat("empty"))
            del table.tokens[place.token_hash]
            place.kind, place.name, place.token_hash = "empty", None, None
            for other in list(place.connections):  # they stay, as spectators
                other.seat = None
            place.connections.clear()
            self._broadcast_table(table)
        else:
            self._set_away(table, seat)

    # ------------------------------------------------------------------ chat and reactions
    # What a seat may ask, by the message's kind (PROTOCOL.md section 4; DESIGN.md, "The server: composition").
    # Every other kind the protocol parses is answered in handle before a seat is checked; a kind it does not
    # parse never gets here.
    SEATED: ClassVar[dict[str, Callable[..., None]]] = {
        "action": _on_action, "bot": _on_bot, "start": _on_start, "rematch": _on_rematch, "leave": _on_leave}

    def _talk(self, conn: Listener, table: Table, msg: Any, re: Any) -> None:
        """A chat message or a reaction, told to every connection of the table as it is (a reaction is never
        stored; a chat message is kept in the table's recent history). Only seated players chat; anyone reacts."""
        seat = self._speaker(conn, table, msg)
        if msg.type == "chat":
            assert seat is not None
            said: dict[str, Any] = {"type": "chat", "seat": seat, "name": table.seats[seat].name,
                                    "text": protocol.clean_text(msg.text), "at": int(self.clock.time() * 1000)}
        else:
            said = {"type": "react", "seat": seat, "emoji": protocol.reaction(msg.emoji)}
        if seat is not None:  # a seat's budget, whichever of its connections (or processes) the messages come by
            bucket = table.talk.get(seat)
            if bucket is None:
                bucket = table.talk[seat] = talk_bucket(self.settings.chat_rate, self.clock.monotonic)
            wait = bucket.take()
            if wait:
                raise talk_limited(wait)
        if said["type"] == "chat":
            table.chat.append(said)
            self._store_chat(table, said)
        text = messages.dumps(said)
        for other in list(table.connections):
            other.push(messages.dumps({**said, "re": re}) if other is conn and re is not None else text)

    def _store_chat(self, table: Table, said: dict) -> None:
        """Keep a chat message beyond this process's memory, best-effort: a failed write is logged, and neither
        pauses the table nor waits for anything (it is told at once, whatever the store does)."""
        if self.closed:  # stopping: the store is closing
            return

        def failed(err: BaseException | None) -> None:
            if err is not None:
                log.warning("table %s: chat message not stored: %s", table.code, err)

        write: Callable[[Transaction], None] = lambda tx: tx.add_chat(table.code, said)
        if self.writer is not None:  # off the event loop, with the other tables' changes
            self.writer.submit(write, failed)
            return
        try:
            with self.store.transaction() as tx:
                write(tx)
        except Exception as err:  # noqa: BLE001 - chat is best-effort: the store's trouble is the game's alone
            failed(err)

    @staticmethod
    def _speaker(conn: Listener, table: Table, msg: Any) -> int | None:
        """The seat a chat message or reaction comes from (None: a spectator's reaction), proved by its token."""
        if conn.seat is None:
            if msg.type == "chat":
                raise ServerError("spectator")
            if msg.token is None:
                return None
        if msg.token is None:
            raise ServerError("missing_field", field="token")
        seat = table.seat_by_token(msg.token)
        if seat != conn.seat:
            raise ServerError("not_your_seat", seat=seat)
        return seat

    # ------------------------------------------------------------------ the game
    def _begin_game(self, table: Table) -> None:
        players = [s.name or "" for s in table.seats]
        seed = new_seed()
        game = Game.new(players=players, seed=seed, options=table.options)
        with self._writing(table) as tx:
            game_id = tx.start_game(table.code, table.game_number + 1, players, table.options.to_dict(), seed)
        table.began(game, game_id, seed)
        for index, seat in enumerate(table.seats):
            seat.last_action = None
            if seat.kind == "human" and not seat.connections and not seat.away:
                self._start_grace(table, index)  # joined but never connected, or gone since
        self._unattended_soon(table)
        self._broadcast_table(table)
        self._after_change(table)

    def submit(self, table: Table, action: Action, sender: tuple[Listener, Any] | None = None) -> None:
        """Apply one action: the rules check it, the store commits it, then everyone is told.

        An action that would change nothing (a catch of nobody, R8.3) is refused: it is not stored, does not
        move the version, and so cannot make another seat's action stale.
        """
        arrived = time.perf_counter()
        self._unavailable(table)
        game = table.game
        assert isinstance(game, Game)  # in play (a finished game is a Finished, and refuses as not_playing first)
        if action.verb == CATCH and action not in game.legal_actions(action.seat):
            raise ServerError("no_effect", rule="R8.3")
        try:
            game.apply(action)  # a refusal changes nothing
        except IllegalAction as err:
            raise _refusal(err, table) from None
        finished = game.awaiting == GAME_OVER
        # What the write needs, read now: a group writer writes it from its own thread.
        code, game_id, round_number, index = table.code, table.game_id, game.round, len(game.actions) - 1
        text, scores, winner = str(action), list(game.scores), game.game_winner

        def write(tx: Transaction) -> None:
            tx.add_action(game_id, round_number, index, text)
            if finished:
                tx.finish_game(code, game_id, scores, winner)

        def undo() -> None:
            # Not stored: undone from memory alone, whatever the database can do now (it reloads on resume).
            # Nobody saw the action meanwhile (a copy before every action would cost each move what only a
            # failed write needs).
            table.game = _without_last_action(game)

        def then() -> None:
            table.seats[action.seat].last_action = (table.acted(), str(action))
            if finished:
                table.status = "game_over"
            self._after_change(table, sender=sender)
            if finished:
                table.game = Finished(game)  # its history is in the store: memory keeps what readers see
                self._broadcast_table(table)
            self.metrics.action(time.perf_counter() - arrived)

        self._commit(table, write, then, undo, sender)

    def _deal_next_round(self, table: Table) -> None:
        table.round_handle = None
        if self._when_free(table, lambda: self._deal_next_round(table)):
            return
        game = table.game
        if table.status != "playing" or not isinstance(game, Game) or game.awaiting != ROUND_OVER or table.paused:
            return
        seed, number, game_id = new_seed(), game.round + 1, table.game_id

        def then() -> None:
            table.dealt(seed)
            self._after_change(table)

        try:
            self._commit(table, lambda tx: tx.add_round(game_id, number, seed), then)
        except ServerError:
            return  # the table moved to another process, which deals it, or waits for the store (then deals)

    def _after_change(self, table: Table, broadcast: bool = True, sender: tuple[Listener, Any] | None = None) -> None:
        """After each new version: the turn timer, the news, then bots or the next round."""
        back = [seat for index, seat in enumerate(table.seats) if seat.returning and table.timed_out != (table.version, index)]
        for seat in back:
            seat.returning = seat.away = False
        if back:
            self._broadcast_table(table)
        self._arm_timer(table)
        if broadcast:
            messages.broadcast_state(table, sender)
        else:
            table.told_all()
        game = table.game
        if table.status != "playing" or game is None:
            return
        if game.awaiting == ROUND_OVER:
            if table.round_handle is None:
                table.round_handle = self.clock.call_later(self.settings.round_pause, self._deal_next_round, table)
            return
        self._ask_bots(table)

    def _arm_timer(self, table: Table) -> None:
        game = table.game
        running = table.timer_handle is not None
        if running and game is not None and game.to_act is not None and table.timer_for == (table.version, game.to_act) \
                and not table.seats[game.to_act].automatic:
            return  # the same decision (someone else went away or came back): the clock keeps running
        if table.timer_handle is not None:
            table.timer_handle.cancel()
            table.timer_handle = None
        table.deadline = None
        if not table.turn_timer or table.status != "playing" or game is None or game.to_act is None:
            return
        if table.seats[game.to_act].automatic:
            return
        table.timer_for = (table.version, game.to_act)
        table.deadline = self.clock.time() + table.turn_timer
        table.timer_handle = self.clock.call_later(table.turn_timer, self._time_up, table, table.version, game.to_act)

    def _time_up(self, table: Table, version: int, index: int) -> None:
        table.timer_handle = None
        if self._when_free(table, lambda: self._time_up(table, version, index)):
            return
        if table.version == version:
            table.timed_out = (version, index)
            self._set_away(table, index)

    # ------------------------------------------------------------------ bots
    def _ask_bots(self, table: Table) -> None:
        """Ask the server-played seats about this version, once: out-of-turn seats first, then the one to act."""
        if table.bots_asked() or table.paused:
            return
        game = table.game
        assert isinstance(game, Game)
        to_act = game.to_act
        requests = []
        for index in game.out_of_turn_seats():
            seat = table.seats[index]
            if seat.automatic:
                legal = game.legal_actions(index)
                if legal:
                    requests.append(Request(index, _level(seat), game.view(index), list(legal)))
        if to_act is not None and table.seats[to_act].automatic:
            requests.append(Request(to_act, _level(table.seats[to_act]), game.view(to_act), list(game.legal_actions(to_act))))
        if not requests:
            return
        table.asking_bots()
        automatic_to_act = to_act if to_act is not None and table.seats[to_act].automatic else None
        self.bots.ask(Job(table.code, table.version, requests, automatic_to_act))

    def _current(self, job: Job) -> bool:
        table = self.tables.get(job.table)
        return table is not None and table.version == job.version and table.status == "playing"

    def _bot_answer(self, job: Job, result: tuple[int, Action] | None) -> None:
        """A bot's decision goes through the same checks as a person's, if the moment has not passed."""
        table = self.tables.get(job.table)
        if table is not None and self._when_free(table, lambda: self._bot_answer(job, result)):
            return
        if result is None or table is None or table.version != job.version or table.paused \
                or not table.seats[result[0]].automatic:
            return
        try:
            self.submit(table, result[1])
        except ServerError as err:  # the scheduler checked legality: this is a bug, and the table must not stop
            if err.code == "table_unavailable":
                return  # the table moved to another process, whose bots play on, or waits for the store
            # Its kind only: the card itself is the bot's hidden hand, and logs are read by people.
            log.error("bot action (%s) refused at table %s: %s", getattr(result[1], "verb", "?"), table.code, err.code)
            table.ask_bots_again()
            self._ask_bots(table)

    # ------------------------------------------------------------------ telling people
    def _broadcast_table(self, table: Table) -> None:
        messages.broadcast_table(table, self.settings.base_url)


FINISHED_KEPT = 16  # finished games' records kept (a long game's is about 200 KB)
REPLAYS_KEPT = 32  # rounds' replay frames kept (a long round's are about 500 KB)


def _keep(kept: OrderedDict, key: Any, value: dict, most: int) -> dict:
    """``value`` kept under ``key`` as the newest, the oldest dropped beyond ``most``."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)
    return value


def _refusal(err: IllegalAction, table: Table) -> ServerError:
    """The rules core's refusal, told to each reader in their own language (the rule id travels beside it)."""
    refused = ServerError("illegal_action", rule=err.rule, reason=str(err))
    refused.render = lambda lang: describe_refusal(err, lang, messages.names_in(table, lang))
    return refused


REPLAY_SLICE = 100  # actions replayed between two turns of the event loop (a few milliseconds)


async def _replay_in_slices(stored: Any) -> Game:
    """A stored game replayed as Game.from_record does, REPLAY_SLICE actions at a time."""
    game = Game.from_record(record_of(stored.players, stored.options, stored.seeds[:1], [[]]))
    done = 0
    for number, (seed, actions) in enumerate(zip(stored.seeds, stored.actions)):
        if number:
            game.next_round(seed)
        for action in actions:
            game.apply(action)
            done += 1
            if done % REPLAY_SLICE == 0:
                await asyncio.sleep(0)
    return game


def _without_last_action(game: Game) -> Game:
    """The game as it was before its last action, replayed from its own record (no database needed)."""
    record = game.record()
    record["rounds"][-1]["actions"].pop()
    return Game.from_record(record)


def _stop_timers(table: Table) -> None:
    for handle in [table.timer_handle, table.round_handle, table.unattended_handle,
                   *(s.grace_handle for s in table.seats)]:
        if handle is not None:
            handle.cancel()


def _level(seat: Seat) -> str:
    return seat.level if seat.kind == "bot" and seat.level else AUTOPILOT

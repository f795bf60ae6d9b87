"""Tables and the one-at-a-time handling of everything that happens at them.

All game state lives on the event loop's thread and changes only in plain
(non-async) methods, so each table handles one message at a time, in the
order the server receives them. An accepted change is committed to the
store, then every connection of the table is told, each seat only what its
view shows. Bots think in threads (ISMCTS in a process pool) and hand their
choice back to the loop, where it goes through the same checks as a person's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import multiprocessing
import os
import random
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import make_bot
from ..i18n import current_language, t
from ..narrate import describe_event
from ..rules import Action, Game, IllegalAction, NotationError, Options, RecordError, UnoKartError
from . import protocol
from .protocol import ServerError
from .shuffle import commitment, new_seed, record_of
from .store import StoredSeat, StoredTable, Store

log = logging.getLogger("unokart.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_ISMCTS_ITERATIONS = 20000
MAX_ISMCTS_MILLISECONDS = 2000  # a table's bots should not keep its people waiting longer than this a move
TIMER_RANGE = (5, 600)
AWAY_LEVEL = "heuristic"
OUTBOX_LIMIT = 2000  # queued messages; a client this far behind is dropped
ENDED = ("round_over", "game_over")
BOT_TICK = 0.025  # seconds: cheap bots' moves falling due in one tick are decided together (fewer wake-ups)


@dataclass
class Settings:
    bot_delay: float = 0.8
    round_pause: float = 5.0
    grace: float = 30.0
    base_url: str = "http://127.0.0.1:8000"
    bot_processes: int = 1
    bot_threads: int = 1
    rate_limit: float = 20.0  # messages per second per connection, in bursts of twice that


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bot_level(level: str) -> str:
    """A bot level, normalised, or ServerError bad_level."""
    level = level.strip().lower()
    try:
        make_bot(level)
    except ValueError:
        raise ServerError("bad_level", level=level[:32]) from None
    kind, _, budget = level.partition(":")
    if kind == "ismcts" and budget:
        limit = MAX_ISMCTS_MILLISECONDS if budget.endswith("ms") else MAX_ISMCTS_ITERATIONS
        if int(budget.removesuffix("ms")) > limit:
            raise ServerError("bad_level", level=level[:32])
    return level


def decide(bots: dict, requests: list[tuple[int, str, Any, list[Action]]], seed: int) -> tuple[int, Action] | None:
    """Ask each bot in turn; the first that acts wins (a seat out of turn may let the moment pass)."""
    rng = random.Random(seed)
    for seat, level, view, legal in requests:
        bot = bots.get(level)
        if bot is None:
            bot = bots[level] = make_bot(level)
        choice = bot.choose(view, legal, rng)
        if choice is not None:
            return seat, choice
    return None


def decide_each(batch: list[tuple[list, int]]) -> list:
    """``decide`` for several tables in one trip to the bots' thread; a failure is returned, not raised."""
    results: list = []
    for requests, seed in batch:
        try:
            results.append(decide({}, requests, seed))
        except Exception as err:  # one bot's bug must not cost the other tables their moves
            results.append(err)
    return results


_WORKER_BOTS: dict = {}


def watch_parent(parent: int) -> None:
    """In a pool process: exit as soon as the server is gone (even after a kill -9, which no pipe reports)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def decide_in_worker(requests: list, seed: int) -> tuple[int, Action] | None:
    """``decide`` in a pool process, with that process's own bots."""
    return decide(_WORKER_BOTS, requests, seed)


class Connection:
    """One websocket, as the hub sees it: where it sits, its language, and a queue of frames to send."""

    def __init__(self, rate: float) -> None:
        self.table: Table | None = None
        self.seat: int | None = None
        self.hello = False
        self.lang = current_language()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self._rate = rate
        self._tokens = 2 * rate
        self._refilled = time.monotonic()
        self._last_limit_error = 0.0

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    def allow(self) -> tuple[bool, bool]:
        """Token bucket: (may this message be handled, should a rate_limited error be sent)."""
        now = time.monotonic()
        self._tokens = min(2 * self._rate, self._tokens + (now - self._refilled) * self._rate)
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True, False
        tell = now - self._last_limit_error >= 1.0
        if tell:
            self._last_limit_error = now
        return False, tell


class Seat:
    __slots__ = ("kind", "name", "level", "token_hash", "connections", "away", "last_action", "grace_handle")

    def __init__(self, stored: StoredSeat):
        self.kind = stored.kind
        self.name = stored.name
        self.level = stored.level
        self.token_hash = stored.token_hash
        self.connections: set[Connection] = set()
        self.away = False
        self.last_action: tuple[int, str] | None = None  # (version it was sent with, its text): spots resends
        self.grace_handle: asyncio.TimerHandle | None = None

    def stored(self) -> StoredSeat:
        return StoredSeat(self.kind, self.name, self.level, self.token_hash)

    def summary(self, index: int) -> dict:
        return {"seat": index, "kind": self.kind, "name": self.name, "level": self.level,
                "connected": bool(self.connections), "away": self.away}

    @property
    def automatic(self) -> bool:
        """Played by the server: a bot, or a human who is away."""
        return self.kind == "bot" or (self.kind == "human" and self.away)


class Table:
    def __init__(self, code: str, options: Options, turn_timer: float | None, seats: list[Seat], created: float):
        self.code = code
        self.created = created
        self.options = options
        self.turn_timer = turn_timer
        self.seats = seats
        self.status = "lobby"
        self.game_number = 0
        self.version = 0
        self.game: Game | None = None
        self.game_id = 0
        self.seeds: list[int] = []
        self.sent = 0  # events of the current round already broadcast
        self.connections: set[Connection] = set()
        self.deadline: float | None = None
        self.timer_handle: asyncio.TimerHandle | None = None
        self.timer_for: tuple[int, int] | None = None  # (version, seat) the running clock is for
        self.round_handle: asyncio.TimerHandle | None = None
        self.think_version = -1  # the version the bots were last asked about
        self.tokens = {s.token_hash: i for i, s in enumerate(seats) if s.token_hash}

    def seat_by_token(self, token: str) -> int:
        seat = self.tokens.get(token_hash(token))
        if seat is None:
            raise ServerError("bad_token")
        return seat

    def commitments(self) -> list[dict]:
        game = self.game
        out = []
        for number, seed in enumerate(self.seeds, 1):
            ended = number < game.round or game.awaiting in ENDED
            out.append({"round": number, "sha256": commitment(seed), "seed": seed if ended else None})
        return out


class Hub:
    def __init__(self, store: Store, settings: Settings):
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._pool: ProcessPoolExecutor | None = None
        # Cheap bots decide in microseconds: one thread is plenty, and fewer threads fight less for the GIL.
        self._threads = ThreadPoolExecutor(max_workers=settings.bot_threads, thread_name_prefix="bots")
        self._tasks: set[asyncio.Task] = set()
        self._bot_seeds = random.Random(secrets.randbits(64))
        self._due: dict[float, list[tuple]] = {}  # tick -> bot moves falling due then  # bots' dice need no system entropy per move

    # ------------------------------------------------------------------ life
    def restore(self) -> None:
        """Rebuild every stored table exactly where it was (after a restart, even a kill -9)."""
        for stored in self.store.load_tables():
            try:
                self._restore_table(stored)
            except (RecordError, UnoKartError, ValueError) as err:
                log.error("table %s cannot be restored: %s", stored.code, err)

    def _restore_table(self, stored: StoredTable) -> None:
        table = Table(stored.code, Options.from_dict(stored.options), stored.turn_timer,
                      [Seat(s) for s in stored.seats], stored.created)
        table.status, table.game_number, table.version = stored.status, stored.game_number, stored.version
        if stored.game is not None:
            g = stored.game
            table.game = Game.from_record(record_of(g.players, g.options, g.seeds, g.actions))
            table.game_id, table.seeds = g.id, g.seeds
            table.sent = len(table.game.events)
        self.tables[table.code] = table
        if table.status == "playing":
            for index, seat in enumerate(table.seats):
                if seat.kind == "human":
                    self._start_grace(table, index)
            self._after_change(table, broadcast=False)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ tables
    def create_table(self, seats: int = 4, options: dict | None = None, turn_timer: float | None = None,
                     bots: dict[int, str] | None = None, start: bool = False) -> Table:
        if not 2 <= seats <= 10:
            raise ServerError("bad_seats")
        try:
            opts = Options.from_dict(options or {})
        except RecordError as err:
            raise ServerError("bad_options", reason=str(err)) from None
        if opts.hand_size * seats > 100:
            raise ServerError("bad_options", reason=f"R3.2 {seats} hands of {opts.hand_size} do not fit in the deck")
        if turn_timer is not None and not TIMER_RANGE[0] <= turn_timer <= TIMER_RANGE[1]:
            raise ServerError("bad_timer", low=TIMER_RANGE[0], high=TIMER_RANGE[1])
        stored = [StoredSeat("empty") for _ in range(seats)]
        for seat, level in (bots or {}).items():
            if not 0 <= seat < seats:
                raise ServerError("no_such_seat", seat=seat)
            level = bot_level(level)
            stored[seat] = StoredSeat("bot", _bot_name(seat, level), level)
        if start and any(s.kind == "empty" for s in stored):
            raise ServerError("seats_empty")
        code = self._new_code()
        self.store.create_table(code, asdict(opts), turn_timer, stored)
        table = Table(code, opts, turn_timer, [Seat(s) for s in stored], time.time())
        self.tables[code] = table
        if start:
            self._begin_game(table)
        return table

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables:
                return code

    def table(self, code: str) -> Table:
        table = self.tables.get(code.upper()) if isinstance(code, str) else None
        if table is None:
            raise ServerError("no_such_table", status=404, table=str(code)[:16])
        return table

    def link(self, table: Table) -> str:
        return f"{self.settings.base_url}/t/{table.code}"

    def summary(self, table: Table) -> dict:
        return {
            "code": table.code, "link": self.link(table), "status": table.status, "version": table.version,
            "game": table.game_number, "options": asdict(table.options), "turn_timer": table.turn_timer,
            "seats": [s.summary(i) for i, s in enumerate(table.seats)],
            "spectators": sum(1 for c in table.connections if c.seat is None),
        }

    def finished_game(self, game_id: int) -> dict | None:
        """A finished game's summary, its record and its round commitments (what `unokart verify` reads)."""
        summary = self.store.finished_game(game_id)
        if summary is None:
            return None
        g = self.store.load_game(game_id)
        record = Game.from_record(record_of(g.players, g.options, g.seeds, g.actions)).record()
        return {**summary, "record": record, "commitments": [commitment(seed) for seed in g.seeds]}

    def join(self, table: Table, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take an empty seat in the lobby; returns the seat and its new secret token."""
        name = protocol.clean_name(name)
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        if seat is None:
            seat = next((i for i, s in enumerate(table.seats) if s.kind == "empty"), None)
            if seat is None:
                raise ServerError("table_full", status=409)
        elif not 0 <= seat < len(table.seats):
            raise ServerError("no_such_seat", seat=seat)
        elif table.seats[seat].kind != "empty":
            raise ServerError("seat_taken", status=409, seat=seat)
        token = secrets.token_urlsafe(24)
        place = table.seats[seat]
        place.kind, place.name, place.level, place.token_hash = "human", name, None, token_hash(token)
        self.store.set_seat(table.code, seat, place.stored())
        table.tokens[place.token_hash] = seat
        self._broadcast_table(table)
        return seat, token

    # ------------------------------------------------------------------ connections
    def handle(self, conn: Connection, table: Table, msg: dict) -> None:
        """One validated client message (docs/PROTOCOL.md section 4)."""
        kind, re = msg["type"], msg.get("id")
        if kind == "ping":
            conn.push(_dumps({"type": "pong", "re": re} if re is not None else {"type": "pong"}))
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
                conn.push(_dumps(self._state(table, conn.seat, conn.lang, 0, re)))
            return
        if conn.seat is None:
            raise ServerError("spectator")
        seat = table.seat_by_token(msg["token"])
        if seat != conn.seat:
            raise ServerError("not_your_seat", seat=seat)
        self._returned(table, seat)
        getattr(self, f"_on_{kind}")(conn, table, seat, msg, re)

    def _hello(self, conn: Connection, table: Table, msg: dict, re: Any) -> None:
        conn.lang = msg.get("lang", conn.lang)
        token = None
        if msg["type"] == "join":
            seat, token = self.join(table, msg["name"], msg.get("seat"))
        elif msg["type"] == "resume":
            seat = table.seat_by_token(msg["token"])
        else:
            seat = None
        conn.table, conn.seat, conn.hello = table, seat, True
        table.connections.add(conn)
        welcome = {"type": "welcome", "code": table.code, "seat": seat,
                   "name": table.seats[seat].name if seat is not None else None}
        if token is not None:
            welcome["token"] = token
        if re is not None:
            welcome["re"] = re
        conn.push(_dumps(welcome))
        if seat is not None:
            table.seats[seat].connections.add(conn)
            self._returned(table, seat)
        self._broadcast_table(table)
        if table.game is not None:
            conn.push(_dumps(self._state(table, seat, conn.lang, 0)))

    def disconnect(self, conn: Connection) -> None:
        conn.close()
        table = conn.table
        if table is None or conn not in table.connections:
            return
        table.connections.discard(conn)
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.connections.discard(conn)
            if not seat.connections and seat.kind == "human" and table.status == "playing":
                self._start_grace(table, conn.seat)
        self._broadcast_table(table)

    def _start_grace(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        if seat.grace_handle is not None:
            seat.grace_handle.cancel()
        seat.grace_handle = asyncio.get_running_loop().call_later(
            self.settings.grace, self._grace_over, table, index)

    def _grace_over(self, table: Table, index: int) -> None:
        seat = table.seats[index]
        seat.grace_handle = None
        if not seat.connections and seat.kind == "human":
            self._set_away(table, index)

    def _set_away(self, table: Table, index: int) -> None:
        if table.seats[index].away:
            return
        table.seats[index].away = True
        table.think_version = -1  # the bot now plays this seat: ask again
        self._broadcast_table(table)
        self._after_change(table)  # a new deadline (or none), and the bot takes over

    def _returned(self, table: Table, index: int) -> None:
        """A message with the seat's token: its player is back."""
        seat = table.seats[index]
        if seat.grace_handle is not None:
            seat.grace_handle.cancel()
            seat.grace_handle = None
        if seat.away:
            seat.away = False
            table.think_version = -1
            self._broadcast_table(table)
            self._after_change(table)

    # ------------------------------------------------------------------ player messages
    def _on_action(self, conn: Connection, table: Table, seat: int, msg: dict, re: Any) -> None:
        if table.status != "playing" or table.game is None:
            raise ServerError("not_playing")
        try:
            action = Action.parse(msg["action"])
        except NotationError as err:
            raise ServerError("bad_notation", reason=str(err)) from None
        if action.seat != seat:
            raise ServerError("not_your_seat", seat=action.seat)
        if msg["version"] != table.version:
            if table.seats[seat].last_action == (msg["version"], str(action)):
                raise ServerError("duplicate", version=table.version)
            raise ServerError("stale_version", sent=msg["version"], version=table.version)
        self.submit(table, action, (conn, re))

    def _on_bot(self, conn: Connection, table: Table, seat: int, msg: dict, re: Any) -> None:
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        index = msg["seat"]
        if not 0 <= index < len(table.seats):
            raise ServerError("no_such_seat", seat=index)
        place = table.seats[index]
        if place.kind == "human":
            raise ServerError("seat_taken", status=409, seat=index)
        if msg["level"] is None:
            place.kind, place.name, place.level = "empty", None, None
        else:
            level = bot_level(msg["level"])
            place.kind, place.name, place.level = "bot", _bot_name(index, level), level
        self.store.set_seat(table.code, index, place.stored())
        self._broadcast_table(table)

    def _on_start(self, conn: Connection, table: Table, seat: int, msg: dict, re: Any) -> None:
        if table.status != "lobby":
            raise ServerError("already_started", status=409)
        if any(s.kind == "empty" for s in table.seats):
            raise ServerError("seats_empty")
        self._begin_game(table)

    def _on_rematch(self, conn: Connection, table: Table, seat: int, msg: dict, re: Any) -> None:
        if table.status != "game_over":
            raise ServerError("game_not_over")
        self._begin_game(table)

    def _on_leave(self, conn: Connection, table: Table, seat: int, msg: dict, re: Any) -> None:
        place = table.seats[seat]
        if table.status == "lobby":
            del table.tokens[place.token_hash]
            place.kind, place.name, place.token_hash = "empty", None, None
            self.store.set_seat(table.code, seat, place.stored())
            for other in list(place.connections):  # they stay, as spectators
                other.seat = None
            place.connections.clear()
            self._broadcast_table(table)
        else:
            self._set_away(table, seat)

    # ------------------------------------------------------------------ the game
    def _begin_game(self, table: Table) -> None:
        players = [s.name for s in table.seats]
        seed = new_seed()
        game = Game.new(players=players, seed=seed, options=table.options)
        version, number = table.version + 1, table.game_number + 1
        table.game_id = self.store.start_game(table.code, number, players, table.options.to_dict(), seed)
        table.game, table.seeds, table.sent = game, [seed], 0
        table.version, table.game_number, table.status = version, number, "playing"
        for index, seat in enumerate(table.seats):
            seat.last_action = None
            if seat.kind == "human" and not seat.connections and not seat.away:
                self._start_grace(table, index)  # joined but never connected, or gone since
        self._broadcast_table(table)
        self._after_change(table)

    def submit(self, table: Table, action: Action, sender: tuple[Connection, Any] | None = None) -> None:
        """Apply one action: the rules check it, the store commits it, then everyone is told."""
        game = table.game
        try:
            game.apply(action)
        except IllegalAction as err:
            raise ServerError("illegal_action", rule=err.rule, reason=str(err)) from None
        version = table.version + 1
        finished = (list(game.scores), game.game_winner) if game.awaiting == "game_over" else None
        try:
            self.store.add_action(table.code, table.game_id, game.round, len(game.actions) - 1, str(action), finished)
        except Exception:
            # Not stored, so it did not happen: rebuild the game from what is stored.
            stored = self.store.load_game(table.game_id)
            table.game = Game.from_record(record_of(stored.players, stored.options, stored.seeds, stored.actions))
            raise
        table.version = version
        table.seats[action.seat].last_action = (version - 1, str(action))
        if finished is not None:
            table.status = "game_over"
        self._after_change(table, sender=sender)
        if finished is not None:
            self._broadcast_table(table)

    def _deal_next_round(self, table: Table) -> None:
        table.round_handle = None
        game = table.game
        if table.status != "playing" or game is None or game.awaiting != "round_over":
            return
        seed = new_seed()
        self.store.add_round(table.game_id, game.round + 1, seed)
        game.next_round(seed)
        table.seeds.append(seed)
        table.version += 1
        table.sent = 0
        self._after_change(table)

    def _after_change(self, table: Table, broadcast: bool = True, sender: tuple[Connection, Any] | None = None) -> None:
        """After each new version: the turn timer, the news, then bots or the next round."""
        loop = asyncio.get_running_loop()
        self._arm_timer(table, loop)
        if broadcast:
            self._broadcast_state(table, sender)
        game = table.game
        if table.status != "playing" or game is None:
            return
        if game.awaiting == "round_over":
            if table.round_handle is None:
                table.round_handle = loop.call_later(self.settings.round_pause, self._deal_next_round, table)
            return
        self._schedule_bots(table)

    def _arm_timer(self, table: Table, loop: asyncio.AbstractEventLoop) -> None:
        game = table.game
        running = table.timer_handle is not None
        if running and table.timer_for == (table.version, game.to_act) and not table.seats[game.to_act].automatic:
            return  # the same decision (someone else went away or came back): the clock keeps running
        if running:
            table.timer_handle.cancel()
            table.timer_handle = None
        table.deadline = None
        if not table.turn_timer or table.status != "playing" or game is None or game.to_act is None:
            return
        seat = table.seats[game.to_act]
        if seat.automatic:
            return
        table.timer_for = (table.version, game.to_act)
        table.deadline = time.time() + table.turn_timer
        table.timer_handle = loop.call_later(table.turn_timer, self._time_up, table, table.version, game.to_act)

    def _time_up(self, table: Table, version: int, index: int) -> None:
        table.timer_handle = None
        if table.version == version:
            self._set_away(table, index)

    # ------------------------------------------------------------------ bots
    def _schedule_bots(self, table: Table) -> None:
        """Ask the server-played seats about this version, once: out-of-turn seats first, then the one to act."""
        if table.think_version == table.version:
            return
        game = table.game
        to_act = game.to_act
        requests = []
        for index, seat in enumerate(table.seats):
            if seat.automatic and index != to_act:
                legal = game.legal_actions(index)
                if legal:
                    requests.append((index, seat, list(legal)))
        if to_act is not None and table.seats[to_act].automatic:
            requests.append((to_act, table.seats[to_act], list(game.legal_actions(to_act))))
        if not requests:
            return
        table.think_version = table.version
        work = [(index, seat.level if seat.kind == "bot" else AWAY_LEVEL, game.view(index), legal)
                for index, seat, legal in requests]
        job = (table, table.version, work)
        if any(level.startswith("ismcts") for _, level, _, _ in work):
            self._spawn(self._search(job))
        else:
            self._queue(job)

    def _queue(self, job: tuple) -> None:
        """A cheap bot's move, decided with every other one falling due in the same tick."""
        loop = asyncio.get_running_loop()
        delay = self.settings.bot_delay
        when = math.ceil((loop.time() + delay) / BOT_TICK) * BOT_TICK if delay else 0.0
        batch = self._due.get(when)
        if batch is None:
            batch = self._due[when] = []
            if delay:
                loop.call_at(when, self._decide_due, when)
            else:
                loop.call_soon(self._decide_due, when)
        batch.append(job)

    def _decide_due(self, when: float) -> None:
        jobs = [job for job in self._due.pop(when) if job[0].version == job[1]]
        if jobs:
            self._spawn(self._decide_batch(jobs))

    async def _decide_batch(self, jobs: list[tuple]) -> None:
        seeds = [self._bot_seeds.getrandbits(64) for _ in jobs]
        results = await asyncio.get_running_loop().run_in_executor(
            self._threads, decide_each, [(work, seed) for (_, _, work), seed in zip(jobs, seeds)])
        for job, seed, result in zip(jobs, seeds, results):
            self._play(job, seed, result)

    async def _search(self, job: tuple) -> None:
        """An ISMCTS bot's move, searched in the process pool."""
        table, version, work = job
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay)
            if table.version != version:
                return
        seed = self._bot_seeds.getrandbits(64)
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._process_pool(), decide_in_worker, work, seed)
        except Exception as err:
            result = err
        self._play(job, seed, result)

    def _play(self, job: tuple, seed: int, result: "tuple[int, Action] | None | Exception") -> None:
        """A bot's decision goes through the same checks as a person's, if the moment has not passed."""
        table, version, work = job
        if isinstance(result, Exception):
            log.error("a bot failed at table %s (%r); playing a random legal action instead", table.code, result)
            last = work[-1]
            result = (last[0], random.Random(seed).choice(last[3])) if last[0] == table.game.to_act else None
        if result is None or table.version != version or not table.seats[result[0]].automatic:
            return
        try:
            self.submit(table, result[1])
        except ServerError as err:
            log.error("bot action %s refused at table %s: %s", result[1], table.code, err.fields)

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: a forked worker would keep the server's sockets open after it closes them.
            self._pool = ProcessPoolExecutor(max_workers=self.settings.bot_processes,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ telling people
    def _broadcast_table(self, table: Table) -> None:
        text = _dumps({"type": "table", "table": self.summary(table)})
        for conn in table.connections:
            conn.push(text)

    def _broadcast_state(self, table: Table, sender: tuple[Connection, Any] | None) -> None:
        if not table.connections or table.game is None:
            table.sent = len(table.game.events) if table.game else 0
            return
        start = table.sent
        cache: dict[tuple, tuple[dict, str]] = {}  # one message per (seat, language)
        for conn in table.connections:
            key = (conn.seat, conn.lang)
            if key not in cache:
                message = self._state(table, conn.seat, conn.lang, start)
                cache[key] = message, _dumps(message)
            message, text = cache[key]
            if sender is not None and sender[0] is conn and sender[1] is not None:
                conn.push(_dumps({**message, "re": sender[1]}))
            else:
                conn.push(text)
        table.sent = len(table.game.events)

    def _state(self, table: Table, seat: int | None, lang: str, start: int, re: Any = None) -> dict:
        """The `state` message for one seat (None: a spectator): its view, legal actions and new events."""
        game = table.game
        names = game.names
        events = []
        logged = game.events
        for index in range(start, len(logged)):
            to, event = logged[index]
            if to is None or (seat is not None and seat in to):
                events.append({**event, "i": index, "text": describe_event(event, names, lang, seat)})
        deadline = None
        if table.deadline is not None:
            deadline = {"seat": game.to_act, "at": int(table.deadline * 1000)}
        message = {
            "type": "state", "code": table.code, "version": table.version, "game": table.game_number,
            "seat": seat, "view": game.view(seat).to_json(),
            "legal": [str(a) for a in game.legal_actions(seat)] if seat is not None else [],
            "events": events, "commitments": table.commitments(), "deadline": deadline,
            "seats": [s.summary(i) for i, s in enumerate(table.seats)],
        }
        if re is not None:
            message["re"] = re
        return message


def _bot_name(seat: int, level: str) -> str:
    return t("server.bot_name", seat=seat, level=level)


def _dumps(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)

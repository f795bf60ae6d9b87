"""Persistence: a table's settings and seats, each game as its record (DESIGN 7), and the table's recent chat
(its last CHAT_KEPT messages, apart from any record).

A game is stored as what replays it: players, options, one secret seed per
round and the accepted actions in order. ``Store`` is the interface the table
service writes through (one committed transaction per change, made before
anyone is told of it); ``SQLiteStore`` is the one-process default (WAL: a
killed process loses nothing that was committed).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, created REAL NOT NULL, seats INTEGER NOT NULL, options TEXT NOT NULL,
    turn_timer REAL, status TEXT NOT NULL, game INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT, level TEXT, token_hash TEXT,
    PRIMARY KEY (code, seat));
CREATE UNIQUE INDEX IF NOT EXISTS seats_token ON seats (token_hash) WHERE token_hash IS NOT NULL;
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, game INTEGER NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, started REAL NOT NULL, finished REAL, scores TEXT, winner INTEGER,
    bound INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS games_code ON games (code, game);
CREATE TABLE IF NOT EXISTS rounds (
    game_id INTEGER NOT NULL, round INTEGER NOT NULL, seed INTEGER NOT NULL, PRIMARY KEY (game_id, round));
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL, round INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (game_id, round, idx));
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, message TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chat_code ON chat (code, id);
"""

CHAT_KEPT = 50  # chat messages kept per table (the newest): what a reconnecting client is sent



def _store_errors() -> tuple[type[Exception], ...]:
    """What a database out of reach raises (its driver's errors): answered table_unavailable, not internal."""
    try:
        import psycopg
    except ImportError:
        return (sqlite3.OperationalError,)
    return (sqlite3.OperationalError, psycopg.OperationalError)


STORE_ERRORS = _store_errors()


class LeaseLost(Exception):
    """A write refused because another process owns the table now (several processes: its lease moved on)."""

    def __init__(self, code: str):
        super().__init__(f"table {code}: lease lost, write refused")
        self.code = code


@dataclass
class StoredSeat:
    kind: str  # "empty", "human" or "bot"
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None


@dataclass
class StoredGame:
    id: int
    number: int
    players: list[str]
    options: dict
    seeds: list[int]
    actions: list[list[str]]  # per round
    finished: float | None = None
    bound: bool = False  # its first commitment binds its players and house rules (games stored before: only the seed)


@dataclass
class StoredTable:
    code: str
    created: float
    options: dict
    turn_timer: float | None
    status: str
    game_number: int
    version: int
    seats: list[StoredSeat] = field(default_factory=list)
    game: StoredGame | None = None
    chat: list[dict] = field(default_factory=list)  # its last CHAT_KEPT chat messages, oldest first (no game's record)



class Transaction(Protocol):
    """The writes of one change, committed together when the ``with`` block ends (rolled back on an error)."""

    def create_table(self, code: str, options: dict, turn_timer: float | None, seats: list[StoredSeat]) -> None: ...
    def set_seat(self, code: str, seat: int, value: StoredSeat) -> None: ...
    def start_game(self, code: str, number: int, players: list[str], options: dict, seed: int) -> int: ...
    def add_round(self, game_id: int, number: int, seed: int) -> None: ...
    def add_action(self, game_id: int, round_number: int, index: int, action: str) -> None: ...
    def finish_game(self, code: str, game_id: int, scores: list[int], winner: int) -> None: ...
    def set_status(self, code: str, status: str) -> None: ...  # "stopped" (nobody at it), or "playing" again
    def add_chat(self, code: str, message: dict) -> None: ...  # and drop the table's older than its CHAT_KEPT newest


class Store(Protocol):
    """What the table service needs of a database (SQLite here; the next backend implements the same)."""

    def transaction(self) -> "contextmanager[Transaction]": ...  # type: ignore[valid-type]
    def load_table(self, code: str) -> StoredTable | None: ...
    def live_tables(self) -> list[str]: ...
    def load_game(self, game_id: int) -> StoredGame | None: ...
    def finished_games(self, limit: int = 200) -> list[dict]: ...
    def finished_game(self, game_id: int) -> dict | None: ...
    def close(self) -> None: ...


CHECKPOINT_EVERY = 1.0  # seconds between passive checkpoints
WAL_LIMIT_BYTES = 16 * 2**20  # beyond this the writer finishes a checkpoint and empties the log
SIZE_CHECK_EVERY = 100  # commits between two looks at the log's size


class _SQLiteTransaction:
    def __init__(self, db: sqlite3.Connection, now: Callable[[], float] = time.time):
        self.db, self.now = db, now  # now: wall time, for the timestamps stored

    def create_table(self, code: str, options: dict, turn_timer: float | None, seats: list[StoredSeat]) -> None:
        self.db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, 'lobby', 0)",
                        (code, self.now(), len(seats), json.dumps(options), turn_timer))
        self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                            [(code, i, s.kind, s.name, s.level, s.token_hash) for i, s in enumerate(seats)])

    def set_seat(self, code: str, seat: int, value: StoredSeat) -> None:
        self.db.execute("UPDATE seats SET kind = ?, name = ?, level = ?, token_hash = ? WHERE code = ? AND seat = ?",
                        (value.kind, value.name, value.level, value.token_hash, code, seat))

    def start_game(self, code: str, number: int, players: list[str], options: dict, seed: int) -> int:
        """A new game and its first round; returns the game's id."""
        cursor = self.db.execute("INSERT INTO games (code, game, players, options, started, bound) VALUES (?, ?, ?, ?, ?, 1)",
                                 (code, number, json.dumps(players), json.dumps(options), self.now()))
        game_id = cursor.lastrowid
        assert game_id is not None
        self.db.execute("INSERT INTO rounds VALUES (?, 1, ?)", (game_id, seed))
        self.db.execute("UPDATE tables SET status = 'playing', game = ? WHERE code = ?", (number, code))
        return game_id

    def add_round(self, game_id: int, number: int, seed: int) -> None:
        self.db.execute("INSERT INTO rounds VALUES (?, ?, ?)", (game_id, number, seed))

    def add_action(self, game_id: int, round_number: int, index: int, action: str) -> None:
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (game_id, round_number, index, action))

    def finish_game(self, code: str, game_id: int, scores: list[int], winner: int) -> None:
        self.db.execute("UPDATE tables SET status = 'game_over' WHERE code = ?", (code,))
        self.db.execute("UPDATE games SET finished = ?, scores = ?, winner = ? WHERE id = ?",
                        (self.now(), json.dumps(scores), winner, game_id))

    def set_status(self, code: str, status: str) -> None:
        self.db.execute("UPDATE tables SET status = ? WHERE code = ?", (status, code))

    def add_chat(self, code: str, message: dict) -> None:
        self.db.execute("INSERT INTO chat (code, message) VALUES (?, ?)", (code, json.dumps(message)))
        self.db.execute("DELETE FROM chat WHERE code = ? AND id NOT IN "
                        "(SELECT id FROM chat WHERE code = ? ORDER BY id DESC LIMIT ?)", (code, code, CHAT_KEPT))


class SQLiteStore:
    """The store in one SQLite file, used from the event loop's thread (and, with group commit, from the group
    writer's, on a connection of its own); checkpoints run in a thread of their own."""

    def __init__(self, path: str | Path, wal_limit: int = WAL_LIMIT_BYTES, checkpoint_every: float = CHECKPOINT_EVERY,
                 now: Callable[[], float] = time.time):
        self.path, self.now = str(path), now  # now: the clock's wall time, for what is stored
        self.wal_limit, self.checkpoint_every = wal_limit, checkpoint_every
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses no commit
        self.db.execute("PRAGMA busy_timeout=5000")
        # Checkpoints (which fsync) run in their own thread, so a commit never waits for the disk...
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        # ...and a log reset after a checkpoint gives its disk space back.
        self.db.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
        self.db.executescript(SCHEMA)
        if "bound" not in {row[1] for row in self.db.execute("PRAGMA table_info(games)")}:
            # A database made before first commitments bound the rules: its games keep the seed-only form.
            self.db.execute("ALTER TABLE games ADD COLUMN bound INTEGER NOT NULL DEFAULT 0")
        self._wal = self.path + "-wal"
        self._commits = 0
        self._over = False  # the log is past its limit: the writer empties it at its next chance
        self._checkpointing = threading.Lock()  # one checkpoint at a time: a second one would only fail busy
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint, daemon=True, name="checkpoints")
        self._checkpointer.start()
        self._readers = threading.local()  # connections of the threads that reload tables (load_table_apart)
        self._opened: list[sqlite3.Connection] = []

    def _checkpoint(self) -> None:
        """Passive checkpoints, off the event loop: they copy the log into the database as it grows.
        When no commit came since the last tick, the log is emptied (nothing waits for it then)."""
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA busy_timeout=2000")
        seen = -1
        try:
            while not self._stop.wait(self.checkpoint_every):
                quiet, seen = self._commits == seen, self._commits
                try:
                    with self._checkpointing:
                        if quiet and os.path.exists(self._wal) and os.stat(self._wal).st_size:
                            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                        elif not quiet:
                            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except (OSError, sqlite3.Error):
                    continue  # busy: the next tick tries again
        finally:
            db.close()

    def _bound_log(self) -> None:
        """Under constant writes a passive checkpoint never catches up with the writer, so the log would never
        start over and would grow for ever (4 GB after 200 bot games). Past its limit, the writer itself,
        between two transactions, finishes the checkpoint (the background thread has copied most of it) and
        empties the log. It waits for a background checkpoint under way (which would make its own fail): that
        costs the event loop a moment, only past the limit; until it succeeds it tries after each commit."""
        self._commits += 1
        if not self._over and self._commits % SIZE_CHECK_EVERY:
            return
        try:
            self._over = os.stat(self._wal).st_size > self.wal_limit
            if self._over:
                with self._checkpointing:
                    busy = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                self._over = bool(busy)
        except (OSError, sqlite3.Error):
            pass  # no log yet, or busy: the next commit tries again

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join()
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        for reader in self._opened:
            reader.close()
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[_SQLiteTransaction]:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield _SQLiteTransaction(db, self.now)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        self._bound_log()

    # ------------------------------------------------------------------ reads
    def live_tables(self) -> list[str]:
        """The codes of tables in play (the ones a restarted server resumes at once; others load when asked for)."""
        return [code for (code,) in self.db.execute("SELECT code FROM tables WHERE status = 'playing' ORDER BY created")]

    def load_table(self, code: str, db: sqlite3.Connection | None = None) -> StoredTable | None:
        """A table with its seats and its current game."""
        db = db or self.db
        row = db.execute("SELECT * FROM tables WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        code, created, _, options, timer, status, number = row
        # The version counts every deal and every action of the table's games (PROTOCOL.md section 1).
        version = db.execute(
            "SELECT (SELECT COUNT(*) FROM rounds r JOIN games g ON r.game_id = g.id WHERE g.code = ?)"
            " + (SELECT COUNT(*) FROM actions a JOIN games g ON a.game_id = g.id WHERE g.code = ?)",
            (code, code)).fetchone()[0]
        table = StoredTable(code, created, json.loads(options), timer, status, number, version)
        table.seats = [StoredSeat(*seat) for seat in db.execute(
            "SELECT kind, name, level, token_hash FROM seats WHERE code = ? ORDER BY seat", (code,))]
        game = db.execute("SELECT id FROM games WHERE code = ? AND game = ?", (code, number)).fetchone()
        if game:
            table.game = self.load_game(game[0], db)
        table.chat = [json.loads(text) for (text,) in db.execute(
            "SELECT message FROM chat WHERE code = ? ORDER BY id DESC LIMIT ?", (code, CHAT_KEPT))][::-1]
        return table

    def load_table_apart(self, code: str) -> StoredTable | None:
        """``load_table`` from another thread than the event loop's, on that thread's own connection (so it
        never reads inside a transaction the event loop has open)."""
        return self.load_table(code, self._reader())

    def finished_apart(self, game_id: int) -> tuple[dict, StoredGame] | None:
        """A finished game's summary and its stored game, from another thread than the event loop's (on that
        thread's own connection, in one read transaction: the two agree)."""
        db = self._reader()
        with db:
            db.execute("BEGIN")
            summary = self.finished_game(game_id, db)
            game = self.load_game(game_id, db) if summary is not None else None
        return (summary, game) if summary is not None and game is not None else None

    def _reader(self) -> sqlite3.Connection:
        """This thread's own connection for reads (one per thread that reads apart from the event loop)."""
        db = getattr(self._readers, "db", None)
        if db is None:
            db = self._readers.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=5000")
            self._opened.append(db)
        return db

    def load_game(self, game_id: int, db: sqlite3.Connection | None = None) -> StoredGame | None:
        db = db or self.db
        row = db.execute("SELECT game, players, options, finished, bound FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        number, players, options, finished, bound = row
        seeds = [seed for (seed,) in db.execute("SELECT seed FROM rounds WHERE game_id = ? ORDER BY round", (game_id,))]
        actions: list[list[str]] = [[] for _ in seeds]
        for round_number, text in db.execute(
                "SELECT round, action FROM actions WHERE game_id = ? ORDER BY round, idx", (game_id,)):
            actions[round_number - 1].append(text)
        return StoredGame(game_id, number, json.loads(players), json.loads(options), seeds, actions, finished, bool(bound))

    def finished_games(self, limit: int = 200) -> list[dict]:
        """Summaries of finished games, newest first."""
        return self._summaries("g.finished IS NOT NULL ORDER BY g.finished DESC, g.id DESC LIMIT ?", (limit,))

    def finished_game(self, game_id: int, db: sqlite3.Connection | None = None) -> dict | None:
        found = self._summaries("g.finished IS NOT NULL AND g.id = ?", (game_id,), db)
        return found[0] if found else None

    def _summaries(self, where: str, params: tuple, db: sqlite3.Connection | None = None) -> list[dict]:
        rows = (db or self.db).execute(
            "SELECT g.id, g.code, g.game, g.players, g.scores, g.winner, g.finished, "
            "(SELECT COUNT(*) FROM rounds r WHERE r.game_id = g.id) FROM games g WHERE " + where, params)
        return [{"id": gid, "code": code, "game": number, "players": json.loads(players), "scores": json.loads(scores),
                 "winner": winner, "rounds": rounds,
                 "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))}
                for gid, code, number, players, scores, winner, finished, rounds in rows]

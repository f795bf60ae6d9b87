"""SQLite persistence: a table's settings and seats, and each game as its record (DESIGN 7).

A game is stored as what replays it: players, options, one secret seed per
round and the accepted actions in order. Every write is its own committed
transaction, done before anyone is told of the change (WAL: a killed process
loses nothing that was committed).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

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
    options TEXT NOT NULL, started REAL NOT NULL, finished REAL, scores TEXT, winner INTEGER);
CREATE INDEX IF NOT EXISTS games_code ON games (code, game);
CREATE TABLE IF NOT EXISTS rounds (
    game_id INTEGER NOT NULL, round INTEGER NOT NULL, seed INTEGER NOT NULL, PRIMARY KEY (game_id, round));
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL, round INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (game_id, round, idx));
"""


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


CHECKPOINT_EVERY = 1.0  # seconds


class Store:
    def __init__(self, path: str | Path):
        # One connection for everything but checkpoints, used only from the event loop's thread.
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses no commit
        self.db.execute("PRAGMA busy_timeout=5000")
        # Checkpoints (which fsync) run in their own thread, so a commit never waits for the disk.
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(SCHEMA)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint, args=(str(path),), daemon=True)
        self._checkpointer.start()

    def _checkpoint(self, path: str) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA busy_timeout=5000")
        try:
            while not self._stop.wait(CHECKPOINT_EVERY):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join()
        self.db.close()

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        """Run statements as one committed transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                db.execute(sql, params)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ------------------------------------------------------------------ writes
    def create_table(self, code: str, options: dict, turn_timer: float | None, seats: list[StoredSeat]) -> None:
        self._write(
            [("INSERT INTO tables VALUES (?, ?, ?, ?, ?, 'lobby', 0)",
              (code, time.time(), len(seats), json.dumps(options), turn_timer))]
            + [("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)", (code, i, s.kind, s.name, s.level, s.token_hash))
               for i, s in enumerate(seats)])

    def set_seat(self, code: str, seat: int, value: StoredSeat) -> None:
        self._write([("UPDATE seats SET kind = ?, name = ?, level = ?, token_hash = ? WHERE code = ? AND seat = ?",
                      (value.kind, value.name, value.level, value.token_hash, code, seat))])

    def start_game(self, code: str, number: int, players: list[str], options: dict, seed: int) -> int:
        """A new game and its first round; returns the game's id."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            cursor = db.execute("INSERT INTO games (code, game, players, options, started) VALUES (?, ?, ?, ?, ?)",
                                (code, number, json.dumps(players), json.dumps(options), time.time()))
            game_id = cursor.lastrowid
            db.execute("INSERT INTO rounds VALUES (?, 1, ?)", (game_id, seed))
            db.execute("UPDATE tables SET status = 'playing', game = ? WHERE code = ?", (number, code))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return game_id

    def add_round(self, game_id: int, number: int, seed: int) -> None:
        self._write([("INSERT INTO rounds VALUES (?, ?, ?)", (game_id, number, seed))])

    def add_action(self, code: str, game_id: int, round_number: int, index: int, action: str,
                   finished: tuple[list[int], int] | None = None) -> None:
        """One accepted action (and, when it ended the game, the final scores and winner)."""
        statements = [("INSERT INTO actions VALUES (?, ?, ?, ?)", (game_id, round_number, index, action))]
        if finished is not None:
            scores, winner = finished
            statements.append(("UPDATE tables SET status = 'game_over' WHERE code = ?", (code,)))
            statements.append(("UPDATE games SET finished = ?, scores = ?, winner = ? WHERE id = ?",
                               (time.time(), json.dumps(scores), winner, game_id)))
        self._write(statements)

    # ------------------------------------------------------------------ reads
    def load_tables(self) -> list[StoredTable]:
        """Every table with its seats and its current game (for a restart)."""
        db = self.db
        tables = []
        for code, created, _, options, timer, status, number in db.execute("SELECT * FROM tables ORDER BY created"):
            # The version counts every deal and every action of the table's games (PROTOCOL.md section 1).
            version = db.execute(
                "SELECT (SELECT COUNT(*) FROM rounds r JOIN games g ON r.game_id = g.id WHERE g.code = ?)"
                " + (SELECT COUNT(*) FROM actions a JOIN games g ON a.game_id = g.id WHERE g.code = ?)",
                (code, code)).fetchone()[0]
            table = StoredTable(code, created, json.loads(options), timer, status, number, version)
            table.seats = [StoredSeat(*row) for row in db.execute(
                "SELECT kind, name, level, token_hash FROM seats WHERE code = ? ORDER BY seat", (code,))]
            row = db.execute("SELECT id FROM games WHERE code = ? AND game = ?", (code, number)).fetchone()
            if row:
                table.game = self.load_game(row[0])
            tables.append(table)
        return tables

    def load_game(self, game_id: int) -> StoredGame | None:
        db = self.db
        row = db.execute("SELECT game, players, options, finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        number, players, options, finished = row
        seeds = [seed for (seed,) in db.execute("SELECT seed FROM rounds WHERE game_id = ? ORDER BY round", (game_id,))]
        actions: list[list[str]] = [[] for _ in seeds]
        for round_number, text in db.execute(
                "SELECT round, action FROM actions WHERE game_id = ? ORDER BY round, idx", (game_id,)):
            actions[round_number - 1].append(text)
        return StoredGame(game_id, number, json.loads(players), json.loads(options), seeds, actions, finished)

    def finished_games(self, limit: int = 200) -> list[dict]:
        """Summaries of finished games, newest first."""
        return self._summaries("g.finished IS NOT NULL ORDER BY g.finished DESC, g.id DESC LIMIT ?", (limit,))

    def finished_game(self, game_id: int) -> dict | None:
        found = self._summaries("g.finished IS NOT NULL AND g.id = ?", (game_id,))
        return found[0] if found else None

    def _summaries(self, where: str, params: tuple) -> list[dict]:
        rows = self.db.execute(
            "SELECT g.id, g.code, g.game, g.players, g.scores, g.winner, g.finished, "
            "(SELECT COUNT(*) FROM rounds r WHERE r.game_id = g.id) FROM games g WHERE " + where, params)
        return [{"id": gid, "code": code, "game": number, "players": json.loads(players), "scores": json.loads(scores),
                 "winner": winner, "rounds": rounds,
                 "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))}
                for gid, code, number, players, scores, winner, finished, rounds in rows]

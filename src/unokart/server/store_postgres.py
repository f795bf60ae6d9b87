"""The store in PostgreSQL (psycopg 3): the same interface as ``SQLiteStore``, for several server processes.

Several processes, on one machine or many, share one database: every change
is one committed transaction (made before anyone is told of it, as with
SQLite), and what one process commits the others read at once. The schema is
kept as numbered SQL files in ``migrations/postgres/``; opening a store
applies the ones the database lacks, under an advisory lock so that processes
starting together apply each file once.

psycopg's synchronous API. Reads, and the rarer changes (a table created, a
seat taken, a game started), run on the event loop. Actions, new rounds and
chat messages, nearly every write, go through ``group_writer()``: committed in groups, in a
thread, on a connection of their own (writer.py), so that the event loop never
waits for a commit.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources

import psycopg
from psycopg.types.json import Json

from .store import CHAT_KEPT, LeaseLost, StoredGame, StoredSeat, StoredTable
from .writer import GroupWriter

MIGRATIONS = "migrations/postgres"
MIGRATION_LOCK = 0x756E6F6B617274  # pg_advisory_xact_lock key ("unokart"): one process migrates at a time


def _json(value: object) -> Json:
    return Json(value, dumps=json.dumps)  # the text json.dumps writes, as the SQLite store stores it


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration kept in the package, in order."""
    folder = resources.files(__package__).joinpath(MIGRATIONS)
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = entry.name.split("_", 1)[0]
            if not number.isdigit():
                raise ValueError(f"migration {entry.name} does not start with its number")
            found.append((int(number), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    if len({number for number, _, _ in found}) != len(found):
        raise ValueError("two migrations have the same number")
    return found


def migrate(db: psycopg.Connection) -> list[str]:
    """Apply the migrations the database lacks (each in the same transaction as its bookkeeping); returns their names."""
    applied: list[str] = []
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS unokart_migrations ("
                   "version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
        done = {version for (version,) in db.execute("SELECT version FROM unokart_migrations")}
        for version, name, sql in migrations():
            if version not in done:
                db.execute(sql)
                db.execute("INSERT INTO unokart_migrations (version, name) VALUES (%s, %s)", (version, name))
                applied.append(name)
    return applied


FENCED_SQLSTATE = "UKF01"  # raised by unokart_fence (migrations/postgres/003_fence_function.sql)


class Fenced(LeaseLost):
    """A write to a table this process no longer owns (its lease's token is older than the table's, or gone)."""


class _PostgresTransaction:
    def __init__(self, db: psycopg.Connection, store: "PostgresStore"):
        self.db = db
        self.store = store
        self._checked: set[str] = set()

    def _fence(self, code: str | None = None, game_id: int | None = None) -> None:
        """With several processes: refuse the change unless this process's lease token for the table is still
        the newest (checked and raised in the table's row, which also locks it until the commit)."""
        fence = self.store.fence
        if fence is None:
            return
        if code is None:
            code = self.store.game_codes.get(game_id)  # type: ignore[arg-type]
            if code is None:
                row = self.db.execute("SELECT code FROM games WHERE id = %s", (game_id,)).fetchone()
                code = row[0] if row else ""
                self.store.game_codes[game_id] = code  # type: ignore[index]
        if code in self._checked:
            return
        token = fence(code)
        if token is None:
            raise Fenced(code)
        # Not waited for: in the pipeline, a refusal fails the transaction (transaction() names the table).
        self.db.execute("SELECT unokart_fence(%s, %s)", (code, token))
        self._checked.add(code)

    def create_table(self, code: str, options: dict, turn_timer: float | None, seats: list[StoredSeat]) -> None:
        self.db.execute("INSERT INTO tables VALUES (%s, %s, %s, %s, %s, 'lobby', 0)",
                        (code, self.store.now(), len(seats), _json(options), turn_timer))
        with self.db.cursor() as cursor:
            cursor.executemany("INSERT INTO seats VALUES (%s, %s, %s, %s, %s, %s)",
                               [(code, i, s.kind, s.name, s.level, s.token_hash) for i, s in enumerate(seats)])

    def set_seat(self, code: str, seat: int, value: StoredSeat) -> None:
        self._fence(code)
        self.db.execute("UPDATE seats SET kind = %s, name = %s, level = %s, token_hash = %s WHERE code = %s AND seat = %s",
                        (value.kind, value.name, value.level, value.token_hash, code, seat))

    def start_game(self, code: str, number: int, players: list[str], options: dict, seed: int) -> int:
        """A new game and its first round; returns the game's id."""
        self._fence(code)
        row = self.db.execute(
            "INSERT INTO games (code, game, players, options, started, bound) VALUES (%s, %s, %s, %s, %s, true) RETURNING id",
            (code, number, _json(players), _json(options), self.store.now())).fetchone()
        assert row is not None
        game_id = row[0]
        self.store.game_codes[game_id] = code
        self.db.execute("INSERT INTO rounds VALUES (%s, 1, %s)", (game_id, seed))
        self.db.execute("UPDATE tables SET status = 'playing', game = %s WHERE code = %s", (number, code))
        return game_id

    def add_round(self, game_id: int, number: int, seed: int) -> None:
        self._fence(game_id=game_id)
        self.db.execute("INSERT INTO rounds VALUES (%s, %s, %s)", (game_id, number, seed))

    def add_action(self, game_id: int, round_number: int, index: int, action: str) -> None:
        self._fence(game_id=game_id)
        self.db.execute("INSERT INTO actions VALUES (%s, %s, %s, %s)", (game_id, round_number, index, action))

    def finish_game(self, code: str, game_id: int, scores: list[int], winner: int) -> None:
        self._fence(code)
        self.db.execute("UPDATE tables SET status = 'game_over' WHERE code = %s", (code,))
        self.db.execute("UPDATE games SET finished = %s, scores = %s, winner = %s WHERE id = %s",
                        (self.store.now(), _json(scores), winner, game_id))

    def set_status(self, code: str, status: str) -> None:
        self._fence(code)
        self.db.execute("UPDATE tables SET status = %s WHERE code = %s", (status, code))

    def add_chat(self, code: str, message: dict) -> None:
        self._fence(code)
        self.db.execute("INSERT INTO chat (code, message) VALUES (%s, %s)", (code, json.dumps(message)))
        _trim_chat(self.db, [code])


def _trim_chat(db: psycopg.Connection, codes: list[str]) -> None:
    """Each table's chat down to its CHAT_KEPT newest messages."""
    db.execute("DELETE FROM chat WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
               "(PARTITION BY code ORDER BY id DESC) AS n FROM chat WHERE code = ANY(%s)) AS r WHERE n > %s)",
               (codes, CHAT_KEPT))


class _PostgresGroup:
    """Many tables' actions and rounds (what the group writer commits), gathered, then written in a few
    statements: one fence check for all the tables, one INSERT of all the rows. The writer's thread then
    holds Python's lock for a few statements, not two per change (it would slow the event loop down)."""

    def __init__(self, store: "PostgresStore"):
        self.store = store
        self.actions: list[tuple[int, int, int, str]] = []
        self.rounds: list[tuple[int, int, int]] = []
        self.finished: list[tuple[str, int, list[int], int]] = []
        self.chat: list[tuple[str, str]] = []  # (table code, message as JSON text), in the order said
        self._checked: list[str] = []  # the tables fenced (a refusal names the first: exact for a group of one)

    def add_action(self, game_id: int, round_number: int, index: int, action: str) -> None:
        self.actions.append((game_id, round_number, index, action))

    def add_round(self, game_id: int, number: int, seed: int) -> None:
        self.rounds.append((game_id, number, seed))

    def finish_game(self, code: str, game_id: int, scores: list[int], winner: int) -> None:
        self.finished.append((code, game_id, scores, winner))

    def add_chat(self, code: str, message: dict) -> None:
        self.chat.append((code, json.dumps(message)))

    def flush(self, db: psycopg.Connection) -> None:
        self._fence(db)
        if self.rounds:
            db.execute("INSERT INTO rounds SELECT * FROM unnest(%s::bigint[], %s::integer[], %s::bigint[])",
                       [list(column) for column in zip(*self.rounds)])
        if self.actions:
            db.execute("INSERT INTO actions SELECT * FROM unnest(%s::bigint[], %s::integer[], %s::integer[], %s::text[])",
                       [list(column) for column in zip(*self.actions)])
        for code, game_id, scores, winner in self.finished:
            db.execute("UPDATE tables SET status = 'game_over' WHERE code = %s", (code,))
            db.execute("UPDATE games SET finished = %s, scores = %s, winner = %s WHERE id = %s",
                       (self.store.now(), _json(scores), winner, game_id))
        if self.chat:
            db.execute("INSERT INTO chat (code, message) SELECT code, message FROM unnest(%s::text[], %s::text[]) "
                       "WITH ORDINALITY AS c(code, message, n) ORDER BY n", [list(column) for column in zip(*self.chat)])
            _trim_chat(db, sorted({code for code, _ in self.chat}))

    def _fence(self, db: psycopg.Connection) -> None:
        fence = self.store.fence
        if fence is None:
            return
        games = {game_id for game_id, *_ in self.actions} | {game_id for game_id, *_ in self.rounds}
        codes = sorted({self._code(db, game_id) for game_id in games} | {code for code, *_ in self.finished}
                       | {code for code, _ in self.chat})
        tokens = [fence(code) for code in codes]
        self._checked = codes
        for code, token in zip(codes, tokens):
            if token is None:
                raise Fenced(code)
        # In code order, so that two processes fencing the same tables (a takeover) lock them in one order.
        db.execute("SELECT unokart_fence(c, t) FROM unnest(%s::text[], %s::bigint[]) AS f(c, t)", (codes, tokens))

    def _code(self, db: psycopg.Connection, game_id: int) -> str:
        code = self.store.game_codes.get(game_id)
        if code is None:
            row = db.execute("SELECT code FROM games WHERE id = %s", (game_id,)).fetchone()
            code = self.store.game_codes[game_id] = row[0] if row else ""
        return code


class PostgresStore:
    """The store in a PostgreSQL database, e.g. ``PostgresStore("postgresql://unokart@127.0.0.1/unokart")``."""

    def __init__(self, url: str, connect_timeout: float = 10.0, now: Callable[[], float] = time.time):
        self.url, self.now = url, now  # now: the clock's wall time, for what is stored
        self.connect_timeout = connect_timeout
        self._lock = threading.RLock()  # one connection, one transaction at a time, whichever thread asks
        # Several processes (cluster.py): the lease token this process holds for a table, or None; unset alone.
        self.fence: Callable[[str], int | None] | None = None
        self.game_codes: dict[int, str] = {}  # game id -> table code, for the fencing check
        self.db = self._connect()
        migrate(self.db)
        self._group_lock = threading.Lock()
        self._group_db: psycopg.Connection | None = None  # the group writer's connection, opened when first used

    def _connect(self) -> psycopg.Connection:
        # autocommit: every write goes through transaction() (BEGIN ... COMMIT), every read through _reading().
        db = psycopg.connect(self.url, autocommit=True, connect_timeout=int(self.connect_timeout),
                             application_name="unokart")
        # An acknowledgement promises the action is kept: a commit returns only once it is on disk, even where
        # the database's own default is off (which a crash of PostgreSQL turns into lost acknowledged actions).
        # Stronger settings (remote_write, remote_apply: replicas) are left as they are.
        if db.execute("SHOW synchronous_commit").fetchone() == ("off",):
            db.execute("SET synchronous_commit = on")
        return db

    def _live(self) -> psycopg.Connection:
        """The connection, opened again if the database dropped it (a restart): the failed change was not told."""
        if self.db.closed or self.db.broken:
            self.db = self._connect()
        return self.db

    def _live_group(self) -> psycopg.Connection:
        if self._group_db is None or self._group_db.closed or self._group_db.broken:
            self._group_db = self._connect()
        return self._group_db

    def close(self) -> None:
        with self._lock:
            self.db.close()
        with self._group_lock:
            if self._group_db is not None:
                self._group_db.close()

    def group_writer(self) -> GroupWriter:
        """The writer of actions and rounds: many tables' changes in one commit, off the event loop."""
        return GroupWriter(self._group_transaction)

    def next_fence_token(self) -> int:
        """A fencing token greater than every one drawn before, whatever happened to Redis (a sequence)."""
        with self._lock:
            row = self._live().execute("SELECT nextval('unokart_fence_tokens')").fetchone()
        assert row is not None
        return int(row[0])

    @contextmanager
    def transaction(self) -> Iterator[_PostgresTransaction]:
        """One change, sent in one round trip where it reads nothing back (pipeline mode: BEGIN, the fences,
        the rows and COMMIT together)."""
        with self._lock:
            with self._pipelined(self._live()) as tx:
                yield tx

    @contextmanager
    def _group_transaction(self) -> Iterator[_PostgresGroup]:
        """Many tables' actions and rounds in one transaction, on the group writer's connection (its thread's)."""
        with self._group_lock:
            db = self._live_group()
            group = _PostgresGroup(self)
            try:
                with db.pipeline(), db.transaction():
                    yield group
                    group.flush(db)
            except psycopg.Error as err:
                if err.sqlstate == FENCED_SQLSTATE:
                    raise Fenced(next(iter(group._checked), "")) from None
                raise

    @contextmanager
    def _pipelined(self, db: psycopg.Connection) -> Iterator[_PostgresTransaction]:
        tx = _PostgresTransaction(db, self)
        try:
            with db.pipeline(), db.transaction():  # COMMIT when the block ends, ROLLBACK when it raises
                yield tx
        except psycopg.Error as err:
            if err.sqlstate == FENCED_SQLSTATE:
                raise Fenced(next(iter(tx._checked), "")) from None
            raise

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection]:
        """Several reads from one snapshot: a table and its game as one commit left them, whatever others write."""
        with self._lock:
            db = self._live()
            if db.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                yield db  # read inside a change being written: its own transaction's view
                return
            with db.transaction():
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield db

    # ------------------------------------------------------------------ reads
    def live_tables(self) -> list[str]:
        """The codes of tables in play (the ones a restarted server resumes at once; others load when asked for)."""
        with self._reading() as db:
            return [code for (code,) in db.execute("SELECT code FROM tables WHERE status = 'playing' ORDER BY created")]

    def load_table(self, code: str) -> StoredTable | None:
        """A table with its seats and its current game."""
        with self._reading() as db:
            row = db.execute("SELECT code, created, options, turn_timer, status, game FROM tables WHERE code = %s",
                             (code,)).fetchone()
            if row is None:
                return None
            code, created, options, timer, status, number = row
            # The version counts every deal and every action of the table's games (PROTOCOL.md section 1).
            version = db.execute(
                "SELECT (SELECT COUNT(*) FROM rounds r JOIN games g ON r.game_id = g.id WHERE g.code = %s)"
                " + (SELECT COUNT(*) FROM actions a JOIN games g ON a.game_id = g.id WHERE g.code = %s)",
                (code, code)).fetchone()[0]
            table = StoredTable(code, created, options, timer, status, number, int(version))
            table.seats = [StoredSeat(*seat) for seat in db.execute(
                "SELECT kind, name, level, token_hash FROM seats WHERE code = %s ORDER BY seat", (code,))]
            game = db.execute("SELECT id FROM games WHERE code = %s AND game = %s", (code, number)).fetchone()
            if game:
                table.game = self._game(db, game[0])
                self.game_codes[game[0]] = code
            table.chat = [json.loads(text) for (text,) in db.execute(
                "SELECT message FROM chat WHERE code = %s ORDER BY id DESC LIMIT %s", (code, CHAT_KEPT))][::-1]
            return table

    def load_game(self, game_id: int) -> StoredGame | None:
        if not 0 < game_id < 2**63:
            return None  # beyond bigint: no such game (not an error from the driver)
        with self._reading() as db:
            return self._game(db, game_id)

    def _game(self, db: psycopg.Connection, game_id: int) -> StoredGame | None:
        row = db.execute("SELECT game, players, options, finished, bound FROM games WHERE id = %s", (game_id,)).fetchone()
        if row is None:
            return None
        number, players, options, finished, bound = row
        seeds = [seed for (seed,) in db.execute("SELECT seed FROM rounds WHERE game_id = %s ORDER BY round", (game_id,))]
        actions: list[list[str]] = [[] for _ in seeds]
        for round_number, text in db.execute(
                "SELECT round, action FROM actions WHERE game_id = %s ORDER BY round, idx", (game_id,)):
            actions[round_number - 1].append(text)
        return StoredGame(game_id, number, players, options, seeds, actions, finished, bound)

    def finished_games(self, limit: int = 200) -> list[dict]:
        """Summaries of finished games, newest first."""
        return self._summaries("g.finished IS NOT NULL ORDER BY g.finished DESC, g.id DESC LIMIT %s", (limit,))

    def finished_game(self, game_id: int) -> dict | None:
        if not 0 < game_id < 2**63:
            return None
        found = self._summaries("g.finished IS NOT NULL AND g.id = %s", (game_id,))
        return found[0] if found else None

    def finished_apart(self, game_id: int) -> tuple[dict, StoredGame] | None:
        """A finished game's summary and its stored game from one snapshot; safe from any thread (a lock)."""
        if not 0 < game_id < 2**63:
            return None
        with self._reading():  # the reads below share its snapshot (the lock is re-entrant)
            summary = self.finished_game(game_id)
            game = self.load_game(game_id) if summary is not None else None
        return (summary, game) if summary is not None and game is not None else None

    def _summaries(self, where: str, params: tuple) -> list[dict]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT g.id, g.code, g.game, g.players, g.scores, g.winner, g.finished, "
                "(SELECT COUNT(*) FROM rounds r WHERE r.game_id = g.id) FROM games g WHERE " + where, params).fetchall()
        return [{"id": gid, "code": code, "game": number, "players": players, "scores": scores,
                 "winner": winner, "rounds": int(rounds),
                 "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))}
                for gid, code, number, players, scores, winner, finished, rounds in rows]

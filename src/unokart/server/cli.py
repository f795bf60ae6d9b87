"""``unokart serve`` (the game server), ``unokart verify`` (check a finished game: its deals and its result) and
``unokart backup`` (an online copy of the server's SQLite database)."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Optional

import typer

from ..i18n import os_reason, t


SHOWN_FLAG_CHARS = 160  # a refusal quotes a flag's value, never all of it (a 100 KB --port is not one sentence)


def said(value: object) -> str:
    """A flag's value, or a reason, as a refusal quotes it: one line (unprintables escaped), cut to SHOWN_FLAG_CHARS."""
    text = str(value)
    cut = text if len(text) <= SHOWN_FLAG_CHARS else text[:SHOWN_FLAG_CHARS] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)


class BadFlag(Exception):
    """A ``serve`` flag that cannot work, with the message key and fields saying why."""

    def __init__(self, key: str, **fields: object):
        super().__init__(key)
        self.key = key
        self.fields = {name: said(value) for name, value in fields.items()}


def parse_port(text: str) -> int:
    """``--port`` as a number: 1 to 65535, or 0 for a free port the system picks (announced once bound)."""
    value = text.strip()
    if not value.isdigit() or not value.isascii() or len(value) > 5 or int(value) > 65535:
        raise BadFlag("server.serve.error.port", port=text)
    return int(value)


def check_db(path: Path) -> None:
    """``--db`` must work before anything is announced: a writable folder, and a file (if any) that SQLite opens."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        is_folder, folder_there, there = path.is_dir(), folder.is_dir(), path.exists()
    except OSError as err:  # a name too long for the file system
        raise BadFlag("server.serve.error.db_not_sqlite", path=path, reason=os_reason(err)) from None
    if is_folder:
        raise BadFlag("server.serve.error.db_is_folder", path=path)
    if not folder_there:
        raise BadFlag("server.serve.error.db_folder", folder=folder)
    if there and not path.is_file():  # /dev/null, a pipe: SQLite opens them, then fails at startup with a traceback
        raise BadFlag("server.serve.error.db_not_file", path=path)
    try:
        # SQLite writes its -wal and -shm files beside the database, so the folder itself must take new files.
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".unokart-check-"):
            pass
    except OSError as err:
        raise BadFlag("server.serve.error.db_unwritable", folder=folder, reason=os_reason(err)) from None
    if not there:
        return
    try:
        # mode=rw: never create here; a file that is not SQLite fails at its first read ("file is not a database").
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=5)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            db.execute("BEGIN IMMEDIATE")  # the server writes: a read-only or locked database fails here, not later
            db.execute("ROLLBACK")
        finally:
            db.close()
    except sqlite3.Error as err:
        raise BadFlag("server.serve.error.db_not_sqlite", path=path, reason=err) from None


def check_services(redis_url: str | None, database: str | None) -> None:
    """``--redis`` and ``--database`` must answer before anything is announced (and --redis needs --database)."""
    if redis_url and not database:
        raise BadFlag("server.serve.error.redis_needs_database")
    if database:
        import psycopg

        try:
            psycopg.connect(database, connect_timeout=5).close()
        except (psycopg.Error, ValueError) as err:
            raise BadFlag("server.serve.error.database", url=database, reason=_first_line(err)) from None
    if redis_url:
        import redis

        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=5)
            client.ping()
            client.close()
        except (redis.RedisError, ValueError, OSError) as err:
            raise BadFlag("server.serve.error.redis", url=redis_url, reason=_first_line(err)) from None


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0].rstrip(".")


def policies(folder: Path | None) -> frozenset[str]:
    """The trained policies tables may seat, by NAME (never by path): the shipped ones and NAME.npz in ``--models``."""
    if folder is not None and not folder.is_dir():
        try:
            there = folder.exists()
        except OSError:  # a name too long for the file system
            there = False
        raise BadFlag("server.serve.error.models_not_folder" if there else "server.serve.error.models", folder=folder)
    from ..env.numpy_policy import known_policies

    return frozenset(known_policies(str(folder) if folder is not None else None))


def backup(source: Path, target: Path) -> dict[str, int]:
    """An online copy of the server's SQLite database with SQLite's backup API, while the server runs and writes.

    All pages in one step: a reader of a WAL database holds its snapshot without blocking the server's writes,
    while a copy in steps starts again after each write the server makes (under play, it might never end).
    Returns what the copy holds."""
    if target.exists():
        raise BadFlag("server.backup.error.exists", path=target)
    if source.is_dir():
        raise BadFlag("server.backup.error.db_is_folder", path=source)
    if not source.is_file():
        raise BadFlag("server.backup.error.no_db", path=source)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise BadFlag("server.backup.error.copy_folder", folder=folder)
    partial = target.with_name(target.name + ".partial")
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            src.execute("SELECT count(*) FROM games").fetchone()  # a SQLite file, and the server's
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                held = {name: dst.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in ("tables", "games")}
                held["pages"] = dst.execute("PRAGMA page_count").fetchone()[0]
                if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    raise sqlite3.DatabaseError("integrity_check")
            finally:
                dst.close()
        finally:
            src.close()
        partial.rename(target)  # only a whole copy takes the name asked for
    except (sqlite3.Error, OSError) as err:
        partial.unlink(missing_ok=True)
        raise BadFlag("server.backup.error.failed", path=source, reason=os_reason(err)) from None
    return held


def bind(host: str, port: int) -> socket.socket:
    """The listening socket itself, so that what is announced is the address actually bound (port 0 too)."""
    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        # SO_REUSEADDR as uvicorn sets it: a restarted server rebinds at once despite connections in TIME_WAIT.
        return socket.create_server(address[:2], family=family, reuse_port=False)
    except (OSError, UnicodeError) as err:
        raise BadFlag("server.serve.error.bind", host=host, port=port,
                      reason=os_reason(err)) from None


def bound_url(sock: socket.socket) -> str:
    """http://HOST:PORT of a bound socket (a wildcard address shown as loopback, an IPv6 one in brackets)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def register(app: typer.Typer) -> None:
    """``serve``, ``backup`` and ``verify``; their help in the language of the moment they are registered."""
    _register_serve(app)
    _register_backup(app)
    _register_verify(app)


def _register_serve(app: typer.Typer) -> None:
    @app.command(help=t("server.help.serve"))
    def serve(
        host: str = typer.Option("127.0.0.1", help=t("server.help.host")),
        # Text, not int: a wrong port is answered by the catalogue's sentence, not click's English one.
        port: str = typer.Option("8000", metavar="PORT", help=t("server.help.port")),
        db: Path = typer.Option(Path("unokart.sqlite"), help=t("server.help.db")),
        bot_delay: float = typer.Option(0.8, min=0.0, help=t("server.help.bot_delay")),
        round_pause: float = typer.Option(5.0, min=0.0, help=t("server.help.round_pause")),
        grace: float = typer.Option(30.0, min=0.0, help=t("server.help.grace")),
        bot_processes: int = typer.Option(1, min=1, help=t("server.help.bot_processes")),
        http_rate: float = typer.Option(1.0, min=0.01, help=t("server.help.http_rate")),
        max_tables: int = typer.Option(5000, min=1, help=t("server.help.max_tables")),
        tables_per_address: int = typer.Option(10, min=0, help=t("server.help.tables_per_address")),
        unattended: float = typer.Option(60.0, min=0.0, help=t("server.help.unattended")),
        idle: float = typer.Option(120.0, min=0.0, help=t("server.help.idle")),
        # Checked by policies(), so that a file given here is answered in the catalogue's one sentence, not click's.
        models: Optional[Path] = typer.Option(None, help=t("server.help.models")),
        rate_limit: float = typer.Option(20.0, min=1.0, help=t("server.help.rate_limit")),
        chat_rate: float = typer.Option(0.5, min=0.01, help=t("server.help.chat_rate")),
        url: Optional[str] = typer.Option(None, help=t("server.help.url")),
        redis_url: Optional[str] = typer.Option(None, "--redis", metavar="URL", help=t("server.help.redis")),
        database: Optional[str] = typer.Option(None, "--database", metavar="URL", help=t("server.help.database")),
        lease_ttl: float = typer.Option(3.0, min=0.5, max=60.0, help=t("server.help.lease_ttl")),
        forwarded_allow_ips: str = typer.Option("", metavar="ADDRESSES", help=t("server.help.forwarded_allow_ips")),
        metrics: bool = typer.Option(False, "--metrics", help=t("server.help.metrics")),
        log_format: str = typer.Option("text", metavar="text|json", help=t("server.help.log_format")),
    ) -> None:
        _serve(SimpleNamespace(**locals()))


def _serve(flags: SimpleNamespace) -> None:
    """``serve`` with its flags: every one checked, and the socket bound, before a word is announced (and before
    the slow imports); then the server runs until stopped."""
    try:
        number = parse_port(flags.port)
        if flags.log_format not in ("text", "json"):
            raise BadFlag("server.serve.error.log_format", value=flags.log_format)
        if flags.database is None:
            check_db(flags.db)
        check_services(flags.redis_url, flags.database)
        offered = policies(flags.models)
        sock = bind(flags.host, number)
    except BadFlag as err:
        typer.echo(t("cli.error", message=t(err.key, **err.fields)), err=True)  # as every command says an error
        raise typer.Exit(2)

    import uvicorn

    from .app import Settings, create_app
    from .metrics import log_to_stderr
    from .protocol import MAX_FRAME_BYTES

    log_to_stderr(flags.log_format)
    url = (flags.url or bound_url(sock)).rstrip("/")
    settings = Settings(bot_delay=flags.bot_delay, round_pause=flags.round_pause, grace=flags.grace, base_url=url,
                        bot_processes=flags.bot_processes, rate_limit=flags.rate_limit, http_rate=flags.http_rate,
                        max_tables=flags.max_tables, idle=flags.idle, models=offered, models_dir=flags.models,
                        lease_ttl=flags.lease_ttl, chat_rate=flags.chat_rate, metrics=flags.metrics,
                        tables_per_address=flags.tables_per_address, unattended=flags.unattended)
    app = create_app(flags.db, settings, database=flags.database, redis_url=flags.redis_url)
    # Proxy headers only from the proxies the operator names: by default none is believed (uvicorn believed
    # 127.0.0.1, so any local process could forge the address the per-address limits count).
    trusted = flags.forwarded_allow_ips.strip()
    # uvicorn's loggers write through ours (log_config None), so --log-format json covers them too.
    config = uvicorn.Config(app, ws_max_size=MAX_FRAME_BYTES, log_level="warning", lifespan="on", log_config=None,
                            proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None)
    announced = t("server.serve.listening", url=url, db=_shown(flags.database) if flags.database else flags.db)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            # Announced once the database is open and the socket accepts: the address is real.
            if not self.should_exit:
                typer.echo(announced)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # In order: stop accepting, give this process's tables up (several processes: their leases, so
            # that a client told to reconnect lands on a process that can take them), then uvicorn closes
            # the websockets and the application closes its store last (lifespan).
            for server in self.servers:
                server.close()
            await app.state.directory.hand_over()
            await super().shutdown(sockets)

    Server(config).run(sockets=[sock])


def _shown(database: str) -> str:
    """A database URL as announced: without its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(database)
    if parts.password is None:
        return database
    return parts._replace(netloc=parts.netloc.replace(":" + parts.password + "@", ":***@")).geturl()



def _register_backup(app: typer.Typer) -> None:
    @app.command("backup", help=t("server.help.backup"))
    def backup_command(
        target: Path = typer.Argument(..., metavar="COPY", help=t("server.help.backup_copy")),
        db: Path = typer.Option(Path("unokart.sqlite"), help=t("server.help.backup_db")),
    ) -> None:
        try:
            held = backup(db, target)
        except BadFlag as err:
            typer.echo(t("cli.error", message=t(err.key, **err.fields)), err=True)  # as every command says an error
            raise typer.Exit(2)
        counted = {name: t(f"server.backup.count.{name}", count=held[name]) for name in ("tables", "games", "pages")}
        typer.echo(t("server.backup.done", db=db, copy=target, **counted))


def _register_verify(app: typer.Typer) -> None:
    @app.command(help=t("server.help.verify"))
    def verify(
        record: Path = typer.Argument(..., help=t("server.help.record")),
        commitment: Optional[list[str]] = typer.Option(None, "--commitment", "-c", help=t("server.help.commitment")),
    ) -> None:
        from ..rules import RecordError
        from ..replay.cli import in_words, load_record
        from .shuffle import VerifyError, verify as check

        try:
            try:
                # The record door's own reader: size and nesting are checked before anything is parsed.
                data = load_record(record)
            except RecordError as err:  # already one sentence in the user's language, naming the file
                typer.echo(t("cli.error", message=in_words(err)), err=True)
                raise typer.Exit(2) from None
            if isinstance(data, dict) and "record" in data:
                # A /api/games/<id> object: its stated result (scores, winner, rounds, players) is checked too.
                game_record, commitments, claimed = data["record"], data.get("commitments"), data
            else:
                game_record, commitments, claimed = data, None, None
            own = not commitment  # the commitments came in the file, beside what they vouch for
            for given in commitment or []:
                if not re.fullmatch(r"[0-9a-fA-F]{64}", given):  # a typo is not evidence of an edited record
                    raise VerifyError("server.verify.error.bad_commitment", value=said(given))
            if commitment:
                commitments = list(commitment)
            verified = check(game_record, commitments, claimed)
        except VerifyError as err:
            typer.echo(t("cli.error", message=t(err.key, **err.fields)), err=True)  # as every command says an error
            raise typer.Exit(2)
        for number, seed, digest in verified.rounds:
            typer.echo(t("server.verify.round_ok", round=number, seed=seed, sha256=digest))
        typer.echo(t("server.verify.bound", players=json.dumps(verified.players, ensure_ascii=False),
                     options=json.dumps(verified.options)))
        typer.echo(t("server.verify.result", scores=json.dumps(verified.scores), winner=verified.winner,
                     name=verified.players[verified.winner]))
        typer.echo(t("server.verify.ok", count=len(verified.rounds)))
        if own:
            # A file can carry commitments made up to fit its own seeds: only the ones the server announced
            # during play (each round's sha256, before its seed was revealed) prove the deals were not chosen.
            typer.echo(t("server.verify.compare"))
            for number, _seed, digest in verified.rounds:
                typer.echo(t("server.verify.commitment", round=number, sha256=digest))

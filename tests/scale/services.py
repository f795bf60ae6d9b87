"""Debian's redis-server and PostgreSQL started on free loopback ports, each with its data in a fresh
temporary folder: for the scale tests (conftest.py) and bench/scale.py.

PostgreSQL refuses to run as root: as root, the cluster belongs to the
`postgres` user the Debian package creates and its tools run via `runuser`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass

from helpers.ports import free_port

START_SECONDS = 60  # a loaded two-core machine may take a while
LEASE_TTL = 2.0  # the tests' server processes: a dead owner's tables are taken over about this long after it dies


class MissingService(RuntimeError):
    """A server program that is not installed (./test.sh installs it)."""


def _wait(ready, what: str, proc: subprocess.Popen | None = None, log: str | None = None) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            break
        if ready():
            return
        time.sleep(0.05)
    tail = open(log, errors="replace").read()[-2000:] if log and os.path.exists(log) else ""
    raise RuntimeError(f"{what} did not start: {tail}")


# ---------------------------------------------------------------------------------------------- Redis
@dataclass
class RedisServer:
    port: int
    proc: subprocess.Popen
    folder: str

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1).ping())
        except redis.RedisError:
            return False


def start_redis() -> RedisServer:
    binary = shutil.which("redis-server")
    if binary is None:
        raise MissingService("redis-server is not installed: ./test.sh installs Debian's redis-server (apt-get install redis-server)")
    folder = tempfile.mkdtemp(prefix="unokart-redis-")
    log = os.path.join(folder, "redis.log")
    for _ in range(5):  # a port another process grabs between the check and the bind is replaced
        port = free_port()
        server = RedisServer(port, _redis_process(binary, port, folder), folder)
        proc = server.proc
        try:
            _wait(server.ping, "redis-server", proc, log)
            return server
        except RuntimeError:
            stop(proc)
    raise RuntimeError(f"redis-server did not start: {open(log, errors='replace').read()[-2000:]}")


def _redis_process(binary: str, port: int, folder: str) -> subprocess.Popen:
    # No persistence: a restarted Redis starts empty, as the Redis restarts did.
    return subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", folder, "--save", "", "--appendonly", "no",
         "--daemonize", "no", "--logfile", os.path.join(folder, "redis.log"), "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def restart_redis(server: RedisServer) -> None:
    """Stop the server and start it again on the same port, empty (what Redis without persistence keeps)."""
    stop(server.proc)
    server.proc = _redis_process(shutil.which("redis-server") or "redis-server", server.port, server.folder)
    _wait(server.ping, "redis-server", server.proc, os.path.join(server.folder, "redis.log"))


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------------------------------------- PostgreSQL
@dataclass
class PostgresServer:
    port: int
    folder: str
    as_user: list[str]  # the command prefix that runs a tool as the cluster's owner
    bin: str
    user: str = "unokart"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url(), connect_timeout=2) as db:
                return db.execute("SELECT 1").fetchone() == (1,)
        except psycopg.Error:
            return False

    def kill_9(self) -> None:
        """SIGKILL to the postmaster and every process it started at once, as a crash would (pg_ctl's
        immediate mode still lets the backends finish their exit; this does not)."""
        with open(os.path.join(self.folder, "data", "postmaster.pid")) as pid_file:
            postmaster = int(pid_file.readline())
        children = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        if int(stat.read().rsplit(")", 1)[1].split()[1]) == postmaster:
                            children.append(int(entry))
                except (OSError, ValueError, IndexError):
                    continue
        for pid in [postmaster, *children]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + START_SECONDS
        for pid in [postmaster, *children]:
            while _state(pid) not in ("Z", "X"):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"postgres process {pid} outlived SIGKILL")
                time.sleep(0.01)
        # Dead, though maybe not yet reaped (a zombie still answers kill(pid, 0), and pg_ctl and postgres would
        # wait for it or refuse to start): the stale lock files go, as after a crash of the machine.
        for lock in (os.path.join(self.folder, "data", "postmaster.pid"), os.path.join(self.folder, f".s.PGSQL.{self.port}.lock")):
            with contextlib.suppress(FileNotFoundError):
                os.remove(lock)

    def ctl(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*self.as_user, os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.folder, "data"),
                               *args], capture_output=True, text=True, timeout=120)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "X"


def _postgres_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise MissingService("PostgreSQL is not installed: ./test.sh installs Debian's postgresql (apt-get install postgresql)")
    return os.path.dirname(found[-1])


def start_postgres(durable: bool = False) -> PostgresServer:
    """A new PostgreSQL cluster; ``durable``: commits reach the disk, as in production (the tests need not)."""
    bin_dir = _postgres_bin()
    folder = tempfile.mkdtemp(prefix="unokart-postgres-")
    as_user: list[str] = []
    if os.geteuid() == 0:
        # initdb and postgres refuse root; the folder goes to the Debian package's own user.
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")
    done = subprocess.run([*as_user, os.path.join(bin_dir, "initdb"), "-D", data, "-U", "unokart", "-A", "trust",
                           "-E", "UTF8", "--no-locale", "--no-sync"], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
    log = os.path.join(folder, "postgres.log")
    for _ in range(5):
        port = free_port()
        server = PostgresServer(port, folder, as_user, bin_dir)
        # Loopback only, its socket in its own folder; fsync off: the tests kill servers, not machines.
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        started = server.ctl("start", "-w", "-t", str(START_SECONDS), "-l", log, "-o", options)
        if started.returncode == 0:
            _wait(server.ready, "postgres", log=log)
            return server
        server.ctl("stop", "-m", "immediate", "-w")
    raise RuntimeError(f"postgres did not start: {open(log, errors='replace').read()[-2000:]}")

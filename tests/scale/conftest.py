"""Real Redis and PostgreSQL for the scale tests: Debian's servers, started for the test session and stopped after.

Each runs on loopback on a port found free, with its data in a fresh temporary
folder (services.py), so that nothing collides (two xdist workers get a pair
each) and nothing outlives the run. `./test.sh` installs `redis-server` and
`postgresql`; when they are missing these fixtures fail saying so (a skip would
hide it).
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator

import pytest

from helpers.server import Server  # the server tests' real-subprocess harness
from services import LEASE_TTL, MissingService, PostgresServer, RedisServer, start_postgres, start_redis, stop


def _started(start):
    try:
        return start()
    except MissingService as err:
        pytest.fail(str(err))


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = _started(start_redis)
    try:
        yield server
    finally:
        stop(server.proc)
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def redis_url(redis_server) -> Iterator[str]:
    """The session's Redis, emptied for each test."""
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    client.close()
    yield redis_server.url


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = _started(start_postgres)
    try:
        yield server
    finally:
        server.ctl("stop", "-m", "fast", "-w", "-t", "60")
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server) -> Iterator[str]:
    """A fresh, empty database of the session's PostgreSQL for each test (dropped after)."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')  # fsync is off: a plain copy is quickest
    try:
        yield postgres_server.url(name)
    finally:
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ---------------------------------------------------------------------------------------------- server processes


@pytest.fixture
def processes(redis_url, postgres_url, tmp_path) -> Iterator[list[Server]]:
    """Three `unokart serve --redis --database` processes on their own loopback ports, sharing one Redis and one
    PostgreSQL database (a fresh one for the test)."""
    servers: list[Server] = []
    try:
        for index in range(3):
            servers.append(Server(tmp_path / f"process{index}.sqlite", grace=60.0,
                                  extra=["--redis", redis_url, "--database", postgres_url, "--lease-ttl", str(LEASE_TTL)]))
        yield servers
    finally:
        for server in servers:
            server.stop()

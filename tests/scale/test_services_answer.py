"""The scale tests' own servers answer: a real redis-server and a real PostgreSQL, each on its own loopback port."""

from __future__ import annotations

import asyncio

import psycopg
import redis.asyncio


def test_redis_answers_and_keeps_what_it_is_told(redis_url):
    async def main():
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            assert await client.ping()
            await client.set("unokart:probe", "42", px=10_000)
            return await client.get("unokart:probe"), (await client.info("server"))["redis_version"]
        finally:
            await client.aclose()
    value, version = asyncio.run(main())
    assert value == b"42" and version


def test_postgres_answers_and_commits_a_transaction(postgres_url):
    with psycopg.connect(postgres_url) as db:
        with db.transaction():
            db.execute("CREATE TABLE probe (n integer PRIMARY KEY)")
            db.execute("INSERT INTO probe VALUES (1), (2)")
        assert db.execute("SELECT sum(n) FROM probe").fetchone() == (3,)
        assert db.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
    # Another connection sees the committed rows: a real server, not a file.
    with psycopg.connect(postgres_url) as other:
        assert other.execute("SELECT count(*) FROM probe").fetchone() == (2,)


def test_each_test_gets_an_empty_database(postgres_url):
    with psycopg.connect(postgres_url) as db:
        tables = db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    assert tables == (0,)

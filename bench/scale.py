"""Several server processes: the game server benchmark's load on one, two and three processes.

Starts Debian's redis-server and PostgreSQL on free loopback ports (fresh
folders, removed after), then for each process count N (a fresh database each
time) N `unokart serve --redis --database` processes, and the load of
bench/server.py spread over them: --tables tables of four bots, created at the
processes in turn (so each owns its share), and --clients websocket players,
each connected to a process chosen at random (so with N processes about
(N-1)/N of them are relayed through Redis to their table's owner). For
--seconds it measures:

- accepted actions per second, over all tables (rows committed to PostgreSQL);
- the time from a player's action to the `state` answering it (p50, p99);
- each server process's CPU use;

and, on their own, the two costs each action adds: a Redis round trip
(PUBLISH to a subscribed channel) and a PostgreSQL commit (one action's row).

    .venv/bin/python bench/scale.py                      # 500 bot tables + 200 players, 30 s per count
    .venv/bin/python bench/scale.py --processes 1,3 --seconds 20 --json scale.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import psycopg
import redis

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))  # the tests' helpers package, which services imports
sys.path.insert(0, str(HERE.parent / "tests" / "scale"))
from server import add_load_arguments, cpu_seconds, free_port, runqueue_wait_seconds, start_load  # noqa: E402  (bench/server.py: the same players)
from services import start_postgres, start_redis, stop  # noqa: E402  (the scale tests' Debian servers)


def quantile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(sorted(values), n=100, method="inclusive")[q - 1]


def round_trips(redis_url: str, database: str, count: int = 2000) -> dict:
    """Median costs of the two services per action, measured alone on the same machine."""
    client = redis.Redis.from_url(redis_url)
    listener = redis.Redis.from_url(redis_url).pubsub()
    listener.subscribe("unokart:bench")
    publish = []
    for _ in range(count):
        start = time.perf_counter()
        client.publish("unokart:bench", "x" * 400)  # about a state message's size
        publish.append(time.perf_counter() - start)
    listener.close()
    client.close()
    commits = []
    with psycopg.connect(database, autocommit=True) as db:
        db.execute("CREATE TABLE bench_actions (game_id bigint, round int, idx int, action text)")
        for index in range(count):
            start = time.perf_counter()
            with db.transaction():
                db.execute("INSERT INTO bench_actions VALUES (%s, 1, %s, '0: play R5')", (1, index))
            commits.append(time.perf_counter() - start)
        db.execute("DROP TABLE bench_actions")
    return {"redis_publish_p50_ms": round(quantile(publish, 50) * 1000, 3),
            "postgres_commit_p50_ms": round(quantile(commits, 50) * 1000, 3)}


def committed(database: str) -> int:
    with psycopg.connect(database) as db:
        return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def run(count: int, redis_url: str, database: str, args, folder: Path) -> dict:
    ports = [free_port() for _ in range(count)]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    servers = [subprocess.Popen(
        [sys.executable, "-m", "unokart.cli", "serve", "--port", str(port), "--redis", redis_url, "--database", database,
         "--bot-delay", str(args.bot_delay), "--round-pause", "1", "--rate-limit", "50", "--http-rate", "10000",
         "--lease-ttl", str(args.lease_ttl), "--tables-per-address", "0", "--unattended", "0"],
        stdout=subprocess.DEVNULL, stderr=open(folder / f"server{count}-{i}.log", "wb")) for i, port in enumerate(ports)]
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            for url in urls:
                for _ in range(600):
                    try:
                        if (await http.get(url + "/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.05)
            stats = {"latencies": [], "refused": {}, "measuring": False}
            stop_event = asyncio.Event()
            tasks = await start_load(http, urls, args, stats, stop_event)
        await asyncio.sleep(args.warmup)
        stats["measuring"] = True
        actions0, t0 = committed(database), time.perf_counter()
        cpu0 = [cpu_seconds(s.pid) for s in servers]
        waits0 = [runqueue_wait_seconds(s.pid) for s in servers]
        await asyncio.sleep(args.seconds)
        actions1, t1 = committed(database), time.perf_counter()
        cpu1 = [cpu_seconds(s.pid) for s in servers]
        waits1 = [runqueue_wait_seconds(s.pid) for s in servers]
        stats["measuring"] = False
        stop_event.set()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [repr(o)[:120] for o in outcomes if isinstance(o, BaseException)]
        latencies = stats["latencies"]
        return {
            "processes": count, "seconds": round(t1 - t0, 1),
            "actions_per_second": round((actions1 - actions0) / (t1 - t0), 1),
            "player_actions_answered": len(latencies), "player_actions_refused": stats["refused"],
            "player_reconnects": stats.get("reconnects", 0),
            "latency_p50_ms": round(quantile(latencies, 50) * 1000, 1),
            "latency_p99_ms": round(quantile(latencies, 99) * 1000, 1),
            "server_cpu_percent": [round(100 * (b - a) / (t1 - t0), 1) for a, b in zip(cpu0, cpu1)],
            # The event loop ready to run but waiting for a CPU (other work on the machine): not the server's doing.
            "server_runqueue_wait_percent": [round(100 * (b - a) / (t1 - t0), 1) for a, b in zip(waits0, waits1)],
            "players_failed": len(failures), "first_failure": failures[0] if failures else None,
            "load_average_1min": os.getloadavg()[0],
            "leases_lost": sum(log.read_text(errors="replace").count("lost by")
                               for log in folder.glob(f"server{count}-*.log")),
        }
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2,3", help="process counts to measure, in order")
    add_load_arguments(parser, warmup=10.0, seconds=30.0)
    parser.add_argument("--json", type=Path, help="also write the results here")
    # On a machine shared with other work a process may stall past a 3 s lease, lose its tables and reload
    # them, over and over: a longer lease measures the commit path, not that.
    parser.add_argument("--lease-ttl", type=float, default=3.0, help="the servers' --lease-ttl (s)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="unokart-scale-"))
    redis_server, postgres = start_redis(), start_postgres(durable=True)  # commits on disk, as deployed
    results: dict = {"load": {k: getattr(args, k) for k in ("tables", "clients", "bot_delay", "think", "seconds")},
                     "cpus": os.cpu_count(), "runs": []}
    try:
        for count in [int(n) for n in args.processes.split(",")]:
            name = "bench_" + uuid.uuid4().hex[:8]
            with psycopg.connect(postgres.url(), autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            redis.Redis.from_url(redis_server.url).flushdb()
            if not results["runs"]:
                results["alone"] = round_trips(redis_server.url, postgres.url(name))
            result = asyncio.run(run(count, redis_server.url, postgres.url(name), args, folder))
            print(json.dumps(result), flush=True)
            results["runs"].append(result)
    finally:
        stop(redis_server.proc)
        postgres.ctl("stop", "-m", "fast", "-w", "-t", "60")
        shutil.rmtree(redis_server.folder, ignore_errors=True)
        shutil.rmtree(postgres.folder, ignore_errors=True)
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()

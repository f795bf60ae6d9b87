"""Server load: many tables of bots playing at once, plus websocket clients acting as players.

Starts a real `unokart serve` (a subprocess, fresh SQLite file), creates
--tables tables of four bots (started at once) and --clients/2 tables of two
websocket players and two bots, then measures for --seconds:

- accepted actions per second, over all tables (rows committed to the database);
- the time from a client's action to the `state` answering it (p50, p99);
- the server process's CPU use.

    .venv/bin/python bench/server.py                      # 500 bot tables + 200 clients, 60 s
    .venv/bin/python bench/server.py --bot-delay 0.25 --seconds 30
    .venv/bin/python bench/server.py --sweep 500,1000,2000,4000 --plot docs/measurements/capacity.png

--sweep runs one fresh server per number of bot tables, with 0.4 players a table (2,000 tables, 800
players), in that order, until the p99 passes --stop-ms; each result is a JSON line, and --plot draws
p99, throughput and CPU against tables.

The bots' pace is --bot-delay seconds per move (the server's own setting; people
need a pause to follow a bot, 0.8 s by default). Players think --think seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def loopback(number: int) -> str:
    """The number-th of the loopback addresses 127.0.1.1 to 127.0.255.254, as a person's own machine."""
    return f"127.0.{1 + number // 254}.{1 + number % 254}"


def runqueue_wait_seconds(pid: int) -> float:
    """Time the process's main thread (the server's event loop) was ready to run but waited for a CPU."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Player:
    """One websocket client in one seat: acts on its turn after thinking, and times each answer."""

    def __init__(self, url: str, code: str, name: str, think: float, rng: random.Random, stats: dict,
                 source: str | None = None):
        self.url, self.code, self.name, self.think, self.rng, self.stats = url, code, name, think, rng, stats
        self.source = source  # a loopback address of its own: the server budgets messages per address too
        self.token = ""
        self.seat = -1
        self.sent: dict[int, float] = {}
        self.count = 0

    async def run(self, start: bool, stop: asyncio.Event, joined: asyncio.Event | None = None,
                  wait_for: asyncio.Event | None = None) -> None:
        extra = {"local_addr": (self.source, 0)} if self.source else {}
        url = f"{self.url}/ws/{self.code}"
        ws = await websockets.connect(url, max_queue=None, **extra)
        await ws.send(json.dumps({"type": "join", "name": self.name}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "welcome":
                self.token, self.seat = message["token"], message["seat"]
                break
        if joined is not None:
            joined.set()
        if start:
            await wait_for.wait()
            await ws.send(json.dumps({"type": "start", "token": self.token}))
        state = None
        while not stop.is_set():
            try:
                timeout = self.think if state is not None and self._my_turn(state) else 1.0
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            except asyncio.TimeoutError:
                if state is not None and self._my_turn(state):
                    try:
                        await self._act(ws, state)
                    except websockets.ConnectionClosed:
                        pass  # noticed at the next recv
                    state = None
                continue
            except websockets.ConnectionClosed:  # the server closed it (several processes: the table moved)
                self.stats["reconnects"] = self.stats.get("reconnects", 0) + 1
                await asyncio.sleep(0.2)
                try:
                    ws = await websockets.connect(url, max_queue=None, **extra)
                    await ws.send(json.dumps({"type": "resume", "token": self.token}))
                except OSError:
                    pass
                state = None
                continue
            self._note(message)
            if message["type"] == "state":
                state = message
                if state["view"]["awaiting"] == "game_over" and self.seat == 0:
                    await ws.send(json.dumps({"type": "rematch", "token": self.token}))
        await ws.close()

    def _my_turn(self, state: dict) -> bool:
        return state["view"]["to_act"] == self.seat and bool(state["legal"])

    async def _act(self, ws, state: dict) -> None:
        self.count += 1
        ident = self.count
        self.sent[ident] = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "token": self.token, "version": state["version"],
                                  "action": self.rng.choice(state["legal"]), "id": ident}))

    def _note(self, message: dict) -> None:
        ident = message.get("re")
        if ident in self.sent:
            elapsed = time.perf_counter() - self.sent.pop(ident)
            if message["type"] == "state":
                if self.stats["measuring"]:
                    self.stats["latencies"].append(elapsed)
            elif self.stats["measuring"]:
                self.stats["refused"][message.get("code")] = self.stats["refused"].get(message.get("code"), 0) + 1


async def start_load(http: httpx.AsyncClient, urls: list[str], args, stats: dict, stop: asyncio.Event) -> list:
    """The benchmark's load: --tables tables of four bots, started, and --clients players, two a table with two
    bots, playing until ``stop``. Tables are created at the servers of ``urls`` in turn; each player connects
    to one of them at random (with one server: that one). Returns the players' tasks."""
    rng = random.Random(1)
    bots = {str(s): level for s, level in zip(range(4), ("easy", "heuristic", "random", "heuristic"))}
    for number in range(args.tables):
        created = await http.post(urls[number % len(urls)] + "/api/tables", json={
            "seats": 4, "bots": bots, "start": True, "options": {"target_score": 5000}})
        assert created.status_code == 201, created.text
    tasks = []
    for number in range(args.clients // 2):
        code = (await http.post(urls[number % len(urls)] + "/api/tables", json={
            "seats": 4, "bots": {"2": "easy", "3": "heuristic"}, "options": {"target_score": 200}})).json()["code"]
        joined = asyncio.Event()
        players = [Player(rng.choice(urls).replace("http", "ws"), code, f"P{number}-{i}", args.think, rng, stats,
                          source=loopback(2 * number + i)) for i in range(2)]
        tasks.append(asyncio.create_task(players[0].run(False, stop, joined=joined)))
        await joined.wait()
        tasks.append(asyncio.create_task(players[1].run(True, stop, wait_for=joined)))
    return tasks


def committed_actions(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def bench(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="unokart-bench-"))
    db = folder / "bench.sqlite"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "unokart.cli", "serve", "--port", str(port), "--db", str(db),
         "--bot-delay", str(args.bot_delay), "--round-pause", "1", "--rate-limit", "50",
         "--http-rate", "10000", "--tables-per-address", "0", "--unattended", "0"],
        stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "wb"))
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            for _ in range(200):
                try:
                    if (await http.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.05)
            stats = {"latencies": [], "refused": {}, "measuring": False}
            stop = asyncio.Event()
            tasks = await start_load(http, [url], args, stats, stop)
            await asyncio.sleep(args.warmup)
            stats["measuring"] = True
            actions0, t0 = committed_actions(db), time.perf_counter()
            cpu0, mine0 = cpu_seconds(server.pid), cpu_seconds(os.getpid())
            waited0 = runqueue_wait_seconds(server.pid)
            await asyncio.sleep(args.seconds)
            actions1, t1 = committed_actions(db), time.perf_counter()
            cpu1, mine1 = cpu_seconds(server.pid), cpu_seconds(os.getpid())
            waited1 = runqueue_wait_seconds(server.pid)
            stats["measuring"] = False
            stop.set()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
            failures = [repr(o)[:120] for o in outcomes if isinstance(o, BaseException)]
        latencies = sorted(stats["latencies"])
        quantiles = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) >= 2 else [float("nan")] * 99
        return {
            "tables_of_bots": args.tables, "clients": args.clients, "bot_delay_s": args.bot_delay,
            "think_s": args.think, "seconds": round(t1 - t0, 1),
            "actions_per_second": round((actions1 - actions0) / (t1 - t0), 1),
            "client_actions_answered": len(latencies),
            "client_actions_refused": stats["refused"], "client_reconnects": stats.get("reconnects", 0),
            "clients_failed": len(failures), "first_failure": failures[0] if failures else None,
            "latency_p50_ms": round(quantiles[49] * 1000, 1), "latency_p99_ms": round(quantiles[98] * 1000, 1),
            "latency_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
            "server_cpu_percent": round(100 * (cpu1 - cpu0) / (t1 - t0), 1),
            "server_loop_waiting_for_a_cpu_percent": round(100 * (waited1 - waited0) / (t1 - t0), 1),
            "clients_cpu_percent": round(100 * (mine1 - mine0) / (t1 - t0), 1),
            "load_average_1min": os.getloadavg()[0],
        }
    finally:
        server.terminate()
        server.wait(10)


def add_load_arguments(parser: argparse.ArgumentParser, warmup: float, seconds: float) -> None:
    """The flags of the benchmark's load (start_load), shared with bench/scale.py."""
    parser.add_argument("--tables", type=int, default=500, help="tables of four bots playing at once")
    parser.add_argument("--clients", type=int, default=200, help="websocket players (two per table, with two bots)")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the servers' pause before each bot move (s)")
    parser.add_argument("--think", type=float, default=0.3, help="a player's pause before acting on its turn (s)")
    parser.add_argument("--warmup", type=float, default=warmup)
    parser.add_argument("--seconds", type=float, default=seconds)


def sweep(args) -> list[dict]:
    """One fresh server per number of tables, in order, until the p99 passes args.stop_ms (0: never)."""
    results = []
    for tables in args.sweep:
        args.tables, args.clients = tables, 2 * round(0.2 * tables)
        result = asyncio.run(bench(args))
        print(json.dumps(result), flush=True)
        results.append(result)
        if args.stop_ms and result["latency_p99_ms"] > args.stop_ms:
            break
    return results


def plot(results: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables = [r["tables_of_bots"] for r in results]
    figure, axes = plt.subplots(1, 3, figsize=(13, 4))
    for axis, key, label in zip(axes, ("latency_p99_ms", "actions_per_second", "server_cpu_percent"),
                                ("p99, action to state (ms)", "actions a second", "server CPU (% of a core)")):
        axis.plot(tables, [r[key] for r in results], marker="o")
        axis.set_xlabel("bot tables (and 0.4 players a table)")
        axis.set_title(label)
        axis.grid(alpha=0.3)
    axes[0].set_yscale("log")
    axes[2].plot(tables, [r["server_loop_waiting_for_a_cpu_percent"] for r in results], marker="x",
                 label="event loop waiting for a CPU (%)")
    axes[2].lines[0].set_label("server CPU (% of a core)")
    axes[2].legend()
    figure.suptitle(f"One process on SQLite; 1-minute load {min(r['load_average_1min'] for r in results):.1f}"
                    f" to {max(r['load_average_1min'] for r in results):.1f}")
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_load_arguments(parser, warmup=5.0, seconds=60.0)
    parser.add_argument("--sweep", type=lambda text: [int(n) for n in text.split(",")],
                        help="numbers of bot tables, e.g. 500,1000,2000,4000: one server each")
    parser.add_argument("--stop-ms", type=float, default=100.0, help="a sweep stops past this p99 (0: never)")
    parser.add_argument("--plot", help="a sweep's PNG")
    args = parser.parse_args()
    if args.sweep:
        results = sweep(args)
        if args.plot:
            plot(results, args.plot)
        return
    result = asyncio.run(bench(args))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

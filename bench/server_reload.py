"""Reloads of evicted finished tables, and what they cost everyone else (issue 26, item 3).

Starts a real `unokart serve` (a subprocess, fresh SQLite file, `--idle 1`: a table out of play leaves memory
a second or two after its last visitor), plays --games games of four random bots to their end (a target
score of --target, so each record is long), waits for them to leave memory, then for --seconds:

- one websocket client, watching another table, sends a ping every 20 ms and times each pong;
- another client loops `GET /api/tables/{code}` over the finished tables, each of which has to be reloaded
  (read and replayed) whenever it has been evicted again.

It reports the ping's p50, p99 and maximum with the GET loop running and, first, for as long without it,
and the reloads a second. Run it on two checkouts (PYTHONPATH) to compare:

    .venv/bin/python bench/server_reload.py --games 60 --target 300 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import free_port  # noqa: E402


def quantile(values: list[float], q: int) -> float:
    return statistics.quantiles(sorted(values), n=100, method="inclusive")[q - 1] if len(values) > 1 else float("nan")


async def pings(url: str, code: str, seconds: float) -> list[float]:
    rtts = []
    async with websockets.connect(f"{url.replace('http', 'ws')}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "watch"}))
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while json.loads(await ws.recv()).get("re") != n:
                pass
            rtts.append(time.perf_counter() - sent)
            await asyncio.sleep(0.02)
    return rtts


async def reloads(http: httpx.AsyncClient, codes: list[str], stop: asyncio.Event) -> list[float]:
    """Each GET's time. With enough tables, each is evicted again before the loop comes back to it (its idle
    second passes), so every GET reloads, whatever version of the server is measured."""
    times = []
    while not stop.is_set():
        for code in codes:
            sent = time.perf_counter()
            assert (await http.get(f"/api/tables/{code}")).status_code == 200
            times.append(time.perf_counter() - sent)
            if stop.is_set():
                break
    return times


async def finished_tables(http: httpx.AsyncClient, args) -> list[str]:
    bots = {str(seat): "random" for seat in range(4)}
    codes = [(await http.post("/api/tables", json={"seats": 4, "bots": bots, "start": True,
                                                   "options": {"target_score": args.target}})).json()["code"]
             for _ in range(args.games)]
    while True:
        statuses = [(await http.get(f"/api/tables/{code}")).json()["status"] for code in codes]
        if all(status == "game_over" for status in statuses):
            return codes
        await asyncio.sleep(1.0)


def stats(rtts: list[float]) -> dict:
    return {"pings": len(rtts), "p50_ms": round(quantile(rtts, 50) * 1000, 2),
            "p99_ms": round(quantile(rtts, 99) * 1000, 2), "max_ms": round(max(rtts) * 1000, 2)}


async def bench(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="unokart-reload-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "unokart.cli", "serve", "--port", str(port), "--db", str(folder / "bench.sqlite"),
         "--bot-delay", "0", "--round-pause", "0", "--idle", "1", "--http-rate", "10000", "--rate-limit", "100",
         "--tables-per-address", "0", "--unattended", "0"],
        stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "wb"))
    try:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            for _ in range(600):
                try:
                    if (await http.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.05)
            codes = await finished_tables(http, args)
            watched = (await http.post("/api/tables", json={"seats": 2})).json()["code"]
            await asyncio.sleep(4.0)  # idle 1 s, swept every second: every finished table is out of memory
            quiet = await pings(url, watched, args.seconds)
            stop = asyncio.Event()
            loop_task = asyncio.create_task(reloads(http, codes, stop))
            busy = await pings(url, watched, args.seconds)
            stop.set()
            fetched = await loop_task
        return {"games": args.games, "target_score": args.target, "seconds": args.seconds,
                "alone": stats(quiet), "while_reloading": stats(busy),
                "gets_per_second": round(len(fetched) / args.seconds, 1),
                "get_p50_ms": round(quantile(fetched, 50) * 1000, 1), "load_average_1min": os.getloadavg()[0]}
    finally:
        server.terminate()
        server.wait(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="finished tables (enough that each GET reloads)")
    parser.add_argument("--target", type=int, default=300, help="each game's target score (longer records)")
    parser.add_argument("--seconds", type=float, default=20.0)
    print(json.dumps(asyncio.run(bench(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()

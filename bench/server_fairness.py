"""Bots share the machine fairly: a table's bot latency while --heavy tables of the most expensive bots play.

Starts a real `unokart serve` (default settings: --bot-delay 0.8, one search process), watches one table of
two default `ismcts` bots and times the gap between its moves (the bot delay plus thinking plus waiting for
the search process), first alone, then while --heavy tables of four `ismcts:500` bots (the most a client may
ask for) play at the same time. Fair scheduling keeps the second close to the first.

    .venv/bin/python bench/server_fairness.py                 # 10 heavy tables, 40 moves each way
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def gaps(url: str, moves: int) -> list[float]:
    """Seconds between consecutive moves of a fresh table of two default ISMCTS bots."""
    table = httpx.post(url + "/api/tables", json={"seats": 2, "start": True, "bots": {"0": "ismcts", "1": "ismcts"},
                                                  "options": {"target_score": 5000}}).json()
    out: list[float] = []
    async with websockets.connect(url.replace("http", "ws") + "/ws/" + table["code"], max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "watch"}))
        last_version, last_time = None, None
        while len(out) < moves:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] != "state" or message["view"]["awaiting"] in ("round_over", "game_over"):
                last_version = None
                continue
            now = time.monotonic()
            if last_version is not None and message["version"] == last_version + 1:
                out.append(now - last_time)
            last_version, last_time = message["version"], now
    return out


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"median {statistics.median(values):.2f} s, p99 {p99:.2f} s, max {max(values):.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heavy", type=int, default=10)
    parser.add_argument("--level", default="ismcts:500")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--gaps", action="store_true", help="print every gap, in order, beside the summary")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "unokart.cli", "serve", "--port", str(port),
                                   "--db", str(Path(tmp) / "fair.sqlite"), "--http-rate", "1000",
                                   "--tables-per-address", "0", "--unattended", "0"],
                                  stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / "server.log", "w"))
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    httpx.get(url + "/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            alone = asyncio.run(gaps(url, args.moves))
            print(f"alone:                  {summary(alone)}", flush=True)
            for _ in range(args.heavy):
                response = httpx.post(url + "/api/tables", json={
                    "seats": 4, "start": True, "bots": {str(s): args.level for s in range(4)},
                    "options": {"target_score": 5000}})
                response.raise_for_status()
            busy = asyncio.run(gaps(url, args.moves))
            print(f"beside {args.heavy} tables of {args.level}: {summary(busy)}", flush=True)
            if args.gaps:
                print("gaps:", " ".join(f"{gap:.2f}" for gap in busy), flush=True)
            print(json.dumps({"alone_median_s": round(statistics.median(alone), 2),
                              "busy_median_s": round(statistics.median(busy), 2),
                              "busy_max_s": round(max(busy), 2), "heavy_tables": args.heavy, "level": args.level}))
        finally:
            server.terminate()
            server.wait(30)
            failures = [line for line in (Path(tmp) / "server.log").read_text().splitlines() if "ERROR" in line]
            print(f"bot failures logged by the server: {len(failures)}", *failures[:3], sep="\n")
            if failures:
                Path("/tmp/fairness-server.log").write_text((Path(tmp) / "server.log").read_text())


if __name__ == "__main__":
    main()

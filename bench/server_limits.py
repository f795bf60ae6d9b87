"""The server's footprint stays bounded: the database's write-ahead log, and memory after many finished tables.

Starts a real `unokart serve` (a subprocess, fresh SQLite file, bots at full speed) and measures:

1. disk: --games all-bot games of four heuristics to 500 points, sampling the database and its
   write-ahead log every second, then after --settle seconds idle;
2. memory: --tables tiny all-bot tables (two heuristic bots, hand of 1, target 1) created and finished,
   sampling the server's RSS, then again once idle tables have left memory (--idle).

    .venv/bin/python bench/server_limits.py                        # 200 games, 10,000 tables
    .venv/bin/python bench/server_limits.py --games 20 --tables 1000

Prints one line per phase and a JSON summary; --plot FILE draws the samples.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def size_mb(path: Path) -> float:
    return path.stat().st_size / 2**20 if path.exists() else 0.0


def serve(db: Path, idle: float) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "unokart.cli", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0",
         "--round-pause", "0", "--http-rate", "100000", "--max-tables", "100000", "--idle", str(idle),
         "--tables-per-address", "0", "--unattended", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, healthy(proc, port)


def healthy(proc: subprocess.Popen, port: int) -> str:
    """The server's URL once it answers /api/health; a server that never does is stopped."""
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def finished_games(url: str) -> int:
    return len(httpx.get(url + "/api/games", timeout=30).json()["games"])


def disk(args, folder: Path) -> dict:
    db = folder / "disk.sqlite"
    wal = Path(str(db) + "-wal")
    proc, url = serve(db, idle=args.idle)
    samples = []
    try:
        for _ in range(args.games):
            httpx.post(url + "/api/tables", timeout=30, json={
                "seats": 4, "start": True, "bots": {str(s): "heuristic" for s in range(4)}})
        start = time.monotonic()
        while True:
            time.sleep(1)
            done = finished_games(url)
            samples.append((time.monotonic() - start, size_mb(db), size_mb(wal), done))
            print(f"  {samples[-1][0]:6.0f} s  db {samples[-1][1]:7.1f} MB  wal {samples[-1][2]:7.1f} MB  "
                  f"games {done}/{args.games}", flush=True)
            if done >= min(args.games, 200):  # /api/games lists the newest 200
                break
        time.sleep(args.settle)
        after = (size_mb(db), size_mb(wal))
    finally:
        proc.terminate()
        proc.wait(30)
    return {"games": args.games, "seconds": round(samples[-1][0]), "db_mb": round(after[0], 1),
            "wal_max_mb": round(max(s[2] for s in samples), 1), "wal_after_mb": round(after[1], 1),
            "samples": samples}


def memory(args, folder: Path) -> dict:
    proc, url = serve(folder / "memory.sqlite", idle=args.idle)
    samples = []
    start = time.monotonic()
    try:
        baseline = rss_mb(proc.pid)
        with httpx.Client(timeout=30) as client:
            for number in range(args.tables):
                client.post(url + "/api/tables", json={
                    "seats": 2, "start": True, "bots": {"0": "heuristic", "1": "heuristic"},
                    "options": {"hand_size": 1, "target_score": 1}})
                if number % 500 == 0:
                    samples.append((time.monotonic() - start, rss_mb(proc.pid), number))
                    print(f"  {samples[-1][0]:6.0f} s  rss {samples[-1][1]:7.1f} MB  tables {number}", flush=True)
        peak = max(rss_mb(proc.pid), max(s[1] for s in samples))
        in_memory = len(httpx.get(url + "/api/tables", timeout=30).json()["tables"])
        time.sleep(args.idle + min(30, max(args.idle, 1)) + 2)  # idle, then the next sweep
        for _ in range(3):
            samples.append((time.monotonic() - start, rss_mb(proc.pid), args.tables))
            time.sleep(1)
        after = rss_mb(proc.pid)
        left = len(httpx.get(url + "/api/tables", timeout=30).json()["tables"])
    finally:
        proc.terminate()
        proc.wait(30)
    return {"tables": args.tables, "rss_start_mb": round(baseline, 1), "rss_peak_mb": round(peak, 1),
            "rss_after_idle_mb": round(after, 1), "listed_before": in_memory, "listed_after": left,
            "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tables", type=int, default=10000)
    parser.add_argument("--idle", type=float, default=10.0, help="the server's --idle (seconds)")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds idle before the last disk sample")
    parser.add_argument("--skip-disk", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    summary: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_disk:
            print(f"disk: {args.games} games of four heuristics to 500", flush=True)
            summary["disk"] = disk(args, Path(tmp))
        if not args.skip_memory:
            print(f"memory: {args.tables} tiny tables of two heuristic bots", flush=True)
            summary["memory"] = memory(args, Path(tmp))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(1, 2, figsize=(11, 4))
        if "disk" in summary:
            t, db, wal, _ = zip(*summary["disk"]["samples"])
            axes[0].plot(t, db, label="database")
            axes[0].plot(t, wal, label="write-ahead log")
            axes[0].set(title=f"{args.games} bot games", xlabel="seconds", ylabel="MB")
            axes[0].legend()
        if "memory" in summary:
            t, rss, _ = zip(*summary["memory"]["samples"])
            axes[1].plot(t, rss)
            axes[1].set(title=f"{args.tables} finished tables", xlabel="seconds", ylabel="server RSS (MB)")
        figure.tight_layout()
        figure.savefig(args.plot, dpi=100)
    for phase in summary.values():
        phase.pop("samples")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()

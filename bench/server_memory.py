"""Memory of finished tables (issue 26, item 2): a real `unokart serve` per source tree, in one run.

For each --src (a checkout's `src`; default this one), a fresh server on a fresh SQLite file plays --games
all-bot games (four random bots to --target) at full speed, --concurrent of them at a time (a new one
starts as one ends); as each game ends, two spectators (English and Tamil) connect, read the whole state
and leave, as players looking at the final scores would. The server's
RSS is sampled fresh, with every game finished, after the idle tables have left memory (--idle), and after
each finished table was fetched again (GET /api/tables/CODE: a reload).

    .venv/bin/python bench/server_memory.py --games 100 --src /path/to/main/src --src src

Progress goes to stderr, a line every 50 games. --trim-probe (needs gdb) asks the server's C allocator
to give its free memory back (glibc's malloc_trim(0), called through gdb) once the tables are evicted, and
samples the RSS again: whether the server calling it itself would matter.

Prints one line per server and a JSON summary (MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_limits import free_port, healthy, rss_mb  # noqa: E402


def serve(src: Path, db: Path, idle: float) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(src), "UNOKART_BUILD": "pure"}
    flags = ["--bot-delay", "0", "--round-pause", "0", "--http-rate", "100000", "--rate-limit", "1000",
             "--max-tables", "100000", "--idle", str(idle)]
    shown = subprocess.run([sys.executable, "-m", "unokart.cli", "serve", "--help"], env={**env, "COLUMNS": "300"},
                           capture_output=True, text=True).stdout
    if "--unattended" in shown:  # a tree with the lock-out guards: off, as for any bench of bot tables
        flags += ["--tables-per-address", "0", "--unattended", "0"]
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "unokart.cli", "serve", "--port", str(port), "--db", str(db), *flags],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, healthy(proc, port)


async def look(url: str, code: str) -> None:
    for lang in ("en", "ta"):
        async with websockets.connect(url.replace("http", "ws") + f"/ws/{code}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "watch", "lang": lang}))
            for _ in range(3):  # welcome, the whole state, chat history
                await asyncio.wait_for(ws.recv(), 30)


def one(src: Path, args: argparse.Namespace, folder: Path) -> dict:
    proc, url = serve(src, folder / f"{len(list(folder.iterdir()))}.sqlite", args.idle)
    try:
        time.sleep(2)
        fresh = rss_mb(proc.pid)
        body = {"seats": 4, "bots": {str(s): "random" for s in range(4)}, "start": True,
                "options": {"target_score": args.target}}
        codes: list[str] = []
        pending: set[str] = set()
        started = time.monotonic()
        while len(codes) < args.games or pending:
            while len(pending) < args.concurrent and len(codes) < args.games:
                code = httpx.post(url + "/api/tables", json=body, timeout=30).json()["code"]
                codes.append(code)
                pending.add(code)
            for code in list(pending):
                if httpx.get(f"{url}/api/tables/{code}", timeout=30).json()["status"] == "game_over":
                    asyncio.run(look(url, code))
                    pending.discard(code)
                    done = len(codes) - len(pending)
                    if done % 50 == 0:
                        print(f"  {done}/{args.games} games over, {time.monotonic() - started:.0f} s, "
                              f"RSS {rss_mb(proc.pid):.1f} MB", file=sys.stderr, flush=True)
            time.sleep(0.2)
        finished = rss_mb(proc.pid)
        time.sleep(args.idle + 35)  # the sweep runs every min(30 s, --idle)
        evicted = rss_mb(proc.pid)
        trimmed = trim(proc.pid) if args.trim_probe else None
        for code in codes:
            httpx.get(f"{url}/api/tables/{code}", timeout=30)
        reloaded = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
    return {"src": str(src), "games": args.games, "concurrent": args.concurrent, "fresh": round(fresh, 1), "finished": round(finished, 1),
            "evicted": round(evicted, 1), "evicted_then_trimmed": trimmed, "reloaded": round(reloaded, 1)}


def trim(pid: int) -> float:
    """The RSS after glibc's malloc_trim(0) in the process ``pid`` (called through gdb, which pauses it)."""
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int) malloc_trim(0)"],
                   capture_output=True, timeout=120, check=True)
    return round(rss_mb(pid), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--concurrent", type=int, default=50, help="games in play at once")
    parser.add_argument("--idle", type=float, default=2.0)
    parser.add_argument("--src", type=Path, action="append")
    parser.add_argument("--trim-probe", action="store_true", help="RSS after malloc_trim(0) too (gdb)")
    args = parser.parse_args()
    import tempfile

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for src in args.src or [Path(__file__).resolve().parents[1] / "src"]:
            result = one(src.resolve(), args, Path(tmp))
            print(f"{result['src']}: RSS fresh {result['fresh']} MB, {args.games} finished {result['finished']} MB, "
                  f"evicted {result['evicted']} MB (trimmed {result['evicted_then_trimmed']}), reloaded {result['reloaded']} MB", flush=True)
            results.append(result)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

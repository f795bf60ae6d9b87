"""A tournament spread over a Ray cluster (``unokart simulate --ray``): the same games as a local run.

Every game depends only on the tournament's seed and the game's index
(tournament.py), so games can run anywhere: Ray tasks each play a chunk of
game indices with ``play_indexed`` itself and return what happened; the
driver puts the games back in index order, so the summary is the local one
for the same seed (decision times aside, which are the machines' own).

Records are written by the driver: a worker may be another machine, so each
task writes its records in a temporary folder of its own, reads them back and
returns them. Workers need unokart installed (the same version); Ray itself is
the optional extra ``scale`` (``pip install 'unokart[scale]'``).
"""

from __future__ import annotations

import math
import socket
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable

from .tournament import Played, Setup, play_indexed

TASKS_PER_CPU = 4  # chunks small enough to balance uneven games, large enough that task overhead stays small


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached (``reason`` says which)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def play_chunk(setup: Setup, indices: list[int]) -> tuple[list[Played], dict[int, str]]:
    """Games ``indices`` of the tournament, with their records' JSON text when records are kept."""
    if setup.records is None:
        return [play_indexed(setup, i) for i in indices], {}
    with tempfile.TemporaryDirectory(prefix="unokart-ray-") as folder:
        played = [play_indexed(replace(setup, records=folder), i) for i in indices]
        texts = {i: (Path(folder) / record_name(i)).read_text(encoding="utf-8") for i in indices}
    return played, texts


def record_name(index: int) -> str:
    """The file a game's record is saved as (the same name a local run gives it)."""
    return f"game-{index + 1:06d}.json"


def chunks(games: int, cpus: int) -> list[list[int]]:
    """Game indices cut into about ``TASKS_PER_CPU`` tasks per CPU of the cluster."""
    size = max(1, math.ceil(games / max(1, cpus * TASKS_PER_CPU)))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def connect(address: str | None, cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address`` or start a local one; True when this call started Ray."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("not_installed") from None
    if ray.is_initialized():
        return False
    import logging
    import os

    address = address or os.environ.get("RAY_ADDRESS") or None  # Ray's own convention for "the cluster"

    if address and address != "auto":
        reachable(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            # A local cluster of this machine's cores (or --jobs of them); no dashboard to serve.
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise RayUnavailable(str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__) from None
    return True


def reachable(address: str, seconds: float = 5.0) -> None:
    """A quick TCP check of ``[ray://]HOST:PORT``: ray.init waits minutes on an address where nothing listens."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # not HOST:PORT: Ray judges it itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as err:
        raise RayUnavailable(err.strerror or str(err) or type(err).__name__) from None


def run_ray(setup: Setup, games: int, address: str | None = None, cpus: int | None = None,
            on_game: Callable[[int], None] | None = None) -> list[Played]:
    """Play games ``0 .. games-1`` on a Ray cluster; results come back in game order, as ``tournament.run``'s.
    Interrupted (Ctrl-C), it returns the games finished so far."""
    import ray

    started = connect(address, cpus)
    try:
        if setup.records is not None:
            Path(setup.records).mkdir(parents=True, exist_ok=True)
        task = ray.remote(play_chunk)
        total_cpus = int(ray.cluster_resources().get("CPU", 1))
        shared = ray.put(setup)
        pending = [task.remote(shared, indices) for indices in chunks(games, total_cpus)]
        done: list[Played] = []
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                played, texts = ray.get(ready[0])
                for index, text in texts.items():
                    (Path(setup.records) / record_name(index)).write_text(text, encoding="utf-8")
                done.extend(played)
                if on_game:
                    on_game(len(played))
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
        done.sort(key=lambda p: p.index)
        return done
    finally:
        if started:
            ray.shutdown()

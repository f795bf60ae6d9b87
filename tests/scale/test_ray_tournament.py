"""`unokart simulate --ray`: a tournament spread over a real (local) Ray cluster plays the local run's games.

Both runs are the real command; the summaries must agree on everything but
decision times (the machines' own), and every saved record must be the same
file, since each game depends only on the seed and its index.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("ray", reason="Ray is the optional 'scale' extra (./test.sh installs it)")

ARGS = ["simulate", "--bots", "heuristic,random,easy", "--games", "15", "--seed", "11", "-o", "target_score=200", "--json"]


def _simulate(*extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "UNOKART_LANG": "en"}
    env.pop("RAY_ADDRESS", None)  # a local cluster, started and stopped by the command
    return subprocess.run([sys.executable, "-m", "unokart.cli", *ARGS, *extra], capture_output=True, text=True,
                          env=env, timeout=600)


def _without_times(summary: dict) -> dict:
    for bot in summary["bots"]:
        assert bot.pop("decision_ms") >= 0
    return summary


def test_a_ray_tournament_gives_the_local_runs_results_and_records(tmp_path):
    local = _simulate("--records", str(tmp_path / "local"))
    assert local.returncode == 0, local.stderr
    spread = _simulate("--ray", "--jobs", "2", "--records", str(tmp_path / "ray"))
    assert spread.returncode == 0, spread.stderr
    assert _without_times(json.loads(spread.stdout)) == _without_times(json.loads(local.stdout))
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert len(names) == 15 and names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in names:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


def test_an_unreachable_cluster_is_one_sentence_before_any_game(tmp_path):
    import socket

    with socket.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = _simulate("--ray-address", f"127.0.0.1:{port}", "--records", str(tmp_path / "none"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"error: cannot start or reach the Ray cluster 127.0.0.1:{port}: Connection refused"

"""Every script in bench/ starts and explains itself (a moved helper once broke bench/scale.py unseen)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(BENCH.glob("*.py"))


def test_the_bench_folder_holds_the_benchmarks():
    assert {"engine.py", "batch_env.py", "server.py", "scale.py", "server_fairness.py"} <= {p.name for p in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_bench_script_answers_help(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                          cwd=BENCH.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout

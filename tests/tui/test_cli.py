"""``unokart play`` refuses bad arguments with one clear sentence and exit code 2, before any screen opens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

UNOKART = str(Path(sys.executable).with_name("unokart"))


def play(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([UNOKART, "play", *args], capture_output=True, text=True, timeout=60)


def test_bad_local_arguments_are_named():
    cases = {
        ("--bots", "nobody"): "error: Bad bot level: unknown bot 'nobody'",
        ("--bots", " , "): "error: Bad bot level: --bots needs at least one bot level",
        ("-o", "bogus"): "error: Bad house rule: There is no house rule named 'bogus'",
        ("-o", "hand_size=20", "--players", "6"): "error: Bad house rule: R3.2 6 hands of 20 cards do not fit",
        ("--players", "11"): "error: A game has 2 to 10 players (R2.1), not 11.",
    }
    for args, start in cases.items():
        result = play(*args)
        assert result.returncode == 2 and result.stderr.startswith(start), (args, result.stderr)
        assert "Traceback" not in result.stderr and result.stdout == ""

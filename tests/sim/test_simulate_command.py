"""``unokart simulate``: table, JSON, plot and records from the real command; bad input refused clearly."""

import json
import subprocess
import sys

import pytest

UNOKART = [sys.executable, "-m", "unokart.cli"]


def simulate(*args, cwd=None):
    return subprocess.run(UNOKART + ["simulate", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_json_summary_has_every_bot_with_its_interval(tmp_path):
    done = simulate("--bots", "heuristic,random", "--games", "6", "--seed", "3", "--target", "150", "--jobs", "2",
                    "--json", "--plot", str(tmp_path / "win.png"), "--records", str(tmp_path / "records"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 6
    assert [b["name"] for b in summary["bots"]] == ["heuristic", "random"]
    for bot in summary["bots"]:
        lo, hi = bot["ci95"]
        assert 0 <= lo <= bot["win_rate"] <= hi <= 1
        assert {"round_win_rate", "points_per_round", "decision_ms", "rating"} <= set(bot)
    assert sum(b["win_rate"] for b in summary["bots"]) == pytest.approx(1.0)
    assert (tmp_path / "win.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list((tmp_path / "records").glob("*.json"))) == 6
    assert "games/s" in done.stderr


def test_table_names_each_bot_and_a_cycled_lineup_fills_the_table():
    done = simulate("--bots", "heuristic,easy", "--players", "3", "--games", "3", "--target", "100")
    assert done.returncode == 0, done.stderr
    assert "heuristic" in done.stdout and "easy" in done.stdout and "3 players" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["--bots", "grandmaster"], "unknown bot 'grandmaster'"),
    (["--bots", "ismcts:zero"], "budget"),
    (["--bots", "random", "--players", "11"], "R2.1"),
    (["--bots", "random,random", "--option", "teleport"], "unknown option 'teleport'"),
    (["--bots", "random,random", "--games", "0"], "--games"),
    (["--bots", "random,random", "--target", "0"], "target_score"),
    (["--bots", "random,random", "--plot", "/no/such/folder/win.png"], "cannot write the plot"),
])
def test_bad_input_gets_one_clear_sentence_and_no_traceback(args, message):
    done = simulate(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr + done.stdout

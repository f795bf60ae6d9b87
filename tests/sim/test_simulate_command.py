"""``unokart simulate``: table, JSON, plot and records from the real command; bad input refused clearly."""

import json
import subprocess
import sys

import pytest

from unokart.rules.options import options_from_text

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
    (["--bots", "random,random", "--option", "teleport"], "There is no house rule named 'teleport'"),
    (["--bots", "random,random", "--games", "0"], "--games"),
    (["--bots", "random,random", "--target", "0"], "target_score"),
    (["--bots", "random,random", "--plot", "/no/such/folder/win.png"], "cannot write the plot"),
])
def test_bad_input_gets_one_clear_sentence_and_no_traceback(args, message):
    done = simulate(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


# ---------------------------------------------------------------- issue 15: the doors of simulate
@pytest.mark.parametrize("args, message", [
    # A table whose hands do not fit the deck was a 70-line traceback from a worker.
    (["--bots", "random,random", "-o", "hand_size=200"], "2 hands of 200 cards do not fit in the deck."),
    # A policy bot whose model file is missing was a 56-line traceback.
    (["--bots", "policy:missing.zip,heuristic"], "there is no model file missing.zip for the policy bot"),
    # "maybe" was taken for off; the refusal names what is accepted.
    (["--bots", "random,random", "-o", "stacking=maybe"], "(true/false, yes/no, on/off, 1/0), not 'maybe'"),
    # "abc" was reported as "not False".
    (["--bots", "random,random", "-o", "hand_size=abc"], "must be a positive whole number, not 'abc'"),
])
def test_a_bad_setup_is_one_sentence_before_any_game(args, message, tmp_path):
    done = simulate(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert "Traceback" not in done.stderr + done.stdout and not done.stdout


def test_records_refuse_a_bot_name_longer_than_a_record_name(tmp_path):
    model = tmp_path / ("a_model_with_a_rather_long_name" + ".zip")
    model.write_bytes(b"not a model")
    done = simulate("--bots", f"policy:{model},random", "--records", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2 and "at most 24 characters" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.parametrize("spelling, on", [("1", True), ("YES", True), ("on", True), ("true", True),
                                          ("0", False), ("no", False), ("Off", False), ("false", False)])
def test_option_spellings_of_on_and_off_are_accepted(spelling, on):
    assert options_from_text([f"stacking={spelling}"]) == {"stacking": on}


def test_stacking_1_plays_with_stacking():
    done = simulate("--bots", "random,random", "--games", "2", "--target", "60", "-o", "stacking=1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"]["stacking"] is True


def test_the_table_fits_80_columns_and_long_names_are_written_out_below_it(tmp_path):
    model_free = ["heuristic", "ismcts:0", "random", "easy"]
    done = simulate("--bots", ",".join(model_free), "--games", "4", "--target", "60", "--seed", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= 80, lines
    assert "…" not in done.stdout
    from unokart.levels import level_label as label

    shown = [label(name, "en") for name in model_free]  # as players see each level: "good (heuristic)"
    for name in shown:
        assert any(line.startswith(name + " ") for line in lines), (name, lines)
    # Interval bounds keep both decimals (99.96 is not 100).
    assert all(line.count(".") >= 5 for line in lines if any(line.startswith(name + " ") for name in shown))


def test_the_table_numbers_a_long_bot_name_and_names_it_in_full_below():
    from unokart.sim.cli import table_lines

    long_name = "ismcts:2000ms" + "x" * 30
    summary = {"games": 10, "players": 2, "seed": 1, "bots": [
        {"name": name, "seats": 1, "win_rate": 0.9996, "ci95": [0.9812, 1.0], "round_win_rate": 0.5,
         "points_per_round": 123.4, "decision_ms": 1234.5, "rating": {"ordinal": -12.3}}
        for name in ("heuristic", long_name)]}
    for lang in ("en", "ta", "kn", "te", "sd"):
        import os

        os.environ["UNOKART_LANG"] = lang
        try:
            lines = table_lines(summary)
        finally:
            del os.environ["UNOKART_LANG"]
        from rich.cells import cell_len

        assert max(cell_len(line) for line in lines) <= 80, (lang, lines)
        assert any(line.startswith("#2 ") for line in lines) and lines[-1].endswith(long_name)
        assert any("98.12-100.00" in line for line in lines)

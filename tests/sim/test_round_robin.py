"""``unokart simulate --round-robin``: every pairing at every table size, saved as it goes, usable when stopped."""

import json
import os
import subprocess
import sys

import pytest

from unokart.sim.roundrobin import pairings, run_round_robin

UNOKART = [sys.executable, "-m", "unokart.cli"]
SHORT = {"target_score": 100}  # short games: the schedule and the sums are what is tested


def test_every_pair_of_levels_meets_once_at_each_table_size():
    found = [(p.players, p.a, p.b, p.target) for p in pairings(["random", "easy", "heuristic"], [2, 4], 5)]
    assert found == [(2, "random", "easy", 6), (2, "random", "heuristic", 6), (2, "easy", "heuristic", 6),
                     (4, "random", "easy", 8), (4, "random", "heuristic", 8), (4, "easy", "heuristic", 8)]


def test_sides_share_every_game_and_the_file_saved_is_the_result(tmp_path):
    save = tmp_path / "rr.json"
    doc = run_round_robin(["random", "easy"], [2, 4], 4, 7, SHORT, save, chunk=2)
    assert json.loads(save.read_text(encoding="utf-8")) == doc
    assert doc["finished"] and [r["players"] for r in doc["pairings"]] == [2, 4]
    for row in doc["pairings"]:
        a, b = row["sides"]
        assert row["games"] == 4 and a["games_won"] + b["games_won"] == 4  # one winner a game, none abandoned
        assert row["summary"]["lineup"] == ["random", "easy"] * (row["players"] // 2)  # the levels alternate
        for side in (a, b):
            lo, hi = side["ci95"]
            assert 0 <= lo <= side["share"] <= hi <= 1


def test_the_cheapest_pairing_so_far_plays_next_and_a_stopped_run_keeps_whole_blocks(tmp_path, monkeypatch):
    from unokart.sim import roundrobin

    ticks = [0.0]  # a fake clock: a game with "careful" in it takes 3 seconds, others 1
    real_play = roundrobin.play_indexed

    def play_and_tick(setup, index):
        ticks[0] += 3.0 if "careful" in setup.lineup else 1.0
        return real_play(setup, index)

    monkeypatch.setattr(roundrobin, "play_indexed", play_and_tick)
    order = []

    def on_game(pairing):
        order.append((pairing.a, pairing.b))
        if len(order) == 11:
            raise KeyboardInterrupt

    save = tmp_path / "rr.json"
    doc = run_round_robin(["random", "easy", "careful"], [2], 100, 1, SHORT, save, on_game,
                          clock=lambda: ticks[0], chunk=2)
    # chunks of 2: (random, easy) 2 s, (random, careful) 6 s, (easy, careful) 6 s; then (random, easy) until it
    # has had as much time (ties go to the first listed)
    assert order[:6] == [("random", "easy")] * 2 + [("random", "careful")] * 2 + [("easy", "careful")] * 2
    assert order[6:] == [("random", "easy")] * 5
    games = {tuple(r["levels"]): r["games"] for r in doc["pairings"]}
    assert games == {("random", "easy"): 6, ("random", "careful"): 2, ("easy", "careful"): 2}  # the 7th dropped
    assert not doc["finished"] and json.loads(save.read_text(encoding="utf-8")) == doc


def test_the_command_plays_the_ladder_by_default_and_writes_markdown_and_a_plot(tmp_path):
    done = subprocess.run(UNOKART + ["simulate", "--round-robin", "--bots", "random,easy", "--table-sizes", "2",
                                     "--games", "2", "--target", "100", "--results", str(tmp_path / "rr.json"),
                                     "--plot", str(tmp_path / "rr.png")],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "UNOKART_LANG": "en"})
    assert done.returncode == 0, done.stderr
    assert "| beginner (random) | easy | 2 |" in done.stdout
    assert (tmp_path / "rr.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((tmp_path / "rr.json").read_text(encoding="utf-8"))["levels"] == ["random", "easy"]
    again = subprocess.run(UNOKART + ["simulate", "--from-results", str(tmp_path / "rr.json")],
                           capture_output=True, text=True, timeout=120, env={**os.environ, "UNOKART_LANG": "en"})
    assert again.returncode == 0 and again.stdout == done.stdout  # the saved run's tables, no game played again


@pytest.mark.parametrize("content, reason", [(None, "no such file or folder"), ("{", "not valid JSON (line 1, column 2)"),
                                             ('{"games": 3}', "not a round robin")])
def test_a_file_that_is_no_saved_round_robin_is_refused(tmp_path, content, reason):
    path = tmp_path / "rr.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = subprocess.run(UNOKART + ["simulate", "--from-results", str(path)],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "UNOKART_LANG": "en"})
    assert done.returncode == 2 and f"cannot read the round robin {path}" in done.stderr and reason in done.stderr


@pytest.mark.parametrize("args, message", [
    (["--table-sizes", "2,11"], "--table-sizes takes table sizes from 2 to 10"),
    (["--table-sizes", "four"], "--table-sizes takes table sizes from 2 to 10"),
    (["--bots", "random"], "a round robin needs 2 to 100 different levels"),
    (["--bots", "random,easy,random"], "a round robin needs 2 to 100 different levels"),
    (["--results", "/no/such/folder/rr.json"], "cannot write the results"),
])
def test_a_bad_round_robin_is_refused_in_one_sentence(args, message):
    done = subprocess.run(UNOKART + ["simulate", "--round-robin", "--games", "2", *args],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "UNOKART_LANG": "en"})
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr

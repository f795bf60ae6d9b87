"""``unokart watch``: its random players are asked in the referee's order, so they also say UNO, catch and jump in."""

import os
import subprocess
import sys

ENV = {**os.environ, "UNOKART_LANG": "en", "COLUMNS": "200", "TERM": "dumb"}


def watch(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "watch", "--rounds", "1", *args],
                          capture_output=True, text=True, env=ENV, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_watchs_random_players_catch_out_of_turn():
    lines = watch("--players", "3", "--seed", "1").splitlines()
    # A turn starts with a line naming the seat to act and its hand; an event line is indented. A catch
    # right after an event, with no turn line between, was made out of turn (the old watch never did).
    out_of_turn = [line for before, line in zip(lines, lines[1:]) if before.startswith("  ") and "catches" in line]
    assert out_of_turn and all("who forgot to say UNO" in line for line in out_of_turn)


def test_watchs_random_players_jump_in():
    assert "jumps in with" in watch("--players", "4", "--seed", "1", "-o", "jump_in")

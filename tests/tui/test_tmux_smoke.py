"""The real command in a real 80x24 terminal (tmux): start, play a card, quit; the screen is captured."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from unokart.narrate import card_name
from unokart.rules.cards import FACE_CODE
from unokart.tui.local import local_table
from unokart.tui.render import sort_hand

from tui_helpers import ARTIFACTS

UNOKART = str(Path(sys.executable).with_name("unokart"))


def a_seed_where_ann_starts_with_a_playable_card() -> tuple[int, str, int]:
    """(seed, card, its key) for a 2-player game that Ann opens with a card she can play."""
    for seed in range(1, 200):
        game = local_table(2, "heuristic", "Ann", seed, {}, 0).game
        plays = [FACE_CODE[a.card] for a in game.legal_actions(0) if a.verb == "play" and a.card < 52]
        if game.to_act == 0 and plays:
            hand = sort_hand(game.view(0).to_json()["hands"][0])
            return seed, plays[0], hand.index(plays[0]) + 1
    raise AssertionError("no such seed")


def test_start_play_a_card_and_quit_in_tmux():
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    seed, code, key = a_seed_where_ann_starts_with_a_playable_card()
    socket = f"unokart-tui-{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    command = f"{UNOKART} play --players 2 --name Ann --seed {seed} --delay 0.3"  # the default bot: heuristic
    env = {**os.environ, "TERM": "xterm-256color", "UNOKART_LANG": "en"}
    subprocess.run([*tmux, "new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command], check=True, env=env)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", "play"], capture_output=True, text=True).stdout

    def wait_for(text: str) -> str:
        for _ in range(150):
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared on the screen:\n{shown}")

    try:
        started = wait_for("Ann to play")
        assert "0 Ann (you)" in started and "1 Mario" in started and "Top:" in started
        subprocess.run([*tmux, "send-keys", "-t", "play", str(key), "Enter"], check=True)
        played = wait_for(f"Ann plays {card_name(code)}.")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "tmux_smoke_capture.txt").write_text(played, encoding="utf-8")
        lines = played.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "Round 1" in lines[0] and " q  quit" in played
        subprocess.run([*tmux, "send-keys", "-t", "play", "q"], check=True)
        for _ in range(50):
            if subprocess.run([*tmux, "has-session", "-t", "play"], capture_output=True).returncode != 0:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("q did not quit:\n" + screen())
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)

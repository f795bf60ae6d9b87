"""The real command in a real 80x24 terminal (tmux): start, play a card, ask to quit, quit; the screen is captured."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from unokart.i18n import t
from unokart.narrate import card_name
from unokart.rules.cards import FACE_CODE
from unokart.tui.local import local_table
from unokart.tui.render import sort_hand

from helpers.tui import ARTIFACTS, Tmux

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
    """The real command in tmux: a card played with its digit and Enter; q asks first, a second q leaves."""
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    seed, code, key = a_seed_where_ann_starts_with_a_playable_card()
    command = f"{UNOKART} play --players 2 --name Ann --seed {seed} --delay 0.3"  # the default bot: heuristic
    term = Tmux(command, {"UNOKART_LANG": "en"})
    try:
        started = term.wait_for("Ann to play")
        assert "0 Ann (you)" in started and "1 Mario" in started and "Top:" in started
        term.keys(str(key), "Enter")
        played = term.wait_for(f"Ann plays {card_name(code)}.")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "tmux_smoke_capture.txt").write_text(played, encoding="utf-8")
        lines = played.rstrip("\n").splitlines()
        assert "Round 1" in lines[0]
        assert lines[-1].rstrip().endswith(" q  quit"), "the key line is the last line, whole"
        term.keys("q")
        asked = term.wait_for(t("tui.quit.confirm", "en"))
        assert term.alive(), "q mid-game asks before leaving:\n" + asked
        term.keys("x")  # any other key: back to the game
        back = term.wait_without(t("tui.quit.confirm", "en"))
        assert "Ann plays" in back and term.alive()
        term.keys("q")
        term.wait_for(t("tui.quit.confirm", "en"))
        term.keys("q")
        assert term.wait_closed(), "the second q did not quit:\n" + term.screen()
    finally:
        term.close()

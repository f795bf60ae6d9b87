"""80x24 holds everything: ten players, a big hand, the prompt and the key line."""

from __future__ import annotations

import re

from unokart.bots import make_bot
from unokart.rules import Game
from unokart.tui.app import PlayApp
from unokart.tui.local import LocalTable
from unokart.tui.render import face

from helpers.tui import ARTIFACTS, flat, screen_text, settle


async def test_ten_players_and_a_big_hand_fit_in_80x24():
    # 10 hands of 10 cards: Ann holds ten, and every seat line must still show.
    game = Game.new(["Ann"] + [f"Racer {i}" for i in range(1, 10)], seed=4, options={"hand_size": 10})
    table = LocalTable(game, {seat: make_bot("random") for seat in range(1, 10)}, seat=0, delay=0, seed=4)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        text = screen_text(app)
        lines = text.splitlines()
        for seat in range(1, 10):  # every seat whole: name, cards and points on one line
            line = next(line for line in lines if f"{seat} Racer {seat}" in line)
            part = line[line.index(f"{seat} Racer {seat}"):]
            assert re.match(rf"{seat} Racer {seat} +\d+ cards? +\d+ pts", part), line
        assert flat(app._prompt_text().plain) in flat(text), "the prompt is whole"
        assert "Ann (you)" in text
        hand = app.hand
        assert len(hand) >= 10
        assert all(face(code) in text for code in hand), "the hand is on screen, every card by its face"
        assert " q  quit" in lines[-1]  # the key line is the last line
        app.save_screenshot("ten_players_80x24.svg", path=str(ARTIFACTS))


async def test_a_narrower_terminal_packs_the_keys_again():
    from helpers.tui import scripted_table

    table = scripted_table(["R2", "G2", "R5", "B3", "G7", "B4", "G9"], dealer=1, hand_size=3)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert screen_text(app).splitlines()[-1].rstrip().endswith("q  quit")
        await pilot.resize_terminal(44, 24)
        await pilot.pause()
        await pilot.pause()
        lines = [line.rstrip() for line in screen_text(app).splitlines()]
        assert lines[-1].endswith("q  quit") and lines[-2].strip(), "the key line wrapped onto two lines"
        for key, label in app._keys():  # packed again for 44 columns: no key parted from its label
            assert any(f"{key}  {label}" in line for line in lines[-3:]), (key, label, lines[-3:])
        assert flat(app._prompt_text().plain) in flat("\n".join(lines)), "the prompt wrapped whole"

"""80x24 holds everything: ten players, a big hand, the prompt and the key line."""

from __future__ import annotations

from unokart.bots import make_bot
from unokart.rules import Game
from unokart.tui.app import PlayApp
from unokart.tui.local import LocalTable

from tui_helpers import ARTIFACTS, screen_text, settle


async def test_ten_players_and_a_big_hand_fit_in_80x24():
    # 10 hands of 10 cards: Ann holds ten, and every seat line must still show.
    game = Game.new(["Ann"] + [f"Racer {i}" for i in range(1, 10)], seed=4, options={"hand_size": 10})
    table = LocalTable(game, {seat: make_bot("random") for seat in range(1, 10)}, seat=0, delay=0, seed=4)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        for seat in range(1, 10):
            assert f"{seat} Racer {seat}" in text
        assert "Ann (you)" in text
        hand = app.hand
        assert len(hand) >= 10
        card_lines = [line for line in lines if hand[0] in line]
        assert card_lines, "the hand is on screen"
        assert all(code in text for code in hand)
        assert " q  quit" in lines[-1]  # the key line is the last line
        app.save_screenshot("ten_players_80x24.svg", path=str(ARTIFACTS))

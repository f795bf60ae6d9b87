"""A whole round against a bot, played only through keys on an 80x24 screen (Textual pilot)."""

from __future__ import annotations

from unokart.tui.app import PlayApp

from helpers.tui import ARTIFACTS, log_text, press_for_turn, screen_text, settle, two_player_table

# Ann: W+4 R5 R6; Luigi: G7 Y2 G9; first card B3, so Ann starts and her W+4 is innocent (no blue).
DEAL = ["W+4", "G7", "R5", "Y2", "R6", "G9", "B3"]


async def test_a_whole_round_with_a_colour_choice_and_an_uno_call():
    table = two_player_table(DEAL)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert app.hand == ["R5", "R6", "W+4"]  # sorted by colour, wild last
        # The Wild Draw Four, picked with its number key: Enter asks for the colour, r chooses red.
        await pilot.press("3", "enter")
        assert app.mode == "wild_color" and "choose its colour" in screen_text(app)
        await pilot.press("r")
        await settle(pilot, table)
        assert "Ann plays Wild Draw Four and chooses red." in log_text(app)
        # Two cards left: u arms UNO, Enter plays R5 with it.
        await pilot.press("1", "u")
        assert "UNO will be said with your next play" in screen_text(app)
        await pilot.press("enter")
        assert "Ann says UNO!" in log_text(app)
        await settle(pilot, table)
        for _ in range(300):
            if table.game.awaiting in ("round_over", "game_over"):
                break
            await press_for_turn(pilot, app)
            await settle(pilot, table)
        assert table.game.awaiting == "round_over", screen_text(app)
        summary = screen_text(app)
        winner = table.game.names[table.game.round_winner]
        assert f"Round 1: {winner} goes out and scores" in summary
        assert "n or Enter: next round" in summary
        app.save_screenshot("round_summary.svg", path=str(ARTIFACTS))
        # The next round is dealt from the summary with n.
        await pilot.press("n")
        await settle(pilot, table)
        assert table.game.round == 2
        assert "Round 2" in screen_text(app)

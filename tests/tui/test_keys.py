"""Every decision by keyboard: Green Shell target, challenge, catch, draw and keep, bad keys."""

from __future__ import annotations

from unokart.tui.app import PlayApp

from helpers.tui import log_text, press_for_turn, scripted_table, screen_text, settle


async def test_green_shell_target_then_a_won_challenge():
    # Ann: WIB R5 B7; Luigi: W+4 G2 G3; first card R1; the Item Box turns G9 (Green Shell).
    table = scripted_table(["WIB", "W+4", "R5", "G2", "B7", "G3", "R1", "G9"], dealer=1, hand_size=3)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert app.hand == ["R5", "B7", "WIB"]
        await pilot.press("3", "enter")
        assert table.game.awaiting == "target"
        assert "Green Shell: press the seat it hits (1 Luigi)" in screen_text(app)
        await pilot.press("1")
        await settle(pilot, table)
        log = log_text(app)
        assert "Green Shell! Ann turned green 9" in log and "The Green Shell hits Luigi: Luigi draws 1." in log
        # Luigi answers with a Wild Draw Four while holding green: Ann challenges with c and wins.
        assert table.game.awaiting == "challenge" and "c challenges it" in screen_text(app)
        await pilot.press("c")
        await settle(pilot, table)
        assert "Ann challenges Luigi's Wild Draw Four and wins" in log_text(app)
        assert table.game.view(0).hand_sizes == [2, 7]  # Luigi: 3 + 1 (shell) - 1 (W+4) + 4


async def test_catch_a_forgotten_uno_then_draw_and_keep():
    # Luigi (dealer's left) holds G2 G3 and plays G3 without UNO; Ann: R5 R7; first card G9.
    # The catch gives Luigi B1 B2; Ann's draw is G5.
    table = scripted_table(["G2", "R5", "G3", "R7", "G9", "B1", "B2", "G5"], dealer=0, hand_size=2)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert "no UNO!" in screen_text(app) and "Press k to catch" in screen_text(app)
        await pilot.press("k")
        assert "Ann catches Luigi, who forgot to say UNO: Luigi draws 2." in log_text(app)
        for hidden in ("B1", "B2", "blue 1", "blue 2", "G2"):  # Luigi's cards never reach Ann's screen
            assert hidden not in log_text(app) and hidden not in screen_text(app)
        await pilot.press("d")
        assert table.game.awaiting == "drawn"
        assert "You drew green 5: Enter plays it, p keeps it." in screen_text(app)  # the card in words
        await pilot.press("p")
        await settle(pilot, table)
        assert "Ann keeps the drawn card." in log_text(app)
        assert app.hand == ["R5", "R7", "G5"]


async def test_bad_keys_explain_in_words_and_change_nothing():
    """No rule id in front and no internal verb: a sentence, and the rule id on a help line below."""
    table = scripted_table(["G2", "R5", "G3", "R7", "G9", "G5"], dealer=0, hand_size=2)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        version = table.game.version
        await pilot.press("1", "enter")  # R5 on G3
        text = screen_text(app)
        assert "R4.1 R5" not in text and "Rule R4.1 · ? shows the rules" in text
        assert "red 5" in text.lower() and "green 3" in text.lower()
        await pilot.press("7")
        assert "There is no card 7: you hold 2." in screen_text(app)
        await pilot.press("c")
        text = screen_text(app)
        assert "c (challenge) cannot be used now: Ann to play." in text
        assert "'challenge'" not in text and "not allowed" not in text
        await pilot.press("n")
        assert "The round is not over yet." in screen_text(app) and "Rule R9.1" in screen_text(app)
        await pilot.press("a")
        assert "a (accept) cannot be used now: Ann to play." in screen_text(app)
        await pilot.press("p")
        assert "p (keep) cannot be used now" in screen_text(app)
        assert table.game.version == version


async def test_jump_in_out_of_turn_with_enter():
    # Jump-in on: Luigi is to play on G5 and Ann holds the identical G5. Luigi waits (a long delay), Ann jumps.
    table = scripted_table(["G2", "G5", "G3", "R7", "G5"], dealer=0, hand_size=2, options={"jump_in": True})
    table.delay = 30
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert table.game.to_act == 1 and "Enter jumps in" in screen_text(app)
        assert app.hand == ["R7", "G5"]
        await pilot.press("2", "enter")
        assert "Ann jumps in with green 5!" in log_text(app)
        assert table.game.view(0).hand_sizes[0] == 1


async def test_seven_swaps_hands_with_the_seat_pressed():
    table = scripted_table(["R7", "G2", "Y1", "G3", "R5"], dealer=1, hand_size=2, options={"seven_zero": True})
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("1", "enter")
        assert "Swap hands: press the seat to swap with (1 Luigi)." in screen_text(app)
        await pilot.press("1")
        assert "Ann swaps hands with Luigi." in log_text(app)
        await settle(pilot, table)
        assert "G2" in app.hand or "G3" in app.hand


async def test_the_final_result_ends_the_game():
    # target_score 1: the first round won ends the game; Ann goes out with W+4 (red) then R5 (UNO) then R6.
    table = scripted_table(["W+4", "G7", "R5", "Y2", "R6", "G9", "B3"], dealer=1, hand_size=3,
                           options={"target_score": 1})
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            await settle(pilot, table)
            if table.game.to_act is None:
                break
            await press_for_turn(pilot, app)
        assert table.game.awaiting == "game_over"
        text = screen_text(app)
        winner = table.game.names[table.game.game_winner]
        assert f"{winner} wins the game with" in text and "q: quit" in text
        await pilot.press("n")
        assert table.game.round == 1  # no next round after the final result
        await pilot.press("q")
        assert not app.is_running


async def test_arrows_walk_over_two_copies_of_a_card():
    table = scripted_table(["R5", "G2", "R5", "G3", "Y1", "G7", "G9"], dealer=1, hand_size=3)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert app.hand == ["R5", "R5", "Y1"] and app.selected == 0
        await pilot.press("right")
        assert app.selected == 1
        await pilot.press("right")
        assert app.selected == 2
        await pilot.press("right")
        assert app.selected == 0  # past the last card, back to the first
        await pilot.press("left", "left")
        assert app.selected == 1


def test_every_key_does_one_thing():
    keys = [binding.key for binding in PlayApp.BINDINGS]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


async def test_uno_said_after_the_play_while_the_next_player_waits():
    # Ann: R5 R6 (first card R1, Ann starts). She plays R5 without UNO; u says it before Luigi moves.
    table = scripted_table(["R5", "G2", "R6", "G3", "R1"], dealer=1, hand_size=2)
    table.delay = 30  # Luigi waits: the UNO window stays open
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        assert table.game.to_act == 1 and "You have one card left: press u to say UNO!" in screen_text(app)
        await pilot.press("u")
        assert "Ann says UNO!" in log_text(app)
        assert "UNO!" in screen_text(app).splitlines()[1]  # Ann's line in the player list


async def test_the_turn_starts_on_a_playable_card():
    # Ann: R2 R5 G7, Luigi: G2 B3 B4, first card G9: only G7 can be played, and the cursor starts there.
    table = scripted_table(["R2", "G2", "R5", "B3", "G7", "B4", "G9"], dealer=1, hand_size=3)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        assert app.hand == ["R2", "R5", "G7"] and table.game.to_act == 0
        assert app.hand[app.selected] == "G7" and "[■7 ]" in screen_text(app)  # the chosen card, its face
        await pilot.press("left")  # the player's own move is kept while the turn lasts
        await pilot.pause()
        assert app.hand[app.selected] == "R5"
        await pilot.press("right", "enter")  # G7; Luigi answers G2
        await settle(pilot, table)
        assert table.game.to_act == 0 and app.hand == ["R2", "R5"]
        assert app.hand[app.selected] == "R2", "the next turn starts on the card that matches G2, not on R5"


async def test_q_asks_first_mid_game_and_any_other_key_stays():
    table = scripted_table(["R2", "G2", "R5", "B3", "G7", "B4", "G9"], dealer=1, hand_size=3)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        for leave in ("q", "ctrl+q", "ctrl+c"):
            await pilot.press(leave)
            await pilot.pause()
            assert app.is_running and "Leave this game? Press q again to leave" in screen_text(app)
            await pilot.press("d")  # any other key: back to the game, and the key does nothing else
            await pilot.pause()
            assert app.is_running and "Leave this game?" not in screen_text(app)
            assert table.game.awaiting == "play" and table.game.to_act == 0
        await pilot.press("ctrl+c", "q")
        await pilot.pause()
        assert not app.is_running


async def test_after_a_refusal_the_rules_open_at_its_section():
    table = scripted_table(["G2", "R5", "G3", "R7", "G9", "G5"], dealer=0, hand_size=2)
    app = PlayApp(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("1", "enter")  # R5 on G3: refused by R4.1
        assert "Rule R4.1" in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        first = next(line for line in screen_text(app).splitlines() if line.strip())
        assert first.strip().startswith("R4 Your turn"), screen_text(app)
        await pilot.press("escape", "question_mark")  # the notice is still there: R4 again
        await pilot.pause()
        await pilot.press("escape", "d")  # a change clears the notice: the rules open at the top
        await settle(pilot, table)
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_text(app).splitlines()[0].strip() == "How to play UNO Mario Kart", screen_text(app)

"""R7 (challenging a Wild Draw Four) and R8 (saying UNO, catching, the window)."""

import pytest

from helpers.rules import hand, last_events, legal, play, sizes, table
from unokart import Game, IllegalAction

FOUR = ["Y1", "Y2", "Y3", "Y4"]
SIX = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]


def w4_table(culprit_hand, stock=SIX, players=3):
    """Seat 0 holds the Wild Draw Four on a red R5; seat 1 is the next player."""
    hands = [culprit_hand] + [["G6", "G7", "G8"], ["B6", "B7", "B8"], ["B1", "B2", "B3"]][: players - 1]
    return table(hands, "R5", stock, dealer=players - 1)


# ---------------------------------------------------------------- R7
def test_R7_1_the_next_player_may_challenge_a_wild_draw_four():
    game = w4_table(["W+4", "G1", "G2"])
    play(game, "0: play W+4 B")
    assert legal(game) == ["1: challenge", "1: accept"]


def test_R7_1_only_the_next_player_may_challenge():
    game = w4_table(["W+4", "G1", "G2"])
    play(game, "0: play W+4 B")
    with pytest.raises(IllegalAction, match="R2.1 it is seat 1's turn"):
        game.apply("2: challenge")


def test_R7_2_a_guilty_player_draws_four_the_colour_stands_and_the_challenger_plays_as_usual():
    game = w4_table(["W+4", "R1", "G2"], FOUR)
    play(game, "0: play W+4 B", "1: challenge")
    assert hand(game, 0) == ["R1", "G2"] + FOUR
    assert sizes(game)[1] == 3  # the challenger draws nothing
    assert game.state()["color"] == "B"
    assert game.to_act == 1 and game.awaiting == "play"
    assert last_events(game, "challenge")[-1]["guilty"] is True


def test_R7_2_the_hand_is_shown_to_the_challenger_only_and_its_owner():
    game = w4_table(["W+4", "R1", "G2"], FOUR)
    play(game, "0: play W+4 B", "1: challenge")
    reveal = {"type": "reveal", "seat": 0, "to": 1, "cards": ["R1", "G2"]}
    assert reveal in game.events_for(1) and reveal in game.events_for(0)
    assert reveal not in game.events_for(2) and reveal not in game.events_for(None)
    assert all(e["type"] != "reveal" for e in game.view(2).events)
    assert all("R1" not in str(e) for e in game.view(2).events if e["type"] != "deal")


@pytest.mark.parametrize("held", [["WIB", "B1"], ["Y5", "G5"], ["W+4", "B2"]])
def test_R7_2_wilds_and_number_matches_do_not_make_a_wild_draw_four_guilty(held):
    game = w4_table(["W+4", *held], SIX)
    play(game, "0: play W+4 G", "1: challenge")
    assert last_events(game, "challenge")[-1]["guilty"] is False
    assert sizes(game)[1] == 3 + 6


def test_R7_2_the_colour_that_counts_is_the_one_chosen_for_a_wild_on_top():
    # Seat 2 plays W+4 choosing green; seat 0 accepts; then seat 1 plays W+4 holding a green card.
    hands = [["G6", "G7", "G8"], ["W+4", "G1", "R2"], ["W+4", "B7", "B8"]]
    game = table(hands, "R5", ["Y1", "Y2", "Y3", "Y4", "B1", "B2", "B3", "B4"], dealer=1)
    play(game, "2: play W+4 G", "0: accept", "1: play W+4 Y", "2: challenge")
    assert last_events(game, "challenge")[-1]["guilty"] is True
    assert sizes(game)[1] == 2 + 4


def test_R7_3_a_failed_challenge_draws_six_and_ends_the_turn():
    game = w4_table(["W+4", "G1", "B2"], SIX)
    play(game, "0: play W+4 Y", "1: challenge")
    assert hand(game, 1) == ["G6", "G7", "G8"] + SIX
    assert sizes(game)[0] == 2
    assert game.to_act == 2 and game.awaiting == "play"
    assert game.state()["color"] == "Y"


def test_R7_4_not_challenging_draws_four_and_loses_the_turn():
    game = w4_table(["W+4", "R1", "G2"], FOUR)
    play(game, "0: play W+4 B", "1: accept")
    assert hand(game, 1) == ["G6", "G7", "G8"] + FOUR
    assert game.to_act == 2 and sizes(game)[0] == 2


def test_R7_4_with_two_players_the_wild_draw_four_player_plays_again():
    game = w4_table(["W+4", "R1", "G2"], FOUR, players=2)
    play(game, "0: play W+4 B", "1: accept")
    assert game.to_act == 0


# ---------------------------------------------------------------- R8
def uno_table():
    """Two cards each; seat 0 plays first, down to one."""
    return table([["R1", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", ["Y1", "Y2", "Y3"], dealer=2)


def test_R8_1_saying_uno_with_the_second_to_last_card():
    game = uno_table()
    play(game, "0: play R1 uno")
    assert game.state()["uno_said"] == [True, False, False]
    assert "1: catch 0" not in legal(game, 1)
    assert last_events(game, "uno")[-1]["seat"] == 0


def test_R8_2_a_forgetful_player_caught_draws_two():
    game = uno_table()
    play(game, "0: play R1")
    assert "2: catch 0" in legal(game, 2)  # any other seat, not only the next
    play(game, "2: catch 0")
    assert hand(game, 0) == ["G2", "Y1", "Y2"]
    assert game.to_act == 1 and game._uno_window == -1
    assert last_events(game, "caught")[-1] == {"type": "caught", "seat": 2, "target": 0}


def test_R8_2_a_player_cannot_catch_themselves():
    game = uno_table()
    play(game, "0: play R1")
    with pytest.raises(IllegalAction, match="R8.2"):
        game.apply("0: catch 0")


def test_R8_3_uno_may_be_said_after_the_play_while_the_window_is_open():
    game = uno_table()
    play(game, "0: play R1")
    assert legal(game, 0) == ["0: uno"]
    play(game, "0: uno")
    assert game.state()["uno_said"][0] is True
    assert "1: catch 0" not in legal(game, 1)


def test_R8_3_the_window_closes_when_another_seat_takes_a_turn_action():
    game = uno_table()
    play(game, "0: play R1", "1: play R6")
    assert game._uno_window == 1  # seat 1's own window now; seat 0's closed
    assert "2: catch 0" not in legal(game, 2) and "0: uno" not in legal(game, 0)
    with pytest.raises(IllegalAction, match="R8.3 the UNO window is closed"):
        game.apply("0: uno")


def test_R8_3_a_catch_outside_the_window_has_no_effect_and_changes_nothing_but_the_record():
    game = uno_table()
    play(game, "0: play R1", "1: play R6")
    before = game.state()
    play(game, "2: catch 0")
    assert game.state() == before
    assert str(game.actions[-1]) == "2: catch 0"
    assert last_events(game, "catch_missed")
    assert Game.from_record(game.record()).state() == before


@pytest.mark.parametrize("closer", ["1: draw", "1: play R6"])
def test_R8_3_draw_and_play_by_another_seat_close_the_window(closer):
    game = uno_table()
    play(game, "0: play R1", closer)
    assert game._uno_window != 0 and "2: catch 0" not in legal(game, 2)


def test_R8_3_challenge_or_accept_by_another_seat_closes_the_window():
    for answer in ("accept", "challenge"):
        game = table([["W+4", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", SIX, dealer=2)
        play(game, "0: play W+4 B")
        assert "2: catch 0" in legal(game, 2)
        play(game, f"1: {answer}")
        assert "2: catch 0" not in legal(game, 2)


def test_R8_3_the_players_own_green_shell_target_keeps_the_window_open():
    game = table([["WIB", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", ["G9", "Y1", "Y2", "Y3"], dealer=2)
    play(game, "0: play WIB")
    assert game.awaiting == "target" and "1: catch 0" in legal(game, 1)
    play(game, "0: target 2")
    assert "1: catch 0" in legal(game, 1)  # the target was seat 0's own follow-up
    play(game, "1: catch 0")
    assert sizes(game)[0] == 3


def test_R8_3_the_players_own_bobomb_colour_keeps_the_window_open():
    # The Bob-omb's two cards leave seat 0 with three: the window stays open but there is nothing to catch.
    game = table([["WIB", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", ["W+4", "Y1", "Y2"], dealer=2)
    play(game, "0: play WIB")
    assert game._uno_window == 0 and sizes(game)[0] == 3
    assert "1: catch 0" not in legal(game, 1)
    play(game, "0: color B")
    assert game._uno_window == 0
    play(game, "1: draw")
    assert game._uno_window == -1


def test_R8_3_another_turn_after_a_mushroom_keeps_the_window_open():
    game = table([["WIB", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", ["R9", "Y1", "Y2"], dealer=2)
    play(game, "0: play WIB")
    assert game.to_act == 0 and "0: uno" in legal(game, 0) and "2: catch 0" in legal(game, 2)
    play(game, "0: draw")  # seat 0's own turn action does not close its window
    assert game._uno_window == 0 and sizes(game)[0] == 2 and "2: catch 0" not in legal(game, 2)


def test_R8_3_a_catch_of_a_player_who_said_uno_has_no_effect():
    game = uno_table()
    play(game, "0: play R1 uno")
    before = game.state()
    play(game, "1: catch 0")
    assert game.state() == before


def test_R8_3_the_first_valid_word_wins_uno_before_a_catch():
    game = uno_table()
    play(game, "0: play R1", "0: uno", "2: catch 0")
    assert sizes(game)[0] == 1


def test_R8_3_the_first_valid_word_wins_a_catch_before_uno():
    game = uno_table()
    play(game, "0: play R1", "2: catch 0")
    with pytest.raises(IllegalAction, match="R8.3 UNO may be said only holding exactly one card"):
        game.apply("0: uno")
    assert sizes(game)[0] == 3


def test_R8_3_uno_is_not_allowed_when_not_holding_exactly_one_card():
    game = table([["R1", "G2", "B3"], ["R6", "R7", "R8"]], "R5", dealer=1)
    with pytest.raises(IllegalAction, match="R8.3 UNO may be said only when the play leaves one card"):
        game.apply("0: play R1 uno")
    with pytest.raises(IllegalAction, match="R8.3 UNO may be said only holding exactly one card"):
        game.apply("0: uno")
    assert game.version == 0


def test_R8_3_a_new_window_replaces_the_old_one():
    game = table([["R1", "G2"], ["R6", "G7"], ["R8", "B8"]], "R5", dealer=2)
    play(game, "0: play R1", "1: play R6")
    assert game._uno_window == 1 and "2: catch 1" in legal(game, 2) and "2: catch 0" not in legal(game, 2)

"""R6: the item of the card a Wild Item Box turns (and R10.1 when the stock is empty)."""

import pytest

from helpers.rules import drain_stock, hand, last_events, legal, play, sizes, table
from unokart import IllegalAction

# Seat 0 holds the Item Box; the others hold cards that match nothing turned, so each item's effect shows alone.
HANDS4 = [["WIB", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"], ["R1", "R2", "R3"]]


def item_table(turned, *stock, hands=HANDS4, dealer=3, **options):
    return table(hands, "B5", [turned, *stock], dealer=dealer, **options)


# ---------------------------------------------------------------- R6.1
@pytest.mark.parametrize("turned", ["R+2", "RS", "RR"])
def test_R6_1_a_turned_red_action_card_gives_only_its_mushroom(turned):
    game = item_table(turned, "Y7", "Y8")
    play(game, "0: play WIB")
    assert game.direction == 1 and sizes(game) == [2, 3, 3, 3]  # nobody drew, nothing reversed
    assert game.to_act == 0 and game.awaiting == "play"  # the Mushroom's other turn, not a Skip
    assert game.state()["color"] == "R"


def test_R6_1_a_turned_yellow_skip_gives_only_the_banana_peel():
    game = item_table("YS", "G7", "G8")
    play(game, "0: play WIB")
    assert sizes(game) == [2, 3, 3, 5]  # seat 3, behind seat 0, drew two
    assert game.to_act == 1  # seat 1 is not skipped


def test_R6_1_a_turned_wild_draw_four_is_a_bobomb_and_nobody_draws_four_or_challenges():
    game = item_table("W+4", "G7", "G8")
    play(game, "0: play WIB")
    assert game.awaiting == "color" and game.to_act == 0
    assert hand(game, 0) == ["G1", "G2", "G7", "G8"]  # the Bob-omb draws two for the Item Box player
    play(game, "0: color Y")
    assert game.to_act == 1 and game.awaiting == "play" and sizes(game)[1] == 3


def test_R6_1_a_turned_item_box_does_not_turn_another_card():
    game = item_table("WIB", "G7", "G8", "Y9")
    stock_before = game.state()["stock"]
    play(game, "0: play WIB")
    assert game.state()["top"] == "WIB" and game.state()["stock"] == stock_before - 3  # turned one, drew two
    assert [e["item"] for e in last_events(game, "item")] == ["bobomb"]
    assert game.awaiting == "color"


# ---------------------------------------------------------------- R6.2
def test_R6_2_mushroom_the_item_box_player_takes_another_turn_on_the_red_card():
    game = item_table("R7", hands=[["WIB", "R1", "G2"], *HANDS4[1:]])
    play(game, "0: play WIB")
    assert game.to_act == 0 and game.awaiting == "play" and game.state()["top"] == "R7"
    assert "0: play R1" in legal(game) and "0: play G2" not in legal(game)
    play(game, "0: play R1")
    assert game.to_act == 1


def test_R6_2_mushroom_with_no_card_to_play_the_player_draws_as_usual():
    game = item_table("R7", "Y9", hands=[["WIB", "G1", "G2"], *HANDS4[1:]])
    play(game, "0: play WIB")
    assert legal(game) == ["0: draw"]
    play(game, "0: draw")
    assert hand(game, 0) == ["G1", "G2", "Y9"] and game.to_act == 1


def test_R6_2_mushroom_with_two_players():
    game = item_table("R7", hands=[["WIB", "R1", "G2"], ["B1", "B2", "B3"]], dealer=1)
    play(game, "0: play WIB")
    assert game.to_act == 0 and sizes(game) == [2, 3]


# ---------------------------------------------------------------- R6.3
def test_R6_3_banana_peel_the_player_before_draws_two_then_play_goes_on():
    game = item_table("Y7", "G7", "G8")
    play(game, "0: play WIB")
    assert hand(game, 3) == ["R1", "R2", "R3", "G7", "G8"]
    assert game.to_act == 1 and game.state()["color"] == "Y"
    assert last_events(game, "item")[-1]["victim"] == 3


def test_R6_3_banana_peel_hits_the_seat_behind_even_if_skipped():
    # Seat 1 plays a Skip: seat 2 is skipped; seat 3 plays the Item Box; the racer behind seat 3 is seat 2.
    hands = [["B6", "G1", "G2"], ["BS", "G3", "G4"], ["R1", "R2", "R3"], ["WIB", "R4", "R5"]]
    game = table(hands, "B5", ["Y7", "G7", "G8"], dealer=3)
    play(game, "0: play B6", "1: play BS")
    assert game.to_act == 3
    play(game, "3: play WIB")
    assert hand(game, 2) == ["R1", "R2", "R3", "G7", "G8"]
    assert game.to_act == 0


def test_R6_3_banana_peel_against_the_direction_of_play_after_a_reverse():
    hands = [["BR", "G1", "G2"], ["R1", "R2", "R3"], ["R4", "R5", "R6"], ["WIB", "R7", "R8"]]
    game = table(hands, "B5", ["Y7", "G7", "G8"], dealer=3)
    play(game, "0: play BR")  # now to the right: seat 3 plays next, and the racer behind it is seat 0
    play(game, "3: play WIB")
    assert hand(game, 0) == ["G1", "G2", "G7", "G8"] and game.to_act == 2


def test_R6_3_banana_peel_with_two_players_hits_the_opponent():
    game = item_table("Y7", "G7", "G8", hands=[["WIB", "G1", "G2"], ["B1", "B2", "B3"]], dealer=1)
    play(game, "0: play WIB")
    assert hand(game, 1) == ["B1", "B2", "B3", "G7", "G8"] and game.to_act == 1


# ---------------------------------------------------------------- R6.4
def test_R6_4_green_shell_the_player_chooses_one_opponent_who_draws_one():
    game = item_table("G7", "Y9")
    play(game, "0: play WIB")
    assert game.awaiting == "target" and game.to_act == 0
    assert legal(game) == ["0: target 1", "0: target 2", "0: target 3"]
    play(game, "0: target 2")
    assert hand(game, 2) == ["Y1", "Y2", "Y3", "Y9"]
    assert game.to_act == 1 and game.awaiting == "play" and game.state()["color"] == "G"


def test_R6_4_green_shell_cannot_target_the_player_themselves():
    game = item_table("G7")
    play(game, "0: play WIB")
    before = game.state()
    with pytest.raises(IllegalAction, match="R6.4 choose another player"):
        game.apply("0: target 0")
    with pytest.raises(IllegalAction, match="R2.1 there is no seat 4"):
        game.apply("0: target 4")
    assert game.state() == before


def test_R6_4_green_shell_with_two_players_targets_the_opponent():
    game = item_table("G7", "Y9", hands=[["WIB", "G1", "G2"], ["B1", "B2", "B3"]], dealer=1)
    play(game, "0: play WIB")
    assert legal(game) == ["0: target 1"]
    play(game, "0: target 1")
    assert sizes(game) == [2, 4] and game.to_act == 1


# ---------------------------------------------------------------- R6.5
def test_R6_5_lightning_every_other_player_draws_one_and_the_player_takes_another_turn():
    game = item_table("B7", "Y7", "Y8", "Y9", "R9")
    play(game, "0: play WIB")
    assert sizes(game) == [2, 4, 4, 4]  # the Item Box player does not draw
    assert game.to_act == 0 and game.awaiting == "play" and game.state()["color"] == "B"
    assert game._stock[-1] == 9  # R9 still on the stock: exactly three cards drawn


def test_R6_5_lightning_with_two_players():
    game = item_table("B7", "Y7", hands=[["WIB", "G1", "G2"], ["B1", "B2", "B3"]], dealer=1)
    play(game, "0: play WIB")
    assert sizes(game) == [2, 4] and game.to_act == 0


# ---------------------------------------------------------------- R6.6
def test_R6_6_bobomb_the_player_draws_two_and_chooses_the_colour_then_play_goes_on():
    game = item_table("WIB", "G7", "G8")
    play(game, "0: play WIB")
    assert hand(game, 0) == ["G1", "G2", "G7", "G8"]
    assert game.awaiting == "color" and game.state()["color"] is None
    assert legal(game) == ["0: color R", "0: color Y", "0: color G", "0: color B"]
    play(game, "0: color R")
    assert game.state()["color"] == "R" and game.to_act == 1
    assert "3: play R1" not in legal(game, 3)


def test_R6_6_bobomb_with_two_players_then_the_opponent_plays():
    game = item_table("W+4", "G7", "G8", hands=[["WIB", "G1", "G2"], ["B1", "B2", "B3"]], dealer=1)
    play(game, "0: play WIB", "0: color B")
    assert sizes(game) == [4, 3] and game.to_act == 1 and "1: play B1" in legal(game)


def test_R6_6_nobody_else_may_act_while_the_colour_is_chosen():
    game = item_table("WIB", "G7", "G8")
    play(game, "0: play WIB")
    with pytest.raises(IllegalAction, match="R2.1 it is seat 0's turn"):
        game.apply("1: draw")


# ---------------------------------------------------------------- R6.7 and R10.1
STOCK11 = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y1", "Y2", "Y3"]  # none plays on R9


def drained_table(hands, **options):
    """Two players with 50 cards each on R9: the 11 stock cards are drawn and kept, then seat 0 is to act."""
    game = drain_stock(table(hands, "R9", STOCK11, dealer=1, hand_size=50, **options))
    if game.to_act == 1:
        play(game, "1: draw")  # nothing under R9 to rebuild a stock from: seat 1 gets no card and passes (R10.1)
    assert game.to_act == 0 and game.state()["stock"] == 0 and game.state()["discard"] == 1
    return game


@pytest.mark.parametrize("force_play", [False, True])
def test_R6_7_item_box_on_an_empty_stock_with_nothing_under_the_top_turns_nothing_and_the_player_chooses(force_play):
    # The Item Box is in play, not part of the pile: R10.1 would rebuild the stock from the pile under R9,
    # which is empty. (Were the R9 turned instead, a forced Mushroom could loop forever under force_play:
    # the next draw rebuilds the stock from the Item Box, which must then be played again.)
    game = drained_table([["WIB", "G1"], ["B1", "B2"]], force_play=force_play)
    before = sizes(game)
    play(game, "0: play WIB")
    assert last_events(game, "item")[-1] == {"type": "item", "seat": 0, "item": None, "card": None}
    assert game.state()["top"] == "WIB" and game.state()["discard"] == 2
    assert sizes(game) == [before[0] - 1, before[1]]
    assert game.awaiting == "color" and game.to_act == 0
    play(game, "0: color B")
    assert game.state()["color"] == "B" and game.to_act == 1 and game.awaiting == "play"


def test_R10_1_an_item_box_on_an_empty_stock_turns_a_card_from_under_the_card_it_was_played_on():
    game = drained_table([["WIB", "R1"], ["R3", "B2"]])
    play(game, "0: play R1", "1: play R3", "0: play WIB")  # pile: R9 R1 R3, then the Item Box
    turned = last_events(game, "item")[-1]
    assert turned["card"] in ("R9", "R1") and turned["item"] == "mushroom"
    assert [e["cards"] for e in last_events(game, "reshuffle")] == [2]
    assert game.state()["discard"] == 3 and game.state()["stock"] == 1
    assert game.to_act == 0 and game.awaiting == "play"

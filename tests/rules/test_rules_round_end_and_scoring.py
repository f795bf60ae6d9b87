"""R9 (end of a round), R10 (the stock runs out) and R11 (scoring and winning)."""

import pytest

from helpers.rules import drain_stock, hand, last_events, play, sizes, table
from unokart import IllegalAction
from unokart.rules.cards import FACE_POINTS


# ---------------------------------------------------------------- R9
def test_R9_1_the_round_ends_as_soon_as_a_player_plays_their_last_card():
    game = table([["R1"], ["R6"], ["B6"]], "R5", dealer=2)
    play(game, "0: play R1")
    state = game.state()
    assert state["awaiting"] == "round_over" and state["to_act"] is None and state["round_winner"] == 0
    assert game.legal_actions() == () and game.legal_actions(1) == ()
    with pytest.raises(IllegalAction, match="R9.1 the round is over"):
        game.apply("1: play R6")
    assert last_events(game, "round_end")[-1]["winner"] == 0


def test_R9_1_the_next_round_is_dealt_only_when_the_round_is_over():
    game = table([["R1", "G1"], ["R6", "G6"]], "R5", dealer=1)
    with pytest.raises(IllegalAction, match="R9.1 the round is not over"):
        game.next_round()


def test_R9_2_a_last_draw_two_still_makes_the_next_player_draw():
    game = table([["R+2"], ["G6"], ["B6"]], "R5", ["Y1", "Y2"], dealer=2)
    play(game, "0: play R+2")
    assert hand(game, 1) == ["G6", "Y1", "Y2"] and game.awaiting == "round_over"


def test_R9_2_a_last_wild_draw_four_makes_the_next_player_draw_four_and_cannot_be_challenged():
    game = table([["W+4"], ["G6"], ["B6"]], "R5", ["Y1", "Y2", "Y3", "Y4"], dealer=2)
    play(game, "0: play W+4 G")
    assert hand(game, 1) == ["G6", "Y1", "Y2", "Y3", "Y4"]
    assert game.awaiting == "round_over"
    with pytest.raises(IllegalAction, match="R9.1"):
        game.apply("1: challenge")


def test_R9_2_the_draws_count_in_the_score():
    game = table([["R+2"], ["G6"], ["B6"]], "R5", ["Y1", "Y2"], dealer=2)
    play(game, "0: play R+2")
    assert game.scores[0] == 6 + 1 + 2 + 6


def item_out(turned, *stock, players=3):
    hands = [["WIB"], ["G6"], ["B6"], ["B7"]][:players]
    return table(hands, "R5", [turned, *stock], dealer=players - 1)


def test_R9_3_a_last_item_box_banana_peel_still_hits():
    game = play(item_out("Y7", "G1", "G2"), "0: play WIB")
    assert hand(game, 2) == ["B6", "G1", "G2"] and game.awaiting == "round_over"
    assert game.scores[0] == 6 + 6 + 1 + 2


def test_R9_3_a_last_item_box_green_shell_still_hits_after_the_target_is_chosen():
    game = play(item_out("G7", "Y1"), "0: play WIB")
    assert game.awaiting == "target" and game.to_act == 0
    play(game, "0: target 1")
    assert hand(game, 1) == ["G6", "Y1"] and game.awaiting == "round_over" and game.round_winner == 0


def test_R9_3_a_last_item_box_lightning_still_hits_every_other_player():
    game = play(item_out("B7", "Y1", "Y2", "Y3", players=4), "0: play WIB")
    assert sizes(game) == [0, 2, 2, 2] and game.awaiting == "round_over"


def test_R9_3_a_last_item_box_mushroom_gives_no_other_turn():
    game = play(item_out("R7"), "0: play WIB")
    assert game.awaiting == "round_over" and game.to_act is None


def test_R9_3_a_last_item_box_bobomb_draws_nothing_for_the_player_who_went_out():
    game = play(item_out("WIB", "Y1", "Y2"), "0: play WIB")
    assert sizes(game) == [0, 1, 1] and game.awaiting == "round_over" and game.round_winner == 0


# ---------------------------------------------------------------- R10
def big_hands_table(hands=((), ())):
    # Two players with 50 cards each leave 11 in the stock.
    return table([list(h) for h in hands], "R9", dealer=1, hand_size=50)


def test_R10_1_an_empty_stock_is_rebuilt_from_the_pile_under_its_top_card():
    game = drain_stock(big_hands_table((["R1"], ["R4"])))
    play(game, f"{game.to_act}: play {'R1' if game.to_act == 0 else 'R4'}")
    assert game.state()["discard"] == 2 and game.state()["stock"] == 0
    top = game.state()["top"]
    play(game, f"{game.to_act}: draw")
    assert last_events(game, "reshuffle")[-1]["cards"] == 1  # the R9 under the top
    assert game.state()["top"] == top and game.state()["discard"] == 1


def test_R10_1_with_no_card_left_a_draw_gives_fewer_cards():
    game = drain_stock(big_hands_table((["W+4", "W+4"], [])))
    if game.to_act != 0:
        play(game, "1: draw")
    play(game, "0: play W+4 B", "1: accept")
    # One card was under the Wild Draw Four: seat 1 drew it and nothing more.
    assert last_events(game, "draw")[-1] == {"type": "draw", "seat": 1, "count": 1, "cause": "wild_draw_four"}
    assert game.state()["stock"] == 0 and game.state()["discard"] == 1
    assert game.state()["top"] == "W+4" and game.state()["color"] == "B"  # the top keeps its chosen colour


def test_R10_1_a_player_who_draws_on_their_turn_and_gets_no_card_passes():
    game = drain_stock(big_hands_table())
    seat = game.to_act
    before = sizes(game)
    play(game, f"{seat}: draw")
    assert sizes(game) == before and game.to_act == 1 - seat and game.awaiting == "play"
    assert last_events(game, "draw")[-1]["count"] == 0


# ---------------------------------------------------------------- R11
def test_R11_1_the_winner_scores_every_card_left_in_the_other_hands():
    # Two players: Skips and a Reverse give seat 0 turn after turn until it goes out.
    game = table([["RS", "YS", "YR", "Y0"], ["R5", "B+2", "WIB", "W+4"]], "R9", dealer=1)
    play(game, "0: play RS", "0: play YS", "0: play YR uno", "0: play Y0")
    assert game.scores == [5 + 20 + 50 + 50, 0]
    assert last_events(game, "round_end")[-1]["hand_points"] == [0, 125]


def test_R11_1_card_values_numbers_at_face_value_actions_twenty_wilds_fifty():
    game = table([["R1"], ["R5", "GS", "WIB", "B0"], ["B+2", "W+4", "Y9", "YR"]], "R9", dealer=2, hand_size=4)
    assert [sum(FACE_POINTS[f] for f in h) for h in game._hands[1:]] == [5 + 20 + 50 + 0, 20 + 50 + 9 + 20]


def test_R11_2_rounds_go_on_below_the_target_and_scores_add_up():
    game = table([["R1"], ["R5"]], "R9", dealer=1)
    play(game, "0: play R1")
    assert game.awaiting == "round_over" and game.game_winner is None and game.scores == [5, 0]
    game.next_round(seed=1)
    assert game.round == 2 and game.scores == [5, 0] and game.awaiting != "round_over"


def test_R11_2_the_first_player_to_reach_the_target_wins_the_game():
    game = table([["R1", "R2"], ["WIB", "W+4"]], "R9", ["Y9"], dealer=1, target_score=100)
    play(game, "0: play R1 uno", "1: draw", "0: play R2")
    assert game.scores == [50 + 50 + 9, 0]
    assert game.awaiting == "game_over" and game.game_winner == 0 and game.to_act is None
    with pytest.raises(IllegalAction, match="R11.2 the game is over"):
        game.apply("1: draw")
    with pytest.raises(IllegalAction, match="R9.1 the round is not over"):
        game.next_round()

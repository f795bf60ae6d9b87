"""R12: the house rules, each an option recorded with the game."""

import pytest

from helpers.rules import hand, last_events, legal, play, sizes, stacked_deck, table
from unokart import Game, IllegalAction, SetupError

D2_HANDS = [["R+2", "G1", "G2"], ["Y+2", "B+2", "B1"], ["B3", "B4", "B5"]]
W4_HANDS = [["W+4", "G1", "G2"], ["W+4", "G+2", "B1"], ["B3", "B4", "B5"]]
EIGHT = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]


# ---------------------------------------------------------------- R12.1 stacking
def test_R12_1_a_draw_two_stacks_on_a_draw_two_of_any_colour_and_the_draws_add_up():
    game = table(D2_HANDS, "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play R+2")
    assert game.awaiting == "stack" and game.to_act == 1 and game.pending == 2
    assert legal(game) == ["1: accept", "1: play Y+2", "1: play B+2"]
    play(game, "1: play B+2")
    assert game.to_act == 2 and game.pending == 4 and game.state()["color"] == "B"
    assert legal(game) == ["2: accept"]
    play(game, "2: accept")
    assert hand(game, 2) == ["B3", "B4", "B5", "Y1", "Y2", "Y3", "Y4"]
    assert game.to_act == 0 and game.awaiting == "play" and game.pending == 0


def test_R12_1_a_wild_draw_four_stacks_on_a_wild_draw_four_choosing_a_colour():
    game = table(W4_HANDS, "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play W+4 G")
    assert legal(game) == ["1: challenge", "1: accept", "1: play W+4 R", "1: play W+4 Y", "1: play W+4 G", "1: play W+4 B"]
    play(game, "1: play W+4 Y")
    assert game.awaiting == "stack" and game.to_act == 2 and game.state()["color"] == "Y"
    play(game, "2: accept")
    assert hand(game, 2) == ["B3", "B4", "B5"] + EIGHT and game.to_act == 0


def test_R12_1_no_mixing_draw_two_never_on_a_wild_draw_four_nor_the_reverse():
    game = table(W4_HANDS, "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play W+4 G")
    with pytest.raises(IllegalAction, match="R12.1 only a Wild Draw Four may be stacked on a Wild Draw Four"):
        game.apply("1: play G+2")
    game = table([["R+2", "G1", "G2"], ["W+4", "Y+2", "B1"], ["B3", "B4", "B5"]], "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play R+2")
    assert "1: play W+4 B" not in legal(game)
    with pytest.raises(IllegalAction, match="R12.1 only a Draw Two may be stacked on a Draw Two"):
        game.apply("1: play W+4 B")


def test_R12_1_a_stacked_wild_draw_four_cannot_be_challenged():
    game = table(W4_HANDS, "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play W+4 G", "1: play W+4 Y")
    assert "2: challenge" not in legal(game)
    with pytest.raises(IllegalAction, match="R12.1"):
        game.apply("2: challenge")


def test_R12_1_the_first_wild_draw_four_of_a_stack_can_still_be_challenged():
    game = table(W4_HANDS, "R5", EIGHT, dealer=2, stacking=True)
    play(game, "0: play W+4 G", "1: challenge")
    assert last_events(game, "challenge")[-1]["guilty"] is False  # seat 0 held no red
    assert sizes(game)[1] == 3 + 6


def test_R12_1_without_the_option_there_is_no_stacking():
    game = table(D2_HANDS, "R5", EIGHT, dealer=2)
    play(game, "0: play R+2")
    assert game.to_act == 2 and sizes(game)[1] == 5


def test_R12_1_a_last_draw_two_on_a_stack_passes_the_whole_total():
    # Two players: seat 1 sheds a Skip and a 7, then goes out stacking its last card on seat 0's Draw Two.
    game = table([["R+2", "G1", "G2"], ["RS", "R7", "B+2"]], "R5", EIGHT, dealer=0, stacking=True)
    play(game, "1: play RS", "1: play R7 uno", "0: play R+2", "1: play B+2")
    assert hand(game, 0) == ["G1", "G2", "Y1", "Y2", "Y3", "Y4"]
    assert game.awaiting == "round_over" and game.scores[1] == 1 + 2 + 1 + 2 + 3 + 4


# ---------------------------------------------------------------- R12.2 draw_until_playable
def test_R12_2_draw_until_a_playable_card_then_r4_3_applies_to_it():
    game = table([["G1", "G2"], ["B1", "B2"]], "R5", ["Y1", "G3", "R7", "Y9"], dealer=1, draw_until_playable=True)
    play(game, "0: draw")
    assert hand(game, 0) == ["G1", "G2", "Y1", "G3", "R7"]
    assert game.awaiting == "drawn" and legal(game) == ["0: play R7", "0: pass"]


def test_R12_2_drawing_stops_when_no_card_is_left():
    # Two players with 50 cards each: the 11 stock cards match nothing, and nothing lies under the top card.
    stock = ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y9", "G1", "G2", "G3"]
    game = table([[], []], "R5", stock, dealer=1, hand_size=50, draw_until_playable=True)
    play(game, "0: draw")
    assert sizes(game) == [61, 50] and game.state()["stock"] == 0
    assert game.to_act == 1 and game.awaiting == "play"


def test_R12_2_without_the_option_one_card_is_drawn():
    game = table([["G1", "G2"], ["B1", "B2"]], "R5", ["Y1", "G3", "R7"], dealer=1)
    play(game, "0: draw")
    assert hand(game, 0) == ["G1", "G2", "Y1"] and game.to_act == 1


# ---------------------------------------------------------------- R12.3 force_play
def test_R12_3_a_playable_drawn_card_must_be_played():
    game = table([["G1", "G2"], ["B1", "B2"]], "R5", ["R7"], dealer=1, force_play=True)
    play(game, "0: draw")
    assert legal(game) == ["0: play R7"]
    with pytest.raises(IllegalAction, match="R12.3 force_play: the drawn R7 can be played"):
        game.apply("0: pass")


def test_R12_3_an_unplayable_drawn_card_still_ends_the_turn():
    game = table([["G1", "G2"], ["B1", "B2"]], "R5", ["Y7"], dealer=1, force_play=True)
    play(game, "0: draw")
    assert game.to_act == 1


# ---------------------------------------------------------------- R12.4 jump_in
JUMP_HANDS = [["G6", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y2", "Y3"], ["RS", "Y4", "Y5"]]


def test_R12_4_out_of_turn_a_player_jumps_in_with_an_identical_card_and_play_continues_from_them():
    game = table(JUMP_HANDS, "R5", dealer=3, jump_in=True)
    assert game.to_act == 0
    assert "2: jump R5" in legal(game, 2)
    play(game, "2: jump R5")
    assert hand(game, 2) == ["Y2", "Y3"] and game.to_act == 3
    assert last_events(game, "jump_in")[-1]["seat"] == 2


def test_R12_4_the_jumped_card_takes_effect_as_if_played_on_that_turn():
    game = table(JUMP_HANDS, "RS", dealer=2, jump_in=True)  # seat 3 is skipped by the first card: seat 0 starts
    assert game.to_act == 0
    play(game, "3: jump RS")
    assert game.to_act == 1  # seat 3's Skip skips seat 0


@pytest.mark.parametrize("card, why", [("B5", "is not identical"), ("WIB", "a wild can never jump in")])
def test_R12_4_only_an_identical_coloured_card_jumps_in(card, why):
    hands = [["G1", "G2", "G3"], ["B5", "WIB", "B3"], ["Y1", "Y2", "Y3"]]
    game = table(hands, "R5", dealer=1, jump_in=True)
    assert legal(game, 1) == []
    with pytest.raises(IllegalAction, match=f"R12.4 .*{why}"):
        game.apply(f"1: jump {card}")


def test_R12_4_no_jump_in_while_a_decision_is_pending():
    hands = [["W+4", "G1", "G2"], ["B1", "B2", "B3"], ["W+4", "Y2", "Y3"]]
    game = table(hands, "R5", EIGHT, dealer=2, jump_in=True)
    play(game, "0: play W+4 G")
    assert [a for a in legal(game, 2) if "jump" in a] == []
    with pytest.raises(IllegalAction, match="R12.4 .*a wild can never jump in"):
        game.apply("2: jump W+4 G")
    game = table([["G1", "G2"], ["B1", "B2"], ["R5", "Y2"]], "R5", ["R7"], dealer=2, jump_in=True)
    play(game, "0: draw")
    assert game.awaiting == "drawn" and legal(game, 2) == []
    with pytest.raises(IllegalAction, match="R12.4 no jump-in while a decision is pending"):
        game.apply("2: jump R5")


def test_R12_4_jump_in_is_refused_when_the_option_is_off():
    game = table(JUMP_HANDS, "R5", dealer=3)
    assert legal(game, 2) == []
    with pytest.raises(IllegalAction, match="R12.4 jump-in is not a rule at this table"):
        game.apply("2: jump R5")


def test_R12_4_the_player_to_act_plays_rather_than_jumps():
    game = table([["R5", "G1", "G2"], ["B1", "B2", "B3"]], "R5", dealer=1, jump_in=True)
    with pytest.raises(IllegalAction, match="R12.4 it is your turn"):
        game.apply("0: jump R5")


def test_R12_4_a_jump_may_say_uno_and_opens_the_window_without_it():
    game = table([["G1", "G2"], ["B1", "B2"], ["R5", "Y2"]], "R5", dealer=2, jump_in=True)
    assert legal(game, 2) == ["2: jump R5", "2: jump R5 uno"]
    play(game, "2: jump R5")
    assert game._uno_window == 2 and "1: catch 2" in legal(game, 1)


# ---------------------------------------------------------------- R12.5 seven_zero
def test_R12_5_after_a_seven_the_player_swaps_hands_with_a_chosen_player():
    game = table([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]], "R5", dealer=2, seven_zero=True)
    play(game, "0: play R7")
    assert game.awaiting == "swap" and game.to_act == 0
    assert legal(game) == ["0: swap 1", "0: swap 2"]
    with pytest.raises(IllegalAction, match="R12.5 choose another player"):
        game.apply("0: swap 0")
    play(game, "0: swap 2")
    assert hand(game, 0) == ["Y1", "Y2", "Y3"] and hand(game, 2) == ["G1", "G2"]
    assert game.to_act == 1 and game.awaiting == "play"
    assert {"type": "hand", "seat": 2, "cards": ["G1", "G2"]} in game.events_for(2)
    assert all(e.get("cards") != ["G1", "G2"] for e in game.events_for(1))


@pytest.mark.parametrize("direction_card, passed_to", [("R1", {0: 1, 1: 2, 2: 0}), ("RR", {0: 2, 1: 0, 2: 1})])
def test_R12_5_after_a_zero_every_hand_passes_to_the_next_player_in_the_direction_of_play(direction_card, passed_to):
    hands = [[direction_card, "R0", "G1"], ["R2", "B2", "B3"], ["R3", "Y3", "Y4"]]
    game = table(hands, "R5", dealer=2, seven_zero=True)
    play(game, f"0: play {direction_card}")
    # Bring the turn back to seat 0 with seat 0's Zero still in hand.
    while game.to_act != 0:
        play(game, f"{game.to_act}: play R{game.to_act + 1}")
    before = {s: hand(game, s) for s in range(3)}
    before[0] = [c for c in before[0] if c != "R0"]
    play(game, "0: play R0")
    for giver, receiver in passed_to.items():
        assert hand(game, receiver) == before[giver]


def test_R12_5_a_seven_or_zero_as_the_last_card_ends_the_round_without_a_swap():
    for card in ("R7", "R0"):
        game = table([[card], ["B1"], ["Y1"]], "R5" if card == "R7" else "R9", dealer=2, seven_zero=True)
        play(game, f"0: play {card}")
        assert game.awaiting == "round_over" and hand(game, 1) == ["B1"]


def test_R12_5_a_swap_closes_the_uno_window():
    game = table([["R7", "G1"], ["B1", "B2"], ["Y1", "Y2"]], "R5", dealer=2, seven_zero=True)
    play(game, "0: play R7")
    assert "1: catch 0" in legal(game, 1)
    play(game, "0: swap 1")
    assert game._uno_window == -1 and "0: catch 1" not in legal(game, 0) and "2: catch 1" not in legal(game, 2)
    before = game.state()
    play(game, "2: catch 1")  # seat 1 holds one card now, but no window is open: no effect
    assert game.state() == before


def test_R12_5_a_swap_voids_the_swapped_players_uno_but_not_a_third_players():
    game = table([["R7", "G1"], ["B2", "B3"], ["R9", "Y1"]], "R5", dealer=1, seven_zero=True)
    play(game, "2: play R9 uno", "0: play R7", "0: swap 1")
    assert hand(game, 1) == ["G1"] and game.state()["uno_said"] == [False, False, True]


def test_R12_5_without_the_option_a_seven_is_a_number():
    game = table([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]], "R5", dealer=2)
    play(game, "0: play R7")
    assert game.to_act == 1 and game.awaiting == "play"


# ---------------------------------------------------------------- R12.6 target_score, R12.7 hand_size
def test_R12_6_target_score_sets_the_score_that_wins():
    game = table([["R1"], ["R9"]], "R5", dealer=1, target_score=9)
    play(game, "0: play R1")
    assert game.awaiting == "game_over" and game.game_winner == 0
    game = table([["R1"], ["R9"]], "R5", dealer=1, target_score=10)
    play(game, "0: play R1")
    assert game.awaiting == "round_over"


def test_R12_6_target_score_is_500_by_default():
    assert Game.new(2, seed=1).options.target_score == 500


@pytest.mark.parametrize("size", [1, 5, 7, 12])
def test_R12_7_hand_size_sets_the_cards_dealt_to_each_player(size):
    game = Game.new(4, seed=2, options={"hand_size": size}, dealer=0, deck=stacked_deck(4, {}, "R5", hand_size=size))
    assert [len(h) for h in game.state()["hands"]] == [size] * 4
    assert game.state()["stock"] == 112 - 4 * size - 1


def test_R12_7_hand_size_is_7_by_default_and_must_fit_the_deck():
    assert Game.new(3, seed=1, options={}).options.hand_size == 7
    with pytest.raises(SetupError, match="R3.2 10 hands of 11 do not fit"):
        Game.new(10, seed=1, options={"hand_size": 11})
    with pytest.raises(SetupError, match="must be a positive whole number"):
        Game.new(3, seed=1, options={"hand_size": 0})


def test_R12_options_are_recorded_and_an_unknown_option_is_an_error():
    game = Game.new(3, seed=1, options={"stacking": True, "target_score": 200})
    assert game.record()["options"] == {"target_score": 200, "stacking": True}
    with pytest.raises(SetupError, match="unknown option 'stackng'"):
        Game.new(3, seed=1, options={"stackng": True})
    with pytest.raises(SetupError, match="must be true or false"):
        Game.new(3, seed=1, options={"jump_in": "yes"})

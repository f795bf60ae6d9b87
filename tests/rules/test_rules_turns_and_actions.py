"""R4 (a turn) and R5 (action cards)."""

import pytest

from helpers.rules import hand, last_events, legal, play, sizes, table
from unokart import IllegalAction, NotationError


def test_R4_1_a_card_matches_by_colour_number_or_symbol():
    game = table([["R1", "Y5", "G7", "BS"], ["R2", "G2", "B3", "Y9"]], "R5", dealer=1)
    plays = legal(game, 0)
    assert "0: play R1" in plays and "0: play Y5" in plays  # colour, number
    assert "0: play G7" not in plays and "0: play BS" not in plays
    assert plays[-1] == "0: draw"


@pytest.mark.parametrize("red, card", [("RS", "BS"), ("RR", "GR"), ("R+2", "Y+2")])
def test_R4_1_skip_on_skip_reverse_on_reverse_draw_two_on_draw_two(red, card):
    # Seat 0 plays the red symbol on red; whichever way it sends play, seat 2 answers with the same symbol.
    game = table([[red, "G1"], ["B1", "B2"], [card, "B9"]], "R5", dealer=2)
    play(game, f"0: play {red}")
    assert game.to_act == 2
    assert f"2: play {card}" in legal(game) and "2: play B9" not in legal(game)


def test_R4_1_a_card_that_does_not_match_is_refused_naming_the_rule():
    game = table([["Y3", "G1"], ["R2", "B2"]], "R5", dealer=1)
    before = game.state()
    with pytest.raises(IllegalAction) as err:
        game.apply("0: play Y3")
    assert err.value.rule == "R4.1"
    assert str(err.value) == "R4.1 Y3 does not match R5 (active colour red)"
    assert game.state() == before and game.version == 0


def test_R4_1_a_card_not_held_is_refused():
    game = table([["Y3", "G1"], ["R2", "B2"]], "R5", dealer=1)
    with pytest.raises(IllegalAction, match="R4.1 seat 0 holds no R7"):
        game.apply("0: play R7")


def test_R4_2_wilds_may_be_played_on_any_card_even_holding_a_match():
    game = table([["W+4", "WIB", "R1"], ["G1", "G2", "G3"]], "R5", dealer=1)
    plays = legal(game, 0)
    for c in "RYGB":
        assert f"0: play W+4 {c}" in plays
    assert "0: play WIB" in plays and "0: play R1" in plays


def test_R4_3_a_player_may_draw_instead_of_playing_and_play_the_drawn_card_at_once():
    game = table([["R1", "G2"], ["B1", "B2"]], "R5", ["R7"], dealer=1)
    play(game, "0: draw")
    assert game.awaiting == "drawn" and game.to_act == 0
    assert legal(game) == ["0: play R7", "0: pass"]  # that card only
    play(game, "0: play R7")
    assert game.state()["top"] == "R7" and game.to_act == 1


def test_R4_3_only_the_drawn_card_may_be_played_after_drawing():
    game = table([["R1", "G2"], ["B1", "B2"]], "R5", ["R7"], dealer=1)
    play(game, "0: draw")
    with pytest.raises(IllegalAction, match="R4.3 only the card just drawn"):
        game.apply("0: play R1")


def test_R4_3_a_playable_drawn_card_may_be_kept_by_passing():
    game = table([["R1", "G2"], ["B1", "B2"]], "R5", ["R7"], dealer=1)
    play(game, "0: draw", "0: pass")
    assert hand(game, 0) == ["R1", "G2", "R7"] and game.to_act == 1 and game.awaiting == "play"
    assert game.view(1).drawn == -1 and game.view(0).drawn == -1


def test_R4_3_a_drawn_card_that_cannot_be_played_ends_the_turn():
    game = table([["R1", "G2"], ["B1", "B2"]], "R5", ["Y9"], dealer=1)
    play(game, "0: draw")
    assert hand(game, 0) == ["R1", "G2", "Y9"] and game.to_act == 1 and game.awaiting == "play"


def test_R4_3_pass_without_a_drawn_card_is_refused():
    game = table([["R1", "G2"], ["B1", "B2"]], "R5", dealer=1)
    with pytest.raises(IllegalAction, match="R4.1 'pass' is not allowed now"):
        game.apply("0: pass")


def test_R4_3_the_drawn_card_is_shown_only_to_the_drawer_and_only_while_deciding():
    game = table([["R1", "G2"], ["B1", "B2"], ["B3", "B4"]], "R5", ["R7"], dealer=2)
    play(game, "0: draw")
    assert game.view(0).to_json()["drawn"] == "R7"
    assert game.view(1).to_json()["drawn"] is None and game.view(None).to_json()["drawn"] is None
    play(game, "0: pass")
    for seat in range(3):  # the next player must not see the card seat 0 kept
        assert game.view(seat).to_json()["drawn"] is None


def test_R4_4_the_active_colour_is_the_top_cards_or_the_chosen_colour_of_a_wild():
    game = table([["W+4", "G2"], ["B1", "B2"], ["B3", "B4"]], "R5", dealer=2)
    assert game.state()["color"] == "R"
    play(game, "0: play W+4 B", "1: accept")
    assert game.state()["top"] == "W+4" and game.state()["color"] == "B"
    assert "2: play B3" in legal(game)


def test_R5_1_draw_two_next_player_draws_two_and_loses_the_turn():
    game = table([["R+2", "G2"], ["B1", "B2"], ["B3", "B4"]], "R5", ["Y1", "Y2"], dealer=2)
    play(game, "0: play R+2")
    assert hand(game, 1) == ["B1", "B2", "Y1", "Y2"]
    assert game.to_act == 2
    assert last_events(game, "skipped")[-1]["seat"] == 1


def test_R5_2_reverse_changes_the_direction():
    game = table([["RR", "G2"], ["B1", "B2"], ["B3", "B4"], ["B5", "B6"]], "R5", dealer=3)
    play(game, "0: play RR")
    assert game.direction == -1 and game.to_act == 3


def test_R5_2_reverse_with_two_players_acts_as_a_skip():
    game = table([["RR", "G2", "G3"], ["B1", "B2", "B3"]], "R5", dealer=1)
    play(game, "0: play RR")
    assert game.to_act == 0 and game.awaiting == "play"


def test_R5_3_skip_the_next_player_loses_their_turn():
    game = table([["RS", "G2"], ["B1", "B2"], ["B3", "B4"]], "R5", dealer=2)
    play(game, "0: play RS")
    assert game.to_act == 2 and sizes(game) == [1, 2, 2]


def test_R5_3_skip_with_two_players_the_player_plays_again():
    game = table([["RS", "G2"], ["B1", "B2"]], "R5", dealer=1)
    play(game, "0: play RS")
    assert game.to_act == 0


def test_R5_4_wild_draw_four_chooses_a_colour_and_the_next_player_may_challenge_or_draws_four():
    game = table([["W+4", "G2", "G3"], ["B1", "B2"], ["B3", "B4"]], "R5", ["Y1", "Y2", "Y3", "Y4"], dealer=2)
    play(game, "0: play W+4 G")
    assert game.state()["color"] == "G" and game.to_act == 1 and game.awaiting == "challenge"
    assert legal(game) == ["1: challenge", "1: accept"]
    play(game, "1: accept")
    assert hand(game, 1)[-4:] == ["Y1", "Y2", "Y3", "Y4"] and len(hand(game, 1)) == 7 and game.to_act == 2


def test_R5_4_wild_draw_four_needs_a_colour():
    game = table([["W+4", "G2"], ["B1", "B2"]], "R5", dealer=1)
    with pytest.raises(NotationError, match="needs a colour"):
        game.apply("0: play W+4")


def test_R5_5_item_box_turns_the_top_of_the_stock_onto_the_pile_and_no_colour_is_chosen():
    game = table([["WIB", "G2", "G3"], ["B1", "B2", "B3"], ["B4", "B5", "B6"]], "R5", ["G7"], dealer=2)
    assert "0: play WIB" in legal(game) and not any(a.startswith("0: play WIB ") for a in legal(game))
    play(game, "0: play WIB")
    state = game.state()
    assert state["top"] == "G7" and state["color"] == "G" and state["discard"] == 3
    assert game._discard[-2] == 53  # the Item Box lies under the turned card
    assert last_events(game, "item")[-1]["item"] == "green_shell"

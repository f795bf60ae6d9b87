"""``careful``: challenges a Wild Draw Four only on evidence from its view (a card it was shown,
a draw that says the culprit lacks the colour, this round's challenges of the culprit, whether
it was itself about to go out, the cards of the colour still unseen), holds its wilds and
counts the cards when it chooses a colour; legal on every decision."""

import random

import pytest
from helpers.rules import play, table
from test_bots_choose_legal_actions import HOUSE_RULES, play_checked

from unokart.bots import CarefulBot, HeuristicBot, make_bot
from unokart.bots.careful import BREAK_EVEN, guilt
from unokart.rules.cards import COLORS
from unokart.rules.states import AWAIT_CHALLENGE, AWAIT_DRAWN


def at_challenge(game, seat: int):
    assert (game.to_act, game.awaiting) == (seat, AWAIT_CHALLENGE)
    return game.view(seat)


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: ",".join(o) or "standard")
@pytest.mark.parametrize("players", [2, 4])
def test_careful_returns_only_legal_actions(options, players):
    lineup = ["careful", "heuristic", "careful", "random"][:players]
    checked = sum(play_checked(lineup, seed, options) for seed in range(12))
    assert checked > 200


def test_careful_is_made_by_name():
    assert isinstance(make_bot("careful"), CarefulBot)
    assert make_bot("careful").name == "careful"


@pytest.mark.parametrize(("dealer", "before", "challenges"), [
    (1, [], False),  # six cards: a careful culprit had no reason to bluff
    (0, ["1: play RS", "1: play RR", "1: play R+2", "1: play R1"], True),  # two: every reason
])
def test_careful_challenges_when_it_was_about_to_go_out_and_not_otherwise(dealer, before, challenges):
    culprit, victim = ["W+4", "R5", "R6", "Y5", "Y6", "B5"], ["RS", "RR", "R+2", "R1", "G1", "B1"]
    game = play(table([culprit, victim], "R3", stock=["Y1", "Y2"], dealer=dealer, hand_size=6), *before, "0: play W+4 G")
    view = at_challenge(game, 1)
    assert HeuristicBot().challenges(view)  # as if the culprit's hand were random: nearly always
    assert CarefulBot().challenges(view) is challenges


def test_careful_declines_when_the_culprit_drew_on_the_colour_it_covered():
    """Seat 0 drew twice on red (no red, no 1 or 9, no wild): its four cards lack red, and the
    Wild Draw Four it then drew and played covered red. Seat 1, down to two cards, would
    otherwise challenge."""
    game = table([["Y2", "Y3", "G4"], ["R1", "R2", "G5"]], "R9", stock=["B7", "W+4"], dealer=1, hand_size=3)
    play(game, "0: draw", "1: play R1", "0: draw")
    assert game.awaiting == AWAIT_DRAWN
    view = at_challenge(play(game, "0: play W+4 G"), 1)
    assert guilt(view) == 0.0
    assert HeuristicBot().challenges(view)
    assert not CarefulBot().challenges(view)


def red_wild_draw_four_on(victim_hand: list[str]):
    """Seat 0 plays a Wild Draw Four on red at seat 1, who is down to two cards."""
    game = table([["W+4", "Y5", "Y6", "B5", "B6", "G5"], victim_hand], "R3", dealer=1, hand_size=6)
    play(game, "0: play W+4 G")
    return at_challenge(game, 1)


def test_each_red_card_this_seat_sees_lowers_the_chance_the_culprit_holds_one():
    """The cards are counted: reds in this seat's hand cannot be in the culprit's."""
    none_held = guilt(red_wild_draw_four_on(["G1", "G2", "G3", "B1", "B2", "B3"]))
    six_held = guilt(red_wild_draw_four_on(["R1", "R2", "R4", "R6", "R7", "R8"]))
    assert 0 < six_held < none_held


def shown_then_played_again(culprit: list[str]):
    """Seat 0 plays a Wild Draw Four on red, seat 1 challenges and loses (seeing seat 0's hand),
    then seat 0 plays its second Wild Draw Four, on green."""
    game = table([culprit, ["G7", "G8", "B7", "B8", "Y7", "Y8", "R7"]], "R3", dealer=1, hand_size=7)
    play(game, "0: play W+4 G", "1: challenge")
    assert game.hand_sizes()[1] == 13  # the challenge failed: no red was shown
    play(game, "0: play W+4 B")
    return at_challenge(game, 1)


def test_careful_challenges_a_culprit_that_showed_it_a_card_of_the_colour():
    view = shown_then_played_again(["W+4", "W+4", "G1", "Y1", "Y2", "B1", "B2"])
    assert guilt(view) == 1.0
    assert CarefulBot().challenges(view)


def test_careful_accepts_when_the_hand_it_was_shown_holds_none_of_the_colour():
    view = shown_then_played_again(["W+4", "W+4", "Y1", "Y2", "Y3", "B1", "B2"])
    assert guilt(view) == 0.0
    assert not CarefulBot().challenges(view)


def challenged_before(guilty: bool):
    """Seat 0's first Wild Draw Four is challenged by seat 1 (guilty or not, seen by all); play turns
    back and its second one falls on seat 2, who saw no hand and holds seven cards."""
    first = ["W+4", "W+4", "R5" if guilty else "B9", "G1", "G2", "Y1", "B1"]
    game = table([first, ["GR", "G7", "B7", "B8", "Y7", "Y8", "R7"], ["GR", "G8", "B6", "B5", "Y6", "Y5", "R6"]],
                 "R3", dealer=2, hand_size=7)
    play(game, "0: play W+4 G", "1: challenge")
    if guilty:  # seat 0 drew four; seat 1 plays on and turns play back to seat 0
        play(game, "1: play GR")
    else:  # seat 1 drew six; seat 2 turns play back to seat 1, who plays to seat 0
        play(game, "2: play GR", "1: play G7")
    play(game, "0: play W+4 Y")
    return at_challenge(game, 2)


def test_careful_challenges_a_culprit_caught_bluffing_this_round_and_not_one_found_innocent():
    caught, cleared = challenged_before(guilty=True), challenged_before(guilty=False)
    assert guilt(caught) > BREAK_EVEN > guilt(cleared)
    assert CarefulBot().challenges(caught)
    assert not CarefulBot().challenges(cleared)


def test_careful_keeps_its_wild_for_its_last_card_where_the_heuristic_plays_it():
    game = table([["WIB", "G5"], ["Y1", "Y2"]], "G3", stock=["R1", "R2"], dealer=1, hand_size=2)
    view = game.view(0)
    plays = [a for a in game.legal_actions(0) if a.verb == "play" and a.uno]
    assert str(HeuristicBot().pick_play(view, plays)) == "0: play WIB uno"
    assert str(CarefulBot().pick_play(view, plays)) == "0: play G5 uno"


def test_careful_names_the_colour_whose_cards_are_mostly_gone_between_two_it_holds():
    """Two blues (more points) and two yellows in hand, green to follow; six yellows on the discard
    pile: fewer yellows are left for the others to follow with, so its Wild Draw Four asks for yellow."""
    game = table([["Y3", "Y6", "Y9", "W+4", "B8", "B9", "Y1", "Y2"], ["Y4", "Y8", "G9", "G1", "G2", "G3", "G4", "G5"]],
                 "Y5", dealer=1, hand_size=8)
    play(game, "0: play Y3", "1: play Y4", "0: play Y6", "1: play Y8", "0: play Y9", "1: play G9")
    view = game.view(0)
    wilds = [a for a in game.legal_actions(0) if a.verb == "play" and a.card == 52]
    assert COLORS[HeuristicBot().pick_play(view, wilds).color] == "B"  # the colour with the most points
    assert COLORS[CarefulBot().pick_play(view, wilds).color] == "Y"


def test_careful_decides_the_same_for_the_same_view():
    game = table([["W+4", "R5", "R6", "Y5", "Y6", "B5"], ["RS", "RR", "R+2", "R1", "G1", "B1"]], "R3", dealer=0, hand_size=6)
    view = game.view(game.to_act)
    legal = game.legal_actions(game.to_act)
    assert len({str(CarefulBot().choose(view, legal, random.Random(seed))) for seed in range(5)}) == 1

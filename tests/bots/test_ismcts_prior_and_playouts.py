"""ISMCTS's parts: its prior is patient (wilds for the last card, action cards for a player
on one card), trusts careful players' Wild Draw Fours and reads what a draw says about the next
player's hand; its playouts finish rounds and value them for the right seat."""

import random

import pytest
from helpers.rules import table

from unokart import Game
from unokart.bots import HeuristicBot, IsmctsBot, make_bot
from unokart.bots.knowledge import next_seat_lacks
from unokart.bots.playout import best_play, patient_play, playout, playout_action, round_value
from unokart.rules.actions import Action
from unokart.rules.cards import COLORS, parse_card
from unokart.rules.states import AWAIT_CHALLENGE, AWAIT_PLAY, GAME_OVER, ROUND_OVER


def after_the_next_player_drew_on_red() -> Game:
    """Seat 1 holds no red, no 9 and no wild, so it draws on R9; seat 0 may then play R2 or G9."""
    game = table([["R2", "G9", "G8", "B1", "Y4", "B6", "Y5"], ["Y1", "Y2", "G1", "G2", "B1", "B2", "Y3"]],
                 "R9", stock=["B7"], dealer=0)
    game.apply("1: draw")  # B7 does not fit: the turn passes
    assert (game.to_act, game.awaiting) == (0, AWAIT_PLAY)
    return game


def test_a_draw_is_read_as_lacking_the_colour_asked_for():
    view = after_the_next_player_drew_on_red().view(0)
    lacks = next_seat_lacks(view)
    assert lacks[COLORS.index("R")] == pytest.approx(7 / 8)  # the 7 cards held when it drew; the 8th is unknown
    assert lacks[COLORS.index("G")] == lacks[COLORS.index("Y")] == lacks[COLORS.index("B")] == 0.0


def test_the_prior_leads_the_colour_the_next_player_lacks_where_the_heuristic_would_not():
    game = after_the_next_player_drew_on_red()
    view, legal = game.view(0), game.legal_actions(0)
    plays = [a for a in legal if a.verb == "play"]
    assert str(HeuristicBot().pick_play(view, plays)) == "0: play G9"  # the colour it holds most
    assert str(IsmctsBot().pick_play(view, plays)) == "0: play R2"


def test_the_prior_chooses_a_held_colour_the_next_player_lacks():
    view = after_the_next_player_drew_on_red().view(0)
    assert COLORS[HeuristicBot().pick_color(view)] == "G"
    assert COLORS[IsmctsBot().pick_color(view)] == "R"


def test_with_nothing_known_the_prior_plays_as_the_patient_heuristic():
    prior = IsmctsBot()
    compared = 0
    for seed in range(40):
        game = Game.new(2, seed=seed)
        view = game.view(game.to_act)
        plays = [a for a in game.legal_actions() if a.verb == "play"]
        if plays and not any(next_seat_lacks(view)) and min(view.hand_sizes) > 2:
            patient = patient_play(plays, view.hand, view.seat, view.direction, view.hand_sizes, view.color)
            assert prior.pick_play(view, plays) == patient
            compared += 1
    assert compared > 20


def test_the_prior_keeps_its_wild_for_its_last_card_where_the_heuristic_plays_it():
    game = table([["WIB", "G5"], ["Y1", "Y2"]], "G3", stock=["R1", "R2"], dealer=1, hand_size=2)
    view = game.view(0)
    plays = [a for a in game.legal_actions(0) if a.verb == "play" and a.uno]
    assert str(HeuristicBot().pick_play(view, plays)) == "0: play WIB uno"
    assert str(IsmctsBot().pick_play(view, plays)) == "0: play G5 uno"


def test_in_playouts_the_searching_seat_plays_as_its_prior_does_and_the_others_as_the_heuristic():
    game = table([["WIB", "G5"], ["Y1", "Y2"]], "G3", stock=["R1", "R2"], dealer=1, hand_size=2)
    legal = game.legal_actions(0)
    assert str(playout_action(game, legal)) == "0: play WIB uno"
    assert str(playout_action(game, legal, patient_seat=1)) == "0: play WIB uno"
    assert str(playout_action(game, legal, patient_seat=0)) == "0: play G5 uno"


def test_the_patient_values_save_a_draw_two_until_the_next_player_is_down_to_one_card():
    hand = [parse_card(c) for c in ("G+2", "B3", "B1", "B5", "B6", "B7")]
    plays = [Action.parse("0: play G+2"), Action.parse("0: play B3")]  # on G3
    green = COLORS.index("G")

    def patient(next_hand: int) -> str:
        return str(patient_play(plays, hand, 0, 1, [6, next_hand, 7], green))

    assert str(best_play(plays, hand, 0, 1, [6, 2, 7], green)) == "0: play G+2"  # the heuristic hits a player on two
    assert patient(2) == "0: play B3"  # the prior keeps it, and turns play to the colour it holds most
    assert patient(1) == "0: play G+2"


@pytest.mark.parametrize(("dealer", "before", "challenged_by"), [
    (1, [], {"heuristic"}),  # six cards: a careful culprit had no reason to bluff
    (0, ["1: play RS", "1: play RR", "1: play R+2", "1: play R1"], {"heuristic", "ismcts"}),  # two: every reason
])
def test_the_prior_challenges_a_wild_draw_four_only_when_it_was_about_to_go_out(dealer, before, challenged_by):
    culprit, victim = ["W+4", "R5", "R6", "Y5", "Y6", "B5"], ["RS", "RR", "R+2", "R1", "G1", "B1"]
    game = table([culprit, victim], "R3", stock=["Y1", "Y2"], dealer=dealer, hand_size=6)
    for action in [*before, "0: play W+4 G"]:
        game.apply(action)
    assert (game.to_act, game.awaiting) == (1, AWAIT_CHALLENGE)
    view = game.view(1)
    challengers = {bot.name for bot in (HeuristicBot(), IsmctsBot()) if bot.challenges(view)}
    assert challengers == challenged_by


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_end_the_round_and_value_it_for_the_winner(players):
    ended = 0
    for seed in range(30):
        game = Game.new(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10)):  # from some way into the round
            if game.awaiting == ROUND_OVER:
                break
            game.apply(rng.choice(game.legal_actions()))
        playout(game, 400)
        if game.round_winner is None:
            continue  # cut short: valued by hand sizes
        ended += 1
        winner = game.round_winner
        for seat in range(players):
            value = round_value(game, seat, 200.0)
            assert -1.0 <= value <= 1.0
            assert (value > 0) == (seat == winner)
    assert ended > 25


def test_a_round_that_wins_the_game_is_worth_the_most():
    game = Game.new(2, seed=3, options={"target_score": 1})  # any round won ends the game
    playout(game, 400)
    assert game.awaiting == GAME_OVER
    assert round_value(game, game.round_winner, 200.0) == 1.0
    assert round_value(game, 1 - game.round_winner, 200.0) == -1.0


def test_ismcts_gives_the_same_move_for_the_same_seed():
    game = after_the_next_player_drew_on_red()
    view, legal = game.view(0), game.legal_actions(0)
    bot = make_bot("ismcts:30")
    assert len({bot.choose(view, legal, random.Random(9)) for _ in range(3)}) == 1

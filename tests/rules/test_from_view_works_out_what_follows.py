"""Game.from_view rebuilds a position from a seat's view and the hidden cards, and works out by itself
what follows a pending choice (so a search never needs the engine's private bookkeeping)."""

import random

import pytest

from helpers.rules import play, table
from unokart import Game


def rebuilt(game: Game) -> Game:
    """The position as the seat to act sees it, with the true hidden cards filled in."""
    view = game.view(game.to_act)
    hands = [list(h) for h in game._hands]
    return Game.from_view(view, hands, list(game._stock), random.Random(0))


def after(game: Game, action: str) -> dict:
    game.apply(action)
    return game.state()


def test_R3_3_the_dealers_colour_for_a_first_item_box_lets_the_dealers_left_start():
    game = table([["R1", "G1"], ["R2", "G2"], ["R3", "G3"]], "WIB", ["Y5"], dealer=1)
    copy = rebuilt(game)
    assert after(copy, "1: color G") == after(game, "1: color G")
    assert copy.to_act == 2


def test_R9_3_a_green_shell_from_a_last_card_ends_the_round_once_its_target_is_chosen():
    game = play(table([["WIB"], ["G6"], ["B6"]], "R5", ["G7", "Y1"], dealer=2), "0: play WIB")
    copy = rebuilt(game)
    assert after(copy, "0: target 1") == after(game, "0: target 1")
    assert copy.awaiting == "round_over" and copy.round_winner == 0


@pytest.mark.parametrize("turned", ["G7", "W+4"])
def test_a_green_shell_or_bob_omb_with_cards_left_passes_the_turn_on(turned):
    hands = [["WIB", "R1", "R2"], ["G6", "G8", "G9"], ["B6", "B8", "B9"]]
    game = play(table(hands, "R5", [turned, "Y1", "Y2", "Y3"], dealer=2), "0: play WIB")
    choice = "0: target 2" if game.awaiting == "target" else "0: color B"
    copy = rebuilt(game)
    assert after(copy, choice) == after(game, choice)
    assert copy.to_act == 1

"""One core answer to "who may act now" (R8 UNO and catches, R12.4 jump-ins), used by every face."""

import random

from helpers.rules import legal, play, table
from unokart import Game

JUMP_HANDS = [["G6", "G1", "G2"], ["B1", "B2", "B3"], ["R5", "Y2", "Y3"], ["RS", "Y4", "Y5"]]


def test_nobody_may_speak_out_of_turn_without_an_open_window_or_a_jump_in():
    game = table(JUMP_HANDS, "R5", dealer=3)
    assert game.out_of_turn_seats() == ()
    assert game.may_act() == [0]


def test_under_jump_in_every_other_seat_is_listed_whether_or_not_it_holds_the_card():
    game = table(JUMP_HANDS, "R5", dealer=3, jump_in=True)
    # Only seat 2 holds R5, but listing only it would tell everyone so.
    assert game.out_of_turn_seats() == (1, 2, 3)
    assert game.may_act() == [0, 2]
    assert legal(game, 2) == ["2: jump R5"]


def test_the_seats_are_listed_from_the_seat_asked_for():
    game = table(JUMP_HANDS, "R5", dealer=3, jump_in=True)
    assert game.out_of_turn_seats(3) == (3, 1, 2)


def test_no_jump_in_while_a_wild_tops_the_pile():
    game = table([["W+4", "G1", "G2"], ["B1", "B2", "B3"], ["B6", "Y2", "Y3"]], "R5", dealer=2, jump_in=True)
    play(game, "0: play W+4 G")
    assert game.awaiting == "challenge"
    assert game.out_of_turn_seats() == ()


def test_a_forgotten_uno_opens_the_window_to_its_seat_first_then_the_others_in_order():
    game = table([["R1", "G2"], ["R6", "R7"], ["B6", "B7"]], "R5", ["Y1", "Y2", "Y3"], dealer=2)
    play(game, "0: play R1")
    assert game.to_act == 1
    # R8.3: the first valid word wins, and the forgetful seat may still say it.
    assert game.out_of_turn_seats() == (0, 2)
    assert game.may_act() == [1, 0, 2]
    assert legal(game, 0) == ["0: uno"] and legal(game, 2) == ["2: catch 0"]
    play(game, "0: uno")
    assert game.out_of_turn_seats() == ()


def test_whoever_the_core_lists_is_exactly_whoever_has_a_legal_action():
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        game = Game.new(4, seed=seed, options={"jump_in": True, "target_score": 200})
        while game.awaiting != "game_over":
            if game.awaiting == "round_over":
                game.next_round()
                continue
            assert set(game.may_act()) == {s for s in range(game.n) if game.legal_actions(s)}
            checked += 1
            seat = rng.choice(game.may_act())
            game.apply(rng.choice(game.legal_actions(seat)))
    assert checked > 1000

"""Out-of-turn decisions in the AEC order (docs/ENV.md): UNO, catch and jump-in get turns of their own."""

import random

import numpy as np
import pytest

from unokart.env import raw_env
from unokart.env.actions import DECLINE, PLAY, action_of_index, index_of_action
from unokart.rules import Action
from unokart.rules.cards import FACE_RANK
from env_helpers import random_walk


def mask_of(aec) -> set[int]:
    return set(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"]).tolist())


def forget_uno(players: int = 3):
    """A table dealt two cards each where the first player plays a number card without saying UNO."""
    for seed in range(200):
        aec = raw_env(players=players, options={"hand_size": 2})
        aec.reset(seed=seed)
        actor = aec.seat
        for index in sorted(mask_of(aec)):
            action = action_of_index(index, actor, players)
            if index < PLAY + 52 and action.verb == "play" and FACE_RANK[action.card] < 10:
                aec.step(index)
                return aec, actor
    raise AssertionError("no seed gives a plain first play")


def test_forgetting_uno_gives_the_others_a_catch_turn_first_and_the_forgetter_the_last_word():
    aec, actor = forget_uno()
    game = aec.game
    next_seat, third = (actor + 1) % 3, (actor + 2) % 3
    assert game.to_act == next_seat and game._uno_window == actor
    # the seat after the one whose turn it now is speaks first: catch or let it pass
    assert aec.reacting and aec.seat == third
    catch = index_of_action(Action(third, "catch", target=actor), 3)
    assert mask_of(aec) == {catch, DECLINE}
    aec.step(DECLINE)
    # then the forgetful player may still say UNO
    assert aec.reacting and aec.seat == actor
    say_uno = index_of_action(Action(actor, "uno"), 3)
    assert mask_of(aec) == {say_uno, DECLINE}
    aec.step(say_uno)
    assert game._uno_said[actor] and game._uno_window == -1
    # and the turn goes on, with no catch left to make
    assert not aec.reacting and aec.seat == next_seat
    assert all(action_of_index(i, next_seat, 3).verb != "catch" for i in mask_of(aec))


def test_a_catch_from_an_out_of_turn_seat_costs_the_forgetter_two_cards():
    aec, actor = forget_uno()
    third = (actor + 2) % 3
    assert len(aec.game.hand(actor)) == 1
    aec.step(index_of_action(Action(third, "catch", target=actor), 3))
    assert len(aec.game.hand(actor)) == 3  # R8.2
    assert aec.game._uno_window == -1
    assert not aec.reacting and aec.seat == aec.game.to_act  # nobody else has anything to say


def test_the_seat_whose_turn_it_is_can_catch_within_its_turn():
    aec, actor = forget_uno()
    aec.step(DECLINE)
    aec.step(DECLINE)
    next_seat = (actor + 1) % 3
    assert not aec.reacting and aec.seat == next_seat
    catch = index_of_action(Action(next_seat, "catch", target=actor), 3)
    assert catch in mask_of(aec)
    aec.step(catch)
    assert len(aec.game.hand(actor)) == 3
    assert aec.seat == next_seat and not aec.reacting  # the catch is not its turn: it still plays


def test_a_turn_action_closes_the_window_and_the_chance_to_catch():
    aec, actor = forget_uno()
    aec.step(DECLINE)
    aec.step(DECLINE)
    next_seat = (actor + 1) % 3
    draw = index_of_action(Action(next_seat, "draw"), 3)
    aec.step(draw)
    assert aec.game._uno_window == -1
    for seat in range(3):
        assert all(a.verb != "catch" for a in aec.game.legal_actions(seat))


def test_under_jump_in_every_other_seat_is_asked_while_a_coloured_card_is_on_top():
    aec = raw_env(players=4, options={"jump_in": True})
    jumps = 0
    for aec in random_walk(aec, random.Random(2), decisions=3000, seed=2):
        game = aec.game
        if aec.reacting and game._uno_window < 0:
            assert game.awaiting == "play" and game.top < 52
            legal = game.legal_actions(aec.seat)
            assert all(a.verb == "jump" and a.card == game.top for a in legal)
            jumps += bool(legal)
        if not aec.reacting and game.awaiting == "play" and game.top < 52:
            # the turn goes to the seat to act only once every other seat has been asked
            assert aec.referee.asking() == (game.to_act,)
    assert jumps > 0


@pytest.mark.parametrize("options", [None, {"jump_in": True, "stacking": True, "seven_zero": True}])
def test_random_agents_finish_whole_games(options):
    aec = raw_env(players=5, options={**(options or {}), "target_score": 150}, reward="game")
    aec.reset(seed=4)
    rng = random.Random(4)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(legal[rng.randrange(len(legal))]))
    assert aec.game.awaiting == "game_over" and not aec.agents


def test_a_turn_action_from_a_seat_asked_out_of_turn_is_refused_and_changes_nothing():
    from unokart.env import IllegalActionIndex

    aec, actor = forget_uno()
    third = (actor + 2) % 3
    state, selected = aec.game.state(), aec.agent_selection
    with pytest.raises(IllegalActionIndex, match="out-of-turn moment"):
        aec.step(index_of_action(Action(third, "draw"), 3))
    assert aec.game.state() == state and aec.agent_selection == selected and aec.reacting

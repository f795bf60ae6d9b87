"""Every legal action of the core is exactly one index and back; masks equal legal_actions(seat), exactly."""

import random

import numpy as np
import pytest

from unokart import Action
from unokart.env import raw_env
from unokart.env.actions import (
    DECLINE, MAX_PLAYERS, N_ACTIONS, action_of_index, action_table, describe_index, index_of_action,
)
from unokart.rules import actions as A
from unokart.rules.cards import N_FACES, WILD_DRAW_FOUR
from env_helpers import TABLES, random_walk


def every_conceivable_action(seat: int, players: int) -> list[Action]:
    """Every action the core could ever list for a seat: each verb with each argument."""
    acts = []
    for face in range(N_FACES):
        for uno in (False, True):
            for color in (range(4) if face == WILD_DRAW_FOUR else (-1,)):
                acts.append(Action(seat, A.PLAY, face, color, -1, uno))
            if face < WILD_DRAW_FOUR:
                acts.append(Action(seat, A.JUMP, face, -1, -1, uno))
    acts += [Action(seat, verb) for verb in (A.DRAW, A.PASS, A.CHALLENGE, A.ACCEPT, A.UNO)]
    acts += [Action(seat, A.COLOR, color=c) for c in range(4)]
    acts += [Action(seat, verb, target=t) for verb in (A.TARGET, A.SWAP, A.CATCH) for t in range(players) if t != seat]
    return acts


@pytest.mark.parametrize("players", range(2, MAX_PLAYERS + 1))
def test_every_conceivable_action_has_one_index_and_comes_back(players):
    table, index_of = action_table(players)
    for seat in range(players):
        conceivable = every_conceivable_action(seat, players)
        indices = [index_of_action(a, players) for a in conceivable]
        assert len(set(indices)) == len(conceivable)  # injective
        for action, index in zip(conceivable, indices):
            assert action_of_index(index, seat, players) == action
        # and nothing else: every index of the seat's row is one of these, DECLINE, or a seat beyond the table
        meaningful = {i for i in range(N_ACTIONS) if table[seat][i] is not None}
        assert meaningful == set(indices)
        beyond = set(range(N_ACTIONS)) - meaningful - {DECLINE}
        assert all(describe_index(i).startswith(("target", "swap", "catch")) for i in beyond)
        assert len(beyond) == 3 * (MAX_PLAYERS - players)


def test_seats_in_actions_are_relative_to_the_deciding_seat():
    assert str(action_of_index(index_of_action(Action.parse("2: catch 3"), 4), 0, 4)) == "0: catch 1"
    assert index_of_action(Action.parse("3: target 0"), 4) == index_of_action(Action.parse("0: target 1"), 4)


@pytest.mark.parametrize("players,options", TABLES)
def test_masks_equal_the_cores_legal_actions_over_random_play(players, options):
    aec = raw_env(players=players, options=options)
    rng = random.Random(players)
    checked = reacting_seen = 0
    for aec in random_walk(aec, rng, decisions=2500, seed=players * 100):
        game, seat, agent = aec.game, aec.seat, aec.agent_selection
        legal = game.legal_actions(seat)
        mask = aec.observe(agent)["action_mask"]
        got = set(np.flatnonzero(mask).tolist())
        expected = {index_of_action(a, players) for a in legal}
        assert len(expected) == len(legal)
        if aec.reacting:
            reacting_seen += 1
            assert seat != game.to_act
            assert all(a.verb in (A.UNO, A.CATCH, A.JUMP) for a in legal)
            expected.add(DECLINE)
        else:
            assert seat == game.to_act
        assert got == expected, (str(game), describe_index(min(got ^ expected)))
        for index in got - {DECLINE}:
            assert action_of_index(index, seat, players) in legal
        # only the selected agent has a non-zero mask
        for other in aec.agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        checked += 1
    assert checked == 2500
    assert reacting_seen > 0  # the walk met out-of-turn moments too


@pytest.mark.parametrize("players,options", [(4, None), (5, {"jump_in": True, "stacking": True, "seven_zero": True})])
def test_each_step_applies_exactly_the_action_its_index_means(players, options):
    aec = raw_env(players=players, options=options)
    rng = random.Random(7)
    aec.reset(seed=7)
    applied = 0
    while applied < 1500:
        agent = aec.agent_selection
        if aec.terminations[agent]:
            aec.reset(seed=applied)
            continue
        index = int(rng.choice(np.flatnonzero(aec.observe(agent)["action_mask"])))
        before, seat, round_number = len(aec.game.actions), aec.seat, aec.game.round
        aec.step(index)
        if index != DECLINE and aec.game.round == round_number:
            assert aec.game.actions[before:] == [action_of_index(index, seat, players)]
            applied += 1
        elif index == DECLINE:
            assert len(aec.game.actions) == before  # DECLINE is no core action

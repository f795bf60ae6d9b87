"""Bad input gets a clear error naming the problem (and the rule), and changes nothing."""

import numpy as np
import pytest

from unokart.env import IllegalActionIndex, PolicyBot, SingleAgentEnv, raw_env
from unokart.env.actions import CATCH, DECLINE, DRAW, N_ACTIONS, index_of_action
from unokart.rules import Action


def snapshot(aec):
    return aec.game.state(), aec.game.version, aec.agent_selection, aec.reacting, aec.observe(aec.agent_selection)


def assert_unchanged(aec, before):
    state, version, agent, reacting, obs = before
    assert (aec.game.state(), aec.game.version, aec.agent_selection, aec.reacting) == (state, version, agent, reacting)
    now = aec.observe(agent)
    assert np.array_equal(now["observation"], obs["observation"]) and np.array_equal(now["action_mask"], obs["action_mask"])


@pytest.fixture
def aec():
    env = raw_env(players=4)
    env.reset(seed=5)
    return env


def a_card_not_held(aec) -> int:
    hand = set(aec.game.hand(aec.seat))
    face = next(f for f in range(52) if f not in hand)
    return index_of_action(Action(aec.seat, "play", face), 4)


def test_playing_a_card_not_held_names_the_rule_and_changes_nothing(aec):
    before = snapshot(aec)
    with pytest.raises(IllegalActionIndex, match=r"R4\.1 .*holds no"):
        aec.step(a_card_not_held(aec))
    assert_unchanged(aec, before)


@pytest.mark.parametrize("action,message", [
    (-1, "out of range"), (N_ACTIONS, "out of range"), ("3", "whole number"), (2.0, "whole number"),
    (True, "whole number"), (np.array([1, 2]), "whole number"), (np.array(1.0), "whole number"),
])
def test_actions_that_are_not_indices_are_refused(aec, action, message):
    before = snapshot(aec)
    with pytest.raises(IllegalActionIndex, match=message):
        aec.step(action)
    assert_unchanged(aec, before)


@pytest.mark.parametrize("draw", [np.int32(DRAW), np.int64(DRAW), np.array(DRAW)])
def test_numpy_integers_and_zero_dimensional_arrays_are_accepted(aec, draw):
    seat = aec.seat
    aec.step(draw)
    assert aec.game.actions[-1] == Action.parse(f"{seat}: draw")


def test_decline_on_ones_own_turn_is_refused(aec):
    before = snapshot(aec)
    with pytest.raises(IllegalActionIndex, match="DECLINE is only for out-of-turn"):
        aec.step(DECLINE)
    assert_unchanged(aec, before)


def test_a_catch_with_no_effect_is_not_offered(aec):
    before = snapshot(aec)
    with pytest.raises(IllegalActionIndex, match=r"R8\.3"):
        aec.step(CATCH)  # nobody's UNO window is open
    assert_unchanged(aec, before)


def test_an_offset_beyond_the_table_is_refused(aec):
    with pytest.raises(IllegalActionIndex, match="beyond this table of 4"):
        aec.step(CATCH + 5)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 1}, r"2 to 10 \(R2\.1\)"), ({"players": 11}, "2 to 10"), ({"players": "4"}, "2 to 10"),
    ({"reward": "points"}, "reward must be one of round, game"), ({"max_steps": 0}, "max_steps"),
    ({"options": {"bogus": True}}, "unknown option 'bogus'"), ({"options": {"stacking": "yes"}}, "true or false"),
    ({"players": 10, "options": {"hand_size": 11}}, r"R3\.2"), ({"render_mode": "rgb_array"}, "render_mode"),
])
def test_bad_settings_are_refused_with_one_clear_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_single_agent_env_penalizes_an_illegal_action_and_changes_nothing():
    env = SingleAgentEnv(players=3)
    obs, _ = env.reset(seed=1)
    state = env.game.state()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -0.1 and not terminated and not truncated
    assert "is not legal" in info["illegal_action"]
    assert env.game.state() == state and np.array_equal(again["observation"], obs["observation"])


def test_single_agent_env_can_raise_instead():
    env = SingleAgentEnv(players=3, illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalActionIndex):
        env.step(int(np.flatnonzero(~env.action_masks())[0]))


def test_an_agent_that_only_sends_illegal_actions_is_truncated():
    env = SingleAgentEnv(players=2, max_steps=5)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    results = [env.step(illegal) for _ in range(5 - env.slot.steps)]
    assert results[-1][3] is True
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)


@pytest.mark.parametrize("kwargs,message", [
    ({"opponents": "grandmaster"}, "unknown bot"), ({"players": 3, "opponents": ["random"]}, "list of 2 bot names"),
    ({"seat": 4}, "seat must be"), ({"illegal_action": "ignore"}, "illegal_action must be"),
])
def test_single_agent_env_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**kwargs)


def test_step_before_reset_is_refused():
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentEnv().step(DRAW)


def test_policy_bot_from_a_missing_file_says_so(tmp_path):
    with pytest.raises(RuntimeError, match="no such file|sb3-contrib"):
        PolicyBot(tmp_path / "missing.zip")


def test_the_aec_env_refuses_step_and_observe_before_reset():
    fresh = raw_env(players=2)
    with pytest.raises(RuntimeError, match="call reset"):
        fresh.step(DRAW)
    with pytest.raises(RuntimeError, match="call reset"):
        fresh.observe("player_0")

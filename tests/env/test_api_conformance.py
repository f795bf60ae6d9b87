"""PettingZoo's api_test and seed_test, and Gymnasium's env checker, on the real environments."""

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from unokart.env import SingleAgentEnv, env, raw_env
from env_helpers import ALL_HOUSE_RULES


@pytest.mark.parametrize("players,options", [(2, None), (4, None), (10, None), (4, ALL_HOUSE_RULES), (9, ALL_HOUSE_RULES)])
def test_pettingzoo_api_test_passes(players, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about every Dict observation (its classic games do the same)
        api_test(env(players=players, options=options), num_cycles=400)


def test_pettingzoo_api_test_passes_for_whole_games_with_game_rewards():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(players=3, reward="game", options={"target_score": 60}), num_cycles=2000)


def test_pettingzoo_seed_test_same_seed_same_episode():
    seed_test(lambda: env(players=4, options=ALL_HOUSE_RULES), num_cycles=300)


def test_raw_env_is_an_aec_env_without_wrappers():
    from pettingzoo import AECEnv

    assert isinstance(raw_env(), AECEnv)
    assert env().unwrapped.__class__ is raw_env


@pytest.mark.parametrize("players,opponents", [(2, "random"), (4, "random"), (3, "heuristic")])
def test_gymnasium_env_checker_passes(players, opponents):
    check_env(SingleAgentEnv(players=players, opponents=opponents), skip_render_check=True)


def test_gymnasium_make_builds_the_registered_single_agent_env():
    made = gymnasium.make("unokart.env:UnoKart-v0", players=5, opponents="easy")
    assert isinstance(made.unwrapped, SingleAgentEnv)
    obs, info = made.reset(seed=3)
    assert made.observation_space.contains(obs)
    check_env(made.unwrapped, skip_render_check=True)

"""An observation handed to an agent is its own: later steps (and later observations) never change it."""

import random

import numpy as np
import pytest

from unokart.env import raw_env
from env_helpers import ALL_HOUSE_RULES, random_walk


@pytest.mark.parametrize("players,options", [(2, None), (5, ALL_HOUSE_RULES)])
def test_observations_handed_out_never_change_when_the_env_steps(players, options):
    kept = []  # (observation handed out, a private copy taken at that moment)
    for aec in random_walk(raw_env(players=players, options=options), random.Random(7), decisions=1500, seed=3):
        for agent in (aec.agent_selection, aec.possible_agents[0]):
            obs = aec.observe(agent)
            kept.append((obs, {key: value.copy() for key, value in obs.items()}))
    assert len(kept) == 3000
    for obs, copy in kept:
        assert np.array_equal(obs["observation"], copy["observation"])
        assert np.array_equal(obs["action_mask"], copy["action_mask"])
    # and no two share memory, so an agent writing into one cannot touch another
    first, second = kept[-2][0], kept[-1][0]
    assert not np.shares_memory(first["observation"], second["observation"])
    assert not np.shares_memory(first["action_mask"], second["action_mask"])


def test_an_observation_is_a_plain_writable_float32_vector():
    aec = raw_env(players=3)
    aec.reset(seed=1)
    obs = aec.observe(aec.agent_selection)
    vector, mask = obs["observation"], obs["action_mask"]
    assert vector.dtype == np.float32 and vector.shape == (297,) and vector.flags.c_contiguous
    assert mask.dtype == np.int8 and mask.shape == (255,)
    vector[0] += 5.0  # an agent may scale or edit its copy in place
    assert aec.observe(aec.agent_selection)["observation"][0] == vector[0] - 5.0

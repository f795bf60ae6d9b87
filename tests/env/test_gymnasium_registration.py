"""UnoKart-v0 in Gymnasium: make and make_vec in either import order, its spec, info and the vector env."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium
import numpy as np
import pytest

from unokart.env import IllegalActionIndex, SingleAgentEnv
from unokart.env.actions import N_ACTIONS, action_table, describe_index
from unokart.env.vector import UnoKartVectorEnv

MAKE_BOTH = """
    single = gymnasium.make("unokart.env:UnoKart-v0", players=2, opponents="heuristic")
    obs, info = single.reset(seed=1)
    assert info["action_mask"].any() and type(single.unwrapped).__name__ == "SingleAgentEnv"
    envs = gymnasium.make_vec("unokart.env:UnoKart-v0", num_envs=3, vectorization_mode="vector_entry_point", players=2)
    obs, info = envs.reset(seed=1)
    assert type(envs).__name__ == "UnoKartVectorEnv" and envs.action_masks().shape == (3, 255)
    print("ok")
"""


@pytest.mark.parametrize("first", ["import unokart.env\nimport gymnasium", "import gymnasium\nimport numpy"])
def test_make_and_make_vec_work_whichever_package_is_imported_first(first):
    code = first + "\n" + textwrap.dedent(MAKE_BOTH)
    if first.startswith("import unokart"):
        code += "gymnasium.make('UnoKart-v0', players=3).reset(seed=2)\n"  # plain id once the package is imported
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_spec_declares_max_episode_steps_and_the_vector_entry_point():
    spec = gymnasium.spec("UnoKart-v0")
    assert spec.max_episode_steps == 20_000 and spec.vector_entry_point == "unokart.env.vector:UnoKartVectorEnv"
    made = gymnasium.make("UnoKart-v0", players=2)
    assert made.metadata["render_fps"] > 0 and made.spec.max_episode_steps == 20_000


def test_reset_and_step_info_carry_the_action_mask():
    single = SingleAgentEnv(players=3, opponents="heuristic")
    obs, info = single.reset(seed=4)
    assert np.array_equal(info["action_mask"], single.action_masks()) and info["action_mask"].any()
    legal = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, terminated, truncated, info = single.step(legal)
    assert np.array_equal(info["action_mask"], obs["action_mask"].astype(bool))


def test_vector_env_plays_as_single_agent_envs_on_the_same_seeds():
    envs = gymnasium.make_vec("unokart.env:UnoKart-v0", num_envs=3, vectorization_mode="vector_entry_point",
                              players=2, opponents="heuristic")
    obs, info = envs.reset(seed=9)
    assert envs.observation_space.contains(obs) and envs.single_action_space.n == N_ACTIONS
    singles = []
    for s in envs.unwrapped.batch.seeds:
        single = SingleAgentEnv(players=2, opponents="heuristic")
        singles.append([single, single.reset(seed=s)[0]])
    rng = np.random.default_rng(0)
    live = [True] * 3
    while any(live):
        masks = envs.action_masks()
        assert np.array_equal(masks, info["action_mask"]) and np.array_equal(masks, obs["action_mask"].astype(bool))
        for i, (single, o) in enumerate(singles):
            if live[i]:
                assert np.array_equal(obs["observation"][i], o["observation"])
        actions = np.where(masks, rng.random(masks.shape), -1).argmax(axis=1)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i, pair in enumerate(singles):
            if live[i]:
                o, r, term, trunc, single_info = pair[0].step(int(actions[i]))
                pair[1] = o
                assert (terminated[i], truncated[i]) == (term, trunc) and rewards[i] == pytest.approx(r)
                if term:
                    assert info["round_winner"][i] == single_info["round_winner"]
                    live[i] = False


def test_vector_env_truncates_at_max_episode_steps_and_starts_the_next_game():
    envs = UnoKartVectorEnv(num_envs=4, players=4, opponents="random", max_episode_steps=3)
    obs, info = envs.reset(seed=1)
    for step in range(3):
        masks = envs.action_masks()
        obs, rewards, terminated, truncated, info = envs.step(masks.argmax(axis=1))
    assert (truncated | terminated).all() and envs.action_masks().any(axis=1).all()


def test_vector_env_refuses_an_illegal_action_and_changes_nothing():
    envs = UnoKartVectorEnv(num_envs=2, players=2)
    obs, info = envs.reset(seed=3)
    actions = envs.action_masks().argmax(axis=1)
    actions[1] = int(np.flatnonzero(~envs.action_masks()[1])[0])
    with pytest.raises(IllegalActionIndex, match="env 1"):
        envs.step(actions)
    assert np.array_equal(envs.action_masks(), info["action_mask"])


def test_describe_index_names_the_card_as_the_notation_does():
    """For seat 0 every index reads as NOTATION.md writes its action, seats given as offsets."""
    for index, action in enumerate(action_table(10)[0][0]):
        if action is None:
            continue
        notation = str(action).removeprefix("0: ")
        for verb in ("target ", "swap ", "catch "):
            notation = notation.replace(verb, verb + "offset ")
        assert describe_index(index) == notation
    assert describe_index(19) == "play Y6" and describe_index(254) == "decline"

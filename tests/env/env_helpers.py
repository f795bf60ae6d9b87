"""Shared helpers for the env tests: random masked play through the AEC API."""

from __future__ import annotations

import random

import numpy as np

from unokart.env import raw_env

ALL_HOUSE_RULES = {"stacking": True, "draw_until_playable": True, "force_play": True, "jump_in": True, "seven_zero": True}
# Tables that between them reach every kind of decision.
TABLES = [
    (2, None), (3, None), (4, None), (10, None),
    (2, ALL_HOUSE_RULES), (4, ALL_HOUSE_RULES), (7, ALL_HOUSE_RULES),
    (4, {"stacking": True}), (5, {"jump_in": True}), (4, {"seven_zero": True}), (3, {"force_play": True}),
]


def random_index(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def random_walk(aec: raw_env, rng: random.Random, decisions: int, seed: int = 0):
    """Yield before each live decision; play a random masked action after it; deal again when an episode ends."""
    aec.reset(seed=seed)
    done = 0
    while done < decisions:
        agent = aec.agent_selection
        if aec.terminations[agent] or aec.truncations[agent]:
            seed += 1
            aec.reset(seed=seed)
            continue
        yield aec
        aec.step(random_index(aec.observe(agent)["action_mask"], rng))
        done += 1

"""Shared helpers for the env tests: random masked play through the AEC API."""

from __future__ import annotations

import random

import numpy as np

from unokart.env import raw_env
from unokart.env.layout import LAYOUT, OBS_SIZE
from unokart.rules.cards import WILD_DRAW_FOUR
from unokart.rules.states import AWAITING

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


def reference_encode(view, covered_color: int = -1, reacting: bool = False) -> np.ndarray:
    """The observation of ``view`` written out plainly from docs/ENV.md's layout, apart from the engine's
    incremental writer (``batch_core.write_row``), so that the tests check the writer against the layout."""
    obs = np.zeros(OBS_SIZE, np.float32)
    at = {name: part.start for name, part in LAYOUT.items()}
    seat, n = view.own_seat, view.n
    for face in view.hand:
        obs[at["hand"] + face] += 1
    for face in view.discard:
        obs[at["discard"] + face] += 1
    obs[at["top"] + view.discard[-1]] = 1
    if view.color >= 0:
        obs[at["color"] + view.color] = 1
    obs[at["awaiting"] + AWAITING.index(view.awaiting)] = 1
    for k in range(n):
        other = (seat + k) % n
        obs[at["seated"] + k] = 1
        obs[at["hand_sizes"] + k] = view.hand_sizes[other]
        obs[at["scores"] + k] = view.scores[other] / view.options.target_score
        obs[at["uno_said"] + k] = view.hand_sizes[other] == 1 and view.uno_said[other]
    if view.uno_window >= 0:
        obs[at["uno_window"] + (view.uno_window - seat) % n] = 1
    if view.to_act is not None:
        obs[at["to_act"] + (view.to_act - seat) % n] = 1
    obs[at["direction"]] = view.direction > 0
    obs[at["pending"]] = view.pending
    obs[at["stock"]] = view.stock / 112.0
    if view.drawn >= 0:
        obs[at["drawn"] + view.drawn] = 1
    if covered_color >= 0 and view.discard[-1] == WILD_DRAW_FOUR:
        obs[at["covered_color"] + covered_color] = 1
    obs[at["reacting"]] = reacting
    return obs

"""``UnoKart-v0`` as a Gymnasium vector env: ``BatchEnv`` with bots in the other seats, one seat learning.

    envs = gymnasium.make_vec("unokart.env:UnoKart-v0", num_envs=64, vectorization_mode="vector_entry_point",
                              players=2, opponents="heuristic")
    obs, info = envs.reset(seed=0)                  # obs["observation"] (64, 297), obs["action_mask"] (64, 255)
    obs, rewards, terminated, truncated, info = envs.step(actions)
    envs.action_masks()                             # (64, 255) bool, for sb3-contrib's MaskablePPO

The same observations, masks and rewards as ``SingleAgentEnv`` (it is tested
equal to it on the same seeds), many games in one call. A finished game
restarts in the same step (``AutoresetMode.SAME_STEP``): the observation
returned with ``terminated`` or ``truncated`` is the next game's first (the
final observation of a game asks nothing, so none is kept). ``info`` holds the
masks as booleans (``action_mask``) and, where a round ended, its winner
(``round_winner``, -1 elsewhere). An action the mask forbids raises
``IllegalActionIndex`` and changes no game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..i18n import t
from .actions import N_ACTIONS
from .common import observation_space
from .batch import BatchEnv


class UnoKartVectorEnv(VectorEnv):
    """``num_envs`` games of ``UnoKart-v0`` (arguments as ``SingleAgentEnv``'s, plus ``max_episode_steps``:
    learner decisions before an episode is truncated, None for no limit; ``copy=False`` hands out the
    batch's own buffers, overwritten by the next step)."""

    metadata = {"render_modes": [], "render_fps": 2, "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 8, players: int = 4, opponents: "str | list[str]" = "random", seat: int = 0,
                 options: "dict | None" = None, reward: str = "round", reward_scale: float | None = None,
                 max_steps: int = 100_000, max_episode_steps: int | None = None, render_mode: str | None = None,
                 copy: bool = True, seed: int | None = None):
        if render_mode is not None:
            raise ValueError(t("env.bad_render_mode", mode=render_mode, known="-"))
        self.batch = BatchEnv(num_envs=num_envs, players=players, options=options, seed=seed, opponents=opponents,
                              seat=seat, reward=reward, reward_scale=reward_scale, max_steps=max_steps)
        self.num_envs = num_envs
        self.seat = seat
        self.copy = copy
        self.max_episode_steps = max_episode_steps
        self.render_mode = None
        self.single_observation_space = observation_space(self.batch.options)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._mask_int8 = np.zeros((num_envs, N_ACTIONS), np.int8)
        self._episode_steps = np.zeros(num_envs, np.int64)

    def _observation(self) -> dict[str, np.ndarray]:
        np.copyto(self._mask_int8, self.batch.action_mask)
        obs, mask = self.batch.observation, self._mask_int8
        if self.copy:
            obs, mask = obs.copy(), mask.copy()
        return {"observation": obs, "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        if seed is None and self.batch.first_seed is None:
            seed = int(self.np_random.integers(2**62))
        self.batch.reset(seed=seed)
        self._episode_steps[:] = 0
        return self._observation(), {"action_mask": self.batch.action_mask.copy()}

    def step(self, actions: Any) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        games_before = self.batch.games() if self.batch.ready else []
        _, _, _, rewards, done = self.batch.step(actions)
        reward = rewards[:, self.seat].astype(np.float64)
        truncated = self.batch.truncated.copy()
        terminated = done & ~truncated
        winners = np.full(self.num_envs, -1, np.int64)
        for i in np.flatnonzero(terminated):
            winner = games_before[i].round_winner
            winners[i] = -1 if winner is None else winner
        self._episode_steps += 1
        self._episode_steps[done] = 0
        if self.max_episode_steps is not None:
            over = np.flatnonzero(self._episode_steps >= self.max_episode_steps)
            if len(over):  # TimeLimit's truncation, then the next game at once (same-step autoreset)
                self.batch.reset_envs(over)
                truncated[over] = True
                self._episode_steps[over] = 0
        info = {"action_mask": self.batch.action_mask.copy(), "round_winner": winners,
                "_round_winner": terminated.copy()}
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game now, as booleans (what MaskablePPO asks for)."""
        return self.batch.action_mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()

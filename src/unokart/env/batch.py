"""``BatchEnv``: many games stepped in one call, in the shape of pgx's API (docs/ENV.md, "Batched").

    b = BatchEnv(num_envs=256, players=2, seed=0)                # self-play: every seat is yours
    obs, mask, seat = b.reset()                                   # (N, 297) float32, (N, 255) bool, (N,) int64
    obs, mask, seat, rewards, done = b.step(actions)              # actions (N,) int; rewards (N, players)

Each game is the AEC env (same seat order, observation, mask and rewards,
decision by decision on the same seeds). A finished game restarts by itself:
the observation returned with ``done`` is the next game's first. With
``opponents="heuristic"`` (any bot name, or a list for the other seats) bots
play every seat but ``seat`` inside ``step``, so ``seat`` is always the learner's.

The arrays are the batch's own buffers, rewritten by each ``step`` (the
compiled ``batch_core`` writes only the entries that changed into each game's
byte rows; one numpy pass widens them into these arrays): copy what you keep.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..i18n import t
from .actions import N_ACTIONS, describe_index
from .batch_core import ROW_SIZE, SCORES_AT, start_batch, step_batch
from .common import DEFAULT_SCALE, IllegalActionIndex, check_settings, new_slot, opponent_bots
from .observation import LAYOUT, OBS_SIZE

_STOCK = LAYOUT["stock"].start
_SCORES = LAYOUT["scores"]
assert ROW_SIZE % 2 == 0 and SCORES_AT % 2 == 0  # the raw scores are whole uint16s of the joined rows


class BatchEnv:
    """``num_envs`` games of ``players`` seats, stepped together (see the module's docstring)."""

    def __init__(self, num_envs: int = 256, players: int = 2, options: "dict | None" = None, seed: int | None = None,
                 opponents: "str | list[str] | None" = None, seat: int = 0, reward: str = "round",
                 reward_scale: float | None = None, max_steps: int = 100_000):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(t("env.bad_num_envs", num_envs=num_envs))
        table_options = check_settings(players, options, reward, max_steps)
        self.num_envs, self.players = num_envs, players
        self.options = table_options
        self.reward_scale = float(reward_scale if reward_scale is not None else DEFAULT_SCALE[reward])
        bots: list[Any] = []
        learner = -1
        if opponents is not None:
            bots = opponent_bots(players, opponents, seat)
            learner = seat
        self.learner = learner
        self.observation = np.zeros((num_envs, OBS_SIZE), np.float32)
        self.action_mask = np.zeros((num_envs, N_ACTIONS), np.bool_)
        self.seat = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, players), np.float32)
        self.done = np.zeros(num_envs, np.bool_)
        self.truncated = np.zeros(num_envs, np.bool_)  # which of the done games hit max_steps (no reward)
        self._index = np.arange(num_envs)
        self._target = float(table_options.target_score)
        self._flat_rewards = memoryview(self.rewards.reshape(-1))
        self._seat_view, self._done_view = memoryview(self.seat), memoryview(self.done)
        self._truncated_view = memoryview(self.truncated)
        self.slots = [new_slot(players, table_options, reward, self.reward_scale, max_steps, learner=learner, bots=bots)
                      for _ in range(num_envs)]
        self._obs_rows = [bytearray(ROW_SIZE)] * num_envs  # each game's deciding seat's rows (batch_core)
        self._mask_rows = [bytearray(N_ACTIONS)] * num_envs
        self.first_seed = seed  # the constructor's seed, until the first reset takes it
        self.seeds: list[int] = []
        self.ready = False      # reset has dealt the games

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game anew. Game ``i``'s first seed is ``self.seeds[i]``, drawn from ``seed`` (or the
        constructor's); its later games take their seeds from it, as ``raw_env.reset()`` does."""
        if seed is None:
            seed = self.first_seed if self.first_seed is not None else random.getrandbits(63)
            self.first_seed = None  # the constructor's seed serves the first reset only
        source = random.Random(f"unokart-batch:{seed}")
        self.seeds = [source.getrandbits(63) for _ in range(self.num_envs)]
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.truncated.fill(False)
        start_batch(self.slots, self.seeds, self._seat_view, self._obs_rows, self._mask_rows)
        self._publish()
        self.ready = True
        return self.observation, self.action_mask, self.seat

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision in every game: ``actions[i]`` for game ``i``'s deciding seat (``seat[i]``).
        An action whose mask is 0 raises ``IllegalActionIndex`` before any game changes."""
        if not self.ready:
            raise RuntimeError(t("env.no_reset"))
        chosen = self._checked(actions)
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.truncated.fill(False)
        step_batch(self.slots, chosen.tolist(), self._seat_view, self._flat_rewards, self._done_view,
                   self._truncated_view, self._obs_rows, self._mask_rows)
        self._publish()
        return self.observation, self.action_mask, self.seat, self.rewards, self.done

    def _publish(self) -> None:
        """The games' byte rows into the float32 observations and bool masks (one vectorized pass each)."""
        joined = b"".join(self._obs_rows)
        rows = np.frombuffer(joined, np.uint8).reshape(self.num_envs, ROW_SIZE)
        obs = self.observation
        np.copyto(obs, rows[:, :OBS_SIZE])
        obs[:, _STOCK] = rows[:, _STOCK] / 112.0  # as the AEC env computes them: in doubles, then float32
        scores = np.frombuffer(joined, "<u2").reshape(self.num_envs, ROW_SIZE // 2)[:, SCORES_AT // 2:]
        obs[:, _SCORES] = scores / self._target
        np.copyto(self.action_mask, np.frombuffer(b"".join(self._mask_rows), np.bool_).reshape(self.num_envs, N_ACTIONS))

    def _checked(self, actions: Any) -> np.ndarray:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise IllegalActionIndex(t("env.bad_batch_actions", count=self.num_envs, shape=chosen.shape,
                                       dtype=str(chosen.dtype), high=N_ACTIONS - 1))
        outside = (chosen < 0) | (chosen >= N_ACTIONS)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise IllegalActionIndex(t("env.batch_illegal", env=i, index=int(chosen[i]), meaning=describe_index(-1),
                                       seat=int(self.seat[i])))
        legal = self.action_mask[self._index, chosen]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            index = int(chosen[i])
            raise IllegalActionIndex(t("env.batch_illegal", env=i, index=index, meaning=describe_index(index),
                                       seat=int(self.seat[i])))
        return chosen

    def reset_envs(self, which: Any) -> None:
        """End the episodes of the games ``which`` (indices) without rewards and start their next ones."""
        for i in np.asarray(which, dtype=np.int64).tolist():
            slot = self.slots[i]
            slot.restart()
            self.seat[i] = slot.shown_seat = slot.seat
            rows = slot.view()
            self._obs_rows[i], self._mask_rows[i] = rows.row, rows.mask
        self._publish()

    def close(self) -> None:
        """Let the games go."""
        self.slots = []
        self.ready = False

    def games(self) -> list:
        """Each game's ``Game`` (the rules core's full state: for tests and debugging, never for a policy)."""
        return [slot.game for slot in self.slots]

"""A Gymnasium single-agent environment: one seat learns, the others are bots (``unokart.bots``).

It drives the AEC environment (same observations, action indices, masks,
rewards and out-of-turn moments); the bots' decisions run inside ``step``.
Registered as ``UnoKart-v0``: ``gymnasium.make("unokart.env:UnoKart-v0", players=4)``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..i18n import t
from ..rules import Game
from .actions import N_ACTIONS
from .batch_core import Slot
from .common import (DEFAULT_SCALE, IllegalActionIndex, Narrator, as_index, check_settings, new_slot,
                     observation_space, observe, opponent_bots, refusal)
from .registration import register_envs

ILLEGAL_ACTION_MODES = ("raise", "penalize")


class SingleAgentEnv(gymnasium.Env):
    """Seat ``seat`` is the agent; every other seat is ``make_bot(name)`` for the names in ``opponents``.

    ``opponents`` is one bot name for every other seat, or a list naming each
    other seat's bot in seat order. An action the mask forbids changes nothing,
    costs ``illegal_penalty`` and counts as a decision toward ``max_steps``,
    with ``info["illegal_action"]`` saying why (``illegal_action="penalize"``,
    the default: Gymnasium lets an agent send any action of the space); with
    ``illegal_action="raise"`` it raises ``IllegalActionIndex`` instead.
    Other arguments are ``raw_env``'s. Besides
    the mask in each observation, ``action_masks()`` gives it for sb3-contrib's
    MaskablePPO, and ``info["round_winner"]`` tells who won an ended round.
    The game runs in a ``batch_core.Slot`` with the bots inside, one game of ``BatchEnv``'s engine.
    """

    # Text rendering: render_fps is how often a viewer replaying rendered steps would show them.
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 2}

    def __init__(self, players: int = 4, opponents: "str | list[str]" = "random", seat: int = 0,
                 options: "dict | None" = None, reward: str = "round", reward_scale: float | None = None,
                 max_steps: int = 100_000, render_mode: str | None = None,
                 illegal_action: str = "penalize", illegal_penalty: float = 0.1):
        table_options = check_settings(players, options, reward, max_steps)
        bots = opponent_bots(players, opponents, seat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(t("env.bad_render_mode", mode=render_mode, known=", ".join(self.metadata["render_modes"])))
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(t("env.bad_illegal_action", mode=illegal_action, known=", ".join(ILLEGAL_ACTION_MODES)))
        scale = float(reward_scale if reward_scale is not None else DEFAULT_SCALE[reward])
        self.slot: Slot = new_slot(players, table_options, reward, scale, max_steps,
                                   keep_events=render_mode is not None, learner=seat, bots=bots)
        self.seat = seat
        self.agent = f"player_{seat}"
        self.bots = {s: bot for s, bot in enumerate(bots) if bot is not None}
        self.observation_space = observation_space(table_options)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self._target = float(table_options.target_score)
        self._narrator = Narrator(render_mode)
        self._started = False
        self._done = True

    @property
    def game(self) -> Game | None:
        """The rules core's full state (for tests and rendering, never for a policy); None before ``reset``."""
        return self.slot.game if self._started else None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        self.slot.start(seed)  # deals again while a round ends before the agent's first decision (very rare)
        self._started = True
        self._done = False
        self._narrator.told = 0
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"].astype(bool)}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError(t("env.episode_over") if self._started else t("env.no_reset"))
        slot = self.slot
        try:
            index = as_index(action)
            error = refusal(slot, index, self.agent)
            if error is not None:
                raise error
        except IllegalActionIndex as err:
            if self.illegal_action == "raise":
                raise
            return self._refused(str(err))
        self._done = slot.step(index)
        obs = self._observe()
        info: dict[str, Any] = {"action_mask": obs["action_mask"].astype(bool)}  # all False once the episode is over
        if not self._done:
            return obs, 0.0, False, False, info
        info["round_winner"] = slot.game.round_winner
        return obs, slot.final_rewards[self.seat], not slot.truncated, slot.truncated, info

    def _refused(self, reason: str) -> tuple[dict, float, bool, bool, dict]:
        """An illegal action under ``illegal_action="penalize"``: nothing changes but the step count."""
        self._done = self.slot.refused()
        obs = self._observe()
        return obs, -self.illegal_penalty, False, self._done, {"illegal_action": reason,
                                                               "action_mask": obs["action_mask"].astype(bool)}

    def _observe(self) -> dict[str, np.ndarray]:
        return observe(self.slot, self.seat, self._target)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (the interface sb3-contrib's MaskablePPO asks for)."""
        return self._observe()["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self._narrator.render(self.game)

    def close(self) -> None:
        self._started = False


def register() -> None:
    """Register ``UnoKart-v0`` with Gymnasium (once; importing ``unokart.env`` already did)."""
    register_envs()

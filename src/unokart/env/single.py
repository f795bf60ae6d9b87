"""A Gymnasium single-agent environment: one seat learns, the others are bots (``unokart.bots``).

It drives the AEC environment (same observations, action indices, masks,
rewards and out-of-turn moments); the bots' decisions run inside ``step``.
Registered as ``UnoKart-v0``: ``gymnasium.make("unokart.env:UnoKart-v0", players=4)``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from ..bots import make_bot
from ..i18n import t
from .actions import DECLINE
from .aec import IllegalActionIndex, raw_env

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
    """

    # Text rendering: render_fps is how often a viewer replaying rendered steps would show them.
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 2}

    def __init__(self, players: int = 4, opponents: "str | list[str]" = "random", seat: int = 0,
                 options: "dict | None" = None, reward: str = "round", reward_scale: float | None = None,
                 max_steps: int = 100_000, render_mode: str | None = None,
                 illegal_action: str = "penalize", illegal_penalty: float = 0.1):
        names = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
        if isinstance(players, int) and not isinstance(players, bool) and (
                not isinstance(names, (list, tuple)) or len(names) != players - 1 or not all(isinstance(n, str) for n in names)):
            raise ValueError(t("env.bad_opponents", count=players - 1, opponents=opponents))
        needs_events = any(name.strip().lower() != "random" for name in names)
        self.aec = raw_env(players=players, options=options, reward=reward, reward_scale=reward_scale,
                           max_steps=max_steps, render_mode=render_mode, keep_events=needs_events)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(t("env.bad_seat", high=players - 1, seat=seat))
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        others = [s for s in range(players) if s != seat]
        self.bots = {s: make_bot(name) for s, name in zip(others, names)}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(t("env.bad_illegal_action", mode=illegal_action, known=", ".join(ILLEGAL_ACTION_MODES)))
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.bot_rng = random.Random()
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        self.bot_rng.seed(seed)
        while True:
            self.aec.reset(seed=seed)
            self._done = False
            self._play_bots()
            if not self._done:  # a round can (very rarely) end before the agent's first decision: deal again
                obs = self.aec.observe(self.agent)
                return obs, {"action_mask": obs["action_mask"].astype(bool)}
            seed += 1

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError(t("env.episode_over") if self.aec.game is not None else t("env.no_reset"))
        aec, agent = self.aec, self.agent
        try:
            aec.step(action)
        except IllegalActionIndex as err:
            if self.illegal_action == "raise":
                raise
            return self._refused(str(err))
        self._play_bots()
        reward = aec._cumulative_rewards[agent]
        aec._cumulative_rewards[agent] = 0.0
        obs = aec.observe(agent)
        info = {"action_mask": obs["action_mask"].astype(bool)}  # all False once the episode is over
        if self._done:
            info["round_winner"] = aec.game.round_winner
        return obs, reward, aec.terminations[agent], aec.truncations[agent], info

    def _refused(self, reason: str) -> tuple[dict, float, bool, bool, dict]:
        """An illegal action under ``illegal_action="penalize"``: nothing changes but the step count."""
        aec = self.aec
        aec.steps += 1
        if aec.steps >= aec.max_steps:
            aec._end_episode(truncated=True)
            self._done = True
        obs = aec.observe(self.agent)
        return obs, -self.illegal_penalty, False, self._done, {"illegal_action": reason,
                                                               "action_mask": obs["action_mask"].astype(bool)}

    def _play_bots(self) -> None:
        """Let the bots decide until the agent must decide or the episode ends."""
        aec, game = self.aec, self.aec.game
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            seat = aec.seat
            if seat == self.seat:
                return
            bot = self.bots[seat]
            if not aec.legal:  # asked out of turn with nothing to do (docs/ENV.md): decline for the bot
                aec.step(DECLINE)
                continue
            choice = bot.choose(game.view(seat), aec.legal, self.bot_rng)
            if choice is None and aec.reacting:
                index = DECLINE
            elif choice is not None and choice in aec.legal:
                index = aec._index_of[choice]
            else:
                raise RuntimeError(t("env.bot_returned_illegal", bot=bot.name, seat=seat, choice=str(choice)))
            aec.step(index)
        self._done = True

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (the interface sb3-contrib's MaskablePPO asks for)."""
        return self.aec.action_mask().astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def register() -> None:
    """Register ``UnoKart-v0`` with Gymnasium (once; importing ``unokart.env`` already did)."""
    from .registration import register_envs

    register_envs()

"""The PettingZoo AEC environment: UNO Mario Kart for 2 to 10 agents on the rules core.

Turn order (docs/ENV.md, "Out of turn"): the selected agent is the seat the
referee asks (rules/referee.py): after every turn action the seats with an
out-of-turn option (say UNO, catch; under ``jump_in`` every other seat while a
coloured card tops the pile, so that being asked reveals nothing) each get one
turn first, in seat order from the left of the seat whose turn action opened
the moment, that seat last; then the seat to act. Such a turn offers the seat's
out-of-turn actions plus DECLINE; a seat that declines is not asked again until
the next turn action.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv

from ..i18n import t
from ..rules import Game
from ..rules.referee import Referee
from .actions import N_ACTIONS
from .batch_core import Slot
from .common import (DEFAULT_SCALE, REWARDS, IllegalActionIndex, Narrator, as_index, check_settings, new_slot,
                     observation_space, observe, refusal)

__all__ = ["DEFAULT_SCALE", "REWARDS", "IllegalActionIndex", "check_settings", "env", "observation_space", "raw_env"]


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """UNO Mario Kart as a PettingZoo AEC environment (see docs/ENV.md for every index and feature).

    ``reward="round"``: an episode is one round; the winner gets the points it
    scores, every other seat loses the points left in its own hand.
    ``reward="game"``: an episode is a whole game (rounds to ``target_score``);
    +1 to the winner, -1 to everyone else. Rewards are multiplied by ``reward_scale``
    (default 0.01 for rounds, 1 for games).
    After ``max_steps`` decisions in an episode every agent is truncated.
    The game runs in a ``batch_core.Slot``, one game of ``BatchEnv``'s engine.
    """

    metadata = {"name": "unokart_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 4, options: "dict | None" = None, reward: str = "round",
                 reward_scale: float | None = None, max_steps: int = 100_000, render_mode: str | None = None,
                 keep_events: bool = False):
        super().__init__()
        self.table_options = check_settings(players, options, reward, max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(t("env.bad_render_mode", mode=render_mode, known=", ".join(self.metadata["render_modes"])))
        self.players = players
        self.reward_mode = reward
        self.reward_scale = float(reward_scale if reward_scale is not None else DEFAULT_SCALE[reward])
        self.max_steps = max_steps
        self.render_mode = render_mode
        # The engine's event log costs time; keep it for rendering and for bots that read view.events.
        self.slot: Slot = new_slot(players, self.table_options, reward, self.reward_scale, max_steps,
                                   keep_events=keep_events or render_mode is not None)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.table_options)
        self._action_space = spaces.Discrete(N_ACTIONS)
        self._target = float(self.table_options.target_score)
        self._narrator = Narrator(render_mode)
        self._started = False

    # ------------------------------------------------------------------ the slot's state, read-only
    @property
    def game(self) -> Game | None:
        """The rules core's full state (for tests and rendering, never for a policy); None before ``reset``."""
        return self.slot.game if self._started else None

    @game.setter
    def game(self, game: Game) -> None:
        """Go on with ``game`` under the same moment: tests swap in a copy with the hidden cards re-dealt."""
        self.slot.replace_game(game)
        self._select()

    @property
    def referee(self) -> Referee:
        return self.slot.referee

    @property
    def seat(self) -> int:
        """The selected agent's seat."""
        return self.slot.seat

    @property
    def reacting(self) -> bool:
        """Whether the selected agent is asked out of turn (it may DECLINE)."""
        return self.slot.reacting

    @property
    def legal(self) -> tuple:
        return self.slot.legal

    @property
    def covered_color(self) -> int:
        """The colour active before the Wild Draw Four on top (R7.2), -1 when none."""
        return self.slot.covered

    @property
    def steps(self) -> int:
        return self.slot.steps

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game (``seed`` makes it reproducible). ``options`` is not used: house rules are fixed at construction."""
        if seed is None:
            self.slot.restart()  # its seed drawn from the slot's seed source, as BatchEnv's next episode
        else:
            self.slot.start(seed)
        self._started = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._narrator.told = 0
        self._select()

    def _select(self) -> None:
        """The seat the referee asks now is the selected agent (docs/ENV.md, "Out of turn"). Who is asked
        depends on public facts alone, so it tells nobody anything (a seat may be asked whose only answer
        is DECLINE)."""
        self.agent_selection = self.possible_agents[self.slot.seat]

    def action_mask(self):  # noqa: ANN201 (numpy array)
        """The selected agent's mask: 1 at the index of each of its legal actions (and DECLINE out of turn)."""
        return observe(self.slot, self.slot.seat, self._target)["action_mask"]

    def observe(self, agent: str) -> dict:
        if not self._started:
            raise RuntimeError(t("env.no_reset"))
        return observe(self.slot, self.agent_seat[agent], self._target)

    # ------------------------------------------------------------------ step
    def step(self, action: Any) -> None:
        if not self._started:
            raise RuntimeError(t("env.no_reset"))
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = as_index(action)
        slot = self.slot
        error = refusal(slot, index, agent)
        if error is not None:
            raise error
        # Rewards are only ever given when the episode ends, so a live step has none to clear.
        self._cumulative_rewards[agent] = 0.0
        if slot.act(index):
            self._end_episode()
        else:
            self._select()

    def _end_episode(self) -> None:
        """The slot's final rewards to every agent; all terminated, or all truncated after ``max_steps``."""
        slot = self.slot
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = slot.final_rewards[seat]
            (self.truncations if slot.truncated else self.terminations)[agent] = True
        self._accumulate_rewards()

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """The public events since the last render, as sentences (``human`` prints them, ``ansi`` returns them)."""
        return self._narrator.render(self.game)

    def close(self) -> None:
        self._started = False


def env(**kwargs: Any) -> raw_env:
    """The environment. ``raw_env`` already refuses ``step``/``observe`` before ``reset`` with a clear
    error, so it needs no PettingZoo order-enforcing wrapper (which would cost a third of the speed)."""
    return raw_env(**kwargs)

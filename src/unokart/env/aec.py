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

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..i18n import t
from ..rules import Game, Options
from ..rules import actions as A
from ..rules.cards import FACE_COUNT, FACE_POINTS, FULL_DECK, WILD_DRAW_FOUR
from ..rules.referee import Referee
from ..rules.states import GAME_OVER, ROUND_OVER
from ..rules.errors import UnoKartError
from .actions import DECLINE, MAX_PLAYERS, N_ACTIONS, action_table, describe_index
from .observation import LAYOUT, OBS_SIZE, DiscardCounts, encode_fields

REWARDS = ("round", "game")
DEFAULT_SCALE = {"round": 0.01, "game": 1.0}  # round points in hundreds; a game is won or lost
_DECK_POINTS = sum(FACE_POINTS[f] for f in FULL_DECK)


class IllegalActionIndex(ValueError):
    """An action index the current agent may not take now (its mask is 0 there). Nothing changed."""


def observation_space(options: Options) -> spaces.Dict:
    """The Dict space of every agent: ``observation`` (float32, LAYOUT) and ``action_mask`` (int8)."""
    high = np.ones(OBS_SIZE, np.float32)
    high[LAYOUT["hand"]] = high[LAYOUT["discard"]] = max(FACE_COUNT)
    high[LAYOUT["hand_sizes"]] = len(FULL_DECK)
    high[LAYOUT["scores"]] = (options.target_score - 1 + _DECK_POINTS) / options.target_score
    high[LAYOUT["pending"]] = len(FULL_DECK)
    return spaces.Dict({
        "observation": spaces.Box(0.0, high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
    })


def check_settings(players: Any, options: Any, reward: Any, max_steps: Any) -> Options:
    """Validate the constructor arguments, with one clear sentence for each mistake."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(t("env.bad_players", players=players))
    if reward not in REWARDS:
        raise ValueError(t("env.bad_reward", reward=reward, known=", ".join(REWARDS)))
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(t("env.bad_max_steps", max_steps=max_steps))
    try:
        parsed = Options.from_dict(options)
    except UnoKartError as err:
        raise ValueError(str(err)) from None
    try:
        Game.new(players, seed=0, options=parsed)  # the core's own table checks (R3.2: the hands fit the deck)
    except UnoKartError as err:
        raise ValueError(str(err)) from None
    return parsed


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """UNO Mario Kart as a PettingZoo AEC environment (see docs/ENV.md for every index and feature).

    ``reward="round"``: an episode is one round; the winner gets the points it
    scores, every other seat loses the points left in its own hand.
    ``reward="game"``: an episode is a whole game (rounds to ``target_score``);
    +1 to the winner, -1 to everyone else. Rewards are multiplied by ``reward_scale``
    (default 0.01 for rounds, 1 for games).
    After ``max_steps`` decisions in an episode every agent is truncated.
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
        self.keep_events = keep_events or render_mode is not None
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.table_options)
        self._action_space = spaces.Discrete(N_ACTIONS)
        self._actions, self._index_of = action_table(players)
        self._seed_source = random.Random()
        self.game: Game | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game (``seed`` makes it reproducible). ``options`` is not used: house rules are fixed at construction."""
        if seed is None:
            seed = self._seed_source.getrandbits(63)
        else:
            self._seed_source.seed(seed)
        game = Game.new(self.players, seed=seed, options=self.table_options, log_events=self.keep_events)
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self.covered_color = -1
        self._discard_counts = DiscardCounts()
        self._rendered = 0
        self.referee = Referee(game)
        self._select()

    def _select(self) -> None:
        """The seat the referee asks now is the selected agent (docs/ENV.md, "Out of turn"). Who is asked
        depends on public facts alone, so it tells nobody anything (a seat may be asked whose only answer
        is DECLINE)."""
        referee = self.referee
        self.seat, self.reacting, self.legal = referee.seat, referee.reacting, referee.legal
        self.agent_selection = self.possible_agents[self.seat]

    def action_mask(self) -> np.ndarray:
        """The selected agent's mask: 1 at the index of each of its legal actions (and DECLINE out of turn)."""
        mask = np.zeros(N_ACTIONS, np.int8)
        index_of = self._index_of
        for action in self.legal:  # a handful: faster one by one than as a fancy index
            mask[index_of[action]] = 1
        if self.reacting:
            mask[DECLINE] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        if game is None:
            raise RuntimeError(t("env.no_reset"))
        seat = self.agent_seat[agent]
        # Only the selected seat has a mask; once the episode is over nobody is (legal is empty).
        selected = seat == self.seat
        # The seat's view without copies or events (the hot path): nothing it may not see.
        v = game.glance(seat)
        observation = encode_fields(
            seat, self.players, v.hand, v.hand_sizes, v.discard, v.color, v.direction, v.to_act, v.awaiting,
            v.pending, v.stock, v.drawn, v.uno_said, v.uno_window, v.scores,
            self.table_options.target_score, self.covered_color, selected and self.reacting, self._discard_counts)
        return {"observation": observation, "action_mask": self.action_mask() if selected else np.zeros(N_ACTIONS, np.int8)}

    # ------------------------------------------------------------------ step
    def step(self, action: Any) -> None:
        if self.game is None:
            raise RuntimeError(t("env.no_reset"))
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action if action.__class__ is int else self._as_index(action)
        seat, game = self.seat, self.game
        chosen = self._actions[seat][index] if 0 <= index < DECLINE else None
        if chosen is None or chosen not in self.legal:
            if index != DECLINE or not self.reacting:
                raise self._refusal(index, chosen)
            self._cumulative_rewards[agent] = 0.0
            self.referee.decline()
            self._select()
            return
        # Rewards are only ever given when the episode ends, so a live step has none to clear.
        self._cumulative_rewards[agent] = 0.0
        color_before = game.color
        self.referee.apply(chosen)
        self.steps += 1
        if chosen.card == WILD_DRAW_FOUR:
            self.covered_color = color_before
        awaiting = game.awaiting
        if awaiting == ROUND_OVER or awaiting == GAME_OVER:
            self._round_over()
        elif self.steps >= self.max_steps:
            self._end_episode(truncated=True)
        else:
            self._select()

    @staticmethod
    def _as_index(action: Any) -> int:
        """An action that is not a plain int (a numpy integer, a policy's 0-d array) as an int; else a clear error."""
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()  # what a policy's predict() returns for one observation
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionIndex(t("env.not_an_index", action=repr(action), high=N_ACTIONS - 1))
        return int(action)

    def _refusal(self, index: int, chosen: A.Action | None) -> IllegalActionIndex:
        """The error for an index the selected agent may not take now, naming the problem (and the rule)."""
        if not 0 <= index < N_ACTIONS:
            return IllegalActionIndex(t("env.index_out_of_range", index=index, high=N_ACTIONS - 1))
        reason = t("env.decline_on_turn") if index == DECLINE else self._why_illegal(chosen)
        return IllegalActionIndex(t("env.illegal_index", index=index, meaning=describe_index(index),
                                    agent=self.agent_selection, reason=reason))

    def _why_illegal(self, chosen: A.Action | None) -> str:
        if chosen is None:
            return t("env.no_such_seat", players=self.players)
        if self.reacting and chosen.verb in A.TURN_VERBS and chosen.verb != A.JUMP:
            return t("env.not_your_turn", action=str(chosen), to_act=self.game.to_act)
        try:
            self.game.would_change(chosen)  # the core names the rule, and changes nothing
        except UnoKartError as err:
            return f'"{chosen}": {err}'
        return t("env.void_catch", action=str(chosen))

    def _round_over(self) -> None:
        game = self.game
        winner = game.round_winner
        if self.reward_mode == "round":
            hands_points = game.hand_points()  # R11.1, public at round end
            for seat, agent in enumerate(self.possible_agents):
                points = sum(hands_points) if seat == winner else -hands_points[seat]
                self.rewards[agent] = points * self.reward_scale
            self._end_episode(truncated=False)
        elif game.awaiting == GAME_OVER:
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = self.reward_scale * (1.0 if seat == game.game_winner else -1.0)
            self._end_episode(truncated=False)
        else:
            self.referee.next_round()
            self.covered_color = -1
            self._select()

    def _end_episode(self, truncated: bool) -> None:
        for agent in self.agents:
            (self.truncations if truncated else self.terminations)[agent] = True
        self._accumulate_rewards()
        self.reacting = False
        self.legal = []

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """The public events since the last render, as sentences (``human`` prints them, ``ansi`` returns them)."""
        if self.render_mode is None or self.game is None:
            return None
        from ..narrate import describe_event

        game = self.game
        count = game.event_count()
        if self._rendered > count:  # a new round started
            self._rendered = 0
        lines = [describe_event(e, game.names) for e in game.events_for(None, self._rendered)]
        self._rendered = count
        text = "\n".join(line for line in lines if line)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def env(**kwargs: Any) -> raw_env:
    """The environment. ``raw_env`` already refuses ``step``/``observe`` before ``reset`` with a clear
    error, so it needs no PettingZoo order-enforcing wrapper (which would cost a third of the speed)."""
    return raw_env(**kwargs)

"""What the environments share: their settings and checks, and one game of the batch engine as an agent sees it.

Every environment runs its games as ``batch_core.Slot`` values (docs/ENV.md): ``BatchEnv`` many,
the AEC env (``aec.raw_env``) and the single-agent env (``single.SingleAgentEnv``) one each. So the
turn order, the encoding, the rewards and the bots' loop are written once, in ``batch_core``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..i18n import t
from ..narrate import describe_event
from ..rules import Game, Options
from ..rules import actions as A
from ..rules.cards import FACE_COUNT, FACE_POINTS, FULL_DECK
from ..rules.errors import UnoKartError
from .actions import DECLINE, MAX_PLAYERS, N_ACTIONS, action_table, describe_index
from .batch_core import Slot
from .observation import LAYOUT, OBS_SIZE, widen

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


def opponent_bots(players: int, opponents: Any, seat: Any) -> list[Any]:
    """``bots[s]`` for every seat but the learner's ``seat`` (None there), from one bot name for all or a
    list naming each other seat's bot in seat order."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(t("env.bad_seat", high=players - 1, seat=seat))
    names = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
    if not isinstance(names, (list, tuple)) or len(names) != players - 1 or not all(isinstance(n, str) for n in names):
        raise ValueError(t("env.bad_opponents", count=players - 1, opponents=opponents))
    others = iter([make_bot(name) for name in names])
    return [None if s == seat else next(others) for s in range(players)]


def new_slot(players: int, options: Options, reward: str, reward_scale: float, max_steps: int,
             keep_events: bool = False, learner: int = -1, bots: "list[Any] | None" = None) -> Slot:
    """One game of the engine; with a ``learner``, ``bots`` play the other seats (their events kept when
    one of them reads events)."""
    bots = bots or []
    keep_events = keep_events or any(getattr(bot, "reads_events", True) for bot in bots if bot is not None)
    return Slot(players, options, reward == "round", reward_scale, max_steps, keep_events, learner, bots,
                action_table(players)[0])


def as_index(action: Any) -> int:
    """An action that is not a plain int (a numpy integer, a policy's 0-d array) as an int; else a clear error."""
    if action.__class__ is int:
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()  # what a policy's predict() returns for one observation
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionIndex(t("env.not_an_index", action=repr(action), high=N_ACTIONS - 1))
    return int(action)


def refusal(slot: Slot, index: int, agent: str) -> IllegalActionIndex | None:
    """None when the deciding seat may take ``index`` now; else the error naming the problem (and the rule)."""
    chosen = slot.actions[slot.seat][index] if 0 <= index < DECLINE else None
    if chosen is not None and chosen in slot.legal or index == DECLINE and slot.reacting:
        return None
    if not 0 <= index < N_ACTIONS:
        return IllegalActionIndex(t("env.index_out_of_range", index=index, high=N_ACTIONS - 1))
    reason = t("env.decline_on_turn") if index == DECLINE else _why_illegal(slot, chosen)
    return IllegalActionIndex(t("env.illegal_index", index=index, meaning=describe_index(index),
                                agent=agent, reason=reason))


def _why_illegal(slot: Slot, chosen: A.Action | None) -> str:
    if chosen is None:
        return t("env.no_such_seat", players=slot.players)
    if slot.reacting and chosen.verb in A.TURN_VERBS and chosen.verb != A.JUMP:
        return t("env.not_your_turn", action=str(chosen), to_act=slot.game.to_act)
    try:
        slot.game.would_change(chosen)  # the core names the rule, and changes nothing
    except UnoKartError as err:
        return f'"{chosen}": {err}'
    return t("env.void_catch", action=str(chosen))


def observe(slot: Slot, seat: int, target: float) -> dict[str, np.ndarray]:
    """``seat``'s observation and mask, fresh arrays (only the deciding seat has a mask; once the episode
    is over nobody has)."""
    rows = slot.write(seat)
    mask = np.frombuffer(bytearray(rows.mask), np.int8) if seat == slot.seat else np.zeros(N_ACTIONS, np.int8)
    return {"observation": widen(rows.row, target, any(slot.game.scores)), "action_mask": mask}


class Narrator:
    """The public events since the last render, as sentences (``render_mode`` ``human`` prints them,
    ``ansi`` returns them)."""

    def __init__(self, mode: str | None) -> None:
        self.mode = mode
        self.told = 0

    def render(self, game: Game | None) -> str | None:
        if self.mode is None or game is None:
            return None
        count = game.event_count()
        if self.told > count:  # a new round started
            self.told = 0
        lines = [describe_event(e, game.names) for e in game.events_for(None, self.told)]
        self.told = count
        text = "\n".join(line for line in lines if line)
        if self.mode == "human":
            if text:
                print(text)
            return None
        return text

"""A trained policy at a real table: a bot that encodes its view exactly as the env does
(docs/DESIGN.md, "Bots and people share one interface").

    from unokart.env import PolicyBot
    bot = PolicyBot("unokart_ppo.zip")          # a MaskablePPO model saved by examples/train_maskable_ppo.py
    action = bot.choose(game.view(seat), game.legal_actions(seat), rng)   # None: let an out-of-turn moment pass

It reads only the view (the colour a Wild Draw Four covered comes from the
view's events), so it sits wherever a bot sits: simulator, server, terminal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.knowledge import color_before_wild_draw_four
from ..i18n import t
from ..rules import Action, View
from ..rules.cards import WILD_DRAW_FOUR
from .actions import DECLINE, N_ACTIONS, action_of_index, index_of_action
from .observation import encode


def observation_for(view: View, legal_actions: list[Action]) -> dict[str, np.ndarray]:
    """The env's observation of ``view.seat`` when asked to choose among ``legal_actions``."""
    reacting = view.seat != view.to_act
    covered = color_before_wild_draw_four(view) if view.discard and view.discard[-1] == WILD_DRAW_FOUR else -1
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[[index_of_action(a, view.n) for a in legal_actions]] = 1
    if reacting:
        mask[DECLINE] = 1
    return {"observation": encode(view, covered, reacting), "action_mask": mask}


class PolicyBot:
    """Plays by a saved sb3-contrib MaskablePPO policy (the optional ``train`` extra), or any model with
    ``predict(observation, action_masks=..., deterministic=...)`` returning an action index."""

    name = "policy"

    def __init__(self, model: "str | Path | Any", deterministic: bool = True):
        if isinstance(model, (str, Path)):
            model = load_policy(model)
        self.model = model
        self.deterministic = deterministic

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        obs = observation_for(view, legal_actions)
        index, _ = self.model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=self.deterministic)
        index = int(index)
        return None if index == DECLINE else action_of_index(index, view.own_seat, view.n)


def load_policy(path: "str | Path") -> Any:
    """Load a MaskablePPO model (CPU), with one clear sentence if it cannot be."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise RuntimeError(t("env.policy_missing", path=path, reason=t("env.extra_missing", missing="sb3-contrib"))) from None
    if not Path(path).is_file():
        raise RuntimeError(t("env.policy_missing", path=path, reason=t("env.no_such_file")))
    try:
        return MaskablePPO.load(str(path), device="cpu")
    except Exception as err:  # a broken or foreign file: say which and why
        raise RuntimeError(t("env.policy_missing", path=path, reason=f"{type(err).__name__}: {err}")) from None

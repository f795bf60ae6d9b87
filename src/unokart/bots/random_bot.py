"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random

from ..rules import Action, View


class RandomBot:
    name = "random"
    reads_events = False  # so a simulator among random bots need not log any (see sim.match.play_game)

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        """On its turn, any legal action; out of turn, acting or waiting are equally likely choices."""
        if view.seat == view.to_act:
            return rng.choice(legal_actions)
        pick = rng.randrange(len(legal_actions) + 1)
        return legal_actions[pick] if pick < len(legal_actions) else None

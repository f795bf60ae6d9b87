"""Bots: players that see only their seat's view (docs/DESIGN.md, "Bots and people share one interface").

A bot is any object with ``choose(view, legal_actions, rng) -> Action | None``:

- ``view`` is ``game.view(seat)`` and ``legal_actions`` is ``game.legal_actions(seat)``
  for that same seat (never mutate it);
- on its turn (``view.to_act == view.seat``) it returns one of ``legal_actions``;
- out of turn (saying UNO after a play, catching a player who forgot, jumping
  in) it is asked whenever ``legal_actions(seat)`` is not empty and returns one
  of them, or ``None`` to let the moment pass.

``make_bot("random" | "easy" | "heuristic" | "careful" | "ismcts" | "ismcts:<iterations>" | "ismcts:<N>ms" | "policy:<NAME>")``
builds one by name (``careful``: the heuristic played patiently, counting cards and challenging
only on evidence; ``ismcts`` alone: 400 playouts a decision at most; ``ismcts:0``: its prior alone,
no search; ``policy:NAME`` seats a policy trained in ``unokart.env`` and saved as ``NAME.npz``,
played with numpy alone by ``policy.py``, e.g. the shipped ``policy:baseline``).
"""

from __future__ import annotations

from typing import Protocol
import random

from ..levels import BotLevel
from ..rules import Action, View
from .careful import CarefulBot
from .heuristic import EasyBot, HeuristicBot
from .ismcts import DEFAULT_ITERATIONS, IsmctsBot
from .random_bot import RandomBot

BOT_NAMES = ("random", "easy", "heuristic", "careful", "ismcts")


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None: ...


def make_bot(name: str, models_dir: "str | None" = None) -> Bot:
    """A bot by name; ``ismcts:<budget>`` sets the search budget (iterations, or ``<N>ms`` of time, per decision).

    ``policy:NAME`` (NAME: 1-40 of ``A-Z a-z 0-9 _ -``) plays ``NAME.npz`` from ``models_dir`` (or
    $UNOKART_MODELS, then the policies shipped in ``unokart/env/models``) with numpy alone (``policy.py``);
    with a ``models_dir`` only such names are accepted (a server offers policies by name, never by path).
    Without one, ``policy:<path.npz>`` loads that file and ``policy:<model.zip>`` a MaskablePPO model."""
    level = BotLevel.parse(name)  # the one grammar (levels.py): a ValueError names what is wrong
    if level.kind == "policy":
        from .policy import policy_level  # numpy (and the env's encoding) only when a policy is asked for

        return policy_level(level.policy, models_dir)
    if level.kind == "ismcts":
        if level.milliseconds is not None:
            return IsmctsBot(milliseconds=level.milliseconds)
        return IsmctsBot(DEFAULT_ITERATIONS if level.iterations is None else level.iterations)
    simple: dict[str, type[Bot]] = {"random": RandomBot, "easy": EasyBot, "heuristic": HeuristicBot, "careful": CarefulBot}
    return simple[level.kind]()

__all__ = ["BOT_NAMES", "Bot", "CarefulBot", "EasyBot", "HeuristicBot", "IsmctsBot", "RandomBot", "make_bot"]

"""Bots: players that see only their seat's view (DESIGN 11).

A bot is any object with ``choose(view, legal_actions, rng) -> Action | None``:

- ``view`` is ``game.view(seat)`` and ``legal_actions`` is ``game.legal_actions(seat)``
  for that same seat (never mutate it);
- on its turn (``view.to_act == view.seat``) it returns one of ``legal_actions``;
- out of turn (saying UNO after a play, catching a player who forgot, jumping
  in) it is asked whenever ``legal_actions(seat)`` is not empty and returns one
  of them, or ``None`` to let the moment pass.

``make_bot("random" | "easy" | "heuristic" | "ismcts" | "ismcts:<iterations>" | "ismcts:<N>ms" | "policy:<model.zip>")``
builds one by name (``ismcts`` alone: 60 playouts a decision; ``ismcts:0``: its prior alone,
no search; ``policy:`` seats a policy trained in ``unokart.env``, which needs the ``train`` extra).
"""

from __future__ import annotations

from typing import Protocol
import random

from ..rules import Action, View
from .heuristic import EasyBot, HeuristicBot
from .ismcts import DEFAULT_ITERATIONS, IsmctsBot
from .random_bot import RandomBot

BOT_NAMES = ("random", "easy", "heuristic", "ismcts")


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None: ...


def make_bot(name: str) -> Bot:
    """A bot by name; ``ismcts:<budget>`` sets the search budget (iterations, or ``<N>ms`` of time, per decision)."""
    kind, sep, arg = name.strip().lower().partition(":")
    if kind == "policy" and sep:
        from ..env.policy_bot import PolicyBot  # numpy and the model library only when asked for

        return PolicyBot(name.strip().partition(":")[2])  # the path as written, not lowercased
    if kind == "random" and not sep:
        return RandomBot()
    if kind == "easy" and not sep:
        return EasyBot()
    if kind == "heuristic" and not sep:
        return HeuristicBot()
    if kind == "ismcts":
        if not sep:
            return IsmctsBot(DEFAULT_ITERATIONS)
        if arg.isdigit():
            return IsmctsBot(int(arg))
        if arg.endswith("ms") and arg[:-2].isdigit() and int(arg[:-2]) >= 1:
            return IsmctsBot(milliseconds=int(arg[:-2]))
        raise ValueError(f"the ISMCTS budget must be a whole number of iterations or milliseconds, "
                         f"not {arg!r} (e.g. ismcts:200, ismcts:150ms, or ismcts:0 for its prior alone)")
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)}, ismcts:<iterations>, ismcts:<N>ms, policy:<model.zip>)")


__all__ = ["BOT_NAMES", "Bot", "EasyBot", "HeuristicBot", "IsmctsBot", "RandomBot", "make_bot"]

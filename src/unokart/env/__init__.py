"""UNO Mario Kart for reinforcement learning, on the identical rules core (docs/ENV.md).

- ``env(players=4, options=None, ...)`` / ``raw_env``: a PettingZoo AEC environment;
- ``SingleAgentEnv``: a Gymnasium environment, the other seats played by bots,
  registered as ``UnoKart-v0`` (``gymnasium.make("unokart.env:UnoKart-v0")``);
- ``BatchEnv``: many games stepped in one call (numpy arrays in and out), bots inside the step;
- ``PolicyBot``: a trained MaskablePPO policy sitting at a table as a bot; ``numpy_policy``: a
  policy saved as a plain ``.npz`` that plays with numpy alone (``make_bot("policy:NAME")``).

Importing this package registers ``UnoKart-v0`` with Gymnasium's registry (it
imports Gymnasium, not the envs); PettingZoo and the envs load with the first
of these names that is used.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "env": ".aec", "raw_env": ".aec", "IllegalActionIndex": ".common",
    "SingleAgentEnv": ".single", "PolicyBot": ".policy_bot", "BatchEnv": ".batch",
}

__all__ = ["BatchEnv", "IllegalActionIndex", "PolicyBot", "SingleAgentEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


# Registered on import, whatever was imported first: gymnasium.make("unokart.env:UnoKart-v0") imports this
# package, but finds nothing to run when it was imported earlier (Gymnasium 1.x loads no plugins itself).
from .registration import register_envs  # noqa: E402

register_envs()

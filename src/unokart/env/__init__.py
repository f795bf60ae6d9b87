"""UNO Mario Kart for reinforcement learning, on the identical rules core (docs/ENV.md).

- ``env(players=4, options=None, ...)`` / ``raw_env``: a PettingZoo AEC environment;
- ``SingleAgentEnv``: a Gymnasium environment, the other seats played by bots,
  registered as ``UnoKart-v0`` (``gymnasium.make("unokart.env:UnoKart-v0")``);
- ``PolicyBot``: a trained MaskablePPO policy sitting at a table as a bot.

Importing this package is cheap (the command line imports it); PettingZoo and
Gymnasium load with the first of these names that is used.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

_LAZY = {
    "env": ".aec", "raw_env": ".aec", "IllegalActionIndex": ".aec",
    "SingleAgentEnv": ".single", "PolicyBot": ".policy_bot", "BatchEnv": ".batch",
}

__all__ = ["BatchEnv", "IllegalActionIndex", "PolicyBot", "SingleAgentEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


if "gymnasium" in sys.modules:  # gymnasium.make("unokart.env:UnoKart-v0") imports us: register now
    importlib.import_module(".single", __name__)

"""Gymnasium registration of ``UnoKart-v0``: the single-agent env, and the batched vector env behind it.

Called when ``unokart.env`` is imported (whatever was imported first), and
named in the package's ``gymnasium.envs`` entry point (pyproject.toml) for the
Gymnasium releases that load such plugins themselves. It imports only
Gymnasium's registry: the envs load when ``make`` or ``make_vec`` is called.
"""

from __future__ import annotations

ENV_ID = "UnoKart-v0"
# Learner decisions in one episode before Gymnasium's TimeLimit truncates it (a round takes tens; a random
# agent in a whole game to 500 points at ten seats, a few thousand). The env's own max_steps (all seats'
# decisions, default 100,000) stays the inner safety net.
MAX_EPISODE_STEPS = 20_000


def register_envs() -> None:
    """Register ``UnoKart-v0`` (once)."""
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point="unokart.env.single:SingleAgentEnv",
                 vector_entry_point="unokart.env.vector:UnoKartVectorEnv", max_episode_steps=MAX_EPISODE_STEPS)

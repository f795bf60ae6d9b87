"""Moved to ``unokart.bots.policy`` (a re-export for the env package's lazy ``PolicyBot`` and older imports)."""

from ..bots.policy import PolicyBot, load_policy, observation_for  # noqa: F401

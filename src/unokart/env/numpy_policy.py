"""Moved to ``unokart.bots.policy`` (a re-export: ``unokart serve`` and older scripts import it from here)."""

from ..bots.policy import (FORMAT, NAME_PATTERN, PACKAGED_MODELS, NumpyPolicy, NumpyPolicyBot,  # noqa: F401
                           known_policies, models_folders, policy_bot, policy_path)

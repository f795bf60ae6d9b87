"""Typed errors. Every refusal names the problem, and the rule id where one applies."""

from __future__ import annotations


class UnoKartError(ValueError):
    """Base class of every error the rules core raises."""


class NotationError(UnoKartError):
    """Text that is not a card, an action or a colour in NOTATION.md."""


class IllegalAction(UnoKartError):
    """A well-formed action the rules do not allow now. The game is unchanged."""

    def __init__(self, rule: str, reason: str):
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule} {reason}" if rule else reason)


class RecordError(UnoKartError):
    """A game record that cannot be loaded or replayed."""

    def __init__(self, message: str, index: int | None = None, action: str | None = None):
        self.index = index
        self.action = action
        super().__init__(message)

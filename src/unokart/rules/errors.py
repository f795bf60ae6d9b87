"""Typed errors. Every refusal names the problem, and the rule id where one applies.

Besides its English sentence (``str(err)``), a refusal carries a catalogue key
and plain parameters (card codes like "Y3", colour letters, seat numbers,
awaiting codes), so that each face can say it in the player's language
(``unokart.narrate.describe_refusal``). The core itself stays free of i18n.
"""

from __future__ import annotations

Params = dict[str, str | int]


class UnoKartError(ValueError):
    """Base class of every error the rules core raises."""


class NotationError(UnoKartError):
    """Text that is not a card, an action or a colour in NOTATION.md."""


class IllegalAction(UnoKartError):
    """A well-formed action the rules do not allow now. The game is unchanged.

    ``rule`` is the rule id (e.g. "R4.1"), ``reason`` the English sentence,
    ``key`` the catalogue key of the same refusal (e.g. "core.refusal.no_match")
    and ``params`` its fields.
    """

    def __init__(self, rule: str, reason: str, key: str = "", params: Params | None = None):
        self.rule = rule
        self.reason = reason
        self.key = key
        self.params: Params = params if params is not None else {}
        super().__init__(f"{rule} {reason}" if rule else reason)


class RecordError(UnoKartError):
    """A game record that cannot be loaded or replayed."""

    def __init__(self, message: str, index: int | None = None, action: str | None = None):
        self.index = index
        self.action = action
        super().__init__(message)


class SetupError(RecordError):
    """A game that cannot be set up: the number of players, the house rules, the dealer.

    A subclass of RecordError only so that callers written before it existed
    (which caught RecordError from ``Options.from_dict``) keep working; catch
    SetupError for setups.
    """

    def __init__(self, message: str, key: str = "", params: Params | None = None):
        self.key = key
        self.params: Params = params if params is not None else {}
        super().__init__(message)

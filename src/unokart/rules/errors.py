"""Typed errors. Every refusal names the problem, and the rule id where one applies.

Besides its English sentence (``str(err)``), a refusal carries a catalogue key
and plain parameters (card codes like "Y3", colour letters, seat numbers,
awaiting codes), so that each face can say it in the player's language
(``unokart.narrate.describe_refusal``). The core itself stays free of i18n.
"""

from __future__ import annotations

import unicodedata

Params = dict[str, str | int]


class UnoKartError(ValueError):
    """Base class of every error the rules core raises."""


SHOWN_CHARS = 40  # an error echoes what it was given, never all of it


def shown(value: object) -> str:
    """``value`` as an error quotes it: a string quoted, its unseen characters as U+XXXX (``visible``), cut to
    SHOWN_CHARS (a 2 MB name is not one sentence); a number as written; anything else by its kind."""
    if isinstance(value, str):
        cut = visible(value[:SHOWN_CHARS])
        quote = '"' if "'" in cut and '"' not in cut else "'"
        return quote + cut + quote + ("…" if len(value) > SHOWN_CHARS else "")
    if value is None or isinstance(value, (bool, int, float)):
        text = repr(value)
        return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"
    return type(value).__name__  # a list or object: its kind, not its (possibly huge) text


def printable(text: str) -> str:
    """``text`` cut to SHOWN_CHARS, its line breaks and other unseen characters as U+XXXX (one line, always)."""
    return visible(text[:SHOWN_CHARS]) + ("…" if len(text) > SHOWN_CHARS else "")


def visible(text: str) -> str:
    """``text`` with each control, format, bidirectional, line-separating, unassigned or lone surrogate character
    written U+XXXX, as the server echoes what a client sent: nothing breaks the line, turns the sentence around or
    hides, and the reader is told which character it was."""
    return "".join(f"U+{ord(char):04X}" if _unseen(char) else char for char in text)


def _unseen(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] == "C" or category in ("Zl", "Zp")


class NotationError(UnoKartError):
    """Text that is not a card, an action or a colour in NOTATION.md."""

    def __init__(self, message: str, key: str = "", params: Params | None = None):
        self.key = key
        self.params: Params = params if params is not None else {}
        super().__init__(message)


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
    """A game record that cannot be loaded or replayed.

    ``key``/``params`` say it in any language; ``cause`` is the refusal inside it
    (an action's IllegalAction or NotationError), said after it. ``rule`` is the rule
    a record's table breaks (R2.1 players, R3.2 hands), or "".
    """

    def __init__(self, message: str, index: int | None = None, action: str | None = None,
                 key: str = "", params: Params | None = None, cause: UnoKartError | None = None, rule: str = ""):
        self.index = index
        self.action = action
        self.key = key
        self.params: Params = params if params is not None else {}
        self.cause = cause
        self.rule = rule
        super().__init__(message)


class SetupError(UnoKartError):
    """A game that cannot be set up: the number of players, the house rules, the dealer.

    No record is involved (``Game.new``, ``Options.from_dict``, ``-o`` texts); a record
    whose table cannot be set up is a RecordError saying the same.
    """

    def __init__(self, message: str, key: str = "", params: Params | None = None, rule: str = ""):
        self.rule = rule  # the rule a bad table breaks (R2.1 players, R3.2 hands), or ""
        self.key = key
        self.params: Params = params if params is not None else {}
        super().__init__(message)

"""House rules (R12): named options fixed when a table is created.

Two doors, one set of checks and messages: a record's JSON (``from_dict``:
true/false and numbers, strictly) and a command line's text
(``options_from_text``: ``-o stacking=yes``, ``-o hand_size=5``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Final

from .errors import SetupError, shown

_BOOLEAN = ("stacking", "draw_until_playable", "force_play", "jump_in", "seven_zero")
# The usual spellings of on and off, in any case.
TRUE_WORDS: Final = ("true", "yes", "on", "1")
FALSE_WORDS: Final = ("false", "no", "off", "0")
ACCEPTED: Final = "true/false, yes/no, on/off, 1/0"
_MAX_DIGITS: Final = 9  # a whole number as text; beyond, no house rule makes sense


def option_value(name: str, value: object) -> "bool | int":
    """One option's value as JSON gives it (true/false, a number), or SetupError naming what is wrong."""
    if name in _BOOLEAN:
        if isinstance(value, bool):
            return value
        raise SetupError(f"option {name!r} must be true or false, not {shown(value)}",
                         "core.setup.not_boolean", {"name": name, "value": shown(value), "accepted": "true/false"})
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SetupError(f"option {name!r} must be a positive whole number, not {shown(value)}",
                         "core.setup.not_positive", {"name": name, "value": shown(value)})
    return value


def options_from_text(pairs: "list[str]") -> dict:
    """``["stacking", "jump_in=off", "hand_size=5"]`` (a command line's ``-o``) as an options dict.

    A name alone turns a rule on; on and off take the usual spellings, in any case
    (true/false, yes/no, on/off, 1/0); numbers are whole and positive. Anything
    else is a SetupError naming the option and what it accepts.
    """
    known = {f.name for f in fields(Options)}
    options: dict = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if name not in known:
            raise SetupError(f"unknown option {shown(name)} (known: {', '.join(sorted(known))})",
                             "core.setup.unknown_option", {"name": shown(name), "known": ", ".join(sorted(known))})
        word = text.strip().lower()
        if name in _BOOLEAN:
            if not sep or word in TRUE_WORDS:
                options[name] = True
            elif word in FALSE_WORDS:
                options[name] = False
            else:
                raise SetupError(f"option {name!r} must be true or false ({ACCEPTED}), not {shown(text)}",
                                 "core.setup.not_boolean", {"name": name, "value": shown(text), "accepted": ACCEPTED})
        elif sep and word.isascii() and word.isdigit() and len(word) <= _MAX_DIGITS and int(word) >= 1:
            options[name] = int(word)
        else:
            raise SetupError(f"option {name!r} must be a positive whole number, not {shown(text) if sep else 'nothing'}",
                             "core.setup.not_positive", {"name": name, "value": shown(text)})
    return options


# The highest target score any face offers (the server, play, simulate): a game to more would hardly end,
# and an all-bot table could play for ever. R11.2 itself sets no upper bound, so records may hold more.
MAX_TARGET_SCORE = 5000


@dataclass(frozen=True)
class Options:
    target_score: int = 500
    hand_size: int = 7
    stacking: bool = False
    draw_until_playable: bool = False
    force_play: bool = False
    jump_in: bool = False
    seven_zero: bool = False

    @classmethod
    def from_dict(cls, data: "dict | Options | None") -> "Options":
        """Options from a record's ``options`` or from named text values; SetupError names what is wrong."""
        if data is None:
            return cls()
        if isinstance(data, Options):
            return data
        if not isinstance(data, dict):
            raise SetupError(f"options must be an object, not {type(data).__name__}",
                             "core.setup.options_not_object", {"type": type(data).__name__})
        known = {f.name for f in fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise SetupError(f"unknown option {shown(name)} (known: {', '.join(sorted(known))})",
                                 "core.setup.unknown_option", {"name": shown(name), "known": ", ".join(sorted(known))})
            option_value(name, value)
        return cls(**data)

    def to_dict(self) -> dict:
        """Only what differs from the defaults, as a record writes it."""
        default = Options()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

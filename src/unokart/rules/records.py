"""Game records as text: one door, checked before it is opened.

A record is small and shallow (a few rounds of short action texts, four levels
deep), so its size and its nesting are checked before any JSON parsing: the
JSON parser recurses, and a file of nested ``[`` would exhaust it. Names are
checked as the server checks them when the record is replayed
(``Game.from_record``). Pure: text in, a dict or a RecordError out.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Final

from .errors import RecordError

MAX_RECORD_BYTES: Final = 16 * 1024 * 1024  # a game to 5,000 points is a few MB of actions
MAX_DEPTH: Final = 32  # a record is 4 deep; a wrapper such as /api/games/<id> adds a few
MAX_NAME_CHARS: Final = 24  # as the server limits names
_JOINERS: Final = frozenset("\u200c\u200d")  # ordinary in Kannada, Telugu and Sindhi names

# A JSON string (escapes included): brackets inside one do not nest.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """How deep ``text``'s lists and objects nest, counting no further than ``limit + 1``; no recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def parse_record_text(data: "str | bytes", limit: int = MAX_RECORD_BYTES) -> object:
    """The JSON value of a record file's contents, or RecordError naming what is wrong in one sentence."""
    if len(data) > limit:
        raise RecordError(f"the record is larger than {limit} bytes: a game record is far smaller",
                          key="core.record.too_large", params={"limit": limit})
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(f"the record is not UTF-8 text (byte {err.start}): a record is JSON",
                              key="core.record.not_utf8", params={"byte": err.start}) from None
    else:
        text = data
    if nesting_depth(text) > MAX_DEPTH:
        raise RecordError(f"the record nests lists and objects more than {MAX_DEPTH} deep: a game record does not",
                          key="core.record.too_deep", params={"limit": MAX_DEPTH})
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"the record is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
                          key="core.record.not_json", params={"line": err.lineno, "column": err.colno}) from None
    except (ValueError, RecursionError):  # an integer of thousands of digits; a lone surrogate
        raise RecordError("the record is not valid JSON", key="core.record.not_json_value", params={}) from None


def check_name(name: object, seat: int) -> None:
    """A player's name in a record: text of 1 to 24 characters, none of them invisible or a line break."""
    if not isinstance(name, str):
        raise RecordError("'players' must be a list of names", key="core.record.players", params={})
    if not name.strip():
        raise RecordError(f"player {seat} has no name", key="core.record.name_empty", params={"number": seat})
    if len(name) > MAX_NAME_CHARS:
        raise RecordError(f"player {seat}'s name is {len(name)} characters long (at most {MAX_NAME_CHARS})",
                          key="core.record.name_too_long", params={"number": seat, "length": len(name), "limit": MAX_NAME_CHARS})
    for char in name:
        category = unicodedata.category(char)
        if (category[0] == "C" and char not in _JOINERS) or category in ("Zl", "Zp"):
            code = f"U+{ord(char):04X}"
            raise RecordError(f"player {seat}'s name contains the invisible character {code}",
                              key="core.record.name_char", params={"number": seat, "char": code})

"""Game records as text: one door, checked before it is opened.

A record is small and shallow (a few rounds of short action texts, four levels
deep), so its size and its nesting are checked before any JSON parsing: the
JSON parser recurses, and a file of nested ``[`` would exhaust it. Names are
checked as the server checks them when the record is replayed
(``Game.from_record``). Pure: text in, a dict or a RecordError out.

The record's parts are checked here too, round by round, and a record is put
together here (``record_of``): the engine only deals and plays.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Final, Iterable

from .cards import DECK_SIZE, FACE_CODE, FACE_COUNT, parse_card
from .errors import SHOWN_CHARS, NotationError, RecordError, shown

RECORD_FORMAT: Final = "unokart-record/1"
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


def record_of(players: list[str], options: dict, rounds: list[dict]) -> dict[str, Any]:
    """A game record (NOTATION.md) from its parts; ``rounds`` as the record holds them."""
    return {"format": RECORD_FORMAT, "players": players, "options": options, "rounds": rounds}


def record_parts(record: object) -> tuple[list[str], Any, list]:
    """A record's players, options and rounds, checked for shape (each round is checked by ``round_fields``)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object", key="core.record.not_object", params={})
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"unknown record format {shown(record.get('format'))} (expected {RECORD_FORMAT!r})",
                          key="core.record.format", params={"format": shown(record.get("format")), "expected": RECORD_FORMAT})
    unknown = set(record) - {"format", "players", "options", "rounds"}
    if unknown:
        fields = shown_fields(unknown)
        raise RecordError(f"unknown record field(s): {fields}", key="core.record.unknown_fields", params={"fields": fields})
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names", key="core.record.players", params={})
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("'rounds' must be a non-empty list", key="core.record.rounds", params={})
    return players, record.get("options"), rounds


def shown_fields(names: Iterable[object]) -> str:
    """Unknown field names as an error lists them: a few, each cut short."""
    listed = sorted(str(name) for name in names)
    text = ", ".join(name if name.isprintable() and name.strip() == name and 0 < len(name) <= SHOWN_CHARS else shown(name)
                     for name in listed[:5])  # "" and " " are quoted, or they would read as nothing
    return text + (f" (+{len(listed) - 5})" if len(listed) > 5 else "")


def deck_faces(deck: Any, shown_round: int = 0) -> list[int]:
    """A record's ``deck``: a permutation of the 112 cards, top of the stock first."""
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("'deck' must be a list of card codes", key="core.record.deck_not_list", params={"round": shown_round})
    try:
        faces = [parse_card(c) for c in deck]
    except NotationError as err:
        raise RecordError(f"'deck': {err}", key="core.record.deck_card",
                          params={"round": shown_round, "text": err.params.get("text", "")}) from None
    counts = [0] * len(FACE_COUNT)
    for f in faces:
        counts[f] += 1
    if len(faces) != DECK_SIZE or counts != list(FACE_COUNT):
        extra = [FACE_CODE[f] for f in range(len(counts)) if counts[f] > FACE_COUNT[f]]
        missing = [FACE_CODE[f] for f in range(len(counts)) if counts[f] < FACE_COUNT[f]]
        raise RecordError(f"'deck' is not the 112 cards (R1): {len(faces)} cards"
                          + (f", too many {' '.join(extra)}" if extra else "")
                          + (f", missing {' '.join(missing)}" if missing else ""),
                          key="core.record.deck_not_112",
                          params={"round": shown_round, "count": len(faces), "extra": " ".join(extra) or "-",
                                  "missing": " ".join(missing) or "-"})
    return faces


def round_fields(rnd: Any, where: str, n: int, shown_round: int = 0) -> tuple[int, int | None, list[int] | None, list]:
    if not isinstance(rnd, dict):
        raise RecordError(f"{where}a round must be an object", key="core.record.round_not_object", params={"round": shown_round})
    unknown = set(rnd) - {"dealer", "seed", "deck", "actions"}
    if unknown:
        fields = shown_fields(unknown)
        raise RecordError(f"{where}unknown round field(s): {fields}", key="core.record.round_unknown_fields",
                          params={"round": shown_round, "fields": fields})
    if "seed" not in rnd and "deck" not in rnd:
        raise RecordError(f"{where}a round needs a 'seed' (or a 'deck')", key="core.record.round_no_seed", params={"round": shown_round})
    seed = rnd.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{where}'seed' must be a whole number", key="core.record.seed", params={"round": shown_round})
    dealer = rnd.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n):
        raise RecordError(f"{where}'dealer' must be a seat from 0 to {n - 1}, not {shown(dealer)}", key="core.record.dealer",
                          params={"round": shown_round, "last": n - 1, "dealer": shown(dealer)})
    deck = deck_faces(rnd["deck"], shown_round) if "deck" in rnd else None
    acts = rnd.get("actions", [])
    if not isinstance(acts, list):
        raise RecordError(f"{where}'actions' must be a list", key="core.record.actions", params={"round": shown_round})
    return seed, dealer, deck, acts

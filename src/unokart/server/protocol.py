"""The wire, as pydantic models: every HTTP body and websocket message a client may send (docs/PROTOCOL.md).

One set of models is the protocol: the HTTP API publishes them in its OpenAPI
document, the websocket validates each frame into one of them, and a test
checks that docs/PROTOCOL.md names the same messages and fields. Validation
turns a client's JSON into plain, bounded values before anything else sees
it: no lone surrogates, no integers beyond what a table can use, no strings
longer than their field allows. A failure becomes a ``ServerError`` whose code
names the problem and whose sentence comes from the catalogue.
"""

from __future__ import annotations

import functools
import json
import re as regex
import sys
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from ..i18n import LANGUAGES, t
from ..levels import GRAMMAR, POLICY_NAME, SIMPLE, BotLevel
from ..names import BLANKS as _BLANKS, INVISIBLE_LETTERS as _INVISIBLE_LETTERS, JOINERS as _JOINERS  # the name rule
from ..names import MAX_NAME_CHARS, MAX_TEXT_CHARS, TextRefused, clean
from ..names import emoji_part as _emoji_part
from ..rules.engine import Game
from ..rules.errors import UnoKartError
from ..rules.options import MAX_TARGET_SCORE, Options
from .patterns import SPACES, any_case, char_class, number_pattern

MAX_MESSAGE_BYTES = 4096
MAX_FRAME_BYTES = 65536  # the transport closes the connection above this
MAX_BODY_BYTES = 16384
MAX_ID_CHARS = 64
MAX_TOKEN_CHARS = 64
MAX_ACTION_CHARS = 64
MAX_LEVEL_CHARS = 32
MAX_SEATS = 10
MAX_VERSION = 2**53  # what a JavaScript number holds exactly
MAX_HAND_SIZE = 50
TIMER_RANGE = (5, 600)

# Bot levels a client may ask for. Budgets are capped so that no table can take the machine from the others.
MAX_PLAYOUTS = 500  # about 0.35 s of search: the longest any other table's bot waits behind one
MAX_MILLISECONDS = 500
MAX_GAME_ID = 2**53  # finished games' ids: what a JavaScript number holds exactly

# Reactions a table accepts (PROTOCOL.md section 4): a fixed set, so a reaction is never a message in disguise.
REACTIONS = ("\U0001F44D", "\U0001F44F", "\U0001F602", "\U0001F62E", "\U0001F622", "\U0001F621", "\U0001F389",
             "\U0001F34C")  # thumbs up, clapping, tears of joy, open mouth, crying, pouting, party popper, banana


class Said:
    """Words kept as a catalogue key and its parameters until a reader's language is known.

    A refusal is made once and read by people of several languages (a table's
    connections, an HTTP client's ``?lang=``), so its parts are rendered only
    when it is written for one of them. ``core`` marks a refusal of the rules
    core (its key and parameters as the core gave them: card codes, colour
    letters, seats), rendered by ``narrate.describe_refusal``.
    """

    __slots__ = ("key", "params", "core")

    def __init__(self, key: str, core: bool = False, **params: Any):
        self.key = key
        self.params = params
        self.core = core

    @classmethod
    def of(cls, err: Exception) -> "Said":
        """A rules-core error (NotationError, SetupError, IllegalAction...) by its key and parameters."""
        key = getattr(err, "key", "")
        if not key:  # every core refusal has a key; should one not, its English sentence is all there is
            return cls("server.reason.as_given", text=echo(err, 200))
        return cls(key, core=True, **dict(getattr(err, "params", {})))

    def render(self, lang: str | None = None) -> str:
        if self.core:
            from ..narrate import describe_refusal

            return describe_refusal(self, lang)  # type: ignore[arg-type]
        return t(self.key, lang, **{name: words(value, lang) for name, value in self.params.items()})

    def wire(self) -> dict:
        """As JSON (several processes relay refusals to each other)."""
        return {"said": self.key, "core": self.core, "params": {k: v.wire() if isinstance(v, Said) else v
                                                                 for k, v in self.params.items()}}

    @classmethod
    def unwire(cls, value: Any) -> Any:
        if isinstance(value, dict) and "said" in value:
            return cls(value["said"], bool(value.get("core")),
                       **{k: cls.unwire(v) for k, v in (value.get("params") or {}).items()})
        return value

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.params!r})"


def words(value: Any, lang: str | None) -> Any:
    """A field of a sentence in ``lang``: Said parts rendered (a clause inside a sentence: no full stop of its own)."""
    if isinstance(value, Said):
        return value.render(lang).rstrip().rstrip(".\u06d4\u0964")
    return value


RETRY_CODES = frozenset(("rate_limited", "too_many_requests"))  # their errors say when to try again (retry_after)


# Told the code of every refusal sent, over HTTP or a websocket (metrics.Prometheus counts them by code).
REFUSED: list[Callable[[str], None]] = []


class ServerError(Exception):
    """A refusal with a stable code; its sentence comes from the catalogue (server.error.<code>).

    ``text`` overrides the sentence when it was already written in the player's
    words elsewhere (the rules core's refusals, rendered per language).
    """

    def __init__(self, code: str, rule: str | None = None, status: int = 400, sentence: str | None = None,
                 **fields: Any):
        super().__init__(code)
        self.code = code
        self.sentence = sentence or code  # server.error.<sentence>: one code may be explained more precisely
        self.rule = rule
        self.status = status
        self.fields = fields
        self.render: Any = None  # lang -> sentence, for refusals that carry their own
        self.re: Any = None  # the id of the message refused, when it had a usable one

    def message(self, lang: str | None = None) -> str:
        if self.render is not None:
            return self.render(lang)
        return t(f"server.error.{self.sentence}", lang, **{k: words(v, lang) for k, v in self.fields.items()})

    def payload(self, lang: str | None = None, version: int | None = None, re: Any = None) -> dict:
        for told in REFUSED:
            told(self.code)
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message(lang)}
        if self.rule:
            out["rule"] = self.rule
        if self.code in RETRY_CODES and "seconds" in self.fields:
            out["retry_after"] = self.fields["seconds"]
        if version is not None:
            out["version"] = version
        if re is not None:
            out["re"] = re
        return out


def number_too_large(text: str | bytes) -> ServerError:
    """JSON holding an integer too long to read: said to be a number too large, not "not valid JSON"."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    digits = max(map(len, regex.findall(r"[0-9]+", text)), default=0)
    return ServerError("number_too_large", digits=digits, limit=sys.get_int_max_str_digits() or digits)


def no_such_seat(value: object) -> ServerError:
    """A seat that is not there: a number too long to show is said to be too large, not shown cut
    (seat 2**70 was answered "no seat 11805916")."""
    text = str(value)
    if len(text) > 8 and text.lstrip("-").isdigit():
        return ServerError("no_such_seat", sentence="seat_too_large", digits=len(text.lstrip("-")), last=MAX_SEATS - 1)
    return ServerError("no_such_seat", seat=echo(value, 8))


def echo(value: object, limit: int = 40) -> str:
    """A client's value quoted back in an error: its first ``limit`` characters, each control, format,
    bidirectional, line-separating or lone surrogate character written as U+XXXX (as a name's refusal names
    one), so no echo breaks a line, turns the sentence around, hides text or fails to encode."""
    return "".join(f"U+{ord(char):04X}" if _unshown(char) else char for char in str(value)[:limit])


def _unshown(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] == "C" or category in ("Zl", "Zp")


def _encodable(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate: no socket could send it back
        raise ValueError(f"U+{ord(value[err.start]):04X}") from None
    return value


def _whole(value: Any) -> Any:
    """4.0 as 4: JSON Schema's integers are numbers without a fraction, however written (the OpenAPI document
    says "integer", and a client's JSON library may write 4 as 4.0). True stays refused."""
    return int(value) if type(value) is float and value.is_integer() else value


Text = Annotated[str, AfterValidator(_encodable)]
WHOLE = BeforeValidator(_whole)  # after the Field of an int: its range stays in the published schema
Token = Annotated[Text, Field(max_length=MAX_TOKEN_CHARS)]
Ident = Union[Annotated[Text, Field(max_length=MAX_ID_CHARS)], Annotated[int, Field(ge=-MAX_VERSION, le=MAX_VERSION)]]
SeatIndex = Annotated[int, Field(ge=0, le=MAX_SEATS - 1), WHOLE]
Lang = Literal[tuple(LANGUAGES)]  # type: ignore[valid-type]


def level_schema(models: "frozenset[str]") -> dict:
    """A level as the OpenAPI document states it: the grammar with its caps and the policies offered."""
    return {"type": "string", "maxLength": MAX_LEVEL_CHARS, "pattern": level_pattern(models),
            "description": "a bot level (PROTOCOL.md section 2): " + GRAMMAR}


Level = Annotated[Text, Field(max_length=MAX_LEVEL_CHARS, json_schema_extra=lambda schema: schema.update(
    level_schema(frozenset())))]


class Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ---------------------------------------------------------------------- HTTP bodies
class HouseRules(Model):
    """The R12 house rules a table may set (NOTATION.md names); unset ones keep their defaults."""

    target_score: Annotated[int, Field(ge=1, le=MAX_TARGET_SCORE), WHOLE] | None = None
    hand_size: Annotated[int, Field(ge=1, le=MAX_HAND_SIZE, description="the hands must fit the deck (R3.2): "
                                    "CreateTable states the largest for each table size"), WHOLE] | None = None
    stacking: bool | None = None
    draw_until_playable: bool | None = None
    force_play: bool | None = None
    jump_in: bool | None = None
    seven_zero: bool | None = None

    def given(self) -> dict:
        return self.model_dump(exclude_none=True)


DEFAULT_SEATS = 4


def largest_hand(seats: int) -> int:
    """The largest hand_size a table of ``seats`` may set: the rules core's check (R3.2), asked."""
    def fits(hand: int) -> bool:
        try:
            Game.check_table(seats, Options(hand_size=hand))
        except UnoKartError:
            return False
        return True

    return max(hand for hand in range(1, MAX_HAND_SIZE + 1) if fits(hand))


def _table_rules(schema: dict) -> None:
    """What a table's size decides, stated per size (JSON Schema's if/then): its bots sit at seats 0 to size-1
    (as digit strings), its hands fit the deck, and a table started at once has a bot at every seat."""
    schema["properties"]["bots"] = {
        "type": "object", "default": {}, "propertyNames": {"pattern": "^[0-9]$"},
        "additionalProperties": level_schema(frozenset()),
        "description": "seat (a digit string within the table) to level"}
    rules = []
    for seats in range(2, MAX_SEATS + 1):
        size: dict[str, Any] = {"seats": {"const": seats}}
        named = [] if seats == DEFAULT_SEATS else ["seats"]  # an absent size is the default
        rules.append({"if": {"properties": size, "required": named}, "then": {"properties": {
            "bots": {"propertyNames": {"enum": [str(seat) for seat in range(seats)]}},
            "options": {"properties": {"hand_size": {"maximum": largest_hand(seats)}}}}}})
        rules.append({"if": {"properties": {**size, "start": {"const": True}}, "required": [*named, "start"]},
                      "then": {"required": ["bots"], "properties": {"bots": {"minProperties": seats}}}})
    schema["allOf"] = rules


class CreateTable(Model):
    model_config = ConfigDict(json_schema_extra=_table_rules)

    seats: Annotated[int, Field(ge=2, le=MAX_SEATS), WHOLE] = DEFAULT_SEATS
    options: HouseRules = HouseRules()
    turn_timer: Annotated[float, Field(ge=TIMER_RANGE[0], le=TIMER_RANGE[1])] | None = None
    bots: dict[Annotated[str, Field(pattern=r"^[0-9]$")], Level] = {}  # a seat, one way to write it
    start: bool = False


def _name_schema(schema: dict) -> None:
    pattern, visible, misplaced = name_patterns()
    schema.update(minLength=1, pattern=pattern, allOf=[{"pattern": visible}, {"not": {"pattern": misplaced}}],
                  description=f"1 to {MAX_NAME_CHARS} characters as sent, spaces around it removed when stored, at "
                              "least one of them visible; no control, bidirectional or invisible format characters, "
                              "a zero-width joiner only inside a word (PROTOCOL.md section 2)")


Name = Annotated[Text, Field(max_length=MAX_NAME_CHARS, json_schema_extra=_name_schema)]


class JoinTable(Model):
    name: Name
    seat: SeatIndex | None = None


class ErrorReply(BaseModel):
    """Every refusal, over HTTP (with the status shown) and over the websocket: PROTOCOL.md section 6."""

    type: Literal["error"]
    code: str = Field(description="stable; the table of codes in PROTOCOL.md section 6")
    message: str = Field(description="one sentence in the reader's language (?lang= or Accept-Language)")
    rule: str | None = Field(None, description="the docs/RULES.md id, when a rule refuses it")
    version: int | None = Field(None, description="the table's current version, for refused actions")
    re: str | int | None = Field(None, description="the id of the websocket message refused")
    retry_after: int | None = Field(None, description="seconds to wait (too_many_requests, a refused join's rate_limited)")


# ---------------------------------------------------------------------- websocket messages
class Message(Model):
    id: Ident | None = None


class Join(Message):
    type: Literal["join"]
    name: Name
    seat: SeatIndex | None = None
    lang: Lang | None = None


class Resume(Message):
    type: Literal["resume"]
    token: Token
    lang: Lang | None = None


class Watch(Message):
    type: Literal["watch"]
    lang: Lang | None = None


class Act(Message):
    type: Literal["action"]
    token: Token
    version: Annotated[int, Field(ge=0, le=MAX_VERSION), WHOLE]
    action: Annotated[Text, Field(max_length=MAX_ACTION_CHARS)]


class SetBot(Message):
    type: Literal["bot"]
    token: Token
    seat: SeatIndex
    level: Level | None


class Start(Message):
    type: Literal["start"]
    token: Token


class Rematch(Message):
    type: Literal["rematch"]
    token: Token


class Leave(Message):
    type: Literal["leave"]
    token: Token


class Chat(Message):
    type: Literal["chat"]
    token: Token
    text: Annotated[Text, Field(max_length=MAX_MESSAGE_BYTES)]  # the real limit, with its reason: clean_text


class React(Message):
    type: Literal["react"]
    token: Token | None = None  # a spectator reacts without one
    emoji: Annotated[Text, Field(max_length=16)]


class Sync(Message):
    type: Literal["sync"]


class Ping(Message):
    type: Literal["ping"]


ClientMessage = Annotated[Union[Join, Resume, Watch, Act, SetBot, Start, Rematch, Leave, Chat, React, Sync, Ping],
                          Field(discriminator="type")]
MESSAGES: dict[str, type[Message]] = {m.model_fields["type"].annotation.__args__[0]: m  # type: ignore[union-attr]
                                      for m in (Join, Resume, Watch, Act, SetBot, Start, Rematch, Leave, Chat, React, Sync,
                                                Ping)}
HELLOS = frozenset(("join", "resume", "watch"))
TALK = frozenset(("chat", "react"))  # what people say to each other: a budget of its own (PROTOCOL.md section 4)
_MESSAGE = TypeAdapter(ClientMessage)

# What a field that failed validation is called in the refusal, by pydantic's error type.
_EXPECTED = {"string_type": "text", "int_type": "int", "float_type": "float", "bool_type": "bool",
             "dict_type": "dict", "model_type": "dict", "model_attributes_type": "dict", "list_type": "list"}
_OPTION_RANGES = {"target_score": (1, MAX_TARGET_SCORE), "hand_size": (1, MAX_HAND_SIZE)}
_TOO_LONG = ("string_too_long", "too_long")  # the second when the length is checked after a validator
# Fields whose range has a refusal of its own (docs/PROTOCOL.md section 2).
_RANGE_CODES = {"seats": "bad_seats", "turn_timer": "bad_timer"}


def refusal(errors: Any, skip: int = 0) -> ServerError:
    """The first problem pydantic found (its ``errors()`` list), as the protocol's refusal.

    ``skip``: the location parts before the field (a message's type, an HTTP request's "body").
    """
    first = errors[0]
    kind = first["type"]
    # Drop pydantic's markers of dict keys and union branches: what is left names the field.
    loc = [part for part in first["loc"][skip:] if part not in ("[key]", "str", "int", "constrained-str", "constrained-int")]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        given = first.get("input")
        return ServerError("unknown_type", type=echo(given.get("type") if isinstance(given, dict) else None))
    if not loc:
        return ServerError("not_object")
    field = str(loc[0])
    if field == "options":
        option = echo(loc[1]) if len(loc) > 1 else "options"
        if kind == "extra_forbidden":
            return ServerError("bad_options", reason=Said("server.reason.unknown_option", option=option))
        if option in _OPTION_RANGES:
            low, high = _OPTION_RANGES[option]
            return ServerError("bad_options", reason=Said("server.reason.option_range", option=option, low=low, high=high))
        return ServerError("bad_options", reason=Said("server.reason.option_value", option=option))
    if field == "bots" and len(loc) > 1:
        if kind == "string_pattern_mismatch":
            return no_such_seat(loc[1])
        if kind in _TOO_LONG:
            return level_too_long(first.get("input"))
    if field == "level" and kind in _TOO_LONG:
        return level_too_long(first.get("input"))
    if kind == "missing":
        return ServerError("missing_field", field=field)
    if kind == "extra_forbidden":
        return ServerError("unknown_field", field=echo(field))
    if kind in _EXPECTED or kind.endswith("_type"):
        expected = "id" if field == "id" else _EXPECTED.get(kind, "text")  # an id is text or a whole number
        return ServerError("wrong_type", field=field, expected=Said(f"server.type.{expected}"))
    if field in _RANGE_CODES and kind in ("greater_than_equal", "less_than_equal"):
        low, high = TIMER_RANGE if field == "turn_timer" else (2, MAX_SEATS)
        return ServerError(_RANGE_CODES[field], low=low, high=high)
    if field == "seat" and kind in ("greater_than_equal", "less_than_equal"):
        return no_such_seat(first.get("input"))
    if field == "name" and kind == "value_error":
        return ServerError("bad_name", sentence="bad_name_char", char=echo(first.get("ctx", {}).get("error", "?"), 8))
    if field == "name" and kind in _TOO_LONG:
        return ServerError("bad_name", sentence="name_too_long", limit=MAX_NAME_CHARS, length=len(first.get("input") or ""))
    if field == "text" and kind == "value_error":
        return ServerError("bad_text", sentence="bad_text_char", char=echo(first.get("ctx", {}).get("error", "?"), 8))
    if field == "text" and kind in _TOO_LONG:
        return ServerError("bad_text", sentence="text_too_long", limit=MAX_TEXT_CHARS, length=len(first.get("input") or ""))
    if field == "emoji" and kind in (*_TOO_LONG, "value_error"):
        return bad_emoji()
    return ServerError("bad_value", field=echo(field))


def parse_message(text: str | bytes | None) -> tuple[Message, Any]:
    """A client frame as a validated message and the id to answer it with.

    A refusal (ServerError) carries that id as ``re`` whenever the frame had a usable one.
    """
    if not isinstance(text, str):
        raise ServerError("bad_json", reason=Said("server.reason.binary"))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        failure = ServerError("too_large", limit=MAX_MESSAGE_BYTES)
        failure.re = frame_id(text)
        raise failure
    try:
        data = json.loads(text)
    except RecursionError:
        raise ServerError("bad_json", reason=Said("server.reason.nested")) from None
    except json.JSONDecodeError as err:  # where the text stops being JSON, in words (not the parser's English)
        raise ServerError("bad_json", reason=Said("server.reason.json_at", position=err.pos + 1)) from None
    except ValueError:  # valid JSON, but an integer longer than Python reads (4,300 digits)
        raise number_too_large(text) from None
    if not isinstance(data, dict):
        raise ServerError("not_object")
    ident = usable_id(data.get("id"))
    try:
        return _MESSAGE.validate_python(data), ident
    except ValidationError as err:
        failure = refusal(err.errors(), skip=1)  # the first part of a location is the message's type
        failure.re = ident
        raise failure from None


def usable_id(value: Any) -> Any:
    """The message's id if it is one the server may copy back as ``re`` (PROTOCOL.md section 3)."""
    if type(value) is int and -MAX_VERSION <= value <= MAX_VERSION:
        return value
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return value
    return None


def clean_name(name: str) -> str:
    """A display name, or ServerError naming what is wrong with it (never cut, never changed but for outer spaces)."""
    return _clean(name, "bad_name", "name", MAX_NAME_CHARS)


def clean_text(text: str) -> str:
    """A chat message: the rules of names (one line of visible text, no bidirectional or invisible format
    characters), 1 to MAX_TEXT_CHARS characters; or ServerError bad_text naming what is wrong with it."""
    return _clean(text, "bad_text", "text", MAX_TEXT_CHARS)


def _clean(value: str, code: str, noun: str, limit: int) -> str:
    """names.clean's refusal as a ServerError (the rule itself is names.py's, shared with the terminal client)."""
    try:
        return clean(value, code, noun, limit)
    except TextRefused as err:
        raise ServerError(err.code, sentence=err.sentence, **err.fields) from None


@functools.cache
def name_patterns() -> tuple[str, str, str]:
    """Exactly the names clean_name accepts, as three regular expressions (patterns.py's dialect): the whole name
    (allowed characters, str.strip()'s spaces around), a visible character it must hold, and the misplaced
    joiner it must not (one at an edge or beside a space, a ZWNJ not between letters or marks, a ZWJ not between
    letters, marks or emoji). Built from this Python's Unicode tables, which clean_name reads too."""
    allowed, words, emoji, unseen = set(), set(), set(), set()
    for char in map(chr, range(0x110000)):
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp") or char in _INVISIBLE_LETTERS:
            continue
        allowed.add(char)
        if category[0] in "LM":
            words.add(char)
        if _emoji_part(char):
            emoji.add(char)
        if category[0] not in "LNSP" or char in _BLANKS:
            unseen.add(char)
    joiners, edge = "".join(sorted(_JOINERS)), set(SPACES) | _JOINERS
    alone = char_class((allowed - words - emoji) | edge)  # beside no joiner
    only_emoji = char_class(emoji - words)  # beside no ZWNJ
    whole = f"^[{char_class(SPACES)}]*[{char_class(allowed | _JOINERS)}]+[{char_class(SPACES)}]*$"
    visible = f"[^{char_class(unseen | edge)}]"
    misplaced = (f"(?:^|[{alone}])[{char_class(joiners)}]|[{char_class(joiners)}](?:[{alone}]|$)"
                 f"|[{only_emoji}]\\u200C|\\u200C[{only_emoji}]")
    return whole, visible, misplaced


def bot_level(level: str, models: frozenset[str] = frozenset()) -> str:
    """A bot level a client may ask for, in its one spelling (levels.BotLevel's); anything else is ServerError
    bad_level. What is accepted is exactly what ``level_pattern(models)`` matches, the OpenAPI document's
    pattern: this function reads the same expression without the caps, to say which one a level is over.

    ``models`` are the trained policies the operator offers (``serve --models DIR``), by name only:
    a client never names a path.
    """
    if len(level) > MAX_LEVEL_CHARS:
        raise level_too_long(level)
    match = _LEVEL_FORM.fullmatch(level)
    caps = {"level": echo(level, MAX_LEVEL_CHARS), "playouts": MAX_PLAYOUTS, "milliseconds": MAX_MILLISECONDS}
    if match is None:
        raise ServerError("bad_level", **caps)
    simple, playouts, millis, ms, policy = match.group(1, 3, 4, 5, 6)
    budget = playouts if millis is None else millis
    if budget is not None and int(budget) > (MAX_MILLISECONDS if ms else MAX_PLAYOUTS):
        raise ServerError("bad_level", sentence="level_over_cap", **caps)
    if budget is not None and ms and int(budget) < 1:  # a search needs some time; 0 playouts is its prior alone
        raise ServerError("bad_level", sentence="level_no_time", **caps)
    if policy is not None and policy not in models:
        raise ServerError("no_such_model", model=policy)
    if simple is not None:
        return str(BotLevel(simple.lower()))
    if policy is not None:
        return str(BotLevel("policy", policy=policy))
    number = None if budget is None else int(budget)
    return str(BotLevel("ismcts", iterations=None if ms else number, milliseconds=number if ms else None))


def level_pattern(models: "frozenset[str] | None" = None) -> str:
    """The levels a client may send, as one regular expression in the syntax Python and JSON Schema (ECMA-262)
    share: levels.py's kinds in any case, a budget of ASCII digits without leading zeros, with the caps when
    ``models`` are given (the offered policies then named one by one), without them when None (any number,
    any policy name: bot_level says what is over a cap or not offered)."""
    if models is None:
        playouts = millis = "0|[1-9][0-9]*"
        names = POLICY_NAME.pattern
    else:
        playouts, millis = number_pattern(0, MAX_PLAYOUTS), number_pattern(1, MAX_MILLISECONDS)
        names = "|".join(sorted(models))  # [A-Za-z0-9_-]: nothing to escape
    simple = "|".join(any_case(kind) for kind in SIMPLE)
    ismcts = f"({any_case('ismcts')})(?::(?:({playouts})|({millis})({any_case('ms')})))?"
    if models is not None and not models:  # nothing offered: no policy level is valid
        policy = ""
    else:
        policy = f"|{any_case('policy')}:({names})"
    space = f"[{char_class(SPACES)}]*"
    return f"^{space}(?:({simple})|{ismcts}{policy}){space}$"


_LEVEL_FORM = regex.compile(level_pattern())


def reaction(emoji: str) -> str:
    """One of the table's reactions, or ServerError bad_emoji listing them."""
    if emoji not in REACTIONS:
        raise bad_emoji()
    return emoji


def bad_emoji() -> ServerError:
    return ServerError("bad_emoji", allowed=" ".join(REACTIONS))


def level_too_long(level: object) -> ServerError:
    return ServerError("bad_level", sentence="level_too_long", limit=MAX_LEVEL_CHARS,
                       length=len(level) if isinstance(level, str) else 0)


def frame_id(text: Any) -> Any:
    """The usable id of a frame the server will not handle (too large, or over the rate): so its error has ``re``.

    Only for frames the transport let through (at most MAX_FRAME_BYTES); anything that is not a JSON object
    with a usable id gives None.
    """
    if not isinstance(text, str) or len(text) > MAX_FRAME_BYTES:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return usable_id(data.get("id")) if isinstance(data, dict) else None

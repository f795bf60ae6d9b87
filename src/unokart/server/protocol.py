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

import json
import re as regex
import unicodedata
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..i18n import LANGUAGES, t

MAX_MESSAGE_BYTES = 4096
MAX_FRAME_BYTES = 65536  # the transport closes the connection above this
MAX_BODY_BYTES = 16384
MAX_ID_CHARS = 64
MAX_NAME_CHARS = 24
MAX_TEXT_CHARS = 200  # a chat message
MAX_TOKEN_CHARS = 64
MAX_ACTION_CHARS = 64
MAX_LEVEL_CHARS = 32
MAX_SEATS = 10
MAX_VERSION = 2**53  # what a JavaScript number holds exactly
MAX_TARGET_SCORE = 5000  # a few long evenings; beyond, an all-bot table could play for ever
MAX_HAND_SIZE = 50
TIMER_RANGE = (5, 600)

# Bot levels a client may ask for. Budgets are capped so that no table can take the machine from the others.
MAX_PLAYOUTS = 500  # about 0.35 s of search: the longest any other table's bot waits behind one
MAX_MILLISECONDS = 500
# A budget is ASCII digits without leading zeros: one way to write each number (\d also took "٥٠٠" and "５００",
# and leading zeros "0000500", each stored as typed: one level with many names).
LEVEL_PATTERN = regex.compile(r"(random|easy|heuristic|careful|ismcts(?::(0|[1-9][0-9]*)(ms)?)?|policy:([A-Za-z0-9_-]{1,40}))")
MAX_GAME_ID = 2**53  # finished games' ids: what a JavaScript number holds exactly

# Bidirectional controls turn the rest of a sentence around for everyone who reads it.
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ and ZWJ shape Indic and Arabic words: allowed inside a word
# Letters that draw nothing (Hangul fillers, default-ignorable): a name made of them looks empty, or like another's.
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Reactions a table accepts (PROTOCOL.md section 4): a fixed set, so a reaction is never a message in disguise.
REACTIONS = ("\U0001F44D", "\U0001F44F", "\U0001F602", "\U0001F62E", "\U0001F622", "\U0001F621", "\U0001F389",
             "\U0001F34C")  # thumbs up, clapping, tears of joy, open mouth, crying, pouting, party popper, banana
# Characters that draw nothing although they count as symbols or marks: they do not make a name visible.
_BLANKS = frozenset("\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f") | frozenset(map(chr, range(0xFE00, 0xFE10)))


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


def no_such_seat(value: object) -> ServerError:
    """A seat that is not there: a number too long to show is said to be too large, not shown cut
    (seat 2**70 was answered "no seat 11805916")."""
    text = str(value)
    if len(text) > 8 and text.lstrip("-").isdigit():
        return ServerError("no_such_seat", sentence="seat_too_large", digits=len(text.lstrip("-")), last=MAX_SEATS - 1)
    return ServerError("no_such_seat", seat=echo(value, 8))


def echo(value: object, limit: int = 40) -> str:
    """A client's value quoted back in an error: short, and always encodable."""
    return str(value)[:limit].encode("utf-8", "replace").decode("utf-8")


def _encodable(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate: no socket could send it back
        raise ValueError(f"U+{ord(value[err.start]):04X}") from None
    return value


Text = Annotated[str, AfterValidator(_encodable)]
Token = Annotated[Text, Field(max_length=MAX_TOKEN_CHARS)]
Ident = Union[Annotated[Text, Field(max_length=MAX_ID_CHARS)], Annotated[int, Field(ge=-MAX_VERSION, le=MAX_VERSION)]]
SeatIndex = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
Lang = Literal[tuple(LANGUAGES)]  # type: ignore[valid-type]
Level = Annotated[Text, Field(max_length=MAX_LEVEL_CHARS)]


class Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ---------------------------------------------------------------------- HTTP bodies
class HouseRules(Model):
    """The R12 house rules a table may set (NOTATION.md names); unset ones keep their defaults."""

    target_score: Annotated[int, Field(ge=1, le=MAX_TARGET_SCORE)] | None = None
    hand_size: Annotated[int, Field(ge=1, le=MAX_HAND_SIZE)] | None = None
    stacking: bool | None = None
    draw_until_playable: bool | None = None
    force_play: bool | None = None
    jump_in: bool | None = None
    seven_zero: bool | None = None

    def given(self) -> dict:
        return self.model_dump(exclude_none=True)


class CreateTable(Model):
    seats: Annotated[int, Field(ge=2, le=MAX_SEATS)] = 4
    options: HouseRules = HouseRules()
    turn_timer: Annotated[float, Field(ge=TIMER_RANGE[0], le=TIMER_RANGE[1])] | None = None
    bots: dict[Annotated[str, Field(pattern=r"^[0-9]{1,2}$")], Level] = {}
    start: bool = False


# A name's limit (MAX_NAME_CHARS) holds after surrounding spaces are removed, and a longer name is refused with
# its length named (clean_name): the model takes a little more, the published schema says the real limit.
NAME_BOUND = 200
Name = Annotated[Text, Field(max_length=NAME_BOUND, json_schema_extra={
    "maxLength": MAX_NAME_CHARS, "minLength": 1,
    "description": f"1 to {MAX_NAME_CHARS} characters after surrounding spaces are removed, at least one of them "
                   "visible; no control, bidirectional or invisible format characters (PROTOCOL.md section 2)"})]


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
    version: Annotated[int, Field(ge=0, le=MAX_VERSION)]
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
        return ServerError("wrong_type", field=field, expected=Said(f"server.type.{_EXPECTED.get(kind, 'text')}"))
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
    except ValueError:  # an integer of thousands of digits
        raise ServerError("bad_json", reason=Said("server.reason.json_number")) from None
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
    """``value`` without its outer spaces, or ServerError ``code`` with the sentence that says why
    (server.error.<code>_char, <code>_control, <noun>_blank, <noun>_too_long)."""
    value = unicodedata.normalize("NFC", value).strip()
    for index, char in enumerate(value):
        if char in _JOINERS and 0 < index < len(value) - 1 and _joined(value[index - 1], char, value[index + 1]):
            continue
        category = unicodedata.category(char)
        if category == "Cc":  # a tab, a line break, NUL: not invisible, and nothing to do with direction
            raise ServerError(code, sentence=f"{code}_control", char=f"U+{ord(char):04X}")
        if category[0] == "C" or category in ("Zl", "Zp") or char in _INVISIBLE_LETTERS:
            raise ServerError(code, sentence=f"{code}_char", char=f"U+{ord(char):04X}")
    if not value:
        raise ServerError(code, limit=limit)
    if not any(unicodedata.category(c)[0] in "LNSP" and c not in _BLANKS for c in value):
        raise ServerError(code, sentence=f"{noun}_blank")
    if len(value) > limit:
        raise ServerError(code, sentence=f"{noun}_too_long", limit=limit, length=len(value))
    return value


def _joined(before: str, joiner: str, after: str) -> bool:
    """Whether a joiner sits inside a word: between letters or marks (Indic and Arabic words), or, for the
    zero-width joiner, between emoji too (a family, a profession: one picture made of several)."""
    if unicodedata.category(before)[0] in "LM" and unicodedata.category(after)[0] in "LM":
        return True
    return joiner == "\u200d" and _emoji_part(before) and _emoji_part(after)


def _emoji_part(char: str) -> bool:
    """A pictograph (a symbol), a skin-tone modifier, or the variation selector that asks for emoji style."""
    return unicodedata.category(char) == "So" or "\U0001F3FB" <= char <= "\U0001F3FF" or char == "\ufe0f"


def bot_level(level: str, models: frozenset[str] = frozenset()) -> str:
    """A bot level a client may ask for, normalised; anything else is ServerError bad_level.

    ``models`` are the trained policies the operator offers (``serve --models DIR``), by name only:
    a client never names a path.
    """
    if len(level) > MAX_LEVEL_CHARS:
        raise level_too_long(level)
    normal = level.strip()
    if not normal.startswith("policy:"):
        normal = normal.lower()
    match = LEVEL_PATTERN.fullmatch(normal)
    budget, ms, policy = (match.group(2), match.group(3), match.group(4)) if match else (None, None, None)
    caps = {"level": echo(level, MAX_LEVEL_CHARS), "playouts": MAX_PLAYOUTS, "milliseconds": MAX_MILLISECONDS}
    if match is None:
        raise ServerError("bad_level", **caps)
    if budget is not None and int(budget) > (MAX_MILLISECONDS if ms else MAX_PLAYOUTS):
        raise ServerError("bad_level", sentence="level_over_cap", **caps)
    if budget is not None and ms and int(budget) < 1:  # a search needs some time; 0 playouts is its prior alone
        raise ServerError("bad_level", sentence="level_no_time", **caps)
    if policy is not None and policy not in models:
        raise ServerError("no_such_model", model=policy)
    return normal


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

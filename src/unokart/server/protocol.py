"""The wire: strict validation of client messages and the error payload (docs/PROTOCOL.md)."""

from __future__ import annotations

import json
from typing import Any

from ..i18n import LANGUAGES, t

MAX_MESSAGE_BYTES = 4096
MAX_FRAME_BYTES = 65536  # the transport closes the connection above this
MAX_ID_CHARS = 64
MAX_NAME_CHARS = 24
MAX_TOKEN_CHARS = 64
MAX_ACTION_CHARS = 64

# Field name -> (accepted JSON types, required). ``None`` in the types allows null.
_TOKEN = {"token": ((str,), True)}
SCHEMAS: dict[str, dict[str, tuple[tuple, bool]]] = {
    "join": {"name": ((str,), True), "seat": ((int,), False), "lang": ((str,), False)},
    "resume": {**_TOKEN, "lang": ((str,), False)},
    "watch": {"lang": ((str,), False)},
    "action": {**_TOKEN, "version": ((int,), True), "action": ((str,), True)},
    "bot": {**_TOKEN, "seat": ((int,), True), "level": ((str, None), True)},
    "start": _TOKEN,
    "rematch": _TOKEN,
    "leave": _TOKEN,
    "sync": {},
    "ping": {},
}
HELLOS = frozenset(("join", "resume", "watch"))
_COMMON = {"type", "id"}
_TYPE_KEYS = {str: "text", int: "int", bool: "bool", dict: "dict", list: "list", float: "float", None: "null"}
_LIMITS = {"token": MAX_TOKEN_CHARS, "action": MAX_ACTION_CHARS, "level": 32, "name": 200}


class ServerError(Exception):
    """A refusal with a stable code; its sentence comes from the catalogue (server.error.<code>)."""

    def __init__(self, code: str, rule: str | None = None, status: int = 400, **fields: Any):
        super().__init__(code)
        self.code = code
        self.rule = rule
        self.status = status
        self.fields = fields

    def message(self, lang: str | None = None) -> str:
        return t(f"server.error.{self.code}", lang, **self.fields)

    def payload(self, lang: str | None = None, version: int | None = None, re: Any = None) -> dict:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message(lang)}
        if self.rule:
            out["rule"] = self.rule
        if version is not None:
            out["version"] = version
        if re is not None:
            out["re"] = re
        return out


def _is(value: Any, types: tuple) -> bool:
    for kind in types:
        if kind is None and value is None:
            return True
        if kind is int and type(value) is int:  # a bool is not a whole number here
            return True
        if kind is float and type(value) in (int, float):
            return True
        if kind in (str, dict, list, bool) and isinstance(value, kind):
            return True
    return False


def check_fields(data: dict, schema: dict[str, tuple[tuple, bool]], allowed_extra: set[str] = frozenset()) -> None:
    """Refuse unknown fields, missing fields and wrong JSON types, naming the first one."""
    for name in data:
        if name not in schema and name not in allowed_extra:
            raise ServerError("unknown_field", field=str(name)[:40])
    for name, (types, required) in schema.items():
        if name not in data:
            if required:
                raise ServerError("missing_field", field=name)
            continue
        value = data[name]
        if not _is(value, types):
            raise ServerError("wrong_type", field=name, expected=" / ".join(t(f"server.type.{_TYPE_KEYS[k]}") for k in types))
        if isinstance(value, str) and len(value) > _LIMITS.get(name, MAX_ID_CHARS):
            raise ServerError("bad_value", field=name)


def parse_message(text: str | bytes | None) -> dict:
    """A client frame as a validated message dict, or ServerError naming what is wrong."""
    if not isinstance(text, str):
        raise ServerError("bad_json", reason="binary frames are not accepted")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ServerError("too_large", limit=MAX_MESSAGE_BYTES)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ServerError("bad_json", reason=getattr(err, "msg", "too deeply nested")) from None
    if not isinstance(data, dict):
        raise ServerError("not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ServerError("unknown_type", type=str(kind)[:40])
    if "id" in data:
        ident = data["id"]
        if not _is(ident, (str, int)):
            raise ServerError("wrong_type", field="id", expected=t("server.type.text") + " / " + t("server.type.int"))
        if isinstance(ident, str) and len(ident) > MAX_ID_CHARS:
            raise ServerError("bad_value", field="id")
    check_fields(data, SCHEMAS[kind], _COMMON)
    if "lang" in data and data["lang"] not in LANGUAGES:
        raise ServerError("bad_value", field="lang")
    return data


def clean_name(name: str) -> str:
    """A display name: 1 to 24 characters, no control characters, outer spaces removed."""
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME_CHARS or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in name):
        raise ServerError("bad_name", limit=MAX_NAME_CHARS)
    return name

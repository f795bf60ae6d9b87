"""The one message catalogue: every user-facing text, in English, Tamil, Kannada, Telugu and Sindhi.

Messages live in ``i18n/<lang>/<domain>.json`` (one domain per face: core, cli,
server, web, tui, sim, env) as ``{"key": "text with {named} fields"}``. A key is
``domain.name``. A language that lacks a key falls back to English.

Plural forms: a message that depends on a number has one key per CLDR plural
category of its language (``key.one``, ``key.other``, and ``key.few``... where a
language has them); ``t(key, count=n)`` (or ``n=n``) picks the category with
Babel's CLDR rules, exactly as the browser does with ``Intl.PluralRules``.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Literal
from importlib import resources

LANGUAGES = {"en": "English", "ta": "தமிழ்", "kn": "ಕನ್ನಡ", "te": "తెలుగు", "sd": "سنڌي"}
DEFAULT = "en"


def current_language() -> str:
    """$UNOKART_LANG if it names a language here, else the locale's as gettext chooses: the first language of
    $LANGUAGE we have (a list, "ta:en"), unless the locale is C, else that of LC_ALL, LC_MESSAGES or LANG
    (the first set: ``ta_IN.UTF-8`` -> ``ta``), else English."""
    lang = os.environ.get("UNOKART_LANG", "")
    if lang in LANGUAGES:
        return lang
    locale = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(v)), "")  # POSIX order
    if locale and locale not in ("C", "POSIX"):
        for wanted in os.environ.get("LANGUAGE", "").split(":"):
            if _language_of(wanted) in LANGUAGES:
                return _language_of(wanted)
    lang = _language_of(locale)
    return lang if lang in LANGUAGES else DEFAULT


def _language_of(locale: str) -> str:
    return locale.split(".")[0].split("@")[0].split("_")[0].lower()


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, keys prefixed by their domain."""
    messages: dict[str, str] = {}
    folder = resources.files(__package__) / lang
    if not folder.is_dir():
        return messages
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            domain = entry.name[:-5]
            for key, text in json.loads(entry.read_text(encoding="utf-8")).items():
                messages[f"{domain}.{key}"] = text
    return messages


@lru_cache(maxsize=None)
def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories ``lang`` tells apart (always with ``other``)."""
    from babel import Locale

    return frozenset(Locale.parse(lang).plural_form.tags) | {"other"}


def plural_category(lang: str, number: float) -> str:
    from babel import Locale

    return Locale.parse(lang).plural_form(number)


def _lookup(key: str, lang: str) -> str | None:
    return catalogue(lang).get(key) or catalogue(DEFAULT).get(key)


def t(key: str, lang: str | None = None, **fields: object) -> str:
    """The message ``key`` in ``lang`` (default: $UNOKART_LANG or English), fields filled in."""
    lang = lang or current_language()
    text = _lookup(key, lang)
    if text is None:
        number = fields.get("count", fields.get("n"))
        if isinstance(number, (int, float)) and not isinstance(number, bool) and _lookup(f"{key}.other", lang):
            text = _lookup(f"{key}.{plural_category(lang, abs(number))}", lang) or _lookup(f"{key}.other", lang)
    if text is None:
        raise KeyError(f"no message {key!r} in the catalogue")
    return text.format(**fields) if fields else text


def os_reason(err: BaseException, lang: str | None = None) -> str:
    """Why the system refused a file or a connection, in ``lang``: the catalogue's words for the common reasons, else the
    system's own (its strerror), else the error's kind."""
    import errno
    import socket

    name = errno.errorcode.get(getattr(err, "errno", None) or -1, "")
    if isinstance(err, socket.gaierror):  # its numbers are getaddrinfo's, not errno's
        name = "name_unknown" if err.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) else ""
    elif isinstance(err, TimeoutError) and not name:
        name = "ETIMEDOUT"
    if _lookup(f"cli.os.{name}", lang or current_language()) is not None:
        return t(f"cli.os.{name}", lang)
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def join_list(items: list[str], lang: str | None = None, style: Literal["standard", "or"] = "standard") -> str:
    """``a, b and c`` (or with ``style="or"``: ``a, b or c``) as ``lang`` writes a list (CLDR's list patterns)."""
    from babel.lists import format_list

    return format_list(items, style=style, locale=lang or current_language())

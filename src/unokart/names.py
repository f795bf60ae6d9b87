"""What a person may type for others to read: a display name and a chat message, one rule for every face.

The server checks names and chat with it (server/protocol.py wraps a refusal as its ServerError), and the terminal
client checks a name before a game opens, without loading the server. One line of visible text: no control,
bidirectional, invisible or format character (but ZWNJ and ZWJ inside a word), and at least one character that
draws something.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .i18n import t
from .rules.records import MAX_NAME_CHARS  # a record holds the names the server and the clients accept

MAX_TEXT_CHARS = 200  # a chat message

# Bidirectional controls turn the rest of a sentence around for everyone who reads it.
JOINERS = frozenset("\u200c\u200d")  # ZWNJ and ZWJ shape Indic and Arabic words: allowed inside a word
# Letters that draw nothing (Hangul fillers, default-ignorable): a name made of them looks empty, or like another's.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Characters that draw nothing although they count as symbols or marks: they do not make a name visible.
BLANKS = frozenset("\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f") | frozenset(map(chr, range(0xFE00, 0xFE10)))


class TextRefused(ValueError):
    """A name or message refused: ``code`` (bad_name, bad_text), the catalogue's sentence
    (server.error.<sentence>) that says why, and its fields."""

    def __init__(self, code: str, sentence: str | None = None, **fields: Any):
        super().__init__(code)
        self.code = code
        self.sentence = sentence or code
        self.fields = fields

    def message(self, lang: str | None = None) -> str:
        return t(f"server.error.{self.sentence}", lang, **self.fields)


def clean_name(name: str) -> str:
    """A display name, or TextRefused naming what is wrong with it (never cut, never changed but for outer spaces)."""
    return clean(name, "bad_name", "name", MAX_NAME_CHARS)


def clean_text(text: str) -> str:
    """A chat message: the rules of names, 1 to MAX_TEXT_CHARS characters; or TextRefused bad_text."""
    return clean(text, "bad_text", "text", MAX_TEXT_CHARS)


def clean(value: str, code: str, noun: str, limit: int) -> str:
    """``value`` without its outer spaces (composed, NFC), or TextRefused ``code`` with the sentence that says why
    (server.error.<code>_char, <code>_control, <noun>_blank, <noun>_too_long). Judged as sent, so that the
    server's published patterns say exactly the same: ``limit`` counts every character sent."""
    stripped = value.strip()
    for index, char in enumerate(stripped):
        if char in JOINERS and 0 < index < len(stripped) - 1 and joined(stripped[index - 1], char, stripped[index + 1]):
            continue
        category = unicodedata.category(char)
        if category == "Cc":  # a tab, a line break, NUL: not invisible, and nothing to do with direction
            raise TextRefused(code, sentence=f"{code}_control", char=f"U+{ord(char):04X}")
        if category[0] == "C" or category in ("Zl", "Zp") or char in INVISIBLE_LETTERS:
            raise TextRefused(code, sentence=f"{code}_char", char=f"U+{ord(char):04X}")
    if not stripped:
        raise TextRefused(code, limit=limit)
    if not any(unicodedata.category(c)[0] in "LNSP" and c not in BLANKS for c in stripped):
        raise TextRefused(code, sentence=f"{noun}_blank")
    if len(value) > limit:
        raise TextRefused(code, sentence=f"{noun}_too_long", limit=limit, length=len(value))
    composed = unicodedata.normalize("NFC", stripped)
    # A few letters decompose (U+0958 is two characters composed): a record's names hold MAX_NAME_CHARS at most.
    return composed if len(composed) <= limit else stripped


def joined(before: str, joiner: str, after: str) -> bool:
    """Whether a joiner sits inside a word: between letters or marks (Indic and Arabic words), or, for the
    zero-width joiner, between letters, marks and emoji (a family, a profession: one picture made of several)."""
    if word_part(before) and word_part(after):
        return True
    return joiner == "\u200d" and (word_part(before) or emoji_part(before)) and (word_part(after) or emoji_part(after))


def word_part(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def emoji_part(char: str) -> bool:
    """A pictograph (a symbol), a skin-tone modifier, or the variation selector that asks for emoji style."""
    return unicodedata.category(char) == "So" or "\U0001F3FB" <= char <= "\U0001F3FF" or char == "\ufe0f"

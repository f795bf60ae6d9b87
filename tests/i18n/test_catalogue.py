"""The message catalogue: Tamil, Kannada, Telugu and Sindhi say everything English says.

Only the domains listed in TRANSLATED are checked, so that a new English domain
does not break CI before its translation lands; add a domain here when its
ta/kn/te/sd files are committed.
"""

from __future__ import annotations

import inspect
import json
import string
import unicodedata
from collections import Counter
from importlib import resources

import pytest

from unokart.i18n import LANGUAGES, catalogue, t

LANGS = ("ta", "kn", "te", "sd")
TRANSLATED = ("cli", "core", "env", "rules", "server", "sim", "tui", "web")

# Messages that rightly stay as in English in every language (names, JSON literals).
SAME_AS_ENGLISH = {("server", "type.null")}

# Letters each language must be written in (besides digits, Latin card codes and punctuation).
SCRIPT = {
    "ta": ("TAMIL",),
    "kn": ("KANNADA",),
    "te": ("TELUGU",),
    "sd": ("ARABIC",),
}
# Zero-width non-joiner is ordinary Kannada/Telugu orthography (ಕಾರ್ಡ್‌ಗಳು); Sindhi may need ZWNJ too.
ALLOWED_FORMAT_CHARS = {"\u200c"}
# A line break separates paragraphs (the rules pages); a translation keeps English's paragraphs.
PARAGRAPH_BREAK = "\n"


def _folder(lang: str):
    return resources.files("unokart.i18n") / lang


def _load(lang: str, domain: str) -> dict[str, str]:
    entry = _folder(lang) / f"{domain}.json"
    assert entry.is_file(), f"{lang}/{domain}.json is missing"
    data = json.loads(entry.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{lang}/{domain}.json is not an object"
    return data


def _fields(text: str) -> Counter:
    """The named fields of a message, with how often each occurs."""
    found: Counter = Counter()
    for _literal, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            found[(field, spec or "", conversion or "")] += 1
    return found


def _dummy(text: str) -> dict[str, object]:
    """A value for every field: a number where the format spec wants one, else a marked string."""
    values: dict[str, object] = {}
    for field, spec, _conv in _fields(text):
        kind = spec[-1:] if spec else ""
        values[field] = 7 if kind in ("b", "c", "d", "o", "x", "X") else 0.25 if kind in ("e", "E", "f", "F", "g", "G", "n", "%") else f"<{field}>"
    return values


# t(key, lang, **fields) cannot be given a field named like its own parameters.
T_PARAMETERS = {name for name, p in inspect.signature(t).parameters.items() if p.kind is not p.VAR_KEYWORD}
# English messages known to have such a field (t() raises TypeError on them): rendered with str.format.
KNOWN_SHADOWING: set[tuple[str, str]] = set()

CASES = [(lang, domain) for lang in LANGS for domain in TRANSLATED]


def test_languages_are_the_catalogues():
    assert set(LANGS) | {"en"} == set(LANGUAGES)


def test_translated_domains_exist_in_english():
    for domain in TRANSLATED:
        assert (_folder("en") / f"{domain}.json").is_file(), domain


@pytest.mark.parametrize("lang,domain", CASES)
def test_same_keys_as_english(lang, domain):
    english, translated = _load("en", domain), _load(lang, domain)
    missing = sorted(set(english) - set(translated))
    extra = sorted(set(translated) - set(english))
    assert not missing, f"{lang}/{domain}.json lacks {missing}"
    assert not extra, f"{lang}/{domain}.json has keys English lacks: {extra}"


@pytest.mark.parametrize("lang,domain", CASES)
def test_same_placeholders_as_english(lang, domain):
    english, translated = _load("en", domain), _load(lang, domain)
    wrong = {
        key: (dict(_fields(english[key])), dict(_fields(text)))
        for key, text in translated.items()
        if key in english and _fields(english[key]) != _fields(text)
    }
    assert not wrong, f"{lang}/{domain}.json placeholders differ from English: {wrong}"


@pytest.mark.parametrize("lang,domain", CASES)
def test_values_are_non_empty_and_valid(lang, domain):
    english = _load("en", domain)
    for key, text in _load(lang, domain).items():
        where = f"{lang}/{domain}.json {key!r}"
        assert isinstance(text, str), where
        assert text.strip(), f"{where} is empty"
        assert text == text.strip(), f"{where} has leading or trailing space"
        assert text == unicodedata.normalize("NFC", text), f"{where} is not NFC"
        assert "\ufffd" not in text, f"{where} has a replacement character"
        for ch in text:
            category = unicodedata.category(ch)
            if ch == PARAGRAPH_BREAK:
                continue
            assert category not in ("Cc", "Cs", "Co", "Cn"), f"{where} has {ch!r}"
            if category == "Cf":
                assert ch in ALLOWED_FORMAT_CHARS, f"{where} has the invisible U+{ord(ch):04X}"
        assert text.count(PARAGRAPH_BREAK) == english.get(key, "").count(PARAGRAPH_BREAK), f"{where} has not English's paragraphs"
        assert "\n\n" not in text and " \n" not in text and "\n " not in text, f"{where} has an empty line or stray spaces"
        if english.get(key) == text:
            # Only messages made of fields, UNO, codes and digits may stay as in English.
            bare = string.Formatter().format(text, **_dummy(text))
            for field in _dummy(text):
                bare = bare.replace(f"<{field}>", "")
            bare = bare.replace("UNO", "")
            assert (domain, key) in SAME_AS_ENGLISH or not any(ch.isalpha() for ch in bare), f"{where} is still English"
        else:
            letters = [ch for ch in text if ch.isalpha() and unicodedata.name(ch, "").split()[0] in SCRIPT[lang]]
            assert letters, f"{where} has no letter of its script"
        # "UNO" stays "UNO".
        assert text.count("UNO") >= english.get(key, "").count("UNO"), f"{where} must keep UNO as UNO"


@pytest.mark.parametrize("lang,domain", CASES)
def test_t_renders_every_message(lang, domain):
    english = _load("en", domain)
    for key, text in _load(lang, domain).items():
        if key not in english:
            continue  # test_same_keys_as_english reports it
        full = f"{domain}.{key}"
        assert catalogue(lang)[full] == text
        if (domain, key) in KNOWN_SHADOWING:
            rendered = text.format(**_dummy(text))
        else:
            rendered = t(full, lang, **_dummy(text))
        assert rendered.strip()
        for field, value in _dummy(text).items():
            if isinstance(value, str):
                assert f"<{field}>" in rendered
        shown_en = english[key].format(**_dummy(english[key]))
        for brace in "{}":
            assert rendered.count(brace) == shown_en.count(brace), f"{lang} {full} leaves braces: {rendered!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_t_renders_without_fields(lang):
    for domain in TRANSLATED:
        for key, text in _load(lang, domain).items():
            if not _fields(text):
                assert t(f"{domain}.{key}", lang) == text


@pytest.mark.parametrize("domain", TRANSLATED)
def test_no_field_shadows_a_parameter_of_t(domain):
    english = _load("en", domain)
    shadowing = sorted(
        key for key, text in english.items()
        if (domain, key) not in KNOWN_SHADOWING and {f for f, _s, _c in _fields(text)} & T_PARAMETERS
    )
    assert not shadowing, f"en/{domain}.json: fields named {sorted(T_PARAMETERS)} break t(): {shadowing}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_domain_without_english(lang):
    english = {entry.name for entry in _folder("en").iterdir() if entry.name.endswith(".json")}
    ours = {entry.name for entry in _folder(lang).iterdir() if entry.name.endswith(".json")}
    assert ours <= english, f"{lang} has domains English lacks: {sorted(ours - english)}"


PLURAL_SUFFIXES = ("zero", "one", "two", "few", "many", "other")


def _plural_bases(messages: dict[str, str]) -> dict[str, set[str]]:
    bases: dict[str, set[str]] = {}
    for key in messages:
        base, _dot, suffix = key.rpartition(".")
        if base and suffix in PLURAL_SUFFIXES:
            bases.setdefault(base, set()).add(suffix)
    return bases


@pytest.mark.parametrize("lang,domain", [("en", domain) for domain in TRANSLATED] + CASES)
def test_plural_messages_have_every_category_their_language_needs(lang, domain):
    from unokart.i18n import plural_categories

    needed = plural_categories(lang)
    wrong = {base: sorted(found) for base, found in _plural_bases(_load(lang, domain)).items() if found != needed}
    assert not wrong, f"{lang}/{domain}.json: plural messages need exactly {sorted(needed)}: {wrong}"


@pytest.mark.parametrize("lang", ("en",) + LANGS)
def test_t_picks_the_plural_form_by_cldr_rules(lang):
    from babel import Locale

    rule = Locale.parse(lang).plural_form
    for number in (0, 1, 2, 7, 21):
        expected = catalogue(lang)[f"tui.cards.{rule(number)}"].format(count=number)
        assert t("tui.cards", lang, count=number) == expected
    assert t("tui.cards", "en", count=1) == "1 card" and t("tui.cards", "en", count=2) == "2 cards"
    assert t("core.event.round_end", "en", name="Ann", count=1) == "Ann goes out and scores 1 point."


def test_kannada_says_zero_in_the_one_form_as_cldr_says():
    # CLDR: Kannada "one" is i = 0 or n = 1, so 0 takes the singular, unlike English.
    assert t("tui.points", "kn", count=0) == catalogue("kn")["tui.points.one"].format(count=0)
    assert t("tui.points", "en", count=0) == "0 pts"

"""Which language speaks when no --lang is given: UNOKART_LANG, then the locale as gettext reads it."""

from __future__ import annotations

import pytest

from unokart.i18n import current_language

CASES = [
    ({"UNOKART_LANG": "kn", "LANG": "ta_IN.UTF-8"}, "kn"),
    ({"LANG": "te_IN.UTF-8"}, "te"),
    ({"LC_ALL": "sd_IN.UTF-8@devanagari", "LANG": "ta_IN.UTF-8"}, "sd"),
    ({"LANGUAGE": "fr:ta:en", "LANG": "en_GB.UTF-8"}, "ta"),  # the first of the list we speak
    ({"LANGUAGE": "kn", "LANG": "C"}, "en"),  # gettext ignores LANGUAGE in the C locale
    ({"LANGUAGE": "kn"}, "en"),  # ... and when no locale is set at all
    ({"LANGUAGE": "fr:de", "LANG": "te_IN.UTF-8"}, "te"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
]


@pytest.mark.parametrize("env,expected", CASES)
def test_the_language_follows_unokart_lang_then_gettexts_order(env, expected, monkeypatch):
    for name in ("UNOKART_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert current_language() == expected

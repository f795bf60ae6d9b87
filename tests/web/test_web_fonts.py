"""The browser reads every language on a machine without fonts: the package ships them (issue 14).

First the files themselves (fontTools reads the WOFF2 subsets): every character of
every catalogue has a glyph in a shipped font, Sindhi's ۾ and ۽ included, each file
is declared in fonts.css with its range, and the licence is beside them. Then
Chromium with a fontconfig that lists one Latin-only font and nothing else (so the
machine's own fonts, whatever they are, play no part): on the lobby in each language, at the
three sizes, document.fonts.check() holds for each shipped family with a sample
of its script, and the fonts came from this server.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from unokart.i18n import LANGUAGES, catalogue

from helpers.web import SIZES

WEB = Path(__file__).resolve().parents[2] / "src" / "unokart" / "web"
FONTS = WEB / "fonts"
# Each shipped family and a sample of what it must draw.
SAMPLES = {
    "UnoKart Latin": "Round 1: Ann plays",
    "UnoKart Tamil": "தமிழ் அட்டைகள்",
    "UnoKart Kannada": "ಕನ್ನಡ ಕಾರ್ಡ್‌ಗಳು",
    "UnoKart Telugu": "తెలుగు కార్డులు",
    "UnoKart Arabic": "سنڌي ۾ ۽ ڪارڊ",
    "UnoKart Symbols": "\u25B2\u25CF\u25A0\u25C6",  # the colours' shapes; the arrows' face loads where arrows show (the table)
}


def shipped_cmap() -> dict[int, str]:
    """Every code point a shipped font draws, with the file that draws it."""
    drawn: dict[int, str] = {}
    for path in sorted(FONTS.glob("*.woff2")):
        for code in TTFont(path).getBestCmap():
            drawn.setdefault(code, path.name)
    return drawn


def test_the_fonts_are_small_licensed_and_declared_with_their_ranges():
    files = sorted(FONTS.glob("*.woff2"))
    assert len(files) >= 6
    total = sum(path.stat().st_size for path in files)
    assert total < 1_500_000, f"{total:,} bytes of fonts"
    licence = (FONTS / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Google" in licence
    css = (WEB / "fonts.css").read_text()
    for path in files:
        face = re.search(r"@font-face \{[^}]*" + re.escape(path.name) + r"[^}]*\}", css)
        assert face and "unicode-range" in face.group(0), f"{path.name} is not declared with a unicode-range"
        assert "licensed under the SIL Open Font License" in " ".join(
            record.toUnicode() for record in TTFont(path)["name"].names if record.nameID == 13), f"{path.name} lost its licence record"
    index = (WEB / "index.html").read_text()
    assert "/static/fonts.css" in index


def test_sindhi_letters_are_in_the_arabic_font():
    cmap = TTFont(FONTS / "unokart-arabic-400.woff2").getBestCmap()
    for letter in "\u06FD\u06FE\u068C\u06AA\u067D\u0683\u06BE":  # ۽ ۾ ڌ ڪ ٽ ڃ ھ
        assert ord(letter) in cmap, f"U+{ord(letter):04X} {unicodedata.name(letter)}"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_character_of_the_catalogue_has_a_shipped_glyph(lang):
    drawn = shipped_cmap()
    missing = {}
    for key, text in catalogue(lang).items():
        for ch in text:
            if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") or ord(ch) in drawn:
                continue
            missing.setdefault(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}", key)
    assert not missing, f"{lang}: no shipped font draws {missing}"


def test_the_test_machine_has_no_font_for_the_four_scripts(no_fonts):
    env = {"FONTCONFIG_FILE": str(no_fonts), "PATH": "/usr/bin:/bin"}
    listed = subprocess.run(["fc-list", "--format", "%{file}\\n"], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert len(listed) == 1 and listed[0].endswith("latin-only.ttf"), listed
    for letter in ("0B95", "0C95", "0C15", "06FE"):  # Tamil, Kannada, Telugu, Sindhi's ۾
        found = subprocess.run(["fc-list", f":charset={letter}"], env=env, capture_output=True, text=True, check=True).stdout
        assert found.strip() == "", f"a font for U+{letter}: {found}"


def open_lobby(browser, server, lang: str, size: str):
    context = browser.new_context(viewport=SIZES[size])
    context.add_init_script(f"localStorage.setItem('unokart.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    fonts: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("request", lambda request: request.url.endswith(".woff2") and fonts.append(request.url))
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby")
    page.wait_for_function("document.fonts.status === 'loaded'")
    page.evaluate("document.fonts.ready.then(() => true)")
    return context, page, errors, fonts


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_machine_without_fonts_reads_the_lobby_in_every_language(fontless_browser, server, shots, lang):
    folder = shots / "i18n"
    folder.mkdir(exist_ok=True)
    for size in SIZES:
        context, page, errors, fonts = open_lobby(fontless_browser, server, lang, size)
        try:
            assert page.get_attribute("html", "dir") == ("rtl" if lang == "sd" else "ltr")
            for family, sample in SAMPLES.items():
                # The language menu names all five languages, so every script's face is in use on every page.
                assert page.evaluate("([family, sample]) => document.fonts.check(`16px \"${family}\"`, sample)", [family, sample]), \
                    f"{lang} {size}: {family} cannot draw {sample!r}"
            loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family.replace(/\"/g, ''))")
            assert set(SAMPLES) <= set(loaded), f"{lang} {size}: loaded {sorted(set(loaded))}"
            assert fonts and all(url.startswith(server.url + "/static/fonts/") for url in fonts), fonts
            page.screenshot(path=folder / f"{lang}_{size}_lobby.png")
            assert errors == [], errors
        finally:
            context.close()

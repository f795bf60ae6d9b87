"""Cards on the terminal's screen as the browser shows them: a face on the card's colour, never a code.

A face is the colour's shape (▲ red, ● yellow, ■ green, ◆ blue, ★ wild) and the number or symbol,
so colours are told apart without colour vision; the active colour is its shape and its name in
the player's language. Before: "Top: W+4  colour R red", a hand of "R5 R7".
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from unokart.i18n import t
from unokart.rules import FULL_DECK, card_code
from unokart.tui.cells import cell_width
from unokart.tui.render import COLOR_SHAPE, face

from helpers.tui import ARTIFACTS, Tmux, flat, notation_codes

APP = f"{sys.executable} {Path(__file__).with_name('tmux_app.py')}"


def test_every_card_has_a_face_with_its_colours_shape_and_no_code():
    codes = sorted({card_code(f) for f in FULL_DECK})
    faces = {code: face(code) for code in codes}
    assert len(set(faces.values())) == len(codes), "two cards share a face"
    for code, shown in faces.items():
        assert shown.startswith(COLOR_SHAPE[code[0]]), (code, shown)
        assert cell_width(shown) <= 3 and notation_codes(shown) == [], (code, shown)
    assert len(set(COLOR_SHAPE.values())) == 5


def test_the_code_finder_finds_codes_and_spares_rule_ids():
    assert notation_codes("Top: Y+2  hand R0 R4 YR W+4 WIB BS") == ["Y+2", "R0", "R4", "YR", "W+4", "WIB", "BS"]
    assert notation_codes("Rule R4.1 · ? shows the rules  RED 5  UNO!  ▲5 ★+4") == []


@pytest.mark.parametrize("lang", ["en", "ta", "kn", "te", "sd"])
def test_the_table_shows_faces_and_the_colour_by_shape_and_name(lang):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    term = Tmux(f"{APP} challenge", {"UNOKART_LANG": lang})
    try:
        # Luigi opened with a Wild Draw Four and chose red; Ann holds red 5 and red 7.
        screen = term.wait_for(t("tui.prompt.challenge", lang, count=4))
        (ARTIFACTS / f"tmux_{lang}_faces.txt").write_text(screen, encoding="utf-8")
        assert notation_codes(screen) == [], screen
        top = next(line for line in screen.splitlines() if t("tui.top", lang) in line)
        assert "★+4" in top, top
        assert flat(t("tui.active_color", lang, shape="▲", color=t("core.color.R", lang))) in flat(top), top
        hand = screen.rstrip("\n").splitlines()[-2]  # the cards' line, above the keys
        assert "▲5" in hand and "▲7" in hand, hand
    finally:
        term.close()


@pytest.mark.parametrize("lang", ["en", "ta", "kn", "te", "sd"])
def test_the_rules_screen_and_every_terminal_message_hold_no_card_code(lang):
    """The whole rules screen (the walk-through sees its top and its end) and every tui and core message."""
    import re

    from unokart.i18n import catalogue
    from unokart.tui.screens import rules_text

    rules = re.sub(r"(?<!\S)R\d{1,2}(?= )", "", rules_text(lang).plain)  # "R4 Playing a card": a rule's id
    assert notation_codes(rules) == []
    coded = {key: text for key, text in catalogue(lang).items()
             if key.split(".")[0] in ("tui", "core") and notation_codes(text)}
    assert coded == {}

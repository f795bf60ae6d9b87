"""Tamil, Telugu, Kannada and Sindhi in a real 80x24 terminal (tmux 3.3): every text whole, nothing cut.

Each message is compared with the catalogue's own text: a line cut at the right edge, or a word
broken across lines, loses or splits words and no longer matches. Captures are saved in
artifacts/tui/ for people to look at.
"""

from __future__ import annotations

import re
import shutil
import sys
import unicodedata
from pathlib import Path

import pytest

from unokart.i18n import t

from helpers.tui import ARTIFACTS, Tmux, flat

APP = f"{sys.executable} {Path(__file__).with_name('tmux_app.py')}"


def assert_no_stray_marks(screen: str) -> None:
    """No line starts with a vowel sign or virama: a cluster was never split across lines or cut."""
    for line in screen.splitlines():
        text = line.strip()
        assert not text or unicodedata.category(text[0]) not in ("Mn", "Mc"), f"stray mark: {line!r}"


def assert_seat_line(screen: str, seat: int, label: str, cards: str, points: str) -> None:
    """A seat's line holds its name, cards and points, spaces between (the "(நீங்கள்)7" bug)."""
    pattern = rf"{seat} {re.escape(label)} +{re.escape(cards)} +{re.escape(points)}"
    assert any(re.search(pattern, line) for line in screen.splitlines()), (pattern, screen)


@pytest.mark.parametrize("lang", ["ta", "te", "kn", "sd"])
def test_every_line_whole_in_80x24(lang):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    term = Tmux(f"{APP} challenge", {"UNOKART_LANG": lang})
    try:
        # Luigi opened with a Wild Draw Four: the challenge prompt, and Ann may catch Luigi's missing UNO.
        prompt = t("tui.prompt.challenge", lang, count=4)
        status = t("tui.status", lang, round=1, target=500, arrow="↻", direction=t("core.direction.left", lang),
                   turn=t("core.awaiting.challenge", lang, name="Ann"))
        catch = t("tui.prompt.can_catch", lang, names="1 Luigi")
        screen = term.wait_for(prompt, status, catch)
        (ARTIFACTS / f"tmux_{lang}_challenge.txt").write_text(screen, encoding="utf-8")
        for key, label in (("c", "challenge"), ("a", "accept"), ("k", "catch"), ("?", "rules"), ("q", "quit")):
            assert flat(f"{key} {t(f'tui.key.{label}', lang)}") in flat(screen), (label, screen)
        assert_seat_line(screen, 0, "Ann " + t("tui.you", lang), t("tui.cards", lang, count=2),
                         t("tui.points", lang, count=0))
        assert_seat_line(screen, 1, "Luigi", t("tui.cards", lang, count=1), t("tui.points", lang, count=0))
        assert_no_stray_marks(screen)

        term.keys("q")  # mid-game: asked first, in the player's language
        asked = term.wait_for(t("tui.quit.confirm", lang))
        (ARTIFACTS / f"tmux_{lang}_quit.txt").write_text(asked, encoding="utf-8")
        assert_no_stray_marks(asked)
        term.keys("x")
        term.wait_without(t("tui.quit.confirm", lang))

        term.keys("c")  # Luigi held green: the challenge wins, and Ann plays on
        screen = term.wait_for(t("tui.prompt.play", lang))
        term.keys("a")  # nothing to accept now: a sentence, no rule id, no internal verb
        refused = t("tui.error.not_now", lang, shortcut="a", action=t("tui.key.accept", lang),
                    now=t("core.awaiting.play", lang, name="Ann"))
        screen = term.wait_for(refused)
        (ARTIFACTS / f"tmux_{lang}_not_now.txt").write_text(screen, encoding="utf-8")
        assert "accept" not in screen and "R4" not in screen
        assert_no_stray_marks(screen)
    finally:
        term.close()


def visible_text(screen: str) -> str:
    """The rules screen's text above its key line, lines joined as read."""
    lines = [line for line in screen.rstrip("\n").splitlines()]
    return flat("\n".join(lines[:-1]))


@pytest.mark.parametrize("lang", ["en", "ta", "te", "kn", "sd"])
def test_rules_screen_whole_and_every_item_explained(lang):
    """? opens the rules (R1 to R12 and the items) in the player's language; every line whole; Esc goes back."""
    from unokart.tui.screens import ITEMS, rules_text

    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    full = flat(rules_text(lang).plain)
    assert all(flat(t(f"rules.section.{n}.title", lang)) in full for n in range(1, 13))
    term = Tmux(f"{APP} challenge", {"UNOKART_LANG": lang})
    try:
        term.wait_for(t("tui.prompt.challenge", lang, count=4))
        term.keys("?")
        top = term.wait_for(t("rules.title", lang), t("rules.intro", lang))
        (ARTIFACTS / f"tmux_{lang}_rules_top.txt").write_text(top, encoding="utf-8")
        # Contiguous lines joined are a piece of the rules: a line cut at the edge would skip words.
        assert visible_text(top) in full, top
        assert flat(f"Esc {t('tui.key.close', lang)}") in flat(top.splitlines()[-1])
        assert_no_stray_marks(top)
        term.keys("End")
        end = term.wait_for(t(f"rules.item.{ITEMS[-1]}", lang))
        (ARTIFACTS / f"tmux_{lang}_rules_items.txt").write_text(end, encoding="utf-8")
        assert visible_text(end) in full, end
        for item in ITEMS:  # the items explained, each whole
            assert flat(t(f"rules.item.{item}", lang)) in flat(end), item
        assert_no_stray_marks(end)
        term.keys("Escape")
        term.wait_for(t("tui.prompt.challenge", lang, count=4))
        assert term.alive()
    finally:
        term.close()


@pytest.mark.parametrize("lang", ["ta", "te", "kn", "sd"])
def test_a_refused_card_in_the_players_words_with_the_rule_on_a_help_line(lang):
    from tmux_app import SCENARIOS
    from unokart.narrate import describe_refusal
    from unokart.rules import Action, IllegalAction
    from unokart.rules.cards import parse_card

    # The same refusal, from the same position, in the catalogue's words.
    game = SCENARIOS["refusal"]().game
    game.apply("1: play G3")
    try:
        game.apply(Action(0, "play", card=parse_card("R5")))
    except IllegalAction as err:
        refusal, rule = describe_refusal(err, lang, game.names), err.rule
    term = Tmux(f"{APP} refusal", {"UNOKART_LANG": lang})
    try:
        term.wait_for(t("tui.prompt.play", lang), t("tui.cards", lang, count=2))
        term.keys("1", "Enter")
        screen = term.wait_for(refusal, t("tui.rule_help", lang, rule=rule))
        (ARTIFACTS / f"tmux_{lang}_refusal.txt").write_text(screen, encoding="utf-8")
        assert f"{rule} R5" not in screen and "does not match" not in screen
        assert_no_stray_marks(screen)
    finally:
        term.close()


@pytest.mark.parametrize("lang", ["ta", "te", "kn", "sd"])
def test_the_final_summary_whole(lang):
    """Ann goes out and wins the game: the summary's title, headers and keys, each whole."""
    term = Tmux(f"{APP} last_cards", {"UNOKART_LANG": lang})
    try:
        term.wait_for(t("tui.prompt.play", lang))
        term.keys("u", "Enter")  # R5 with UNO (the cursor starts on it: the first playable card)
        term.wait_for(t("core.event.uno", lang, name="Ann"))
        term.wait_for(t("tui.prompt.play", lang))
        term.keys("Enter")  # R6: out
        screen = term.wait_for(t("tui.summary.final", lang, name="Ann", count=9), t("tui.prompt.game_over", lang),
                               t("tui.summary.round", lang, round=1, name="Ann", count=9))
        (ARTIFACTS / f"tmux_{lang}_summary.txt").write_text(screen, encoding="utf-8")
        for header in ("player", "left", "score"):
            assert flat(t(f"tui.summary.{header}", lang)) in flat(screen), header
        assert_no_stray_marks(screen)
        term.keys("q")  # the game is over: q leaves at once
        assert term.wait_closed()
    finally:
        term.close()

"""Sindhi in a terminal: every line aligned to the right, in logical order (issue 22, item 18).

What a terminal does with the letters (reorder them by the bidirectional algorithm or not) is the
terminal's: README.md says which do. What the client decides is tested here in tmux, which keeps
the logical order: each Sindhi line ends at the right edge (the last column stays free), and the
same screen in English starts at the left. Before, Sindhi lines started at the left, as English.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from unokart.i18n import t
from unokart.tui.cells import cell_width

from helpers.tui import ARTIFACTS, Tmux

APP = f"{sys.executable} {Path(__file__).with_name('tmux_app.py')}"
EDGE = 79  # an 80-column terminal, its last column free
SCROLLBAR = 2  # the log's scroll bar, when it shows, takes the right edge's last cells


def text_rows(screen: str) -> list[str]:
    """The rows that hold words (not blank, not a rule line, not a scroll bar)."""
    return [row for row in screen.splitlines()
            if row.strip() and not all("\u2500" <= ch <= "\u259f" or ch == " " for ch in row)]


def ends(row: str) -> int:
    """The cell just past the row's last visible cell; scroll-bar cells at its end left out."""
    return cell_width(row.rstrip().rstrip("\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588\u2580").rstrip())


@pytest.mark.parametrize("keys, wanted", [
    ((), ("tui.prompt.challenge", {"count": 4})),  # the table: status, seats, top card, log, prompt, hand, keys
    (("?",), ("rules.title", {})),  # the rules screen
    (("q",), ("tui.quit.confirm", {})),  # the question before leaving
])
def test_sindhi_lines_end_at_the_right_edge_and_english_lines_start_at_the_left(keys, wanted):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    key, fields = wanted
    screens = {}
    for lang in ("sd", "en"):
        term = Tmux(f"{APP} challenge", {"UNOKART_LANG": lang})
        try:
            term.wait_for(t("tui.prompt.challenge", lang, count=4))
            if keys:
                term.keys(*keys)
            screens[lang] = term.wait_for(t(key, lang, **fields))
        finally:
            term.close()
    (ARTIFACTS / f"tmux_sd_right_aligned_{key}.txt").write_text(screens["sd"], encoding="utf-8")
    for row in text_rows(screens["sd"]):
        assert EDGE - SCROLLBAR - 1 <= ends(row) <= EDGE, f"not at the right edge: {row!r}\n{screens['sd']}"
    starts = [len(row) - len(row.lstrip()) for row in text_rows(screens["en"])]
    assert min(starts) <= 1 and sum(start <= 2 for start in starts) > len(starts) // 2, screens["en"]


@pytest.mark.parametrize("lang", ["sd", "en"])
def test_the_summary_table_is_mirrored_right_to_left(lang):
    """Sindhi's summary reads from the right: the player's column on the right, the score on the left."""
    term = Tmux(f"{APP} last_cards", {"UNOKART_LANG": lang})
    try:
        term.wait_for(t("tui.prompt.play", lang))
        term.keys("u", "Enter")
        term.wait_for(t("core.event.uno", lang, name="Ann"), t("tui.prompt.play", lang))
        term.keys("Enter")
        screen = term.wait_for(t("tui.summary.final", lang, name="Ann", count=9))
    finally:
        term.close()
    player, score = t("tui.summary.player", lang), t("tui.summary.score", lang)
    header = next(row for row in screen.splitlines() if player in row and score in row)
    assert (header.index(player) > header.index(score)) == (lang == "sd"), header
    luigi = next(row for row in screen.splitlines() if re.fullmatch(r"\s*(Luigi +\d+ +\d+|\d+ +\d+ +Luigi)\s*", row))
    assert luigi.rstrip().endswith("Luigi") == (lang == "sd"), luigi

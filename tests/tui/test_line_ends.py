"""A line that ends in a combining mark is drawn whole by tmux (issue 22, item 17).

tmux 3.3 misplaced the final virama of a Tamil status line exactly 80 cells wide: "விடலாம்" read
"விடலா்ம", the mark written after the last column joined the cell before. The screen keeps its
last column free, so no text ever reaches the edge, and every line is at most width - 1 cells.
"""

from __future__ import annotations

import shutil
import sys
import unicodedata
from pathlib import Path

import pytest

from unokart.i18n import t
from unokart.tui.cells import cell_width

from helpers.tui import ARTIFACTS, Tmux, flat

APP = f"{sys.executable} {Path(__file__).with_name('tmux_app.py')}"


def status(lang: str, name: str) -> str:
    return t("tui.status", lang, round=1, target=500, arrow="↻", direction=t("core.direction.left", lang),
             turn=t("core.awaiting.challenge", lang, name=name))


@pytest.mark.parametrize("lang", ["ta", "kn", "te", "sd"])
def test_a_status_line_of_the_full_width_keeps_its_last_mark_in_place(lang):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    name = "P" * (80 - cell_width(status(lang, "")))  # the status is then exactly 80 cells
    line = status(lang, name)
    assert cell_width(line) == 80
    if lang == "ta":  # the case seen: "... விடலாம்" ends in a virama, a mark of no width
        assert unicodedata.category(line[-1]) == "Mn"
    term = Tmux(f"{APP} challenge {name}", {"UNOKART_LANG": lang})
    try:
        screen = term.wait_for(t("tui.prompt.challenge", lang, count=4))
        (ARTIFACTS / f"tmux_{lang}_status_80.txt").write_text(screen, encoding="utf-8")
        assert flat(line) in flat(screen), screen
        for row in screen.splitlines():
            assert cell_width(row.rstrip()) <= 79, row  # the last column stays free
    finally:
        term.close()

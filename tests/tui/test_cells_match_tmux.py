"""The client's text width is the width tmux 3.3 gives the same text, for every line of the catalogue.

Every message of the tui, core and rules domains in Tamil, Telugu, Kannada and Sindhi is printed
in a real tmux pane; the terminal reports where its cursor ends (DSR), and that column must be the
width ``unokart.tui.cells`` measures. Rich's own measure (spacing vowel signs as 0 cells) fails this.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

from unokart.i18n import catalogue
from unokart.rules import FULL_DECK, card_code
from unokart.tui.cells import cell_width
from unokart.tui.render import face

from helpers.tui import Tmux

PROBE = Path(__file__).with_name("tmux_probe.py")


def catalogue_lines() -> list[str]:
    lines = set()
    for lang in ("ta", "te", "kn", "sd"):
        for key, text in catalogue(lang).items():
            if key.split(".")[0] in ("tui", "core", "rules"):
                lines.update(line for line in text.splitlines() if line.strip())
    # Every card face (shape and symbol: ▲ ● ■ ◆ ★ ⊘ ⇄) as the hand draws it.
    lines.add(" ".join(face(card_code(f)) for f in sorted(set(FULL_DECK))))
    return sorted(lines)


def test_widths_match_tmux(tmp_path):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    texts = catalogue_lines()
    assert len(texts) > 500
    widest = max(map(cell_width, texts))
    (tmp_path / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    out = tmp_path / "widths.json"
    # A pane wider than every text, so no line wraps and the cursor column is the width.
    term = Tmux(f"{sys.executable} {PROBE} {tmp_path / 'texts.json'} {out}", {}, width=widest + 10, height=5)
    try:
        for _ in range(600):
            if out.exists():
                break
            time.sleep(0.1)
        assert out.exists(), "the probe did not finish:\n" + term.screen()
    finally:
        term.close()
    tmux_widths = json.loads(out.read_text())
    wrong = [(text, mine, theirs) for text, mine, theirs in zip(texts, map(cell_width, texts), tmux_widths)
             if mine != theirs]
    assert wrong == [], wrong[:5]

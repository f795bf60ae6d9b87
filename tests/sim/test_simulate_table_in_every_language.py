"""simulate's table in every language fits 80 terminal cells, its headers wrapped between letters, never inside one."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

import pytest

from unokart.i18n import LANGUAGES, t
from unokart.tui.cells import cell_width


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_fits_80_cells_as_a_terminal_draws_it(lang):
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "simulate", "--bots", "heuristic,random,easy",
                           "--games", "3", "--lang", lang], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == t("sim.title", lang, games=3, players=3, seed=1)
    table = lines[2:lines.index("") if "" in lines[2:] else None]
    assert any("─" in line for line in table)
    for line in table:
        assert cell_width(line) <= 80, (lang, cell_width(line), line)
        for word in line.split():
            # a word that starts with a vowel sign or virama was cut inside a letter
            assert not unicodedata.category(word[0]).startswith("M"), (lang, line)
    headers = " ".join(table[:[i for i, line in enumerate(table) if "─" in line][0]])
    assert t("sim.col.win", lang).split()[0] in headers

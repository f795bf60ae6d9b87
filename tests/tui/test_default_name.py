"""The name of a player who gives none is "Player" in their own language (issue 22, item 16).

Before, every language sat an English "Player" at the table: "0 Player (நீங்கள்)".
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import t
from unokart.tui.remote import RemoteTable, SeatStore

from helpers.tui import ARTIFACTS, Tmux, flat

UNOKART = str(Path(sys.executable).with_name("unokart"))
NAMES = {"en": "Player", "ta": "வீரர்", "kn": "ಆಟಗಾರ", "te": "ఆటగాడు", "sd": "رانديگر"}


@pytest.mark.parametrize("lang", ["ta", "kn", "te", "sd"])
def test_a_local_game_without_name_seats_player_in_the_language(lang):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    term = Tmux(f"{UNOKART} play --players 2 --seed 5 --delay 0.2", {"UNOKART_LANG": lang})
    try:
        you = f"0 {NAMES[lang]} {t('tui.you', lang)}"
        screen = term.wait_for(you)
        (ARTIFACTS / f"tmux_{lang}_default_name.txt").write_text(screen, encoding="utf-8")
        assert t("tui.default_name", lang) == NAMES[lang]
        assert "Player" not in screen, screen
    finally:
        term.close()


@pytest.mark.parametrize("lang", ["en", "ta", "kn", "te", "sd"])
def test_a_join_without_name_asks_for_player_in_the_language(lang, tmp_path, monkeypatch):
    monkeypatch.setenv("UNOKART_LANG", lang)
    table = RemoteTable("http://127.0.0.1:8000", "ABCDEF", None, SeatStore(tmp_path / "seats.json"))
    assert table.name == NAMES[lang]


@pytest.mark.parametrize("lang", ["ta", "kn", "te", "sd"])
def test_the_help_names_the_default_in_the_language(lang):
    env = {"UNOKART_LANG": "en", "COLUMNS": "200", "TERM": "dumb"}  # --lang sets UNOKART_LANG: the runner puts it back
    result = CliRunner().invoke(app, ["play", "--help", "--lang", lang], env=env)
    assert result.exit_code == 0, result.output
    shown = flat(result.stdout.replace("│", " "))
    assert flat(t("tui.help.name", lang, default=NAMES[lang])) in shown, shown
    assert "Player" not in shown

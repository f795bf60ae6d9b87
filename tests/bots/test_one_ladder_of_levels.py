"""One ladder of levels (``unokart.levels.LADDER``), named the same way by every face, in every language:
the browser's lobby and waiting room, the server's seats, ``unokart play --bots``, ``simulate``."""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from unokart.i18n import LANGUAGES, t
from unokart.levels import LADDER, BotLevel, ladder_text, level_label, level_name
from unokart.sim.cli import table_lines
from unokart.tui.local import local_table

WEB = Path(__file__).resolve().parents[2] / "src" / "unokart" / "web" / "js"


def test_the_lobby_offers_the_ladder_in_its_order():
    source = (WEB / "lobby.js").read_text(encoding="utf-8")
    offered = re.search(r"export const BOT_LEVELS = \[([^\]]*)\]", source).group(1)
    assert json.loads(f"[{offered}]") == list(LADDER)
    # both menus name each level as the table and the replay do (levelName), not by a key of their own
    for menu in (WEB / "lobby.js", WEB / "views" / "waiting.js"):
        text = menu.read_text(encoding="utf-8")
        assert "levelName(" in text and "web.level.${" not in text, menu


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_level_has_its_own_name_in_every_language(lang):
    names = [level_name(level, lang) for level in LADDER]
    assert len(set(names)) == len(LADDER), names  # no two levels read alike
    assert all(name and name not in LADDER for name in names if name != "easy"), names  # words, not codes
    if lang != "en":  # translated, not the English words
        assert not set(names) & {level_name(level, "en") for level in LADDER}, names
    assert level_name("ismcts:200", lang) == f"{level_name('ismcts', lang)}:200"  # a budget is kept
    assert level_name("policy:baseline", lang) == "policy:baseline"  # only the shipped ladder's policy is named


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_help_of_play_and_simulate_lists_the_ladder_weakest_first(lang):
    text = ladder_text(lang)
    positions = [text.index(level_label(level, lang)) for level in LADDER]
    assert positions == sorted(positions)
    if lang == "sd":  # listed as Sindhi lists: its own comma, never the Latin one
        assert ", " not in text and "، " in text
    assert t("tui.help.bots", lang, default="heuristic", ladder=text).count(text) == 1


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_play_names_each_bot_by_its_level(lang, monkeypatch):
    monkeypatch.setenv("UNOKART_LANG", lang)
    game = local_table(len(LADDER) + 1, ",".join(LADDER), "Ann", 1, {}, 0).game
    for seat, level in enumerate(LADDER, 1):
        assert level_name(level, lang) in game.names[seat], (level, game.names)


def test_simulate_names_each_level_as_players_see_it():
    bots = [{"name": level, "seats": 1, "win_rate": 0.5, "ci95": [0.4, 0.6], "round_win_rate": 0.5,
             "points_per_round": 50.0, "decision_ms": 1.0, "rating": {"ordinal": 1.0}} for level in LADDER]
    text = "\n".join(table_lines({"games": 10, "players": 6, "seed": 1, "bots": bots}))
    for level in LADDER:
        assert level_label(level) in text
    assert all(BotLevel.parse(level) for level in LADDER)  # each one a level the grammar reads


def test_a_served_table_seats_and_plays_every_level_of_the_ladder(tmp_path):
    """A real ``unokart serve``: the lobby's levels are all accepted and play a game to its end."""
    from helpers.server import Server

    server = Server(tmp_path / "unokart.sqlite")
    try:
        bots = {str(seat): level for seat, level in enumerate(LADDER)}
        table = server.create(seats=len(LADDER), bots=bots, start=True, options={"target_score": 60})
        assert [seat["level"] for seat in table["table"]["seats"]] == list(LADDER)
        for seat, level in zip(table["table"]["seats"], LADDER):
            assert level_name(level, "en") in seat["name"]  # the server names a bot by the ladder's word
        status = table["table"]["status"]
        for _ in range(1200):  # bots without delay: a short game takes seconds, on a loaded machine longer
            status = httpx.get(f"{server.url}/api/tables/{table['code']}").json()["status"]
            if status == "game_over":
                break
            time.sleep(0.1)
        assert status == "game_over"
        assert "Traceback" not in server.errors_logged()
    finally:
        server.stop()

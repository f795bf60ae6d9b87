"""Every face that tells of cards says them in words, in the reader's language: never a card code."""

from __future__ import annotations

import re

import pytest

from unokart.i18n import LANGUAGES
from unokart.narrate import card_name, cards_text, describe_event
from unokart.rules import Game

CODE = re.compile(r"\b(?:[RGBY](?:\d|S|R|\+2)|W\+4|WIB)\b")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_private_event_names_the_cards_in_words(lang):
    event = {"type": "deal", "seat": 0, "cards": ["R5", "BS", "W+4", "WIB", "G+2"]}
    text = describe_event(event, ["Ann", "Bob"], lang, viewer=0)
    assert not CODE.search(text), text
    for code in event["cards"]:
        assert card_name(code, lang) in text


def test_a_list_of_cards_is_joined_as_the_language_writes_a_list():
    assert cards_text(["R5", "B7", "WIB"], "en") == "red 5, blue 7, and Wild Item Box"
    assert cards_text(["R5", "B7"], "sd").count("\u06fd") == 1  # Sindhi's "and" (۽) joins the last two
    assert cards_text([], "en") == "-"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_told_to_a_seat_holds_no_card_code(lang):
    game = Game.new(players=3, seed=11)
    for _ in range(2000):
        if game.awaiting in ("round_over", "game_over"):
            break
        game.apply(game.legal_actions()[0])
    events = game.events_for(0)
    told = [line for event in events if (line := describe_event(event, ["Ann", "Bob", "Cy"], lang, viewer=0))]
    assert {"deal", "drew"} <= {event["type"] for event in events}
    assert told and not [line for line in told if CODE.search(line)]


def test_watch_says_the_top_card_in_words():
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "unokart.cli", "watch", "--players", "2", "--rounds", "1"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "400"})
    assert done.returncode == 0, done.stderr
    turns = [line for line in done.stdout.splitlines() if "), top card " in line]
    assert turns
    for line in turns:
        top = line.split("), top card ")[1]
        assert not CODE.fullmatch(top) and re.match(r"(red|blue|green|yellow) |Wild ", top), line

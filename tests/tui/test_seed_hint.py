"""The hint after a local game names a command that deals the same game again, with every choice that shapes it."""

from __future__ import annotations

import shlex

import typer

from unokart.cli import app
from unokart.tui.cli import same_game_command


def parsed(command: str) -> dict:
    """The play command's values for ``command``, as its parser reads them (nothing is run)."""
    words = shlex.split(command)
    assert words[:2] == ["unokart", "play"]
    play = typer.main.get_command(app).commands["play"]
    return play.make_context("play", words[2:]).params


def test_the_hint_repeats_the_players_bots_house_rules_and_target():
    command = same_game_command(3, 2, "ismcts,random", ["hand_size=1", "stacking=on"], 1)
    params = parsed(command)
    assert (params["seed"], params["players"], params["bots"], params["option"], params["target"]) == \
        (3, 2, "ismcts,random", ["hand_size=1", "stacking=on"], 1)


def test_a_game_with_the_defaults_is_dealt_again_by_the_seed_alone():
    assert same_game_command(7, 4, "heuristic", [], None) == "unokart play --seed 7"
    assert parsed("unokart play --seed 7")["players"] == 4

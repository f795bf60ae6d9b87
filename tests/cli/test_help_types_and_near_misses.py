"""Every command's type hints in the help are in the user's language, and a near miss is one sentence.

Issue 22, item 19. Before: ``simulate --help --lang te`` was Telugu around English hints
(``<str>``, ``<int>``, ``<path>``, ``<bool>`` beside a flag, ``[1<=x<=10000000]``), and
``simulate --gamez 3 --lang kn`` printed two sentences: the error, then "did you mean --games?".
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import LANGUAGES, t

COMMANDS = ("play", "replay", "serve", "simulate", "verify", "watch")
# Typer's own hints: "<int>", "<list[str]>", "<float range>"; its ranges: "1<=x<=10000000", "x>=0.0".
ENGLISH_HINT = re.compile(r"<(?:str|int|float|bool|path|file|list\[\w+\]|int range|float range)>")
RANGE = re.compile(r"x\s*[<>]=|<=\s*x")
SENTENCE_END = re.compile(r"[.?!؟۔।](?=\s|$)")


def invoke(*args: str):
    # COLUMNS wide enough that no hint wraps; UNOKART_LANG is put back after (--lang sets it)
    return CliRunner().invoke(app, list(args), env={"UNOKART_LANG": "en", "COLUMNS": "240", "TERM": "dumb"})


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_type_hints_are_in_the_language(command, lang):
    result = invoke(command, "--help", "--lang", lang)
    assert result.exit_code == 0, result.output
    assert RANGE.findall(result.stdout) == [] and "<bool>" not in result.stdout, result.stdout
    if lang != "en":
        assert ENGLISH_HINT.findall(result.stdout) == [], result.stdout
        assert " PORT " not in result.stdout and "<URL>" not in result.stdout, result.stdout


@pytest.mark.parametrize("lang", LANGUAGES)
def test_simulate_names_whole_numbers_paths_and_the_range_in_the_language(lang):
    shown = flat(invoke("simulate", "--help", "--lang", lang).stdout)
    for key in ("text", "whole_number", "path", "repeated"):
        assert f"<{t(f'cli.help.type.{key}', lang)}>" in shown, (key, shown)
    assert flat(t("cli.help.range.between", lang, min="1", max="10000000")) in shown, shown
    serve = flat(invoke("serve", "--help", "--lang", lang).stdout)
    assert flat(t("cli.help.range.at_least", lang, min="0")) in serve  # --grace: 0 seconds or more
    assert f"<{t('cli.help.metavar.port', lang)}>" in serve


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_unknown_option_with_a_suggestion_is_one_sentence(lang):
    result = invoke("simulate", "--gamez", "3", "--lang", lang)
    assert result.exit_code == 2 and result.stdout == ""
    message = t("cli.usage.no_such_option_meant", lang, option="--gamez", options="--games")
    assert result.stderr == t("cli.error", lang, message=message) + "\n"
    assert len(SENTENCE_END.findall(message)) == 1 and SENTENCE_END.search(message).end() == len(message), message

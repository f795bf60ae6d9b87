"""Every command's help and argument errors in the user's language, chosen with --lang anywhere on the line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import LANGUAGES, t

COMMANDS = {"replay": "cli.help.replay", "watch": "cli.help.watch", "simulate": "sim.help.simulate",
            "serve": "server.help.serve", "verify": "server.help.verify", "play": "tui.help.play",
            "backup": "server.help.backup"}


def flat(text: str) -> str:
    """Runs of white space made one, box lines dropped: help text wraps where the terminal is narrow."""
    return " ".join(text.replace("│", " ").split())


def invoke(*args: str):
    # UNOKART_LANG given to the runner is put back after the call (--lang sets it for the process)
    return CliRunner().invoke(app, list(args), env={"UNOKART_LANG": "en", "COLUMNS": "200", "TERM": "dumb"})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_is_in_the_chosen_language(command, lang):
    for line in (("--lang", lang, command, "--help"), (command, "--lang", lang, "--help")):
        result = invoke(*line)
        assert result.exit_code == 0, result.output
        shown = flat(result.stdout)
        for key in (COMMANDS[command], "cli.usage", "cli.help.options_metavar"):
            assert flat(t(key, lang)) in shown, (line, key, result.stdout)
        if lang != "en":
            assert "Usage:" not in shown and "[OPTIONS]" not in shown and "Show this message" not in shown
            assert flat(t(COMMANDS[command], "en")) not in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_help_text_is_cut_short_in_an_80_column_terminal(lang):
    for command in COMMANDS:
        result = CliRunner().invoke(app, ["--lang", lang, command, "--help"], env={"UNOKART_LANG": "en", "COLUMNS": "80", "TERM": "dumb"})
        assert result.exit_code == 0 and "…" not in result.stdout, (command, result.stdout)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_commands_own_words_come_from_the_catalogue(lang):
    shown = flat(invoke("--lang", lang, "simulate", "--help").stdout)
    assert t("cli.help.options_panel", lang) in shown
    assert flat(t("cli.help.default", lang, default="100")) in shown
    assert flat(t("cli.help.help", lang)) in shown


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("args,key,fields", [
    (["simulate", "--qqqqq"], "cli.usage.no_such_option", {"option": "--qqqqq"}),  # no near miss
    (["simulate", "--games", "abc"], "cli.usage.not_whole_number", {"option": "--games"}),
    (["simulate", "--bots"], "cli.usage.needs_value", {"option": "--bots"}),
    (["watch", "--players", "1"], "cli.usage.range.between", {"option": "--players", "min": "2", "max": "10"}),
    (["watch", "--delay", "nan"], "cli.usage.range.between", {"option": "--delay", "min": "0", "max": "60"}),
    (["watch", "--rounds", "-1"], "cli.usage.range.at_least", {"option": "--rounds", "min": "0"}),
    (["replay", "a.json", "b.json"], "cli.usage.extra_arguments", {"args": "b.json"}),
    (["nosuch"], "cli.usage.no_such_command",
     {"name": "nosuch", "commands": "backup, play, replay, serve, simulate, verify, watch"}),
])
def test_an_argument_error_is_one_sentence_in_the_language_and_exit_2(args, key, fields, lang):
    result = invoke("--lang", lang, *args)
    assert result.exit_code == 2
    sentence = t("cli.error", lang, message=t(key, lang, **fields))
    assert result.stderr.startswith(sentence), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_arguments_are_named_in_the_language_in_usage_lines_and_errors(lang):
    record = t("cli.help.argument.record", lang)
    result = invoke("--lang", lang, "replay")
    assert result.exit_code == 2
    assert result.stderr == t("cli.error", lang, message=t("cli.usage.missing_argument", lang, name=record)) + "\n"
    usage = flat(invoke("--lang", lang, "replay", "--help").stdout)
    assert f"{t('cli.help.options_metavar', lang)} {record}" in usage and "{" not in usage, usage
    usage = flat(invoke("--lang", lang, "backup", "--help").stdout)
    assert t("cli.help.argument.copy", lang) in usage and "{" not in usage, usage
    root = flat(invoke("--lang", lang, "--help").stdout)
    assert flat(t("cli.help.command_metavar", lang)) in root
    if lang != "en":
        assert "COMMAND" not in root and "RECORD" not in usage


@pytest.mark.parametrize("command", COMMANDS)
def test_minus_h_is_every_commands_help(command):
    result = invoke(command, "-h")
    assert result.exit_code == 0, result.output
    assert flat(t(COMMANDS[command], "en")) in flat(result.stdout)


def test_the_version_is_told_by_the_command_and_by_python_minus_m():
    from unokart import __version__
    assert invoke("--version").stdout == f"unokart {__version__}\n"
    done = subprocess.run([sys.executable, "-m", "unokart", "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"unokart {__version__}\n"), done.stderr


def test_a_near_miss_names_the_option_meant():
    result = invoke("simulate", "--gmaes", "3")
    assert result.stderr == t("cli.error", "en", message=t("cli.usage.no_such_option_meant", "en", option="--gmaes",
                                                           options="--games or --players")) + "\n"


def test_an_unknown_language_anywhere_on_the_line_is_one_sentence():
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "simulate", "--lang", "xx"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "error: " + t("tui.error.lang", "en", code="xx", languages=", ".join(LANGUAGES)) + "\n"


def test_the_installed_command_reads_lang_before_making_its_help():
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "verify", "--help", "--lang", "ta"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "UNOKART_LANG": "en", "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert flat(t("server.help.verify", "ta")) in flat(done.stdout)

"""``unokart play`` refuses bad arguments with one clear sentence and exit code 2, before any screen opens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

UNOKART = str(Path(sys.executable).with_name("unokart"))


def play(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([UNOKART, "play", *args], capture_output=True, text=True, timeout=60)


def test_bad_local_arguments_are_named():
    cases = {
        ("--bots", "nobody"): "error: Bad bot level: unknown bot 'nobody'",
        ("--bots", " , "): "error: Bad bot level: --bots needs at least one bot level",
        ("-o", "bogus"): "error: Bad house rule: There is no house rule named 'bogus'",
        ("-o", "hand_size=20", "--players", "6"): "error: Bad house rule: R3.2 6 hands of 20 cards do not fit",
        ("--players", "11"): "error: R2.1 A game has 2 to 10 players, not 11.",  # as replay and simulate say it
        ("--target", "99999"): "error: Bad house rule: the target score (--target or -o target_score) is from 1 to 5,000",
        ("-o", "target_score=6000"): "error: Bad house rule: the target score (--target or -o target_score) is from 1 to 5,000",
    }
    for args, start in cases.items():
        result = play(*args)
        assert result.returncode == 2 and result.stderr.startswith(start), (args, result.stderr)
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_bad_bot_level_is_refused_whole_in_the_users_language():
    from unokart.i18n import t

    reason = t("core.level.budget", "ta", budget="'0500'", problem=t("core.level.problem.leading_zeros", "ta"))
    result = play("--bots", "ismcts:0500", "--lang", "ta")
    assert result.returncode == 2 and result.stderr.strip().endswith(t("tui.error.bad_bot", "ta", reason=reason)), result.stderr
    assert "leading zeros" not in result.stderr and "…" not in result.stderr


def help_text(*args: str, **env: str) -> str:
    base = {"PATH": "/usr/bin:/bin", "COLUMNS": "100", "HOME": "/nonexistent"}
    result = subprocess.run([UNOKART, "play", *args], capture_output=True, text=True, timeout=60, env={**base, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_help_in_the_users_language_from_lang_or_the_locale():
    from unokart.i18n import t

    from helpers.tui import flat

    for lang, text in (("ta", help_text("--lang", "ta", "--help")),
                       ("te", help_text("--help", LANG="te_IN.UTF-8")),
                       ("kn", help_text("-h", LC_ALL="kn_IN.UTF-8", LANG="ta_IN.UTF-8")),
                       ("sd", help_text("--help", UNOKART_LANG="sd", LANG="ta_IN.UTF-8"))):
        shown = flat(text)
        for key, fields in (("tui.help.play", {}), ("tui.help.players", {"default": 4}), ("tui.help.join", {}),
                            ("cli.help.help", {}), ("cli.usage", {}), ("cli.help.options_metavar", {}),
                            ("tui.help.options", {})):
            assert flat(t(key, lang, **fields)) in shown, (lang, key, text)
        assert "Show this message" not in text and "Number of players" not in text and "Usage" not in text


def test_an_unknown_language_is_one_sentence():
    result = play("--lang", "fr")
    assert result.returncode == 2
    assert result.stderr == "error: Unknown language fr: choose one of en, ta, kn, te, sd.\n"


def test_tamil_help_fits_an_80_column_terminal():
    """The help's box, drawn in tmux: every line starts and ends with its border (nothing wrapped past it)."""
    from helpers.tui import Tmux

    term = Tmux(f"sh -c '{UNOKART} play --lang ta --help; sleep 60'", {"COLUMNS": "80"})
    try:
        term.wait_for("UNOKART_CONFIG_DIR")
        lines = [line.rstrip() for line in term.history().splitlines()]
        box = lines[next(i for i, line in enumerate(lines) if line.startswith("╭")):]
        box = box[:next(i for i, line in enumerate(box) if line.startswith("╰")) + 1]
        assert len(box) > 10
        for line in box:
            assert line[0] in "╭│╰" and line[-1] in "╮│╯", line
    finally:
        term.close()


def test_a_bad_name_is_refused_with_the_servers_sentence_before_the_game_opens():
    from unokart.i18n import t

    cases = {"Ada\x14": t("server.error.bad_name_control", char="U+0014"),
             "\u2800\u2800": t("server.error.name_blank"),
             "x" * 25: t("server.error.name_too_long", limit=24, length=25)}
    for name, sentence in cases.items():
        result = play("--name", name)
        assert result.returncode == 2 and result.stderr == f"error: {sentence}\n", (name, result.stderr)


def test_the_terminal_client_loads_no_server_module_nor_pydantic():
    code = ("import sys, unokart.tui.cli, unokart.tui.remote, unokart.names; "
            "print(sorted(m for m in sys.modules if m == 'pydantic' or m.startswith('unokart.server')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == "[]\n", result.stderr


def test_play_without_a_terminal_says_it_needs_one_instead_of_drawing_into_a_pipe():
    from unokart.i18n import t

    result = subprocess.run([sys.executable, "-m", "unokart.cli", "play", "--lang", "te", "--seed", "1"], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr == t("cli.error", "te", message=t("tui.error.no_terminal", "te")) + "\n"
    assert result.stdout == ""

"""``unokart simulate`` refuses out-of-range numbers and a one-bot table in words about what the user typed,
before any game (exit code 2, the catalogue's sentence in every language)."""

import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import LANGUAGES, t
from unokart.rules.options import MAX_TARGET_SCORE


def simulate(*args, lang="en"):
    return CliRunner().invoke(app, ["simulate", *args], env={"UNOKART_LANG": lang})


def refused(result, message):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and not result.stdout  # one sentence, before any game (no progress bar)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_listed_bot_is_said_as_one_bot_not_as_a_one_player_table(lang):
    result = simulate("--bots", "heuristic", lang=lang)
    refused(result, t("sim.error.one_bot", lang, bot=t("web.level.heuristic", lang) + " (heuristic)"))
    assert "R2.1" not in result.stderr  # the user never said 1 player


def test_one_bot_with_players_plays_and_players_1_is_still_the_rule():
    refused(simulate("--bots", "heuristic", "--players", "1"), "R2.1")


@pytest.mark.parametrize("games", ["99999999999999999999999", "10000001", "0"])
def test_games_beyond_ten_million_or_below_one_are_refused_with_the_range(games):
    refused(simulate("--bots", "random,random", "--games", games),
            t("sim.error.games", games=int(games), limit="10,000,000"))


@pytest.mark.parametrize("args, target", [(["--target", "99999999999"], 99999999999),
                                          (["-o", f"target_score={MAX_TARGET_SCORE + 1}"], MAX_TARGET_SCORE + 1)])
def test_a_target_score_beyond_the_servers_bound_is_refused(args, target):
    refused(simulate("--bots", "random,random", *args),
            t("sim.error.target", target=target, limit=f"{MAX_TARGET_SCORE:,}"))


@pytest.mark.parametrize("jobs", ["100000", "0"])
def test_jobs_beyond_256_processes_or_below_one_are_refused_with_the_range(jobs):
    # 100,000 was handed to multiprocessing.Pool, which would have forked that many processes
    refused(simulate("--bots", "random,random", "--jobs", jobs), t("sim.error.jobs", jobs=int(jobs), limit=256))

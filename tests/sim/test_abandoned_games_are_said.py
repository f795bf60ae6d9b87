"""``unokart simulate`` says how many games a looping round ended at the cap of decisions: the real command,
two policies that never play a card they may keep (so no round ends), the catalogue's ``sim.abandoned`` line."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from unokart.env.actions import DECLINE, N_ACTIONS
from unokart.bots.policy import FORMAT, NumpyPolicy
from unokart.env.observation import OBS_SIZE
from unokart.i18n import t
from unokart.sim.match import MAX_DECISIONS

DRAW, PASS, ACCEPT = 218, 219, 221  # docs/ENV.md's action indices
CAP = 3_000  # --max-decisions: far above a real round, far below the default (so the test is quick)


def hoarder(path):
    """A policy file whose logits ignore the observation: decline out of turn, else draw, pass, accept, and a
    card only when nothing else is legal. Two of them heads-up loop until the cap (as the issue's PPO did)."""
    bias = np.zeros(N_ACTIONS, np.float32)
    for index, value in ((DECLINE, 4), (DRAW, 3), (PASS, 2), (ACCEPT, 1)):
        bias[index] = value
    NumpyPolicy([(np.zeros((OBS_SIZE, N_ACTIONS), np.float32), bias)], np.ones(OBS_SIZE, np.float32),
                {"format": FORMAT}).save(path)
    return f"policy:{path}"


@pytest.mark.parametrize("as_json", [False, True])
def test_games_ended_at_the_cap_are_counted_and_said(tmp_path, as_json):
    assert CAP < MAX_DECISIONS
    bots = f"{hoarder(tmp_path / 'a.npz')},{hoarder(tmp_path / 'b.npz')}"
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "simulate", "--bots", bots, "--games", "2",
                           "--seed", "1", "--max-decisions", str(CAP), *(["--json"] if as_json else [])],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "UNOKART_LANG": "en"})
    assert done.returncode == 0, done.stderr
    line = t("sim.abandoned", "en", count=2, games=2, cap=f"{CAP:,}")
    assert line == "2 of 2 games were abandoned when a round reached 3,000 decisions " \
                   "(counted as played and won by nobody)"
    if as_json:  # stdout is the summary alone; the sentence goes to stderr
        summary = json.loads(done.stdout)
        assert summary["games"] == 2 and summary["abandoned"] == 2 and summary["max_decisions"] == CAP
        assert [(b["games_played"], b["games_won"]) for b in summary["bots"]] == [(2, 0), (2, 0)]
        assert line in done.stderr.splitlines()
    else:  # the table, then the sentence: both bots 0.0% of the games won
        lines = done.stdout.splitlines()
        assert lines[-1] == line
        rows = [row.split() for row in lines if row.startswith(("#1 ", "#2 "))]
        assert [row[2] for row in rows] == ["0.0%", "0.0%"]

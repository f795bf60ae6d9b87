"""The shipped ``policy:trained``: a clone of ``careful`` (examples/train_policy.py) fine-tuned by PPO
(examples/train_numpy_ppo.py --init) that plays with numpy alone, says how it was made and what it measured,
and still mostly plays as its teacher does."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from unokart.bots import make_bot
from unokart.bots.policy import PACKAGED_MODELS, NumpyPolicy, known_policies, observation_for
from unokart.sim.match import play_game

MEASURED = Path(__file__).resolve().parents[2] / "docs" / "measurements"


def test_the_trained_policy_ships_by_name_and_says_how_it_was_made(monkeypatch):
    monkeypatch.delenv("UNOKART_MODELS", raising=False)
    path = PACKAGED_MODELS / "trained.npz"
    assert "trained" in known_policies() and path.stat().st_size < 1_000_000
    meta = NumpyPolicy.load(path).meta
    assert meta["teacher"] == "careful" and meta["seed"] == 1 and meta["decisions"] > 500_000 and meta["minutes"] > 0
    assert meta["algorithm"].startswith("behaviour cloning") and "PPO" in meta["algorithm"]
    assert [run["seed"] for run in meta["fine_tuned"]] == [3, 4]  # two PPO runs, the second from the first's file
    assert all(run["steps"] > 1_000_000 for run in meta["fine_tuned"])


def test_its_recorded_strength_is_the_committed_simulation():
    """The numbers in the file's meta are those of the 2,000-game runs committed in docs/measurements:
    the shipped policy's, and those of the clone and the first PPO run it grew from (run when each was shipped)."""
    meta = NumpyPolicy.load(PACKAGED_MODELS / "trained.npz").meta
    for measured, prefix in ((meta["measured"], "policy_trained"), (meta["cloned"]["measured"], "policy_clone"),
                             (meta["fine_tuned"][0]["measured"], "policy_tuned1")):
        for opponent in ("heuristic", "careful"):
            run = json.loads((MEASURED / f"{prefix}_vs_{opponent}.json").read_text())
            mine = next(b for b in run["bots"] if b["name"] == "policy:trained")
            assert run["games"] == measured[f"vs_{opponent}"]["games"] == 2000 and run["abandoned"] == 0
            assert mine["games_won"] == measured[f"vs_{opponent}"]["won"]
    assert meta["measured"]["vs_heuristic"]["ci95"][0] > 0.5  # issue 24's target: beats the heuristic, interval above even
    assert meta["measured"]["vs_careful"]["won"] > meta["cloned"]["measured"]["vs_careful"]["won"]  # PPO paid


def test_it_still_chooses_as_careful_does_on_four_decisions_in_five():
    """Careful's own games, every decision with a choice: the policy's pick against careful's."""
    careful, policy = make_bot("careful"), make_bot("policy:trained")
    agree, asked = [], []

    class Judge:
        name = "careful"

        def choose(self, view, legal, rng):
            action = careful.choose(view, legal, rng)
            if observation_for(view, legal)["action_mask"].sum() > 1:
                asked.append(1)
                agree.append(policy.choose(view, legal, random.Random(0)) == action)
            return action

    for seed in range(6):
        play_game([Judge(), make_bot("heuristic")] if seed % 2 else [make_bot("heuristic"), Judge()], seed=seed)
    assert len(asked) > 1000 and np.mean(agree) > 0.8  # 87.9% for the shipped file (the clone: above 95%)


def test_it_beats_random_in_whole_games():
    bot = make_bot("policy:trained")
    wins = sum(play_game([bot, make_bot("random")] if seed % 2 else [make_bot("random"), bot], seed=seed,
                         options={"target_score": 100}).winner == (0 if seed % 2 else 1) for seed in range(6))
    assert wins >= 5

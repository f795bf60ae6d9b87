"""The Gymnasium single-agent env: the other seats are real bots from unokart.bots."""

import random

import numpy as np
import pytest

from unokart.env import SingleAgentEnv, env
from unokart.rules.cards import FACE_POINTS


def play_round(single: SingleAgentEnv, seed: int):
    obs, info = single.reset(seed=seed)
    rng = random.Random(seed)
    total, decisions = 0.0, 0
    while True:
        assert single.slot.seat == single.seat  # the agent is asked only for its own decisions
        assert np.array_equal(obs["action_mask"].astype(bool), single.action_masks()) and single.action_masks().any()
        legal = np.flatnonzero(single.action_masks())
        obs, reward, terminated, truncated, info = single.step(int(legal[rng.randrange(len(legal))]))
        total += reward
        decisions += 1
        if terminated or truncated:
            return total, decisions, info


@pytest.mark.parametrize("players,opponents,seat", [(2, "heuristic", 1), (4, "easy", 2), (3, ["random", "heuristic"], 0)])
def test_a_round_against_bots_ends_with_the_agents_points(players, opponents, seat):
    single = SingleAgentEnv(players=players, opponents=opponents, seat=seat)
    total, decisions, info = play_round(single, seed=players)
    game = single.game
    winner = info["round_winner"]
    assert winner == game.round_winner is not None and decisions > 0
    left = [sum(FACE_POINTS[f] for f in hand) for hand in game._hands]
    assert total == pytest.approx(sum(left) / 100 if winner == seat else -left[seat] / 100)


def test_same_seed_same_round():
    first = play_round(SingleAgentEnv(players=3, opponents="heuristic"), seed=5)
    second = play_round(SingleAgentEnv(players=3, opponents="heuristic"), seed=5)
    assert first[:2] == second[:2] and first[2]["round_winner"] == second[2]["round_winner"]
    assert np.array_equal(first[2]["action_mask"], second[2]["action_mask"])


def test_an_agent_that_always_draws_rarely_wins_against_heuristic_bots():
    """The bots really play: a seat that never plays a card while it can draw does not go out first."""
    single = SingleAgentEnv(players=2, opponents="heuristic", max_steps=3000)
    from unokart.env.actions import DRAW, PASS

    wins = 0
    for seed in range(5):
        single.reset(seed=seed)
        done = False
        while not done:
            mask = single.action_masks()
            choice = DRAW if mask[DRAW] else PASS if mask[PASS] else int(np.flatnonzero(mask)[0])
            _, _, terminated, truncated, info = single.step(choice)
            done = terminated or truncated
        wins += info.get("round_winner") == 0
    assert wins == 0


def test_rendering_narrates_the_public_events():
    aec = env(players=3, render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert "deals" in text and "first card" in text
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert aec.render()  # the action just taken
    assert "You drew" not in text  # private events stay out

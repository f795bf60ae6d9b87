"""Rewards: per round (points won or lost, R11.1) or per game (win), chosen by an option."""

import random

import numpy as np
import pytest

from unokart.env import raw_env
from unokart.rules.cards import FACE_POINTS


def play_episode(aec, seed: int) -> dict[str, float]:
    """Random masked play to the end; the reward each agent collects."""
    aec.reset(seed=seed)
    rng = random.Random(seed)
    total = {agent: 0.0 for agent in aec.possible_agents}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        total[agent] += reward
        if terminated or truncated:
            aec.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(int(legal[rng.randrange(len(legal))]))
    return total


@pytest.mark.parametrize("players", [2, 4])
def test_round_reward_is_the_points_won_or_lost_in_hundreds(players):
    aec = raw_env(players=players, reward="round")
    total = play_episode(aec, seed=players)
    game = aec.game
    assert game.awaiting in ("round_over", "game_over") and game.round == 1
    left = [sum(FACE_POINTS[f] for f in hand) for hand in game._hands]
    winner = game.round_winner
    for seat, agent in enumerate(aec.possible_agents):
        expected = sum(left) / 100 if seat == winner else -left[seat] / 100
        assert total[agent] == pytest.approx(expected)
    assert game.scores[winner] > 0
    assert total[aec.possible_agents[winner]] == pytest.approx(game.scores[winner] / 100)


def test_reward_scale_multiplies_the_points():
    total = play_episode(raw_env(players=3, reward="round", reward_scale=1.0), seed=9)
    assert max(total.values()) >= 1 and float(max(total.values())).is_integer()


def test_game_reward_is_one_for_the_winner_of_the_whole_game_and_minus_one_for_the_rest():
    aec = raw_env(players=3, reward="game", options={"target_score": 200})
    total = play_episode(aec, seed=1)
    game = aec.game
    assert game.awaiting == "game_over" and game.round > 1  # one episode, several rounds
    assert game.scores[game.game_winner] >= 200
    assert sorted(total.values()) == [-1.0, -1.0, 1.0]
    assert total[aec.possible_agents[game.game_winner]] == 1.0


def test_max_steps_truncates_every_agent_without_reward():
    aec = raw_env(players=4, max_steps=30)
    total = play_episode(aec, seed=3)
    assert aec.steps == 30 and aec.game.awaiting not in ("round_over", "game_over")
    assert set(total.values()) == {0.0}

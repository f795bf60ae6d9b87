"""BatchEnv: many games in one call, decision by decision the same as the per-step envs on the same seeds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from env_helpers import ALL_HOUSE_RULES, TABLES, reference_encode
from unokart.env import BatchEnv, IllegalActionIndex, SingleAgentEnv, raw_env
from unokart.env import batch_core
from unokart.env.actions import DECLINE, N_ACTIONS, action_table
from unokart.env.observation import LAYOUT, OBS_SIZE, encode


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal index in every row (what a researcher's batch loop does)."""
    scores = rng.random(mask.shape)
    return np.where(mask, scores, -1.0).argmax(axis=1)


@pytest.mark.parametrize("players,options", TABLES)
def test_batch_and_aec_agree_decision_by_decision_across_episodes(players, options):
    """Each game of the batch is raw_env on the same seed: same seat, observation, mask, rewards, and the
    same next episode after an autoreset (its seed drawn as raw_env.reset() draws it)."""
    n = 3
    # Plain small tables end rounds within the test; the others end episodes by truncation (also compared).
    max_steps = 100_000 if players <= 3 and options is None else 40
    batch = BatchEnv(num_envs=n, players=players, options=options, seed=7, max_steps=max_steps)
    obs, mask, seat = batch.reset()
    aecs = [raw_env(players=players, options=options, max_steps=max_steps) for _ in range(n)]
    for aec, s in zip(aecs, batch.seeds):
        aec.reset(seed=s)
    rng = np.random.default_rng(players)
    episodes = 0
    for _ in range(300):
        for i, aec in enumerate(aecs):
            agent = aec.agent_selection
            assert seat[i] == aec.agent_seat[agent]
            expected = aec.observe(agent)
            assert np.array_equal(obs[i], expected["observation"])
            assert np.array_equal(mask[i], expected["action_mask"].astype(bool))
        actions = random_actions(mask, rng)
        obs, mask, seat, rewards, done = batch.step(actions)
        for i, aec in enumerate(aecs):
            aec.step(int(actions[i]))
            if done[i]:
                episodes += 1
                assert all(aec.terminations.values()) or all(aec.truncations.values())
                assert list(rewards[i]) == pytest.approx([aec._cumulative_rewards[a] for a in aec.possible_agents])
                aec.reset()  # the batch restarted this game by itself: so does the reference, from its seed source
            else:
                assert not rewards[i].any()
    assert episodes > 0


def test_observation_equals_the_encoded_view_of_the_deciding_seat():
    """The compiled writer's row is encode(game.view(seat)), the encoding every bot and PolicyBot use, and
    the layout written out plainly (reference_encode)."""
    batch = BatchEnv(num_envs=4, players=4, options=ALL_HOUSE_RULES, seed=3)
    obs, mask, seat = batch.reset()
    rng = np.random.default_rng(0)
    for _ in range(400):
        for i, (slot, game) in enumerate(zip(batch.slots, batch.games())):
            view = game.view(int(seat[i]))
            assert np.array_equal(obs[i], encode(view, slot.covered, slot.reacting))
            assert np.array_equal(obs[i], reference_encode(view, slot.covered, slot.reacting))
        obs, mask, seat, _, _ = batch.step(random_actions(mask, rng))


def test_masks_are_exactly_the_legal_actions():
    batch = BatchEnv(num_envs=8, players=5, options={"jump_in": True, "stacking": True}, seed=1)
    obs, mask, seat = batch.reset()
    rng = np.random.default_rng(1)
    index_of = action_table(5)[1]
    for _ in range(300):
        for i, game in enumerate(batch.games()):
            legal = {index_of[a] for a in game.legal_actions(int(seat[i]))}
            if batch.slots[i].reacting:
                legal.add(DECLINE)
            assert set(np.flatnonzero(mask[i])) == legal and legal
        obs, mask, seat, _, _ = batch.step(random_actions(mask, rng))


def test_the_compiled_action_index_matches_the_action_table():
    for players in range(2, 11):
        for action, index in action_table(players)[1].items():
            assert batch_core.action_index(action, players) == index


def test_layout_offsets_of_the_compiled_writer_match_the_observation_layout():
    names = {"hand": "HAND", "top": "TOP", "color": "COLOR", "discard": "DISCARD", "hand_sizes": "SIZES",
             "seated": "SEATED", "scores": "SCORES", "uno_said": "UNO_SAID", "uno_window": "WINDOW",
             "to_act": "TO_ACT", "awaiting": "AWAITING_AT", "direction": "DIRECTION", "pending": "PENDING",
             "stock": "STOCK", "drawn": "DRAWN_AT", "covered_color": "COVERED", "reacting": "REACTING"}
    for part, const in names.items():
        assert LAYOUT[part].start == getattr(batch_core, const)
    assert batch_core.OBS_SIZE == OBS_SIZE and batch_core.N_ACTIONS == N_ACTIONS and batch_core.DECLINE == DECLINE


@pytest.mark.parametrize("players", [2, 3])
def test_game_scores_carried_over_rounds_agree_with_the_aec_env(players):
    """Whole games (reward="game"): the scores the observation carries from round to round, past 255 (the
    compiled writer keeps each raw score in two bytes), are the AEC env's, decision by decision."""
    n = 3
    batch = BatchEnv(num_envs=n, players=players, seed=5, reward="game")
    obs, mask, seat = batch.reset()
    aecs = [raw_env(players=players, reward="game") for _ in range(n)]
    for aec, s in zip(aecs, batch.seeds):
        aec.reset(seed=s)
    scores = LAYOUT["scores"]
    highest = 0.0
    for _ in range(1200):
        for i, aec in enumerate(aecs):
            agent = aec.agent_selection
            assert seat[i] == aec.agent_seat[agent]
            assert np.array_equal(obs[i], aec.observe(agent)["observation"])
        highest = max(highest, float(obs[:, scores].max()))
        # a card whenever one may be played (the highest index: UNO said with it), else the lowest: rounds end
        plays = mask[:, :114]
        actions = np.where(plays.any(axis=1), 113 - plays[:, ::-1].argmax(axis=1), mask.argmax(axis=1))
        obs, mask, seat, rewards, done = batch.step(actions)
        for i, aec in enumerate(aecs):
            aec.step(int(actions[i]))
            if done[i]:
                aec.reset()
    assert highest * 500 > 255  # a score past one byte was seen (the default target is 500)


def test_a_finished_game_restarts_by_itself_with_its_first_observation():
    batch = BatchEnv(num_envs=16, players=2, seed=11, reward="round")
    obs, mask, seat = batch.reset()
    rng = np.random.default_rng(2)
    restarted = 0
    for _ in range(400):
        before = [g for g in batch.games()]
        obs, mask, seat, rewards, done = batch.step(random_actions(mask, rng))
        for i in np.flatnonzero(done):
            game = batch.games()[i]
            assert game is not before[i] and not game.actions  # a fresh deal, nothing played yet by anyone
            assert rewards[i].sum() == pytest.approx(0.0) and rewards[i].max() > 0  # zero-sum round points
            assert mask[i].any() and obs[i][LAYOUT["hand"]].sum() == len(game.hand(int(seat[i])))
            restarted += 1
        assert mask.any(axis=1).all()  # every game always waits for a decision
    assert restarted >= 3


@pytest.mark.parametrize("players,opponents,seat", [(2, "heuristic", 0), (3, ["random", "heuristic"], 1), (4, "easy", 3)])
def test_batch_against_bots_agrees_with_single_agent_env(players, opponents, seat):
    """With opponents, the bots play inside step exactly as in SingleAgentEnv: same observations, masks and
    round rewards for the learner on the same seed."""
    batch = BatchEnv(num_envs=2, players=players, seed=5, opponents=opponents, seat=seat)
    obs, mask, seats = batch.reset()
    singles = []
    for s in batch.seeds:
        single = SingleAgentEnv(players=players, opponents=opponents, seat=seat)
        first, _ = single.reset(seed=s)
        singles.append([single, first])
    rng = np.random.default_rng(3)
    live = [True, True]
    for _ in range(200):
        assert (seats == seat).all()
        for i, (single, o) in enumerate(singles):
            if live[i]:
                assert np.array_equal(obs[i], o["observation"]) and np.array_equal(mask[i], single.action_masks())
        actions = random_actions(mask, rng)
        obs, mask, seats, rewards, done = batch.step(actions)
        for i, pair in enumerate(singles):
            if not live[i]:
                continue
            o, reward, terminated, truncated, _ = pair[0].step(int(actions[i]))
            pair[1] = o
            assert done[i] == (terminated or truncated)
            assert rewards[i, seat] == pytest.approx(reward)
            live[i] = not done[i]  # later episodes draw their seeds differently (Gymnasium's np_random)
        if not any(live):
            break
    assert not any(live)


def test_an_illegal_action_changes_no_game_and_names_the_env_and_the_card():
    batch = BatchEnv(num_envs=4, players=2, seed=2)
    obs, mask, seat = batch.reset()
    before_obs, before_mask = obs.copy(), mask.copy()
    before = [len(g.actions) for g in batch.games()]
    actions = mask.argmax(axis=1)
    bad = int(np.flatnonzero(~mask[2])[0])
    actions[2] = bad
    with pytest.raises(IllegalActionIndex, match=r"env 2") as err:
        batch.step(actions)
    assert str(bad) in str(err.value)
    assert [len(g.actions) for g in batch.games()] == before
    assert np.array_equal(obs, before_obs) and np.array_equal(mask, before_mask)
    for wrong in (actions[:3], actions.astype(float), [None] * 4, np.full(4, N_ACTIONS)):
        with pytest.raises(IllegalActionIndex):
            batch.step(wrong)
    assert [len(g.actions) for g in batch.games()] == before


def test_bad_settings_are_refused_with_one_sentence():
    for kwargs in ({"num_envs": 0}, {"players": 11}, {"players": 2, "opponents": ["random", "random"]},
                   {"opponents": "nobody"}, {"opponents": "random", "seat": 2}):
        with pytest.raises(ValueError):
            BatchEnv(**kwargs)
    with pytest.raises(RuntimeError):
        BatchEnv(num_envs=2).step(np.zeros(2, np.int64))


def test_max_steps_truncates_without_reward_and_restarts():
    batch = BatchEnv(num_envs=4, players=3, seed=4, max_steps=5)
    obs, mask, seat = batch.reset()
    rng = np.random.default_rng(4)
    truncated = 0
    for _ in range(12):
        obs, mask, seat, rewards, done = batch.step(random_actions(mask, rng))
        truncated += int(batch.truncated.sum())
        assert not rewards[batch.truncated].any()
    assert truncated >= 4


def test_same_seed_same_games():
    def run(seed):
        batch = BatchEnv(num_envs=8, players=3, seed=seed)
        obs, mask, _ = batch.reset()
        rng = np.random.default_rng(0)
        total = np.zeros(8)
        for _ in range(200):
            obs, mask, _, rewards, _ = batch.step(random_actions(mask, rng))
            total += rewards[:, 0]
        return total, obs.copy()

    first, second, other = run(1), run(1), run(2)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])
    assert not np.array_equal(first[1], other[1])

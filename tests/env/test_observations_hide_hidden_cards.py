"""Observations never contain a hidden card: dealing the hidden cards differently changes no observation.

At many states of random play, every card a seat cannot see (the other hands
and the stock) is shuffled among those places, sizes kept. The seat's
observation and mask, and who is asked to decide next, must be identical.
"""

import random

import numpy as np
import pytest

from unokart.env import raw_env
from unokart.env.observation import LAYOUT, OBS_SIZE, encode
from unokart.bots.policy import observation_for
from env_helpers import ALL_HOUSE_RULES, random_walk, reference_encode


def deal_hidden_cards_again(game, keep: set[int], rng: random.Random):
    """A copy of ``game`` with the hands outside ``keep`` and the stock re-dealt from their own cards."""
    other = game.copy()
    movable = [s for s in range(other.n) if s not in keep]
    pool = other._stock + [face for s in movable for face in other.hand(s)]
    rng.shuffle(pool)
    for s in movable:
        size = len(other.hand(s))
        other._hands[s], pool = pool[:size], pool[size:]
    other._stock = pool
    other._legal, other._legal_seat = None, -1  # the copy's legal-move cache described the old hands
    return other


def same_observation(a: dict, b: dict) -> bool:
    return np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize("players,options", [(2, None), (4, None), (6, ALL_HOUSE_RULES)])
def test_redealing_hidden_cards_changes_no_observation_and_no_turn_order(players, options):
    rng = random.Random(11)
    aec = raw_env(players=players, options=options)
    states = changed = 0
    for aec in random_walk(aec, random.Random(5), decisions=1200, seed=21):
        if rng.random() > 0.25:
            continue
        game = aec.game
        selected = (aec.agent_selection, aec.reacting)
        before = {agent: aec.observe(agent) for agent in aec.agents}
        for seat, agent in enumerate(aec.possible_agents):
            keep = {seat}
            if game.awaiting == "drawn":
                keep.add(game.to_act)  # the drawn card must stay in the drawer's hand
            aec.game = deal_hidden_cards_again(game, keep, rng)
            changed += aec.game._hands != game._hands
            aec._select()
            assert (aec.agent_selection, aec.reacting) == selected
            assert same_observation(aec.observe(agent), before[agent]), (seat, game.state())
        aec.game = game
        aec._select()
        states += 1
    assert states > 200 and changed > states  # the hidden cards really moved


def test_own_hand_is_in_the_observation_and_others_only_by_size():
    aec = raw_env(players=3)
    aec.reset(seed=2)
    game = aec.game
    for seat, agent in enumerate(aec.possible_agents):
        obs = aec.observe(agent)["observation"]
        assert obs.shape == (OBS_SIZE,)
        assert np.array_equal(obs[LAYOUT["hand"]], np.bincount(game.hand(seat), minlength=54))
        sizes = obs[LAYOUT["hand_sizes"]]
        assert [int(x) for x in sizes[:3]] == [len(game.hand((seat + k) % 3)) for k in range(3)]
        assert not sizes[3:].any()


@pytest.mark.parametrize("players,options", [(3, None), (5, ALL_HOUSE_RULES)])
def test_a_bot_encodes_its_view_exactly_as_the_env_observes(players, options):
    """PolicyBot sees what training saw: its encoding of (view, legal actions) equals the env's observation."""
    aec = raw_env(players=players, options=options, keep_events=True)
    covered_seen = reshuffles = 0
    pile = None
    for aec in random_walk(aec, random.Random(3), decisions=1500, seed=8):
        reshuffles += pile is not None and aec.game._discard is not pile and aec.game.actions != []
        pile = aec.game._discard
        seat, agent = aec.seat, aec.agent_selection
        from_view = observation_for(aec.game.view(seat), aec.legal)
        assert same_observation(from_view, aec.observe(agent))
        covered_seen += bool(from_view["observation"][LAYOUT["covered_color"]].any())
    assert covered_seen > 0  # challenges were met, with the covered colour known to both
    assert reshuffles > 0  # and the env's running discard counts survived the pile being reshuffled


@pytest.mark.parametrize("players,options", [(2, None), (4, ALL_HOUSE_RULES)])
def test_every_seat_observes_exactly_its_view(players, options):
    """The env reads the game directly (no View on its hot path); for every seat, selected or not,
    that reading equals the encoding of ``game.view(seat)``, the core's own boundary of what a seat may see."""
    aec = raw_env(players=players, options=options)
    checked = 0
    for aec in random_walk(aec, random.Random(9), decisions=800, seed=4):
        for seat, agent in enumerate(aec.possible_agents):
            obs = aec.observe(agent)
            selected = seat == aec.seat
            view, reacting = aec.game.view(seat), selected and aec.reacting
            expected = encode(view, aec.covered_color, reacting=reacting)
            assert np.array_equal(obs["observation"], expected), (seat, aec.game.state())
            assert np.array_equal(expected, reference_encode(view, aec.covered_color, reacting))
            assert obs["action_mask"].any() == selected  # only the selected agent may act
            checked += 1
    assert checked == 800 * players

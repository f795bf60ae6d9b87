"""Every bot, in turn and out of turn, under every house rule, only ever returns a legal action."""

import random

import pytest

from unokart import Game
from unokart.bots import make_bot
from unokart.rules.states import GAME_OVER, ROUND_OVER

HOUSE_RULES = [
    {},
    {"stacking": True},
    {"jump_in": True},
    {"seven_zero": True},
    {"draw_until_playable": True, "force_play": True},
]


def play_checked(bot_names: list[str], seed: int, options: dict, max_actions: int = 3000) -> int:
    """Play one round between the bots, asserting each choice is legal; returns how many were checked."""
    bots = [make_bot(name) for name in bot_names]
    game = Game.new(len(bots), seed=seed, options=options)
    rng = random.Random(seed)
    checked = 0
    while game.awaiting not in (ROUND_OVER, GAME_OVER) and checked < max_actions:
        seat = game.to_act
        legal = list(game.legal_actions(seat))
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat), rng)
        assert action in legal, f"{bot_names[seat]} chose {action} not in {[str(a) for a in legal]}"
        assert list(game.legal_actions(seat)) == legal, "a bot mutated the legal action list"
        game.apply(action)
        checked += 1
        for other in game.out_of_turn_seats():
            legal = game.legal_actions(other)
            if legal:
                action = bots[other].choose(game.view(other), legal, rng)
                assert action is None or action in legal, f"{bot_names[other]} chose {action} out of turn"
                if action is not None:
                    game.apply(action)
                    checked += 1
                    break
    return checked


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: ",".join(o) or "standard")
@pytest.mark.parametrize("players", [2, 4])
def test_random_easy_and_heuristic_bots_return_only_legal_actions(options, players):
    lineup = (["heuristic", "easy", "random", "heuristic"])[:players]
    checked = sum(play_checked(lineup, seed, options) for seed in range(12))
    assert checked > 200


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: ",".join(o) or "standard")
def test_ismcts_returns_only_legal_actions(options):
    checked = sum(play_checked(["ismcts:8", "heuristic", "random"], seed, options) for seed in (5, 6, 7))
    assert checked > 60


def test_make_bot_knows_every_name_and_refuses_others():
    for name in ("random", "easy", "heuristic", "careful", "ismcts", "ismcts:50", "ismcts:20ms", "ismcts:0"):
        assert hasattr(make_bot(name), "choose")
    assert make_bot("ismcts:50").iterations == 50
    assert make_bot("ismcts:0").iterations == 0  # the prior alone
    assert make_bot("ismcts:20ms").milliseconds == 20
    for bad in ("grandmaster", "ismcts:-1", "ismcts:fast", "ismcts:0ms", "random:3"):
        with pytest.raises(ValueError, match="bot|budget"):
            make_bot(bad)


def test_make_bot_seats_a_trained_policy_by_its_path_and_names_a_missing_one(tmp_path):
    missing = tmp_path / "Policies" / "Missing.zip"  # the path keeps its case
    with pytest.raises(RuntimeError, match="Missing.zip"):
        make_bot(f"policy:{missing}")

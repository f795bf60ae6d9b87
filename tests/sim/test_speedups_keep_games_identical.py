"""The simulator's speed-ups change no game: results pinned before any of them was made.

Each pinned game names its winner, final scores, rounds, decisions per seat and a
digest of its whole record (every action of every round); the group pins a digest
of many games' results and records. The ``viewer`` bot below chooses by a digest of
everything its view shows, so a view that showed anything differently (a field, the
pile, an event) would play another game; random bots pin the simulator's loop and
the random bot itself. A faster view, event visibility, out-of-turn polling or random
bot that asked a bot differently, or drew from its random source differently, would
change these. (Pinned with bots of this test and random ones only, so that work on
the other bots cannot break it.)

The games of three or more seats were pinned again once (issue 23) when the simulator
began to ask out-of-turn seats in the referee's order (rules/referee.py, the environments'
order) instead of its own; with two seats the two orders agree, and those pins stand.
"""

import hashlib
import json

import pytest

from unokart.bots import make_bot
from unokart.sim.match import play_game


class ViewDigestBot:
    """Chooses by a digest of everything its view shows (every field, the pile, the latest events)."""

    name = "viewer"

    def choose(self, view, legal_actions, rng):
        shown = [view.to_json(), view.hand, view.hand_sizes, view.discard, view.top, view.names, view.options.to_dict(),
                 len(view.events), view.events[-3:]]
        pick = int(hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:8], 16) + rng.randrange(4)
        if view.seat == view.to_act:
            return legal_actions[pick % len(legal_actions)]
        pick %= len(legal_actions) + 1
        return legal_actions[pick] if pick < len(legal_actions) else None


# lineup, options, seed -> winner, scores, rounds, decisions per seat, record digest
PINNED_GAMES = [
    ("random,random", {}, 1, 1, [145, 582], 6, [2721, 2764], "996b0c12eaa03e5d"),
    ("random,random", {}, 2, 0, [563, 362], 10, [8296, 8273], "e69de2225a68c7a9"),
    ("random,random,random,random", {"jump_in": True, "seven_zero": True, "stacking": True, "target_score": 200}, 4,
     3, [0, 0, 0, 396], 1, [900, 940, 897, 884], "09e22801eb608f5d"),
    ("viewer,viewer", {"target_score": 200}, 1, 1, [195, 269], 5, [2532, 2485], "c45f03a0537d9594"),
    ("viewer,random", {"target_score": 200}, 2, 1, [160, 212], 3, [5194, 5203], "b28e2efe3e0acbc9"),
    ("viewer,viewer,random", {"jump_in": True, "target_score": 150}, 3, 1, [0, 275, 0], 1, [721, 709, 724], "425d760306188d95"),
    ("viewer,random,viewer,random", {"jump_in": True, "seven_zero": True, "stacking": True, "target_score": 150}, 4,
     1, [0, 230, 0, 0], 1, [896, 888, 870, 877], "49e215da1a52e01c"),
    ("viewer,viewer", {"stacking": True, "draw_until_playable": True, "force_play": True, "target_score": 100}, 7,
     0, [116, 0], 1, [4864, 4738], "811a862f6e675017"),
    ("viewer,viewer,viewer", {"seven_zero": True, "target_score": 150}, 6, 2, [0, 0, 268], 1, [165, 167, 177], "2673eb6e438a3923"),
]

# lineup, options, seeds -> digest of every game's results and record
PINNED_GROUPS = [
    ("random,random", {}, range(100, 124), "07042e7624cc259d"),
]


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def played(lineup: str, options: dict, seed: int):
    bots = [ViewDigestBot() if name == "viewer" else make_bot(name) for name in lineup.split(",")]
    return play_game(bots, seed, options, keep_record=True)


def case_id(value):
    return value if isinstance(value, str) and "," in value else None


@pytest.mark.parametrize("lineup, options, seed, winner, scores, rounds, decisions, record_digest", PINNED_GAMES, ids=case_id)
def test_a_seed_still_plays_the_game_it_played_before_the_speedups(lineup, options, seed, winner, scores, rounds,
                                                                   decisions, record_digest):
    result = played(lineup, options, seed)
    assert (result.winner, result.scores, result.rounds, result.decisions) == (winner, scores, rounds, decisions)
    assert digest(result.record) == record_digest


@pytest.mark.parametrize("lineup, options, seeds, group_digest", PINNED_GROUPS, ids=case_id)
def test_many_seeds_still_play_the_games_they_played_before_the_speedups(lineup, options, seeds, group_digest):
    h = hashlib.sha256()
    for seed in seeds:
        r = played(lineup, options, seed)
        h.update(json.dumps([r.winner, r.scores, r.rounds_won, r.round_points, r.decisions, r.record], sort_keys=True).encode())
    assert h.hexdigest()[:16] == group_digest

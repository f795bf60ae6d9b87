"""The simulator's speed-ups change no game: results pinned before any of them was made.

Each pinned game names its winner, final scores, rounds, decisions per seat and a
digest of its whole record (every action of every round); each group pins a digest
of many games' results and records. A faster view, event visibility, out-of-turn
polling or random bot that asked a bot differently, or drew from its random source
differently, would change these.
"""

import hashlib
import json

import pytest

from unokart.bots import make_bot
from unokart.sim.match import play_game

# lineup, options, seed -> winner, scores, rounds, decisions per seat, record digest
PINNED_GAMES = [
    ("random,random", {}, 1, 1, [145, 582], 6, [2721, 2764], "996b0c12eaa03e5d"),
    ("random,random", {}, 2, 0, [563, 362], 10, [8296, 8273], "e69de2225a68c7a9"),
    ("heuristic,heuristic", {}, 1, 1, [481, 538], 22, [613, 616], "7d6b8af8197cc7a2"),
    ("heuristic,heuristic", {}, 2, 0, [577, 347], 25, [484, 483], "56e6e3f4527f2c65"),
    ("easy,heuristic,random", {"jump_in": True, "target_score": 200}, 3, 1, [79, 258, 0], 3, [79, 75, 78], "9a00998bd801d614"),
    ("random,random,random,random", {"jump_in": True, "seven_zero": True, "stacking": True, "target_score": 200}, 4,
     2, [0, 0, 258, 0], 1, [130, 132, 122, 136], "06158b63c86d6bfd"),
    ("heuristic,random", {"stacking": True, "draw_until_playable": True, "force_play": True}, 5,
     0, [586, 0], 3, [357, 312], "d72feafc2c66f4cc"),
    ("easy,easy,heuristic", {"seven_zero": True, "target_score": 300}, 6, 0, [423, 47, 73], 6, [194, 211, 193], "398d384be5148ce4"),
]

# lineup, options, seeds -> digest of every game's results and record
PINNED_GROUPS = [
    ("random,random", {}, range(100, 124), "07042e7624cc259d"),
    ("heuristic,heuristic", {}, range(100, 124), "ba264880960347c7"),
    ("easy,random,heuristic,random", {"jump_in": True, "stacking": True}, range(100, 108), "a98fdbeaa71bdb50"),
    ("heuristic,easy,random", {"seven_zero": True, "draw_until_playable": True}, range(100, 108), "712803b9442a13a1"),
]


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def played(lineup: str, options: dict, seed: int):
    return play_game([make_bot(name) for name in lineup.split(",")], seed, options, keep_record=True)


@pytest.mark.parametrize("lineup, options, seed, winner, scores, rounds, decisions, record_digest", PINNED_GAMES,
                         ids=lambda v: v if isinstance(v, str) and "," in v else None)
def test_a_seed_still_plays_the_game_it_played_before_the_speedups(lineup, options, seed, winner, scores, rounds,
                                                                   decisions, record_digest):
    result = played(lineup, options, seed)
    assert (result.winner, result.scores, result.rounds, result.decisions) == (winner, scores, rounds, decisions)
    assert digest(result.record) == record_digest


@pytest.mark.parametrize("lineup, options, seeds, group_digest", PINNED_GROUPS, ids=lambda v: v if isinstance(v, str) and "," in v else None)
def test_many_seeds_still_play_the_games_they_played_before_the_speedups(lineup, options, seeds, group_digest):
    h = hashlib.sha256()
    for seed in seeds:
        r = played(lineup, options, seed)
        h.update(json.dumps([r.winner, r.scores, r.rounds_won, r.round_points, r.decisions, r.record], sort_keys=True).encode())
    assert h.hexdigest()[:16] == group_digest

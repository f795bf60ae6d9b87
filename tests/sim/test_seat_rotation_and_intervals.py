"""Seat rotation is fair (every entry in every seat, same cards), intervals are right on known cases."""

import math

import pytest

from unokart.sim.match import GameResult
from unokart.sim.stats import wilson_interval
from unokart.sim.tournament import (
    Played, Setup, block_seed, make_lineup, rounded_games, run, seating, summarize, whole_blocks,
)


def test_over_a_block_every_entry_sits_in_every_seat_once():
    lineup = make_lineup(["ismcts", "heuristic", "easy"], players=4)
    assert lineup == ("ismcts", "heuristic", "easy", "ismcts")
    block = [seating(lineup, k) for k in range(4)]
    for seat in range(4):
        assert sorted(rotation[seat] for rotation in block) == [0, 1, 2, 3]
    for rotation in block:
        assert sorted(rotation) == [0, 1, 2, 3]


def test_games_of_one_block_share_a_seed_and_blocks_differ():
    assert block_seed(1, 0) == block_seed(1, 0)
    assert len({block_seed(1, b) for b in range(50)}) == 50
    assert block_seed(1, 0) != block_seed(2, 0)


def test_games_round_up_to_whole_blocks():
    assert rounded_games(10000, 2) == 10000
    assert rounded_games(5, 2) == 6
    assert rounded_games(5, 4) == 8


def test_two_copies_of_one_deterministic_bot_split_every_block_exactly():
    """Duplicate style: the same bot in both seats of the same deal plays the same game twice,
    with the entries swapped, so each entry wins exactly one game of each block."""
    setup = Setup(("heuristic", "heuristic"), {"target_score": 150}, seed=4)
    played = run(setup, 12)
    for first, second in zip(played[::2], played[1::2]):
        assert first.result.scores == second.result.scores
        assert first.entries[first.result.winner] != second.entries[second.result.winner]


@pytest.mark.parametrize("wins, trials, low, high", [
    (50, 100, 0.40383, 0.59617),
    (0, 10, 0.0, 0.27753),
    (10, 10, 0.72247, 1.0),
    (7000, 10000, 0.69098, 0.70887),
])
def test_wilson_interval_matches_known_values(wins, trials, low, high):
    lo, hi = wilson_interval(wins, trials)
    assert math.isclose(lo, low, abs_tol=5e-5) and math.isclose(hi, high, abs_tol=5e-5)


def test_summary_counts_wins_rounds_points_per_seat_filled():
    """A known case: two games of a three-seat table where 'a' fills two seats."""
    setup = Setup(("a", "b", "a"), {}, seed=0)

    def result(winner, rounds_won, round_points, rounds):
        return GameResult(winner=winner, scores=round_points, rounds=rounds, rounds_won=rounds_won,
                          round_points=round_points, decisions=[10, 10, 10], decision_seconds=[0.01, 0.02, 0.01])

    played = [
        Played(0, [0, 1, 2], result(1, [0, 2, 1], [0, 400, 120], 3)),  # b wins
        Played(1, [1, 2, 0], result(0, [1, 0, 0], [500, 0, 0], 1)),  # seat 0 holds entry 1: b wins again
    ]
    bots = {b["name"]: b for b in summarize(setup, played)["bots"]}
    assert bots["b"]["win_rate"] == 1.0 and bots["a"]["win_rate"] == 0.0
    assert bots["a"]["seats"] == 2 and bots["b"]["seats"] == 1
    # b: rounds won 2 + 1 of 3 + 1 rounds; a: 0+1 and 0+0 of (3+1) x 2 seats
    assert bots["b"]["round_win_rate"] == pytest.approx(3 / 4)
    assert bots["a"]["round_win_rate"] == pytest.approx(1 / 8)
    assert bots["b"]["points_per_round"] == pytest.approx(900 / 4)
    assert bots["a"]["points_per_round"] == pytest.approx(120 / 8)
    assert bots["b"]["decision_ms"] == pytest.approx(1000 * 0.03 / 20)
    assert bots["b"]["rating"]["mu"] > bots["a"]["rating"]["mu"]
    assert bots["b"]["ci95"] == list(wilson_interval(2, 2))


def test_a_bot_that_wins_more_than_its_share_against_copies_of_another_is_rated_above_them():
    """One seat of 'a' against three of 'b': 'a' wins 2 games in 5 (a share of 1 in 4 would be fair);
    the losers' places rotate, so 'a' loses no worse than 'b' does."""
    setup = Setup(("a", "b", "b", "b"), {}, seed=0)
    played = []
    for index in range(200):
        winner = 0 if index % 5 < 2 else 1 + index % 3
        losers = [seat for seat in range(4) if seat != winner]
        scores = [500] * 4
        for place, seat in enumerate(losers):
            scores[seat] = 100 * (1 + (place + index) % 3)
        result = GameResult(winner=winner, scores=scores, rounds=5, rounds_won=[int(s == winner) for s in range(4)],
                            round_points=scores, decisions=[1] * 4, decision_seconds=[0.0] * 4)
        played.append(Played(index, [0, 1, 2, 3], result))
    bots = {b["name"]: b for b in summarize(setup, played)["bots"]}
    assert bots["a"]["win_rate"] == pytest.approx(0.4) and bots["b"]["win_rate"] == pytest.approx(0.2)
    assert bots["a"]["rating"]["mu"] > bots["b"]["rating"]["mu"]
    assert bots["a"]["rating"]["ordinal"] > bots["b"]["rating"]["ordinal"]


def test_an_interrupted_tournament_keeps_only_whole_blocks():
    setup = Setup(("heuristic", "random"), {"target_score": 100}, seed=2)
    played = run(setup, 6)
    partial = [played[0], played[1], played[3], played[4], played[5]]  # game 2 of block 1 missing
    assert [p.index for p in whole_blocks(partial, 2)] == [0, 1, 4, 5]

"""A fixed seed gives identical tournaments, on one process or two, and records that replay."""

import json

from unokart import Game
from unokart.sim.tournament import Setup, make_lineup, run, summarize

SETUP = Setup(make_lineup(["heuristic", "random", "easy"], players=3), {"target_score": 200}, seed=17)


def outcome(played):
    return [(p.index, p.entries, p.result.winner, p.result.scores, p.result.rounds_won, p.result.decisions) for p in played]


def without_times(summary):
    for bot in summary["bots"]:
        bot.pop("decision_ms")
    return summary


def test_the_same_seed_plays_the_same_games_on_one_or_two_processes():
    one = run(SETUP, 9, jobs=1)
    again = run(SETUP, 9, jobs=1)
    two = run(SETUP, 9, jobs=2)
    assert outcome(one) == outcome(again) == outcome(two)
    assert without_times(summarize(SETUP, one)) == without_times(summarize(SETUP, two))


def test_another_seed_plays_other_games():
    other = Setup(SETUP.lineup, SETUP.options, seed=18)
    assert outcome(run(SETUP, 3)) != outcome(run(other, 3))


def test_saved_records_replay_to_the_same_scores(tmp_path):
    setup = Setup(SETUP.lineup, SETUP.options, SETUP.seed, records=str(tmp_path))
    played = run(setup, 6, jobs=2)
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 6
    for path, game in zip(files, played):
        replayed = Game.from_record(json.loads(path.read_text()))
        assert replayed.scores == game.result.scores
        assert replayed.game_winner == game.result.winner

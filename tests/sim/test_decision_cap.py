"""A game that never ends is stopped at the cap of decisions in one round, counted as abandoned, never dropped."""

from __future__ import annotations

from unokart.bots import make_bot
from unokart.rules import actions as A
from unokart.sim.match import MAX_DECISIONS, play_game
from unokart.sim.tournament import Setup, run, summarize


class Hoarder:
    """Never plays a card it may avoid playing: draws, keeps what it drew, declines everything out of turn."""

    name = "hoarder"
    reads_events = False

    def choose(self, view, legal_actions, rng):
        if view.seat != view.to_act:
            return None
        for verb in (A.DRAW, A.PASS, A.ACCEPT):
            for action in legal_actions:
                if action.verb == verb:
                    return action
        return legal_actions[0]


def test_the_decision_cap_ends_a_looping_game_as_abandoned():
    result = play_game([Hoarder(), Hoarder()], seed=1)
    assert result.abandoned and result.winner is None
    assert sum(result.decisions) == MAX_DECISIONS == 20_000


def test_the_cap_counts_one_rounds_decisions_so_long_random_games_finish():
    """Random bots heads-up: whole games of over 20,000 decisions, rounds far below the cap."""
    result = play_game([make_bot("random"), make_bot("random")], seed=0)
    assert not result.abandoned and result.winner is not None
    assert sum(result.decisions) > MAX_DECISIONS  # 26,106 decisions in 11 rounds


def test_abandoned_games_are_counted_as_played_and_won_by_nobody():
    setup = Setup(("random", "heuristic"), {}, seed=1, max_decisions=3)  # no round ends within 3 decisions
    played = run(setup, 4)
    summary = summarize(setup, played)
    assert summary["games"] == 4 and summary["abandoned"] == 4 and summary["max_decisions"] == 3
    assert all(bot["games_played"] == 4 and bot["games_won"] == 0 for bot in summary["bots"])

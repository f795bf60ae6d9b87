"""The simulator asks its bots exactly in the referee's order (rules/referee.py): one "who speaks next"."""

from unokart import Game
from unokart.bots import make_bot
from unokart.rules.referee import Referee
from unokart.rules.states import GAME_OVER, ROUND_OVER
from unokart.sim.match import play_game


class Recorder:
    """A random bot that writes down who it was asked as and what it answered."""

    name = "recorder"

    def __init__(self, log: list):
        self.log = log
        self.inner = make_bot("random")

    def choose(self, view, legal_actions, rng):
        answer = self.inner.choose(view, legal_actions, rng)
        self.log.append((view.seat, answer))
        return answer


def test_every_question_the_simulator_asks_is_the_referees_next_one():
    options = {"jump_in": True, "seven_zero": True, "target_score": 150}
    for seed in (3, 4):
        log: list = []
        play_game([Recorder(log) for _ in range(4)], seed, options)
        referee = Referee(Game.new(4, seed=seed, options=options, log_events=False))
        game, asked_out_of_turn = referee.game, 0
        for seat, answer in log:
            while game.awaiting == ROUND_OVER:
                referee.next_round()
            referee.decline_idle()  # a bot with nothing to do is not asked
            assert referee.seat == seat
            asked_out_of_turn += referee.reacting
            referee.answer(answer)
        assert game.awaiting == GAME_OVER and asked_out_of_turn > 0

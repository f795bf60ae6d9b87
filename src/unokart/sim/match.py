"""One whole game between bots, asking every seat that may act, in turn and out of turn (in the referee's order).

A round that reaches ``max_decisions`` decisions (all seats together; default
20,000) ends the game there as *abandoned*: won by nobody, and counted as such
by the tournament, so two policies stuck in a loop cannot hang a simulation.
The cap is per round because whole games of random bots are long: heads-up
to 500 points they took 4,400 to 26,100 decisions (12 games), while their
rounds take about a thousand; a loop never leaves its round.
"""

from __future__ import annotations

import random
from time import perf_counter
from dataclasses import dataclass

from ..rules import Game
from ..rules.options import Options
from ..rules.referee import Referee
from ..rules.states import GAME_OVER, ROUND_OVER


MAX_DECISIONS = 20_000


class _Abandoned(Exception):
    """The game reached its cap of decisions."""


@dataclass
class GameResult:
    """What one game between bots showed, seat by seat (``winner`` None: the game was abandoned)."""

    winner: int | None
    scores: list[int]
    rounds: int
    rounds_won: list[int]
    round_points: list[int]  # points scored in the rounds each seat won
    decisions: list[int]
    decision_seconds: list[float]
    record: dict | None = None
    abandoned: bool = False  # ended at the cap of decisions, won by nobody


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """Each seat's own random source, fixed by the game's seed and the seat."""
    return [random.Random(seed * 16 + seat) for seat in range(players)]


def play_game(bots: list, seed: int, options: Options | dict | None = None, names: list[str] | None = None,
              keep_record: bool = False, max_decisions: int = MAX_DECISIONS) -> GameResult:
    """Play one game to the target score; ``bots[seat]`` decides for each seat (timed by the wall clock).
    A round that reaches ``max_decisions`` decisions ends the game, abandoned."""
    n = len(bots)
    # When no bot reads its view's events, logging them and sorting them into views would serve no one.
    game = Game.new(names or n, seed=seed, options=options,
                    log_events=any(getattr(bot, "reads_events", True) for bot in bots))
    rngs = bot_rngs(seed, n)
    decisions = [0] * n
    seconds = [0.0] * n
    rounds_won = [0] * n
    round_points = [0] * n
    scores_before = [0] * n  # at the start of the round
    budget = [max_decisions]

    def ask(seat: int, legal: list) -> object:
        if budget[0] <= 0:
            raise _Abandoned
        budget[0] -= 1
        start = perf_counter()
        action = bots[seat].choose(game.view(seat), legal, rngs[seat])
        seconds[seat] += perf_counter() - start
        decisions[seat] += 1
        return action

    try:
        _play(game, ask, rounds_won, round_points, scores_before, budget, max_decisions)
    except _Abandoned:
        return GameResult(
            winner=None, scores=game.scores[:], rounds=game.round, rounds_won=rounds_won, round_points=round_points,
            decisions=decisions, decision_seconds=seconds, record=game.record() if keep_record else None, abandoned=True,
        )
    return GameResult(
        winner=game.game_winner, scores=game.scores[:], rounds=game.round, rounds_won=rounds_won,
        round_points=round_points, decisions=decisions, decision_seconds=seconds,
        record=game.record() if keep_record else None,
    )


def _play(game: Game, ask, rounds_won: list[int], round_points: list[int], scores_before: list[int],
          budget: list[int], max_decisions: int) -> None:
    """Every seat asked in the referee's order (docs/DESIGN.md, "The referee"); a bot is asked only
    when it has a choice, and None declines."""
    referee = Referee(game)
    while True:
        awaiting = game.awaiting
        if awaiting == ROUND_OVER or awaiting == GAME_OVER:
            winner = game.round_winner
            rounds_won[winner] += 1
            round_points[winner] += game.scores[winner] - scores_before[winner]
            if awaiting == GAME_OVER:
                break
            scores_before = game.scores[:]
            referee.next_round()
            budget[0] = max_decisions  # the cap counts one round's decisions
            continue
        referee.decline_idle()
        referee.answer(ask(referee.seat, referee.legal))

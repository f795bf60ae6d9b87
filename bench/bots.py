"""Bot decision times: median and 95th percentile per real decision, at each bot's default.

Plays heads-up games (target ``--target``) of each bot against the heuristic,
seats alternating, until ``--seconds`` have passed, timing every decision the
bot makes on its turn with more than one move to choose from (forced moves and
out-of-turn words, which take no search, are left out). Times are taken by the
wall clock and by this process's CPU time (what an idle core would take; the
machine is shared, so both are printed).

    python bench/bots.py [--bots heuristic,ismcts] [--seconds 60] [--target 100]
"""

from __future__ import annotations

import argparse
import statistics
import time

from unokart.bots import make_bot
from unokart.bots.ismcts import search_actions
from unokart.sim.match import play_game


class Timed:
    """A bot whose real decisions are timed."""

    def __init__(self, bot, clock):
        self.bot, self.clock, self.times = bot, clock, []
        self.name = bot.name

    def choose(self, view, legal_actions, rng):
        start = self.clock()
        action = self.bot.choose(view, legal_actions, rng)
        if view.seat == view.to_act and len(search_actions(legal_actions)) > 1:
            self.times.append(self.clock() - start)
        return action


def decision_times(name: str, seconds: float, target: int, clock) -> list[float]:
    timed = Timed(make_bot(name), clock)
    opponent = make_bot("heuristic")
    start, game = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        lineup = [timed, opponent] if game % 2 == 0 else [opponent, timed]
        play_game(lineup, game // 2, {"target_score": target})
        game += 1
    return timed.times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="heuristic,ismcts", help="comma-separated bot names")
    parser.add_argument("--seconds", type=float, default=60.0, help="time spent per bot (half timed by wall clock, half by CPU time)")
    parser.add_argument("--target", type=int, default=100, help="target score of each game")
    args = parser.parse_args()
    print(f"{'bot':>14} {'clock':>5} {'decisions':>10} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name in args.bots.split(","):
        for label, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
            times = sorted(decision_times(name, args.seconds / 2, args.target, clock))
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{name:>14} {label:>5} {len(times):>10} {1000 * statistics.median(times):>10.2f} "
                  f"{1000 * p95:>8.2f} {1000 * times[-1]:>8.2f}")


if __name__ == "__main__":
    main()

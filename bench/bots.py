"""Bot decision times: median and 95th percentile per decision, at each bot's default.

Plays heads-up games (target ``--target``) of each bot against the heuristic
until ``--seconds`` have passed, timing every decision the bot makes on its
turn (forced single-choice moves included, as a player would wait for them),
by the wall clock and by this process's CPU time (what an idle core would
take; the machine is shared, so both are printed).

    python bench/bots.py [--bots heuristic,ismcts] [--seconds 60] [--target 100]
"""

from __future__ import annotations

import argparse
import statistics
import time

from unokart.bots import make_bot
from unokart.sim.match import play_game


def decision_times(name: str, seconds: float, target: int, clock) -> list[float]:
    bots = [make_bot(name), make_bot("heuristic")]
    times: list[float] = []
    start, seed = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        seat = seed % 2  # alternate seats
        lineup = bots if seat == 0 else bots[::-1]
        result = play_game(lineup, seed // 2, {"target_score": target}, keep_times=True, clock=clock)
        times += result.decision_times[seat]
        seed += 1
    return times


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

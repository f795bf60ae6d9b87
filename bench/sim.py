"""Simulator speed: heads-up random-vs-random games to 500 per second, on one core.

Plays whole games through the simulator (views, bots, out-of-turn polling)
for ``--seconds``, then the same games again with the bare core loop of
bench/engine.py (legal actions, a uniform choice, apply; no views, no bots),
alternating; prints medians and the simulator/core ratio.

    python bench/sim.py [--seconds 10] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from unokart import Game
from unokart.bots import make_bot
from unokart.sim.match import play_game


def simulator_rate(seconds: float, seed: int) -> tuple[float, float]:
    """Games/s and decisions/s of whole simulated games."""
    bots = [make_bot("random"), make_bot("random")]
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = play_game(bots, seed + games)
        games += 1
        decisions += sum(result.decisions)
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def core_rate(seconds: float, seed: int) -> tuple[float, float]:
    """Games/s and decisions/s of the bare core loop (no views, no bots)."""
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed + games)
        game = Game.new(2, seed=seed + games)
        while game.awaiting != "game_over":
            if game.awaiting == "round_over":
                game.next_round()
                continue
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each")
    args = parser.parse_args()
    sim, core = [], []
    for repeat in range(args.repeats):
        sim.append(simulator_rate(args.seconds, seed=1000 * repeat))
        core.append(core_rate(args.seconds, seed=1000 * repeat))
    sim_games, sim_decisions = (statistics.median(x) for x in zip(*sim))
    core_games, core_decisions = (statistics.median(x) for x in zip(*core))
    print(f"heads-up random vs random, games to 500, one core (medians of {args.repeats} runs of {args.seconds}s)")
    print(f"{'':>10} {'games/s':>10} {'decisions/s':>13}")
    print(f"{'simulator':>10} {sim_games:>10.1f} {sim_decisions:>13,.0f}")
    print(f"{'bare core':>10} {core_games:>10.1f} {core_decisions:>13,.0f}")
    print(f"simulator / bare core: {sim_decisions / core_decisions:.2f}x decisions/s; "
          f"target 1,000 games/s per core: {sim_games / 1000:.3f}x of it")


if __name__ == "__main__":
    main()

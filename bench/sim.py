"""Simulator speed: heads-up games to 500 per second on one core, random and heuristic bots.

Plays whole games through the simulator (``play_game``: views, bots, out-of-turn
polling) for ``--seconds``, random vs random (issue 3's target: 1,000 games/s per
core) and heuristic vs heuristic (what people simulate); then the random games
again with the bare core loop of bench/engine.py (legal actions, a uniform choice,
apply; no views, no bots). The three alternate, ``--repeats`` times; it prints
medians. Times are the process's CPU time, so other work on the machine slows a
run less (they are per core by construction).

The last lines turn the target into a budget per decision (a random game is about
10,000 decisions) and compare it with what the simulator and the bare core spend,
and with what the bot interface alone costs: the random bot's ``choose(view,
legal_actions, rng)`` called on a fixed view, with no game at all. That is the
ceiling of any simulator that asks its bots through the interface issue 3 names.

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

TARGET_GAMES_PER_SECOND = 1000


def simulator_rate(bot: str, seconds: float, seed: int) -> tuple[float, float]:
    """Games/s and decisions/s of whole simulated games between two ``bot`` players."""
    bots = [make_bot(bot), make_bot(bot)]
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        result = play_game(bots, seed + games)
        games += 1
        decisions += sum(result.decisions)
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def core_rate(seconds: float, seed: int) -> tuple[float, float]:
    """Games/s and decisions/s of the bare core loop (no views, no bots)."""
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rng = random.Random(seed + games)
        game = Game.new(2, seed=seed + games)
        while game.awaiting != "game_over":
            if game.awaiting == "round_over":
                game.next_round()
                continue
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def bot_call_seconds(calls: int = 1_000_000) -> float:
    """CPU seconds of one ``RandomBot.choose`` on a fixed view: the interface's own cost, no game."""
    game = Game.new(2, seed=1)
    view, legal, rng = game.view(game.to_act), game.legal_actions(), random.Random(1)
    choose = make_bot("random").choose
    start = time.process_time()
    for _ in range(calls):
        choose(view, legal, rng)
    return (time.process_time() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds of each timed run")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each")
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"random sim": [], "heuristic sim": [], "random core": []}
    bot_calls: list[float] = []
    for repeat in range(args.repeats):
        seed = 1000 * repeat
        runs["random sim"].append(simulator_rate("random", args.seconds, seed))
        runs["heuristic sim"].append(simulator_rate("heuristic", args.seconds, seed))
        runs["random core"].append(core_rate(args.seconds, seed))
        bot_calls.append(bot_call_seconds())
    medians = {name: tuple(statistics.median(x) for x in zip(*rates)) for name, rates in runs.items()}
    print(f"heads-up games to 500, one core (CPU time; medians of {args.repeats} alternating runs of {args.seconds:g}s)")
    print(f"{'':>14} {'games/s':>9} {'decisions/s':>12} {'us/decision':>12} {'decisions/game':>15}")
    for name, (games, decisions) in medians.items():
        print(f"{name:>14} {games:>9.1f} {decisions:>12,.0f} {1e6 / decisions:>12.2f} {decisions / games:>15,.0f}")
    games, decisions = medians["random sim"]
    per_game = decisions / games
    budget = 1e6 / (TARGET_GAMES_PER_SECOND * per_game)
    core_games, core_decisions = medians["random core"]
    print(f"target {TARGET_GAMES_PER_SECOND:,} random games/s per core: {games / TARGET_GAMES_PER_SECOND:.3f}x of it; "
          f"it allows {budget:.3f} us per decision ({per_game:,.0f} decisions a game)")
    print(f"spent per decision: simulator {1e6 / decisions:.2f} us ({1e6 / decisions / budget:.0f}x the budget), "
          f"bare core {1e6 / core_decisions:.2f} us ({1e6 / core_decisions / budget:.0f}x); "
          f"simulator / bare core: {decisions / core_decisions:.2f}x decisions/s")
    call = statistics.median(bot_calls)
    print(f"the bot interface alone (RandomBot.choose on a fixed view, no game): {1e6 * call:.3f} us a call "
          f"({1e6 * call / budget:.1f}x the budget); with a free engine and free views it would cap random games "
          f"at {1 / (call * per_game):,.0f}/s per core")


if __name__ == "__main__":
    main()

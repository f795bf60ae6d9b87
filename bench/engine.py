"""Random-policy decisions per second: unokart's rules core against RLCard 1.2.0's UnoGame.

A decision = ask the legal actions, pick one uniformly, apply it. Both engines
run alternately in one process, several short rounds each; medians and their
ratio are printed. RLCard is only needed here: ``pip install rlcard==1.2.0``.

    python bench/engine.py [--seconds 2] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from unokart import Game
from unokart.rules.states import GAME_OVER, ROUND_OVER


def unokart_rate(players: int, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    decisions = 0
    game = Game.new(players, seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            awaiting = game.awaiting
            if awaiting == ROUND_OVER:
                game.next_round()
                continue
            if awaiting == GAME_OVER:
                seed += 1
                game = Game.new(players, seed=seed)
                continue
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        if time.perf_counter() > deadline:
            return decisions / (time.perf_counter() - start)


def rlcard_rate(players: int, seconds: float, seed: int) -> float:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(seed)
    game = UnoGame()
    game.configure({"game_num_players": players})
    game.np_random = np.random.RandomState(seed)
    game.init_game()
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            if game.is_over():
                game.init_game()
                continue
            game.step(rng.choice(game.get_legal_actions()))
            decisions += 1
        if time.perf_counter() > deadline:
            return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="alternating runs per engine and player count")
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit("bench/engine.py needs RLCard as the anchor: pip install rlcard==1.2.0")
    print(f"{'players':>7} {'unokart/s':>12} {'rlcard/s':>12} {'ratio':>7}   (medians of {args.repeats} alternating runs of {args.seconds}s)")
    for players in (2, 4):
        ours, theirs = [], []
        for repeat in range(args.repeats):
            ours.append(unokart_rate(players, args.seconds, seed=repeat))
            theirs.append(rlcard_rate(players, args.seconds, seed=repeat))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{players:>7} {a:>12,.0f} {b:>12,.0f} {a / b:>6.2f}x")


if __name__ == "__main__":
    main()

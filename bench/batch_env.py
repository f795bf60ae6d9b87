"""Random masked decisions per second: ``BatchEnv`` against RLCard 1.2.0's ``rlcard.make("uno")``, and the bare core.

- BatchEnv: 256 games of two players stepped together; each step's actions
  are chosen for the whole batch with numpy from the masks (uniformly among
  each game's legal indices).
  A decision is one game's step: observation and mask of the next deciding seat
  written, finished games restarted.
- RLCard: ``rlcard.make("uno")`` (two players, its only table), its state, a
  random key of ``legal_actions``, ``step()``, one decision at a time.
- The core: ``legal_actions``, a random one, ``apply`` (no observation, no mask):
  what any environment on this core costs at least.

They run in alternating rounds in one process, timed in CPU time (the machine
may be shared); medians and the median of each round's ratio are printed, and
``--split`` shows where a BatchEnv step's time goes. Only this script needs
RLCard: ``pip install rlcard==1.2.0``. The real install compiles the core and
``unokart.env.batch_core`` with mypyc (``pip install .``); an editable install
runs them as plain Python (the script says which it measured).

    python bench/batch_env.py [--seconds 1] [--repeats 7] [--envs 256] [--split]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: idle BLAS threads would only spin

import numpy as np  # noqa: E402

from unokart.env import BatchEnv  # noqa: E402
from unokart.env import batch_core  # noqa: E402
from unokart.env.batch_core import step_batch  # noqa: E402
from unokart.rules import Game  # noqa: E402
from unokart.rules import engine  # noqa: E402


def random_legal(mask: np.ndarray, rng: np.random.Generator, _starts: dict = {}) -> np.ndarray:
    """A uniformly random legal index per row, for the whole batch at once: the flat positions of the legal
    entries (in row order), where each row's begin (``searchsorted`` of the rows' starts), then in each row
    the one at a random position among that row's. (``np.nonzero`` of the 2-D mask cost 8 times as much.)"""
    n, width = mask.shape
    starts = _starts.get((n, width))
    if starts is None:
        starts = _starts[(n, width)] = np.arange(n + 1) * width
    legal = np.flatnonzero(mask)
    bounds = np.searchsorted(legal, starts)
    first = bounds[:-1]
    return legal[first + (rng.random(n) * (bounds[1:] - first)).astype(np.int64)] - starts[:-1]


def batch_rate(envs: int, seconds: float, seed: int, split: dict | None = None) -> float:
    b = BatchEnv(num_envs=envs, players=2, seed=seed)
    obs, mask, seat = b.reset()
    rng = np.random.default_rng(seed)
    decisions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        for _ in range(20):
            if split is None:
                obs, mask, seat, rewards, done = b.step(random_legal(mask, rng))
            else:
                t0 = clock()
                actions = random_legal(mask, rng)
                t1 = clock()
                chosen = b._checked(actions)
                b.rewards.fill(0.0)
                b.done.fill(False)
                b.truncated.fill(False)
                t2 = clock()
                step_batch(b.slots, chosen.tolist(), b._seat_view, b._flat_rewards, b._done_view, b._truncated_view,
                           b._obs_rows, b._mask_rows)
                t3 = clock()
                b._publish()
                t4 = clock()
                split["choose"] += t1 - t0
                split["check"] += t2 - t1
                split["step_batch"] += t3 - t2
                split["publish"] += t4 - t3
            decisions += envs
    return decisions / (clock() - start)


def rlcard_rate(seconds: float, seed: int) -> float:
    import rlcard

    rng = random.Random(seed)
    env = rlcard.make("uno", config={"seed": seed})
    state, _ = env.reset()
    decisions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        for _ in range(200):
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            decisions += 1
            if env.is_over():
                state, _ = env.reset()
    return decisions / (clock() - start)


def core_rate(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    game = Game.new(2, seed=seed)
    game.log_events = False
    decisions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        for _ in range(2000):
            awaiting = game.awaiting
            if awaiting == "round_over" or awaiting == "game_over":
                seed += 1
                game = Game.new(2, seed=seed)
                game.log_events = False
                continue
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
    return decisions / (clock() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--split", action="store_true", help="where a BatchEnv step's CPU time goes (no RLCard): "
                    "numpy's choice of actions, checking them, the compiled games, numpy's widening of the rows")
    args = ap.parse_args()
    compiled = all(m.__file__.endswith((".so", ".pyd")) for m in (engine, batch_core))
    print(f"rules core and batch_core {'compiled (mypyc)' if compiled else 'NOT compiled (plain Python)'}; "
          f"{args.envs} games of two players; CPU time")
    if args.split:
        split = {"choose": 0.0, "check": 0.0, "step_batch": 0.0, "publish": 0.0}
        rate = batch_rate(args.envs, args.seconds * args.repeats, 1, split)
        total = sum(split.values())
        per = 1e6 / rate
        print(f"BatchEnv {per:.2f} us a decision (core alone {1e6 / core_rate(args.seconds * 2, 1):.2f} us):")
        for part, seconds in split.items():
            print(f"  {part:10s} {per * seconds / total:.2f} us")
        return
    rl, batch, core, ratios = [], [], [], []
    for r in range(args.repeats):
        rl.append(rlcard_rate(args.seconds, r))
        batch.append(batch_rate(args.envs, args.seconds, r))
        core.append(core_rate(args.seconds, r))
        ratios.append(batch[-1] / rl[-1])
        print(f"round {r + 1}: RLCard {1e6 / rl[-1]:.2f} us, BatchEnv {1e6 / batch[-1]:.2f} us, "
              f"core {1e6 / core[-1]:.2f} us a decision", flush=True)
    med = statistics.median
    print(f"RLCard   {med(rl):12,.0f} decisions/s  {1e6 / med(rl):6.2f} us")
    print(f"BatchEnv {med(batch):12,.0f} decisions/s  {1e6 / med(batch):6.2f} us")
    print(f"core     {med(core):12,.0f} decisions/s  {1e6 / med(core):6.2f} us  (no observation, no mask)")
    print(f"BatchEnv / RLCard: {med(ratios):.1f}x (median of {len(ratios)} rounds; "
          f"range {min(ratios):.1f} to {max(ratios):.1f}); BatchEnv costs {med(core) / med(batch):.2f}x the core")


if __name__ == "__main__":
    main()

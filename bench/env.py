"""Environment steps per second: unokart's PettingZoo AEC env against RLCard 1.2.0's ``rlcard.make("uno")``.

Both are stepped the same way, with uniformly random legal actions read from
what each env hands the agent (our ``action_mask``; RLCard's
``state["legal_actions"]``), a new episode whenever one ends. A step is one
decision: each env's own observation for the next agent is built every step.
The runs alternate in one process; medians and their ratio are printed.
RLCard's UNO has two players, so the ratio is at two players; the other rows
show how the env scales with the table (and with every house rule on).

The headline is ``env()``, the PettingZoo entry point. It returns a ``raw_env``
itself (no wrapper: ``raw_env`` enforces the call order on its own), so the
``raw_env()`` row runs the very same code and shows the run-to-run noise; the
row with PettingZoo's usual wrappers (``AssertOutOfBoundsWrapper`` inside
``OrderEnforcingWrapper``, what its classic games' ``env()`` adds) shows what
they would cost. RLCard is only needed here: ``pip install rlcard==1.2.0``.

    python bench/env.py [--seconds 1] [--repeats 9]
    python bench/env.py --split     # where a step's microseconds go (no RLCard needed)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

from engine import unokart_rate as core_rate  # bench/engine.py: the rules core stepped alone

from unokart.env import env as pettingzoo_env
from unokart.env import raw_env

ALL_HOUSE_RULES = {"stacking": True, "draw_until_playable": True, "force_play": True, "jump_in": True, "seven_zero": True}


def unokart_rate(make, seconds: float, seed: int) -> float:
    """Decisions per second through the AEC API: ``last()``, a random index where the mask is 1, ``step()``."""
    rng = random.Random(seed)
    aec = make()
    aec.reset(seed=seed)
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            obs, reward, terminated, truncated, info = aec.last()
            if terminated or truncated:
                aec.step(None)
                if not aec.agents:
                    seed += 1
                    aec.reset(seed=seed)
                continue
            legal = obs["action_mask"].nonzero()[0]  # np.flatnonzero's work without its ravel
            aec.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        if time.perf_counter() > deadline:
            return decisions / (time.perf_counter() - start)


def rlcard_rate(seconds: float, seed: int) -> float:
    """Decisions per second of ``rlcard.make("uno")``: its state, a random legal action, ``step()``."""
    import rlcard

    rng = random.Random(seed)
    env = rlcard.make("uno", config={"seed": seed})
    state, _ = env.reset()
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            decisions += 1
            if env.is_over():
                state, _ = env.reset()
        if time.perf_counter() > deadline:
            return decisions / (time.perf_counter() - start)


def step_split(players: int, decisions: int, seed: int) -> dict[str, float]:
    """Microseconds per decision in each part of ``unokart_rate``'s loop, a clock around each part
    (its own cost measured and taken off), plus ``action_mask()`` alone at the same states."""
    clock = time.perf_counter_ns
    overhead = min(-(clock() - clock()) for _ in range(10_000))  # one clock read, as seen between two
    rng = random.Random(seed)
    aec = raw_env(players=players)
    aec.reset(seed=seed)
    spent = {"last": 0, "mask": 0, "agent": 0, "step": 0}
    done = 0
    while done < decisions:
        start = clock()
        obs, reward, terminated, truncated, info = aec.last()
        observed = clock()
        if terminated or truncated:
            aec.step(None)
            if not aec.agents:
                seed += 1
                aec.reset(seed=seed)
            continue
        legal = obs["action_mask"].nonzero()[0]
        index = int(legal[rng.randrange(len(legal))])
        chosen = clock()
        aec.step(index)
        stepped = clock()
        aec.action_mask()
        masked = clock()
        spent["last"] += observed - start - overhead
        spent["agent"] += chosen - observed - overhead
        spent["step"] += stepped - chosen - overhead
        spent["mask"] += masked - stepped - overhead
        done += 1
    return {part: ns / decisions / 1000 for part, ns in spent.items()}


def print_split(players: int, seconds: float) -> None:
    split = step_split(players, decisions=200_000, seed=1)
    core = 1e6 / core_rate(players, seconds, seed=1)
    total = split["last"] + split["agent"] + split["step"]
    print(f"where a decision's time goes, {players} players, us (200,000 decisions of random play):")
    rows = (("last(): the observation and mask", split["last"]),
            ("  of which the mask (action_mask() alone)", split["mask"]),
            ("the agent: a random index where the mask is 1", split["agent"]),
            ("step(): checks, the core's apply, the next seat", split["step"]),
            ("total", total),
            ("the rules core alone (bench/engine.py's loop)", core))
    for label, micros in rows:
        print(f"  {label:<50} {micros:6.2f}")


def wrapped_env(**kwargs) -> object:
    """``raw_env`` inside the wrappers PettingZoo's own classic games put around theirs."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=9, help="alternating runs per environment")
    parser.add_argument("--split", action="store_true", help="only show where a step's time goes, at 2 and 4 players")
    args = parser.parse_args()
    if args.split:
        for players in (2, 4):
            print_split(players, args.seconds)
        return
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit("bench/env.py needs RLCard as the anchor: pip install rlcard==1.2.0 (only for this benchmark)")

    assert pettingzoo_env().__class__ is raw_env  # env() adds no wrapper
    runs = {
        'rlcard.make("uno")': lambda seed: rlcard_rate(args.seconds, seed),
        "unokart env() (PettingZoo AEC)": lambda seed: unokart_rate(lambda: pettingzoo_env(players=2), args.seconds, seed),
        "unokart raw_env() (same object)": lambda seed: unokart_rate(lambda: raw_env(players=2), args.seconds, seed),
        "raw_env() in PettingZoo wrappers": lambda seed: unokart_rate(lambda: wrapped_env(players=2), args.seconds, seed),
        "unokart rules core alone": lambda seed: core_rate(2, args.seconds, seed),
    }
    rates: dict[str, list[float]] = {label: [] for label in runs}
    for repeat in range(args.repeats):
        for label, run in runs.items():
            rates[label].append(run(repeat))
    anchor = rates['rlcard.make("uno")']
    print(f"two players, medians of {args.repeats} alternating rounds of {args.seconds:g} s runs"
          " (the ratio: median of each round's ratio, robust to a load that drifts between rounds):")
    for label, values in rates.items():
        rate = statistics.median(values)
        ratio = statistics.median(ours / theirs for ours, theirs in zip(values, anchor))
        print(f"  {label:<34} {rate:>10,.0f} steps/s {1e6 / rate:6.2f} us/step {ratio:6.2f}x RLCard")
    print("  (the core alone: bench/engine.py's loop, no observation; the ceiling of any env on this core)")

    print(f"unokart env() by table, medians of {args.repeats} runs:")
    for players, options, label in ((4, None, ""), (10, None, ""), (4, ALL_HOUSE_RULES, " every house rule")):
        table_rates = [unokart_rate(lambda: pettingzoo_env(players=players, options=options), args.seconds / 2, seed=r)
                       for r in range(args.repeats)]
        rate = statistics.median(table_rates)
        print(f"  {players:>2} players{label:<18} {rate:>10,.0f} steps/s {1e6 / rate:6.2f} us/step")


if __name__ == "__main__":
    main()

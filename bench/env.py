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

from engine import unokart_rate as core_rate  # bench/engine.py: the rules core stepped alone

from unokart.env import env as pettingzoo_env
from unokart.env import raw_env
from unokart.env.actions import DECLINE, index_of_action

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


def agent_seconds(calls: int = 300_000) -> float:
    """Seconds the agent's own part of a step takes (a random index where the mask is 1), on a fixed
    mask from a real observation: what stepping any env this way costs beyond the env itself."""
    aec = raw_env(players=2)
    aec.reset(seed=1)
    mask = aec.last()[0]["action_mask"]
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(calls):
        legal = mask.nonzero()[0]
        int(legal[rng.randrange(len(legal))])
    return (time.perf_counter() - start) / calls


def split_rate(players: int, seconds: float, seed: int, observe: bool, mask: bool, agent_reads_mask: bool) -> float:
    """Decisions per CPU second of ``unokart_rate``'s loop with parts left out: without ``observe`` the
    loop reads the episode's end from the env's dicts instead of ``last()``; without ``agent_reads_mask``
    the agent picks among ``env.legal`` (the core's legal actions) instead of reading a mask. CPU time
    (``process_time``) so that other jobs on the machine do not blur the differences."""
    rng = random.Random(seed)
    aec = raw_env(players=players)
    aec.reset(seed=seed)
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            agent = aec.agent_selection
            if observe:
                obs, reward, terminated, truncated, info = aec.last()
                action_mask = obs["action_mask"]
            else:
                terminated, truncated = aec.terminations[agent], aec.truncations[agent]
                action_mask = aec.action_mask() if mask else None
            if terminated or truncated:
                aec.step(None)
                if not aec.agents:
                    seed += 1
                    aec.reset(seed=seed)
                continue
            if agent_reads_mask:
                legal = action_mask.nonzero()[0]
                index = int(legal[rng.randrange(len(legal))])
            elif aec.legal:
                index = index_of_action(aec.legal[rng.randrange(len(aec.legal))], players)
            else:
                index = DECLINE  # asked out of turn with nothing to do
            aec.step(index)
            decisions += 1
        if time.process_time() > deadline:
            return decisions / (time.process_time() - start)


def print_split(players: int, seconds: float, repeats: int) -> None:
    """Where a decision's CPU time goes, from the differences between loops that leave parts out."""
    loops = {  # observe, mask, the agent reads the mask
        "full": (True, True, True), "no observation vector": (False, True, True),
        "no observation, agent reads no mask": (False, True, False), "no observation, no mask": (False, False, False),
    }
    micros: dict[str, list[float]] = {label: [] for label in loops}
    core: list[float] = []
    for repeat in range(repeats):
        for label, parts in loops.items():
            micros[label].append(1e6 / split_rate(players, seconds, repeat, *parts))
        wall, cpu = time.perf_counter(), time.process_time()
        rate = core_rate(players, seconds, seed=repeat)  # per wall second: turned into per CPU second
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        core.append(1e6 * cpu / (rate * wall))
    us = {label: statistics.median(values) for label, values in micros.items()}
    print(f"where a decision's CPU time goes, {players} players, us (medians of {repeats} alternating rounds):")
    rows = (("the observation vector (and last())", us["full"] - us["no observation vector"]),
            ("the mask (action_mask())", us["no observation, agent reads no mask"] - us["no observation, no mask"]),
            ("the agent: a random index where the mask is 1", us["no observation vector"] - us["no observation, agent reads no mask"]),
            ("step() and the loop: checks, the core, the next seat", us["no observation, no mask"]),
            ("total (the full loop)", us["full"]),
            ("  the rules core alone (bench/engine.py's loop)", statistics.median(core)))
    for label, value in rows:
        print(f"  {label:<58} {value:6.2f}")


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
            print_split(players, args.seconds, args.repeats)
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
    agent: list[float] = []
    for repeat in range(args.repeats):
        for label, run in runs.items():
            rates[label].append(run(repeat))
        agent.append(agent_seconds())
    anchor = rates['rlcard.make("uno")']
    print(f"two players, medians of {args.repeats} alternating rounds of {args.seconds:g} s runs"
          " (the ratio: median of each round's ratio, robust to a load that drifts between rounds):")
    for label, values in rates.items():
        rate = statistics.median(values)
        ratio = statistics.median(ours / theirs for ours, theirs in zip(values, anchor))
        print(f"  {label:<34} {rate:>10,.0f} steps/s {1e6 / rate:6.2f} us/step {ratio:6.2f}x RLCard")
    print("  (the core alone: bench/engine.py's loop, no observation; the ceiling of any env on this core)")
    core_us, agent_us = 1e6 / statistics.median(rates["unokart rules core alone"]), 1e6 * statistics.median(agent)
    rlcard_us = 1e6 / statistics.median(anchor)
    print(f"  the agent's own part of a step (a random index where the mask is 1): {agent_us:.2f} us; with the core, "
          f"{core_us + agent_us:.2f} us = {rlcard_us / (core_us + agent_us):.1f}x RLCard before any observation,"
          f" mask or PettingZoo call (10x allows {rlcard_us / 10:.2f} us)")

    print(f"unokart env() by table, medians of {args.repeats} runs:")
    for players, options, label in ((4, None, ""), (10, None, ""), (4, ALL_HOUSE_RULES, " every house rule")):
        table_rates = [unokart_rate(lambda: pettingzoo_env(players=players, options=options), args.seconds / 2, seed=r)
                       for r in range(args.repeats)]
        rate = statistics.median(table_rates)
        print(f"  {players:>2} players{label:<18} {rate:>10,.0f} steps/s {1e6 / rate:6.2f} us/step")


if __name__ == "__main__":
    main()

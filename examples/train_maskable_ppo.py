"""Train a MaskablePPO agent on UNO Mario Kart, then show it beating random play.

Needs the optional extra: ``pip install -e '.[train]'`` (sb3-contrib, torch; CPU is enough).

    python examples/train_maskable_ppo.py --minutes 3 --players 4 --out unokart_ppo.zip

1. trains seat 0 of ``SingleAgentEnv`` (round rewards: points won or lost) against random bots;
2. evaluates the policy in the env, rounds won against the same bots, beside a random agent in the same seat;
3. seats the saved policy as a bot (``PolicyBot``) in whole games to 500 played by the
   simulator (``unokart.sim.match.play_game``), exactly as any other bot, and counts the games it wins.
Win rates come with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from unokart.i18n import t


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def report(who: str, opponents: str, wins: int, total: int, unit: str, players: int) -> None:
    low, high = wilson(wins, total)
    print(t("env.eval_result", who=who, opponents=opponents, wins=wins, total=total, unit=t(f"env.unit_{unit}"),
            rate=wins / total, low=low, high=high, chance=1 / players))


def rounds_won(env, choose, rounds: int, seed: int) -> int:
    """Rounds the agent in seat ``env.seat`` wins, ``choose(obs, env)`` picking each action index."""
    wins = 0
    for episode in range(rounds):
        obs, _ = env.reset(seed=seed + episode)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(choose(obs, env))
            done = terminated or truncated
        wins += info.get("round_winner") == env.seat
    return wins


class TimeBudget:
    """Stops training after a number of wall-clock seconds (an sb3 callback, built lazily)."""

    def __new__(cls, seconds: float):
        from stable_baselines3.common.callbacks import BaseCallback

        class _Budget(BaseCallback):
            def _on_training_start(self) -> None:
                self.deadline = time.monotonic() + seconds

            def _on_step(self) -> bool:
                return time.monotonic() < self.deadline

        return _Budget()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="bot name for the other seats (unokart.bots.make_bot)")
    parser.add_argument("--minutes", type=float, default=3.0, help="wall-clock training budget")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="upper bound on training steps")
    parser.add_argument("--eval-rounds", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=40, help="whole games with the PolicyBot in the simulator")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="unokart_ppo.zip")
    args = parser.parse_args()
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError as err:
        sys.exit(t("env.extra_missing", missing=err.name))

    from unokart.bots import make_bot
    from unokart.bots.policy import PolicyBot
    from unokart.env import SingleAgentEnv
    from unokart.sim.match import play_game

    torch.set_num_threads(1)  # a shared 2-core machine: one core for training
    env = SingleAgentEnv(players=args.players, opponents=args.opponents, seat=0, reward="round")
    model = MaskablePPO("MultiInputPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, learning_rate=3e-4,
                        gamma=0.995, ent_coef=0.01, verbose=0, device="cpu")
    print(t("env.train_start", minutes=args.minutes, opponents=args.opponents, players=args.players))
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=TimeBudget(args.minutes * 60))
    model.save(args.out)
    print(t("env.train_saved", path=args.out, steps=model.num_timesteps, seconds=time.monotonic() - start))

    eval_env = SingleAgentEnv(players=args.players, opponents=args.opponents, seat=0, reward="round")
    rng = random.Random(args.seed)

    def policy(obs, env):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    def uniform(obs, env):
        legal = env.action_masks().nonzero()[0]
        return int(legal[rng.randrange(len(legal))])

    seed = 10_000 + args.seed
    for who, choose in (("MaskablePPO", policy), ("random", uniform)):
        wins = rounds_won(eval_env, choose, args.eval_rounds, seed)
        report(who, args.opponents, wins, args.eval_rounds, "rounds", args.players)

    # The saved policy as a bot, in whole games run by the simulator like any other bot.
    bot = PolicyBot(args.out)
    wins = sum(play_game([bot] + [make_bot(args.opponents) for _ in range(args.players - 1)], seed=seed + g).winner == 0
               for g in range(args.eval_games))
    print(t("env.eval_policy_bot"))
    report("PolicyBot", args.opponents, wins, args.eval_games, "games", args.players)


if __name__ == "__main__":
    main()

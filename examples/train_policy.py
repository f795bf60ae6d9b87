"""Train a policy by imitation of a scripted bot, in numpy alone, and save it as a ``.npz`` (``policy:NAME``).

Behaviour cloning with dataset aggregation (DAgger): a teacher bot (``careful``)
plays whole games in the simulator against ``heuristic`` and against itself, and
every decision it makes with more than one choice is recorded as the policy
would see it (``bots.policy.observation_for``: the observation and the legal
mask, only what the seat's view holds) with the teacher's action index. A
perceptron learns those choices by masked cross-entropy (Adam, minibatches,
gradients by hand). Then the policy itself plays, the teacher labels the states
it reaches, and it learns again on all of it, so it learns to recover from its
own mistakes. Every stage ends with whole games against ``heuristic``: the curve.

    nice -n 10 python examples/train_policy.py --out trained.npz --curve curve.json
    UNOKART_MODELS=. unokart simulate --bots policy:trained,heuristic --games 2000 --seed 1

One process, one core (BLAS threads pinned to one): a shared 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: BLAS threads would only spin
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from unokart.bots import make_bot  # noqa: E402
from unokart.bots.policy import FORMAT, NumpyPolicy, NumpyPolicyBot, observation_for  # noqa: E402
from unokart.env.actions import DECLINE, N_ACTIONS, index_of_action  # noqa: E402
from unokart.env.aec import observation_space  # noqa: E402
from unokart.rules.options import Options  # noqa: E402
from unokart.sim.match import play_game  # noqa: E402


class Recorder:
    """Plays as ``actor`` (the teacher itself when None) and records the teacher's choice of every
    decision that has more than one legal index, as (observation, mask, index)."""

    def __init__(self, teacher, sink: list, actor=None):
        self.teacher, self.actor, self.sink = teacher, actor, sink
        self.name = getattr(actor or teacher, "name", "recorder")

    def choose(self, view, legal_actions, rng):
        obs = observation_for(view, legal_actions)
        mask = obs["action_mask"]
        if mask.sum() > 1:
            taught = self.teacher.choose(view, legal_actions, rng)
            index = DECLINE if taught is None else index_of_action(taught, view.n)
            self.sink.append((obs["observation"].astype(np.float16), np.packbits(mask.astype(bool)), index))
            if self.actor is None:
                return taught
        elif self.actor is None:
            return self.teacher.choose(view, legal_actions, rng)
        return self.actor.choose(view, legal_actions, rng)


def collect(teacher: str, opponents: list[str], games: int, seed: int, student=None) -> list:
    """Whole heads-up games, seats alternating; the teacher's seat recorded (both seats against itself).
    With ``student``, the student plays the recorded seat and the teacher only labels."""
    sink: list = []
    for g in range(games):
        opponent = opponents[g % len(opponents)]
        me = Recorder(make_bot(teacher), sink, student)
        other = Recorder(make_bot(teacher), sink, student) if opponent == teacher else make_bot(opponent)
        bots = [me, other] if g % 2 == 0 else [other, me]
        play_game(bots, seed=seed + g)
    return sink


def as_arrays(samples: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.stack([s[0] for s in samples])
    m = np.unpackbits(np.stack([s[1] for s in samples]), axis=1, count=N_ACTIONS).astype(bool)
    y = np.array([s[2] for s in samples], np.int64)
    return x, m, y


def init_params(rng: np.random.Generator, sizes: list[int]) -> dict[str, np.ndarray]:
    p = {}
    for k, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        p[f"w{k}"] = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)
        p[f"b{k}"] = np.zeros(fan_out, np.float32)
    return p


def forward(p: dict, x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """The hidden activations (input first) and the logits."""
    hs = [x]
    depth = len(p) // 2
    for k in range(depth - 1):
        hs.append(np.tanh(hs[-1] @ p[f"w{k}"] + p[f"b{k}"]))
    return hs, hs[-1] @ p[f"w{depth - 1}"] + p[f"b{depth - 1}"]


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def grads_of(p: dict, x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> tuple[dict, float]:
    """The masked cross-entropy's gradients, by hand, and its mean."""
    b = len(x)
    hs, logits = forward(p, x)
    logp = masked_log_softmax(logits, mask)
    d = np.exp(logp) * mask
    d[np.arange(b), y] -= 1.0
    d /= b
    grads = {}
    for k in reversed(range(len(hs))):
        grads[f"w{k}"], grads[f"b{k}"] = hs[k].T @ d, d.sum(0)
        if k:
            d = (d @ p[f"w{k}"].T) * (1 - hs[k] ** 2)
    return grads, float(-logp[np.arange(b), y].mean())


class Adam:
    def __init__(self, params: dict, lr: float):
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict, grads: dict) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            params[k] -= (self.lr * mhat / (np.sqrt(vhat) + 1e-7)).astype(np.float32)


def accuracy(p: dict, x: np.ndarray, m: np.ndarray, y: np.ndarray) -> float:
    hits = 0
    for start in range(0, len(x), 4096):
        logits = forward(p, x[start:start + 4096])[1]
        hits += int((np.where(m[start:start + 4096], logits, -np.inf).argmax(1) == y[start:start + 4096]).sum())
    return hits / max(1, len(x))


def fit(p: dict, adam: Adam, data: tuple, epochs: int, batch: int, rng: np.random.Generator, scale: np.ndarray) -> list:
    """Minibatch epochs over ``data``, 2% held out; one line of the curve per epoch."""
    x, m, y = data
    order = rng.permutation(len(x))
    held, train = order[: len(x) // 50], order[len(x) // 50:]
    xh = x[held].astype(np.float32) * scale
    lines = []
    for epoch in range(epochs):
        losses = []
        for chunk in np.array_split(rng.permutation(train), max(1, len(train) // batch)):
            grads, loss = grads_of(p, x[chunk].astype(np.float32) * scale, m[chunk], y[chunk])
            adam.step(p, grads)
            losses.append(loss)
        lines.append({"epoch": epoch + 1, "loss": float(np.mean(losses)), "held_out_agreement": accuracy(p, xh, m[held], y[held])})
        print(json.dumps(lines[-1]), flush=True)
    return lines


def to_policy(p: dict, scale: np.ndarray, meta: dict) -> NumpyPolicy:
    depth = len(p) // 2
    return NumpyPolicy([(p[f"w{k}"].copy(), p[f"b{k}"].copy()) for k in range(depth)], scale, {"format": FORMAT, **meta})


def games_won(policy: NumpyPolicy, opponent: str, games: int, seed: int) -> float:
    """The share of whole heads-up games to 500 the policy wins against ``opponent``, seats alternating."""
    me, other = NumpyPolicyBot(policy), make_bot(opponent)
    wins = 0
    for g in range(games):
        bots = [me, other] if g % 2 == 0 else [other, me]
        wins += play_game(bots, seed=seed + g).winner == g % 2
    return wins / games


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share won over ``games``."""
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * np.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def plot_curve(curve: list, path: str) -> None:
    """The learning curve as a PNG: agreement with the teacher by epoch, games won against heuristic by stage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    epochs, agreement, ends, won, low, high = [], [], [], [], [], []
    for stage in curve:
        for line in stage["epochs"]:
            epochs.append(len(epochs) + 1)
            agreement.append(100 * line["held_out_agreement"])
        ends.append(len(epochs))
        share = stage["games_won_vs_heuristic"]
        a, b = wilson(share, stage["eval_games"])
        won.append(100 * share), low.append(100 * (share - a)), high.append(100 * (b - share))
    ax.plot(epochs, agreement, "o-", label="held-out agreement with the teacher (% of decisions)")
    ax.errorbar(ends, won, yerr=[low, high], fmt="s", color="C3", capsize=4,
                label="games won against heuristic, 95% interval (%)")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    for end, stage in zip(ends, curve):
        ax.annotate(f"stage {stage['stage']}\n{stage['decisions'] // 1000}k decisions", (end, 52), ha="right", fontsize=7)
    ax.set_xlabel("epoch (stage 0: the teacher's games; later stages add the policy's own games, labelled)")
    ax.set_ylabel("%")
    ax.set_ylim(40, 100)
    ax.legend(loc="center right", fontsize=8)
    ax.set_title("policy:trained, behaviour cloning of careful + DAgger (examples/train_policy.py)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", default="careful")
    ap.add_argument("--opponents", default="heuristic,careful", help="whom the teacher plays while recorded")
    ap.add_argument("--games", type=int, default=300, help="teacher games recorded at the start")
    ap.add_argument("--dagger-rounds", type=int, default=2)
    ap.add_argument("--dagger-games", type=int, default=150, help="games the policy plays, labelled, each round")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--eval-games", type=int, default=100, help="games against heuristic after each stage")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="trained.npz")
    ap.add_argument("--curve", default=None, help="write the learning curve here (JSON)")
    ap.add_argument("--plot", default=None, help="draw the learning curve into this PNG (needs matplotlib)")
    ap.add_argument("--plot-only", action="store_true", help="only draw --plot from the --curve file")
    args = ap.parse_args()
    if args.plot_only:
        with open(args.curve) as f:
            plot_curve(json.load(f), args.plot)
        return

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    random.seed(args.seed)
    scale = (1.0 / observation_space(Options())["observation"].high).astype(np.float32)
    p = init_params(rng, [len(scale), args.hidden, args.hidden, N_ACTIONS])
    adam = Adam(p, args.lr)
    opponents = args.opponents.split(",")
    samples = collect(args.teacher, opponents, args.games, seed=1_000_000 * args.seed)
    curve: list = []
    meta = {"activation": "tanh", "players": 2, "algorithm": "behaviour cloning + DAgger (numpy, examples/train_policy.py)",
            "teacher": args.teacher, "recorded_against": opponents, "seed": args.seed, "args": vars(args)}
    for stage in range(args.dagger_rounds + 1):
        if stage:
            student = NumpyPolicyBot(to_policy(p, scale, meta))
            samples += collect(args.teacher, ["heuristic"], args.dagger_games, seed=1_000_000 * args.seed + 100_000 * stage,
                               student=student)
        lines = fit(p, adam, as_arrays(samples), args.epochs, args.batch, rng, scale)
        won = games_won(to_policy(p, scale, meta), "heuristic", args.eval_games, seed=7_000_000 + 10_000 * stage)
        curve.append({"stage": stage, "decisions": len(samples), "minutes": round((time.perf_counter() - start) / 60, 2),
                      "epochs": lines, "games_won_vs_heuristic": won, "eval_games": args.eval_games})
        print(json.dumps({k: v for k, v in curve[-1].items() if k != "epochs"}), flush=True)
        to_policy(p, scale, {**meta, "stage": stage}).save(args.out)
        if args.curve:
            with open(args.curve, "w") as f:
                json.dump(curve, f, indent=1)
        if args.plot:
            plot_curve(curve, args.plot)
    minutes = round((time.perf_counter() - start) / 60, 1)
    to_policy(p, scale, {**meta, "decisions": len(samples), "minutes": minutes}).save(args.out)
    print(json.dumps({"minutes": minutes, "decisions": len(samples), "out": args.out}))


if __name__ == "__main__":
    main()

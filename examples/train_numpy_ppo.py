"""Train a policy with PPO written in numpy alone, on the batched env against bots, and save it as a ``.npz``.

No torch: a two-layer tanh perceptron, its gradients by hand, Adam. The batch
env plays the bots inside its step, so one seat of every game learns.

    python examples/train_numpy_ppo.py --minutes 10 --opponents heuristic --out baseline.npz
    UNOKART_MODELS=. unokart simulate --bots policy:baseline,heuristic --games 2000
    python examples/train_numpy_ppo.py --init trained.npz --opponents careful,heuristic --lr 5e-5 --out tuned.npz

``--init`` starts from a saved policy of the same shape (two hidden layers; e.g. one cloned by
``examples/train_policy.py``): the value head learns alone for ``--value-warmup`` updates first, so
the first policy steps follow a value that already fits. ``--opponents`` may list several bots: the
updates take turns among one batch env per opponent.

The saved file plays with numpy alone (``unokart.bots.policy``): copy it
into a models folder and seat it as ``policy:NAME``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: BLAS threads would only spin

import numpy as np  # noqa: E402

from unokart.env import BatchEnv  # noqa: E402
from unokart.env.aec import observation_space  # noqa: E402
from unokart.bots.policy import FORMAT, NumpyPolicy  # noqa: E402


def init_params(rng: np.random.Generator, sizes: list[int]) -> dict[str, np.ndarray]:
    p = {}
    for k, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        gain = 0.01 if k == len(sizes) - 2 else np.sqrt(2.0)  # small last layer: a near-uniform first policy
        p[f"w{k}"] = (rng.standard_normal((fan_in, fan_out)) * gain / np.sqrt(fan_in)).astype(np.float32)
        p[f"b{k}"] = np.zeros(fan_out, np.float32)
    p["wv"] = np.zeros((sizes[-2], 1), np.float32)
    p["bv"] = np.zeros(1, np.float32)
    return p


def forward(p, x):
    h0 = np.tanh(x @ p["w0"] + p["b0"])
    h1 = np.tanh(h0 @ p["w1"] + p["b1"])
    return h0, h1, h1 @ p["w2"] + p["b2"], (h1 @ p["wv"] + p["bv"])[:, 0]


def masked_log_softmax(logits, mask):
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def ppo_grads(p, x, mask, actions, old_logp, adv, returns, clip, vf_coef, ent_coef):
    """The PPO loss's gradients, by hand, for one minibatch."""
    b = len(x)
    h0, h1, logits, v = forward(p, x)
    logp_all = masked_log_softmax(logits, mask)
    prob = np.exp(logp_all) * mask
    logp = logp_all[np.arange(b), actions]
    ratio = np.exp(logp - old_logp)
    clipped = ((adv >= 0) & (ratio > 1 + clip)) | ((adv < 0) & (ratio < 1 - clip))
    g = np.where(clipped, 0.0, -adv * ratio) / b  # d loss / d logp
    dlogits = -prob * g[:, None]
    dlogits[np.arange(b), actions] += g
    entropy = -(prob * np.where(mask, logp_all, 0.0)).sum(axis=1)
    dlogits += ent_coef / b * prob * (np.where(mask, logp_all, 0.0) + entropy[:, None])
    dv = vf_coef * (v - returns) / b
    grads = {"w2": h1.T @ dlogits, "b2": dlogits.sum(0), "wv": h1.T @ dv[:, None], "bv": np.array([dv.sum()])}
    dh1 = (dlogits @ p["w2"].T + dv[:, None] @ p["wv"].T) * (1 - h1 ** 2)
    grads["w1"], grads["b1"] = h0.T @ dh1, dh1.sum(0)
    dh0 = (dh1 @ p["w1"].T) * (1 - h0 ** 2)
    grads["w0"], grads["b0"] = x.T @ dh0, dh0.sum(0)
    stats = {"clipfrac": float(clipped.mean()), "entropy": float(entropy.mean()),
             "value_loss": float(((v - returns) ** 2).mean())}
    return grads, stats


class Adam:
    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads, max_norm=0.5):
        norm = np.sqrt(sum(float((g ** 2).sum()) for g in grads.values()))
        scale = min(1.0, max_norm / (norm + 1e-8))
        self.t += 1
        for k, g in grads.items():
            g = g * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            vhat = self.v[k] / (1 - 0.999 ** self.t)
            params[k] -= (self.lr * mhat / (np.sqrt(vhat) + 1e-5)).astype(np.float32)


def load_init(path: str) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The parameters (a zero value head added) and the observation scale of a saved two-hidden-layer policy."""
    policy = NumpyPolicy.load(path)
    if len(policy.layers) != 3:
        raise SystemExit(f"{path}: {len(policy.layers)} layers, this script trains policies of 3 (two hidden)")
    p = {}
    for k, (w, b) in enumerate(policy.layers):
        p[f"w{k}"], p[f"b{k}"] = w.copy(), b.copy()
    p["wv"] = np.zeros((p["w2"].shape[0], 1), np.float32)
    p["bv"] = np.zeros(1, np.float32)
    return p, policy.obs_scale


def plot_log(logs: list[str], path: str) -> None:
    """The progress lines this script prints (every 20 updates), drawn as a curve: the rounds the learner
    won among its last 400, by decisions trained on; several logs are runs that continued one another
    (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, won, starts = [], [], []
    for log in logs:
        offset = steps[-1] if steps else 0.0
        starts.append(offset)
        with open(log) as f:
            for line in f:
                words = line.split()
                if len(words) > 8 and words[2] == "steps" and words[6:8] == ["round", "wins"]:
                    steps.append(offset + int(words[1]) / 1e6)
                    won.append(100 * float(words[8]))
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(steps, won, lw=0.8, alpha=0.5, label="each line printed")
    smooth = np.convolve(won, np.ones(10) / 10, mode="valid")  # ten lines: 4,000 rounds
    ax.plot(steps[9:], smooth, lw=2, label="mean of ten")
    for start in starts[1:]:
        ax.axvline(start, color="grey", lw=0.8, ls=":")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("decisions trained on (millions; dotted: a run continued from the last one's file)")
    ax.set_ylabel("rounds won, last 400 (%)")
    ax.set_title("PPO progress: " + ", ".join(log.rsplit("/", 1)[-1] for log in logs))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=32, help="steps per env per update")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--entropy", type=float, default=0.01, help="the entropy bonus's weight")
    ap.add_argument("--out", default="baseline.npz")
    ap.add_argument("--init", default=None, help="start from this saved policy (.npz, two hidden layers)")
    ap.add_argument("--value-warmup", type=int, default=20, help="with --init: updates that train the value head alone")
    ap.add_argument("--save-every", type=int, default=20, help="save the policy every this many updates")
    ap.add_argument("--plot-log", nargs="+", metavar="LOG... PNG", help="only draw saved runs' printed progress into PNG")
    args = ap.parse_args()
    if args.plot_log:
        plot_log(args.plot_log[:-1], args.plot_log[-1])
        return

    rng = np.random.default_rng(args.seed)
    envs = [BatchEnv(num_envs=args.envs, players=args.players, opponents=name, seed=args.seed + k)
            for k, name in enumerate(args.opponents.split(","))]
    env = envs[0]
    if args.init:
        params, obs_scale = load_init(args.init)
    else:
        # Inputs scaled to about [0, 1] by the observation space's bounds.
        obs_scale = (1.0 / observation_space(env.options)["observation"].high).astype(np.float32)
        params = init_params(rng, [len(obs_scale), args.hidden, args.hidden, 255])
    adam = Adam(params, args.lr)
    learner = env.learner
    states = [e.reset() for e in envs]
    warmup = args.value_warmup if args.init else 0
    n, T = args.envs, args.steps
    gamma, lam, clip = 0.997, 0.95, 0.2
    start = time.perf_counter()
    deadline = start + 60 * args.minutes
    samples, episodes, wins, update = 0, 0, 0, 0
    recent: list[float] = []
    while time.perf_counter() < deadline:
        env = envs[update % len(envs)]
        obs, mask, _ = states[update % len(envs)]
        xs = np.zeros((T, n, len(obs_scale)), np.float32)
        masks = np.zeros((T, n, 255), bool)
        acts = np.zeros((T, n), np.int64)
        logps = np.zeros((T, n), np.float32)
        values = np.zeros((T + 1, n), np.float32)
        rewards = np.zeros((T, n), np.float32)
        dones = np.zeros((T, n), np.float32)
        for step in range(T):
            x = obs * obs_scale
            _, _, logits, v = forward(params, x)
            logp_all = masked_log_softmax(logits, mask)
            # sample by the Gumbel trick, masked
            a = np.where(mask, logp_all - np.log(-np.log(rng.random(logp_all.shape))), -np.inf).argmax(axis=1)
            xs[step], masks[step], acts[step] = x, mask, a
            logps[step], values[step] = logp_all[np.arange(n), a], v
            obs, mask, _, r, done = env.step(a)
            rewards[step], dones[step] = r[:, learner], done
            for i in np.flatnonzero(done):
                episodes += 1
                wins += r[i, learner] > 0
                recent.append(float(r[i, learner] > 0))
        states[update % len(envs)] = (obs.copy(), mask.copy(), None)
        values[T] = forward(params, obs * obs_scale)[3]
        adv = np.zeros((T, n), np.float32)
        last = np.zeros(n, np.float32)
        for step in reversed(range(T)):
            nonterminal = 1.0 - dones[step]
            delta = rewards[step] + gamma * values[step + 1] * nonterminal - values[step]
            last = delta + gamma * lam * nonterminal * last
            adv[step] = last
        returns = adv + values[:T]
        flat = lambda a: a.reshape(T * n, *a.shape[2:])  # noqa: E731
        bx, bm, ba, bl, badv, bret = map(flat, (xs, masks, acts, logps, adv, returns))
        badv = (badv - badv.mean()) / (badv.std() + 1e-8)
        for _ in range(4):
            order = rng.permutation(T * n)
            for chunk in np.array_split(order, 4):
                grads, stats = ppo_grads(params, bx[chunk], bm[chunk], ba[chunk], bl[chunk], badv[chunk], bret[chunk],
                                         clip, 0.5, args.entropy)
                if update < warmup:  # the value head alone: the policy stays as it was
                    grads = {k: (g if k in ("wv", "bv") else np.zeros_like(g)) for k, g in grads.items()}
                adam.step(params, grads)
        samples += T * n
        update += 1
        if update % args.save_every == 0:
            save(params, obs_scale, args, samples, episodes, start)
        if update % 20 == 0:
            recent = recent[-400:]
            print(f"{time.perf_counter() - start:6.0f}s  {samples:8d} steps  {episodes:6d} rounds  "
                  f"recent round wins {np.mean(recent) if recent else 0:.3f}  entropy {stats['entropy']:.2f}  "
                  f"value loss {stats['value_loss']:.3f}", flush=True)
    print(json.dumps(save(params, obs_scale, args, samples, episodes, start)))


def save(params: dict, obs_scale: np.ndarray, args: argparse.Namespace, samples: int, episodes: int, start: float) -> dict:
    meta = {"format": FORMAT, "activation": "tanh", "players": args.players, "trained_against": args.opponents,
            "algorithm": "PPO (numpy, examples/train_numpy_ppo.py)", "steps": samples, "rounds": episodes,
            "minutes": round((time.perf_counter() - start) / 60, 1), "seed": args.seed,
            "init": args.init, "lr": args.lr, "entropy": args.entropy}
    NumpyPolicy([(params[f"w{k}"].copy(), params[f"b{k}"].copy()) for k in range(3)], obs_scale, meta).save(args.out)
    return meta


if __name__ == "__main__":
    main()

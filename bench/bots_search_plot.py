"""docs/measurements/search.png: ISMCTS heads-up against its prior alone or another bot, one row per saved run.

Each row is a ``unokart simulate --json`` file (or a pool of them, bench/bots_pool.py) of a match of two
bots whose first bot is the search (its opponent, the second bot, is named in the row's label): the
share of games won by the search's side (left) and of rounds (right), each with its 95% interval, the
games or rounds played written beside it. Heads-up or at four with two seats each (``a, b, a, b``),
the side's share is 50% when even.

    python bench/bots_search_plot.py OUT.png LABEL=FILE.json [LABEL=FILE.json ...]
"""

from __future__ import annotations

import argparse
import json

from unokart.sim.stats import wilson_interval

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def run(arg: str) -> tuple[str, str]:
    label, sep, path = arg.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{arg!r} is not LABEL=FILE.json")
    return label, path


def side(bot: dict) -> dict:
    """The share of games and of rounds won by any of the bot's seats, with 95% intervals (the counts
    in a summary are per seat: a bot filling two seats of four has each game counted twice)."""
    games, rounds = bot["games_played"] // bot["seats"], bot["rounds_played"] // bot["seats"]
    return {"games": games, "rounds": rounds, "win_rate": bot["games_won"] / games,
            "ci95": wilson_interval(bot["games_won"], games), "round_win_rate": bot["rounds_won"] / rounds,
            "round_ci95": wilson_interval(bot["rounds_won"], rounds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("runs", nargs="+", type=run, metavar="LABEL=FILE.json", help="a saved heads-up run")
    args = parser.parse_args()
    out, runs = args.out, args.runs
    rows = []
    for label, path in runs:
        summary = json.load(open(path))
        search, opponent = summary["bots"][:2]
        if search["seats"] != opponent["seats"]:
            parser.error(f"{path}: the two bots fill {search['seats']} and {opponent['seats']} seats, not as many each")
        table = "" if summary["players"] == 2 else f", {summary['players']} players"
        rows.append((f"{label}\nagainst {opponent['name']}{table}", side(search)))
    fig, axes = plt.subplots(1, 2, figsize=(11, 1.3 + 0.7 * len(rows)), sharey=True)
    for ax, (rate, ci, count, what) in zip(axes, [("win_rate", "ci95", "games", "games"),
                                                   ("round_win_rate", "round_ci95", "rounds", "rounds")]):
        for y, (label, bot) in enumerate(rows):
            low, high = bot[ci]
            ax.errorbar(100 * bot[rate], y, xerr=[[100 * (bot[rate] - low)], [100 * (high - bot[rate])]],
                        fmt="o", color="tab:blue", capsize=4)
        left = min(49.0, min(100 * bot[ci][0] for _, bot in rows) - 1)
        right = max(56.0, max(100 * bot[ci][1] for _, bot in rows))
        span = right - left
        ax.set_xlim(left, right + 0.3 * span)  # room for the counts on the right of each interval
        for y, (label, bot) in enumerate(rows):
            ax.text(100 * bot[ci][1] + 0.02 * span, y, f"{bot[count]:,} {what}", va="center", fontsize=8)
        ax.axvline(50, color="grey", lw=1)
        if what == "games":
            ax.axvline(55, color="tab:green", lw=1, ls="--")
            ax.axvline(52, color="tab:orange", lw=1, ls=":")
        ax.set_xlabel(f"{what} won by the search (%)")
    axes[0].set_yticks(range(len(rows)), [label for label, _ in rows])
    axes[0].invert_yaxis()
    axes[0].set_title("games (target: 55%, interval above 52%)", fontsize=9)
    axes[1].set_title("rounds", fontsize=9)
    fig.suptitle("ISMCTS: share won by its side, 95% interval", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()

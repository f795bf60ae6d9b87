"""docs/measurements/search.png: ISMCTS heads-up against its prior alone or another bot, one row per saved run.

Each row is a ``unokart simulate --json`` file of a heads-up match whose first bot is the search (its
opponent, the second bot, is named in the row's label): the share of games won by the search (left)
and of rounds (right), each with its 95% interval, the games or rounds played written beside it.

    python bench/bots_search_plot.py OUT.png LABEL=FILE.json [LABEL=FILE.json ...]
"""

from __future__ import annotations

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def run(arg: str) -> tuple[str, str]:
    label, sep, path = arg.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{arg!r} is not LABEL=FILE.json")
    return label, path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("runs", nargs="+", type=run, metavar="LABEL=FILE.json", help="a saved heads-up run")
    args = parser.parse_args()
    out, runs = args.out, args.runs
    rows = []
    for label, path in runs:
        search, opponent = json.load(open(path))["bots"][:2]
        rows.append((f"{label}\nagainst {opponent['name']}", search))
    fig, axes = plt.subplots(1, 2, figsize=(11, 1.3 + 0.7 * len(rows)), sharey=True)
    for ax, (rate, ci, count, what) in zip(axes, [("win_rate", "ci95", "games_played", "games"),
                                                   ("round_win_rate", "round_ci95", "rounds_played", "rounds")]):
        for y, (label, bot) in enumerate(rows):
            low, high = bot[ci]
            ax.errorbar(100 * bot[rate], y, xerr=[[100 * (bot[rate] - low)], [100 * (high - bot[rate])]],
                        fmt="o", color="tab:blue", capsize=4)
            ax.text(100 * high + 0.6, y, f"{bot[count]:,} {what}", va="center", fontsize=8)
        ax.axvline(50, color="grey", lw=1)
        if what == "games":
            ax.axvline(55, color="tab:green", lw=1, ls="--")
            ax.axvline(52, color="tab:orange", lw=1, ls=":")
        ax.set_xlabel(f"{what} won by the search (%)")
    axes[0].set_yticks(range(len(rows)), [label for label, _ in rows])
    axes[0].invert_yaxis()
    axes[0].set_title("games (target: 55%, interval above 52%)", fontsize=9)
    axes[1].set_title("rounds", fontsize=9)
    fig.suptitle("ISMCTS heads-up: share won, 95% interval", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()

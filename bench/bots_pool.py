"""Pool several ``unokart simulate --json`` files of one match into one summary, as simulate writes it.

A long match is played in chunks (say 100 games each, every chunk with its own ``--seed``, so no two
chunks share a deal) so that a run stopped at any time keeps every finished chunk; this sums them.
Every file must have the same lineup, table size and options, and no two the same seed (the same
seed is the same games). Counts are summed; the rates and 95% intervals are computed again from the
sums; decision time and points a round are weighted by decisions and rounds. Ratings are per run
and are not pooled (left out). The result names its parts: ``"pooled": [{"file", "seed", "games"}]``.

    python bench/bots_pool.py OUT.json RUN.json [RUN.json ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from unokart.sim.stats import wilson_interval

COUNTS = ("games_played", "games_won", "rounds_played", "rounds_won", "decisions")


def pool(runs: list[tuple[str, dict]]) -> dict:
    first = runs[0][1]
    seeds: dict[int, str] = {}
    for name, run in runs:
        for key in ("lineup", "players", "options", "max_decisions"):
            if run[key] != first[key]:
                raise SystemExit(f"{name}: its {key} {run[key]!r} is not {runs[0][0]}'s {first[key]!r}")
        if run["seed"] in seeds:
            raise SystemExit(f"{name} and {seeds[run['seed']]} have the same seed {run['seed']}: the same games")
        seeds[run["seed"]] = name
    bots = []
    for i, bot in enumerate(first["bots"]):
        sides = [run["bots"][i] for _, run in runs]
        total = {key: sum(side[key] for side in sides) for key in COUNTS}
        points = sum(side["points_per_round"] * side["rounds_played"] for side in sides)
        ms = sum(side["decision_ms"] * side["decisions"] for side in sides)
        bots.append({
            "name": bot["name"], "seats": bot["seats"], **{k: total[k] for k in COUNTS[:4]},
            "win_rate": total["games_won"] / total["games_played"],
            "ci95": list(wilson_interval(total["games_won"], total["games_played"])),
            "round_win_rate": total["rounds_won"] / total["rounds_played"],
            "round_ci95": list(wilson_interval(total["rounds_won"], total["rounds_played"])),
            "points_per_round": points / total["rounds_played"],
            "decision_ms": ms / total["decisions"] if total["decisions"] else 0.0,
            "decisions": total["decisions"],
        })
    return {
        "games": sum(run["games"] for _, run in runs), "players": first["players"],
        "seed": [run["seed"] for _, run in runs],
        "abandoned": sum(run["abandoned"] for _, run in runs), "max_decisions": first["max_decisions"],
        "options": first["options"], "lineup": first["lineup"], "bots": bots,
        "pooled": [{"file": Path(name).name, "seed": run["seed"], "games": run["games"]} for name, run in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the pooled JSON to write")
    parser.add_argument("runs", nargs="+", help="simulate --json files of one match")
    args = parser.parse_args()
    runs = [(path, json.loads(Path(path).read_text(encoding="utf-8"))) for path in args.runs]
    pooled = pool(runs)
    Path(args.out).write_text(json.dumps(pooled, indent=1) + "\n", encoding="utf-8")
    for bot in pooled["bots"]:
        lo, hi = bot["ci95"]
        print(f"{bot['name']}: {bot['games_won']} of {bot['games_played']} games, "
              f"{100 * bot['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)")


if __name__ == "__main__":
    main()

"""Play again one level's pairings of a saved round robin (the level changed: a new default budget, say).

Reads a round robin saved by ``unokart simulate --round-robin --results`` and plays afresh every pairing
that has LEVEL in it, as the round robin plays them: the same seed (so the same deals as every other
pairing), the same table sizes, options and order of the two levels, a chunk of games at a time, the
pairing with the least time so far next. After every chunk it writes OUT: the saved round robin with
LEVEL's pairings replaced by the new games (a pairing of LEVEL not yet replayed is left out, not kept
with the old bot's games). Ctrl-C or SIGTERM stops it after the game being played, keeping whole blocks;
OUT is then read as any round robin (``unokart simulate --from-results OUT --plot ...``).

    python bench/bots_rr_level.py LEVEL SAVED.json OUT.json [--chunk 100]
"""

from __future__ import annotations

import argparse
import json
import signal
import time
from pathlib import Path

from unokart.sim.roundrobin import Pairing, document, save
from unokart.sim.tournament import play_indexed


def merged(saved: dict, level: str, redo: list[Pairing], max_decisions: int) -> dict:
    """``saved`` with the rows of ``level`` replaced by those of ``redo`` (in the saved order)."""
    new = document(saved["levels"], saved["tables"], saved["games"], saved["seed"], saved["options"], redo, max_decisions)
    fresh = {(r["players"], tuple(r["levels"])): r for r in new["pairings"]}
    rows = []
    for row in saved["pairings"]:
        key = (row["players"], tuple(row["levels"]))
        if level not in row["levels"]:
            rows.append(row)
        elif key in fresh:
            rows.append(fresh[key])
    done = all(row["games"] >= row["target"] for row in rows) and len(rows) == len(saved["pairings"])
    return {**saved, "finished": done, "pairings": rows}


def play(saved: dict, level: str, out: Path, chunk: int) -> dict:
    rows = [row for row in saved["pairings"] if level in row["levels"]]
    if not rows:
        raise SystemExit(f"no pairing of the saved round robin has {level!r} (levels: {', '.join(saved['levels'])})")
    max_decisions = rows[0]["summary"]["max_decisions"]
    redo = [Pairing(row["levels"][0], row["levels"][1], row["players"], row["target"]) for row in rows]
    try:
        while waiting := [p for p in redo if not p.done]:
            pairing = min(waiting, key=lambda p: p.seconds)
            setup = pairing.setup(saved["seed"], saved["options"], max_decisions)
            end = min(pairing.target, len(pairing.played) + chunk)
            while len(pairing.played) < end:
                start = time.perf_counter()
                pairing.played.append(play_indexed(setup, len(pairing.played)))
                pairing.seconds += time.perf_counter() - start
            save(merged(saved, level, redo, max_decisions), out)
            print(f"{time.strftime('%H:%M:%S')} {pairing.players}p {pairing.a} - {pairing.b}: "
                  f"{len(pairing.played)} games, {pairing.seconds:.0f} s", flush=True)
    except KeyboardInterrupt:
        for p in redo:  # whole blocks only, so that seats stay evenly rotated
            p.played = p.played[:len(p.played) - len(p.played) % p.players]
    doc = merged(saved, level, redo, max_decisions)
    save(doc, out)
    return doc


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("level", help="the level whose pairings are played again, as the round robin names it")
    parser.add_argument("saved", type=Path, help="a round robin saved by simulate --round-robin --results")
    parser.add_argument("out", type=Path, help="where the round robin with the new games is written")
    parser.add_argument("--chunk", type=int, default=100, help="games a pairing plays before the schedule looks again "
                                                               "(a multiple of every table size)")
    args = parser.parse_args()
    saved = json.loads(args.saved.read_text(encoding="utf-8"))
    if saved.get("kind") != "round_robin":
        raise SystemExit(f"{args.saved} is not a saved round robin")
    if any(args.chunk % n for n in saved["tables"]):
        raise SystemExit(f"--chunk {args.chunk} is not a multiple of every table size {saved['tables']}")
    signal.signal(signal.SIGTERM, _interrupt)
    doc = play(saved, args.level, args.out, args.chunk)
    for row in doc["pairings"]:
        if args.level in row["levels"]:
            a = row["sides"][0]
            lo, hi = a["ci95"]
            print(f"{row['players']}p {row['levels'][0]} - {row['levels'][1]}: {a['games_won']} of {row['games']} "
                  f"({100 * a['share']:.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%), "
                  f"{row['seconds'] / row['games']:.2f} s a game")


if __name__ == "__main__":
    main()

"""A round robin: every level against every other, heads-up and at four players, saved as it goes.

Each pairing is a tournament of its own (``tournament.Setup``): two levels alternating round the table
(``a, b`` heads-up; ``a, b, a, b`` at four), seats rotated in seeded blocks, every pairing on the same
seed (the same deals). Pairings advance a chunk of games at a time, and the pairing that has had the
least time so far plays next: cheap pairings finish early, costly ones (search) share what is left
evenly. After every chunk the whole round robin is written to ``save`` (replaced at once), so a run
stopped at any moment leaves a usable file; each pairing says how many games it has.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .match import MAX_DECISIONS
from .stats import wilson_interval
from .tournament import Played, Setup, make_lineup, play_indexed, rounded_games, summarize

CHUNK = 100  # games a pairing plays before the schedule looks again (a multiple of 2 and 4: whole blocks)


@dataclass
class Pairing:
    """Two levels at a table of ``players``, and the games they have played so far."""

    a: str
    b: str
    players: int
    target: int
    played: list[Played] = field(default_factory=list)
    seconds: float = 0.0
    summary: dict | None = None  # of ``played``, made again only when a chunk adds to it (ratings take time)

    def setup(self, seed: int, options: dict, max_decisions: int) -> Setup:
        return Setup(make_lineup([self.a, self.b], self.players), options, seed, None, max_decisions)

    @property
    def done(self) -> bool:
        return len(self.played) >= self.target


def pairings(levels: list[str], tables: list[int], games: int) -> list[Pairing]:
    """Every unordered pair of distinct levels at every table size, in the order listed."""
    return [Pairing(a, b, players, rounded_games(games, players))
            for players in tables for i, a in enumerate(levels) for b in levels[i + 1:]]


def side_result(summary: dict, level: str) -> dict:
    """What one level's side of a pairing won: games (of all played, whoever sat where) with the 95%
    interval; heads-up and at four alike, 50% is even."""
    bot = next(b for b in summary["bots"] if b["name"] == level)
    games = summary["games"]
    lo, hi = wilson_interval(bot["games_won"], games)
    return {"level": level, "games_won": bot["games_won"], "share": bot["games_won"] / games if games else 0.0,
            "ci95": [lo, hi], "decision_ms": bot["decision_ms"]}


def document(levels: list[str], tables: list[int], games: int, seed: int, options: dict,
             all_pairings: list[Pairing], max_decisions: int = MAX_DECISIONS) -> dict:
    """The round robin so far, as JSON: each pairing's tournament summary and each side's share."""
    rows = []
    for p in all_pairings:
        if not p.played:
            continue
        if p.summary is None or p.summary["games"] != len(p.played):
            p.summary = summarize(p.setup(seed, options, max_decisions), p.played)
        summary = p.summary
        rows.append({"players": p.players, "levels": [p.a, p.b], "games": summary["games"],
                     "target": p.target, "seconds": round(p.seconds, 1),
                     "sides": [side_result(summary, p.a), side_result(summary, p.b)], "summary": summary})
    return {"kind": "round_robin", "levels": levels, "tables": tables, "games": games, "seed": seed,
            "options": options, "finished": all(p.done for p in all_pairings), "pairings": rows}


def save(doc: dict, path: Path) -> None:
    """Written whole, then moved into place: a reader never sees half a file."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    os.replace(part, path)


def run_round_robin(levels: list[str], tables: list[int], games: int, seed: int, options: dict,
                    save_to: Path | None = None, on_game: Callable[[Pairing], None] | None = None,
                    clock: Callable[[], float] = time.perf_counter, chunk: int = CHUNK,
                    max_decisions: int = MAX_DECISIONS) -> dict:
    """Play the round robin to ``games`` a pairing (Ctrl-C: stop after the game being played, keeping whole
    blocks); the document, saved after every chunk when ``save_to`` is given."""
    all_pairings = pairings(levels, tables, games)
    try:
        while True:
            waiting = [p for p in all_pairings if not p.done]
            if not waiting:
                break
            pairing = min(waiting, key=lambda p: p.seconds)  # the least time so far plays next
            setup = pairing.setup(seed, options, max_decisions)
            end = min(pairing.target, len(pairing.played) + chunk)
            while len(pairing.played) < end:
                start = clock()
                pairing.played.append(play_indexed(setup, len(pairing.played)))
                pairing.seconds += clock() - start
                if on_game:
                    on_game(pairing)
            if save_to is not None:
                save(document(levels, tables, games, seed, options, all_pairings, max_decisions), save_to)
    except KeyboardInterrupt:
        for p in all_pairings:  # whole blocks only, so that seats stay evenly rotated
            p.played = p.played[:len(p.played) - len(p.played) % p.players]
    doc = document(levels, tables, games, seed, options, all_pairings, max_decisions)
    if save_to is not None:
        save(doc, save_to)
    return doc

"""Tournaments: many games between bots, seats rotated, in parallel, summed up per bot.

Games come in blocks of ``players`` games that share one seed (duplicate
style): in game ``k`` of a block the lineup is rotated by ``k`` seats, so over
a block every entry sits in every seat once with the same cards. Everything
depends only on the seed and the game's index, never on which process ran it.
"""

from __future__ import annotations

import os
import random
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ..bots import make_bot
from ..rules.options import Options
from .match import MAX_DECISIONS, GameResult, play_game
from .stats import wilson_interval


@dataclass(frozen=True)
class Setup:
    """What a tournament plays: the lineup (one bot name per seat, before rotation) and the table."""

    lineup: tuple[str, ...]
    options: dict
    seed: int
    records: str | None = None
    max_decisions: int = MAX_DECISIONS  # a round that reaches it ends the game, abandoned (match.play_game)

    @property
    def players(self) -> int:
        return len(self.lineup)


def make_lineup(bots: list[str], players: int | None = None) -> tuple[str, ...]:
    """``players`` seats filled by cycling through the bot names (default: one seat each)."""
    players = players or len(bots)
    return tuple(bots[i % len(bots)] for i in range(players))


def block_seed(seed: int, block: int) -> int:
    """The game seed shared by every game of one block."""
    return random.Random(f"unokart-sim:{seed}:{block}").getrandbits(63)


def seating(lineup: tuple[str, ...], rotation: int) -> list[int]:
    """For each seat, the index in ``lineup`` of the entry sitting there in that rotation."""
    n = len(lineup)
    return [(seat + rotation) % n for seat in range(n)]


def rounded_games(games: int, players: int) -> int:
    """Whole blocks only, so that every entry sits in every seat equally often."""
    return -(-games // players) * players


@dataclass
class Played:
    """One finished game: its index, who sat where, and what happened."""

    index: int
    entries: list[int]  # entries[seat] = lineup index
    result: GameResult


_worker_bots: dict[str, object] = {}


def _bot(name: str):
    bot = _worker_bots.get(name)
    if bot is None:
        bot = _worker_bots[name] = make_bot(name)
    return bot


def play_indexed(setup: Setup, index: int) -> Played:
    """Game number ``index`` of the tournament (the same game wherever and whenever it runs)."""
    n = setup.players
    entries = seating(setup.lineup, index % n)
    names = [setup.lineup[e] for e in entries]
    result = play_game([_bot(name) for name in names], block_seed(setup.seed, index // n), setup.options,
                       names=names, keep_record=setup.records is not None, max_decisions=setup.max_decisions)
    if setup.records is not None:
        import json

        path = Path(setup.records) / f"game-{index + 1:06d}.json"
        path.write_text(json.dumps(result.record), encoding="utf-8")
        result.record = None  # saved: no need to send it back
    return Played(index, entries, result)


_worker_setup: list[Setup] = []


def _start_worker(setup: Setup) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker_setup[:] = [setup]


def _play_in_worker(index: int) -> Played:
    return play_indexed(_worker_setup[0], index)


def run(setup: Setup, games: int, jobs: int = 1, on_game: Callable[[int], None] | None = None) -> list[Played]:
    """Play games ``0 .. games-1`` on ``jobs`` processes; results come back in game order.
    Interrupted (Ctrl-C), it returns the games finished so far."""
    if setup.records is not None:
        Path(setup.records).mkdir(parents=True, exist_ok=True)
    done: list[Played] = []
    try:
        if jobs <= 1:
            for i in range(games):
                done.append(play_indexed(setup, i))
                if on_game:
                    on_game(1)
            return done
        import multiprocessing

        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with context.Pool(jobs, initializer=_start_worker, initargs=(setup,)) as pool:
            for game in pool.imap_unordered(_play_in_worker, range(games)):  # one game a task: steady progress
                done.append(game)
                if on_game:
                    on_game(1)
    except KeyboardInterrupt:
        pass
    done.sort(key=lambda p: p.index)
    return done


def whole_blocks(played: list[Played], players: int) -> list[Played]:
    """Only the games whose whole block finished, so that seats stay evenly rotated."""
    per_block: dict[int, int] = {}
    for game in played:
        per_block[game.index // players] = per_block.get(game.index // players, 0) + 1
    return [game for game in played if per_block[game.index // players] == players]


@dataclass
class BotSummary:
    name: str
    seats: int  # how many of the table's seats this bot fills
    games: int = 0  # games x seats: the counts behind every rate, to pool runs
    wins: int = 0
    rounds: int = 0  # rounds x seats
    rounds_won: int = 0
    points: int = 0
    decisions: int = 0
    seconds: float = 0.0
    rating: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        lo, hi = wilson_interval(self.wins, self.games)
        rlo, rhi = wilson_interval(self.rounds_won, self.rounds)
        return {
            "name": self.name, "seats": self.seats,
            "games_played": self.games, "games_won": self.wins, "rounds_played": self.rounds, "rounds_won": self.rounds_won,
            "win_rate": self.wins / self.games if self.games else 0.0, "ci95": [lo, hi],
            "round_win_rate": self.rounds_won / self.rounds if self.rounds else 0.0, "round_ci95": [rlo, rhi],
            "points_per_round": self.points / self.rounds if self.rounds else 0.0,
            "decision_ms": 1000 * self.seconds / self.decisions if self.decisions else 0.0,
            "decisions": self.decisions, "rating": self.rating,
        }


def summarize(setup: Setup, played: list[Played]) -> dict:
    """Per bot name: share of games and rounds won (per seat it fills), points per round,
    decision time and an openskill rating; in the order the bots were listed."""
    names = list(dict.fromkeys(setup.lineup))
    bots = {name: BotSummary(name, setup.lineup.count(name)) for name in names}
    for game in played:
        r = game.result
        for seat, entry in enumerate(game.entries):
            s = bots[setup.lineup[entry]]
            s.games += 1
            s.wins += r.winner == seat
            s.rounds += r.rounds
            s.rounds_won += r.rounds_won[seat]
            s.points += r.round_points[seat]
            s.decisions += r.decisions[seat]
            s.seconds += r.decision_seconds[seat]
    for name, rating in rate(setup, played).items():
        bots[name].rating = rating
    return {
        "games": len(played), "players": setup.players, "seed": setup.seed,
        # Abandoned games count as played and won by nobody (never dropped): they lower every win rate.
        "abandoned": sum(game.result.abandoned for game in played), "max_decisions": setup.max_decisions,
        "options": setup.options, "lineup": list(setup.lineup),
        "bots": [bots[name].to_json() for name in names],
    }


def rate(setup: Setup, played: list[Played]) -> dict[str, dict]:
    """Openskill (Plackett-Luce) ratings, one per bot name, updated game by game in game order.
    Each seat competes on its own, ranked by final score; copies of one bot enter with its
    rating and it takes the mean of their updates. (Ranking a bot by its best seat instead
    rated three heuristics above an ISMCTS that won a third of their games of four.)"""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in dict.fromkeys(setup.lineup)}
    for game in played:
        names = [setup.lineup[e] for e in game.entries]
        if len(set(names)) < 2 or game.result.abandoned:  # an abandoned game ranks nobody
            continue
        updated = model.rate([[ratings[name]] for name in names], scores=list(game.result.scores))
        for name in set(names):
            seats = [team[0] for team, seated in zip(updated, names) if seated == name]
            ratings[name] = model.rating(mu=sum(r.mu for r in seats) / len(seats),
                                         sigma=sum(r.sigma for r in seats) / len(seats), name=name)
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for name, r in ratings.items()}


def iter_names(text: str) -> Iterator[str]:
    for name in text.split(","):
        name = name.strip()
        if name:
            yield name


def check_setup(bots: list[str], players: int | None, options: dict) -> Options:
    """Refuse a bad tournament before any game starts (a clear ValueError)."""
    for name in bots:
        make_bot(name)
    n = players or len(bots)
    if not 2 <= n <= 10:
        raise ValueError(f"R2.1 a game has 2 to 10 players, not {n}")
    return Options.from_dict(options)

"""Whole random games run to the end and replay identically from their record."""

import random

from unokart import Game


def play_random(game: Game, rng: random.Random, rounds: int = 1) -> None:
    while game.awaiting != "game_over":
        if game.awaiting == "round_over":
            if game.round >= rounds:
                return
            game.next_round()
            continue
        game.apply(rng.choice(game.legal_actions()))


def test_random_game_ends_and_replays_identically():
    game = Game.new(4, seed=3)
    play_random(game, random.Random(3), rounds=3)
    replayed = Game.from_record(game.record())
    assert replayed.state() == game.state()
    assert sum(replayed.scores) > 0

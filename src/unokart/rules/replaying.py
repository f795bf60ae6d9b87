"""A record played again step by step: the one round-by-round replay every face uses."""

from __future__ import annotations

from typing import Iterator

from .engine import Game


def replay_steps(record: object) -> Iterator[tuple[Game, "str | None"]]:
    """``(game, None)`` as each round is dealt, then ``(game, action)`` after each of its actions.

    The record is checked whole first (a RecordError before the first step). Every step yields
    the same game, moved on: read it before asking for the next step.
    """
    Game.from_record(record)  # validates everything: errors come before any step
    assert isinstance(record, dict)
    rounds = record["rounds"]
    game = Game.from_record({**record, "rounds": [{**rounds[0], "actions": []}]})
    for number, rnd in enumerate(rounds):
        if number:
            game.next_round(rnd.get("seed", 0), rnd.get("deck"))
        yield game, None
        for text in rnd.get("actions", []):
            game.apply(text)
            yield game, text

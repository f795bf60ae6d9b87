"""A finished game as the replay viewer steps through it: one frame per action.

The browser has no rules engine, so the server replays the record with the core
and hands the page every moment of the game: the full state (every hand open;
the game is over, so nothing is secret any more) and the events, each tagged
with the seats that could see it. The page then shows the game from any seat's
view (other hands as sizes, that seat's private events) or with all cards open.

The server serves it as ``GET /api/games/{id}/replay?round=N&lang=xx``
(docs/PROTOCOL.md), one round at a time: a round is tens to a few hundred
frames of under 1 KB. Pure: no I/O.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..narrate import describe_event
from ..rules import Game
from ..rules.replaying import replay_steps

REPLAY_FORMAT = "unokart-replay/1"


def _frame(game: Game, action: str | None, since: int, lang: str | None) -> dict[str, Any]:
    frame = game.view(None).to_json()
    frame["hands"] = game.state()["hands"]
    frame["drawn"] = game.view(game.to_act).to_json()["drawn"] if game.to_act is not None else None
    frame["action"] = action
    frame["events"] = [
        {**event, "to": list(to) if to is not None else None, "text": describe_event(event, game.names, lang)}
        for to, event in game.events[since:]
    ]
    return frame


def replay_round(record: dict, number: int = 1, lang: str | None = None) -> dict[str, Any]:
    """Every moment of round ``number`` (from 1) of a recorded game.

    Raises RecordError for a broken record and ValueError for a round it does not have.
    """
    steps = replay_steps(record)
    game, _ = next(steps)  # refuses a broken record before building anything
    rounds = record["rounds"]
    if not 1 <= number <= len(rounds):
        raise ValueError(f"the game has rounds 1 to {len(rounds)}, not {number}")
    frames: list[dict[str, Any]] = []
    since = 0
    for game, text in itertools.chain([(game, None)], steps):
        if game.round < number:
            continue
        if game.round > number:
            break
        frames.append(_frame(game, text, 0 if text is None else since, lang))
        since = game.event_count()  # a count, not a copy of the round's events
    return {"format": REPLAY_FORMAT, "players": list(record["players"]), "options": game.options.to_dict(),
            "rounds": len(rounds), "round": number, "frames": frames}

"""A finished game as its table keeps it in memory: what its readers are shown, not its history.

A game over is read (a reconnect, a spectator, a `sync`) but never changed again. What those readers are sent
is each seat's last view, its legal actions (none, the game is over) and the last round's events; the game's
history (every action of every round, the events of each, the random sources) is what replays it, and the
record of it is in the store, read from there when asked for (GET /api/games/ID). Kept as JSON text, the
events compressed (a long last round's are hundreds of kilobytes of text, a tenth of that compressed, and
they are read only when someone comes to look), a finished table holds a few tens of kilobytes where its
game held every action it saw (issue 26, item 2).

``Finished`` answers the few questions messages.py asks of a game, in the same words as ``Game``.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from ..rules import Game, Options
from ..rules.states import GAME_OVER


class _View:
    """A seat's last view as messages.py reads it (``to_json``)."""

    __slots__ = ("_json",)

    def __init__(self, text: str):
        self._json = text

    def to_json(self) -> dict[str, Any]:
        return json.loads(self._json)


class Finished:
    __slots__ = ("names", "options", "round", "scores", "round_winner", "game_winner", "_views", "_legal",
                 "_events", "_count")
    awaiting = GAME_OVER
    to_act = None

    def __init__(self, game: Game):
        if game.awaiting != GAME_OVER:
            raise ValueError(f"a game awaiting {game.awaiting!r} is not over")
        self.names: list[str] = list(game.names)
        self.options: Options = game.options
        self.round: int = game.round
        self.scores: list[int] = list(game.scores)
        self.round_winner: int | None = game.round_winner
        self.game_winner: int | None = game.game_winner
        seats: list[int | None] = [None, *range(len(self.names))]
        self._views = {seat: json.dumps(game.view(seat).to_json(), separators=(",", ":")) for seat in seats}
        self._legal = {seat: tuple(str(a) for a in game.legal_actions(seat)) for seat in seats if seat is not None}
        events = game.events
        self._count = len(events)
        # Each event with the seats that may see it (None: everyone), as the game logged it: who may read what
        # is decided when a reader asks, as it is for a game in play.
        text = json.dumps([[to, event] for to, event in events], separators=(",", ":"), ensure_ascii=False)
        self._events = zlib.compress(text.encode("utf-8"), 6)

    def view(self, seat: int | None) -> _View:
        return _View(self._views[seat])

    def legal_actions(self, seat: int | None = None) -> tuple[str, ...]:
        return self._legal.get(seat, ()) if seat is not None else ()

    @property
    def events(self) -> tuple:
        logged = json.loads(zlib.decompress(self._events))
        return tuple((tuple(to) if to is not None else None, event) for to, event in logged)

    def event_count(self) -> int:
        return self._count

    def out_of_turn_seats(self, first: int = -1) -> tuple[int, ...]:
        return ()

"""Per-seat views: the only way information leaves the core (DESIGN 6).

A view holds what its seat may see: its own hand, the others' hand sizes, the
public discard pile, scores, whose turn, and the events meant for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import COLORS, FACE_CODE

if TYPE_CHECKING:
    from .engine import Game


class View:
    __slots__ = (
        "seat", "n", "names", "options", "hand", "hand_sizes", "discard", "color", "direction",
        "to_act", "awaiting", "stock", "uno_said", "uno_window", "scores", "round", "dealer",
        "pending", "drawn", "round_winner", "game_winner", "version", "_events", "_event_count",
    )

    def __init__(self, game: "Game", seat: int | None):
        # The game gathers the fields (see Game._view_fields). Of its events, only those this seat may
        # see (DESIGN 6); that list only grows, so a length is a snapshot.
        (self.seat, self.n, self.names, self.options, self.hand, self.hand_sizes, self.discard, self.color,
         self.direction, self.to_act, self.awaiting, self.stock, self.uno_said, self.uno_window, self.scores,
         self.round, self.dealer, self.pending, self.drawn, self.round_winner, self.game_winner, self.version,
         self._events, self._event_count) = game._view_fields(seat)

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def events(self) -> list[dict]:
        return self._events[: self._event_count]

    def to_json(self) -> dict[str, Any]:
        """The full-state JSON with other hands replaced by their sizes (NOTATION.md)."""
        return {
            "round": self.round, "dealer": self.dealer, "direction": self.direction,
            "to_act": self.to_act, "awaiting": self.awaiting,
            "top": FACE_CODE[self.discard[-1]] if self.discard else None,
            "color": COLORS[self.color] if self.color >= 0 else None,
            "hands": [[FACE_CODE[f] for f in self.hand] if s == self.seat else size for s, size in enumerate(self.hand_sizes)],
            "stock": self.stock, "discard": len(self.discard),
            "uno_said": list(self.uno_said), "scores": list(self.scores),
            "round_winner": self.round_winner, "game_winner": self.game_winner,
            "seat": self.seat, "players": list(self.names), "pending": self.pending,
            "drawn": FACE_CODE[self.drawn] if self.drawn >= 0 else None,
            "uno_window": self.uno_window if self.uno_window >= 0 else None,
            "version": self.version,
        }

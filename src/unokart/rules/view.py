"""What each seat may see (docs/DESIGN.md, "What a seat may see"): the View, and the one rule for which events reach which seat.

The game logs every event with the seats that may see it (None: everyone); ``visible_events``
is the only filter, and ``View`` the only way a seat's information leaves the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .cards import COLORS, FACE_CODE, card_codes
from .errors import IllegalAction
from .options import Options
from .states import AWAIT_CHALLENGE, AWAIT_DRAWN

if TYPE_CHECKING:
    from .engine import Game


class View:
    """What one seat may see: the only way information leaves the core (docs/DESIGN.md, "What a seat may see").

    Its own hand, the others' hand sizes, the public discard pile, scores, whose turn,
    and the events meant for it. It keeps no reference to the game: its lists are copies,
    but for the events, this seat's own list (it only grows). Compiled with the game
    (setup.py): a simulator builds one per decision.
    """

    # ClassVar: so that the compiled class keeps __slots__ readable, like the pure-Python one.
    __slots__: ClassVar[tuple[str, ...]] = (
        "seat", "n", "names", "options", "hand", "hand_sizes", "discard", "color", "direction",
        "to_act", "awaiting", "stock", "uno_said", "uno_window", "scores", "round", "dealer",
        "pending", "drawn", "round_winner", "game_winner", "version", "_events", "_event_count",
    )

    seat: int | None      # None: a spectator's view
    n: int
    names: list[str]
    options: Options
    hand: list[int]
    hand_sizes: list[int]
    discard: list[int]
    color: int
    direction: int
    to_act: int | None    # None: the round is over
    awaiting: str
    stock: int
    uno_said: list[bool]
    uno_window: int
    scores: list[int]
    round: int
    dealer: int
    pending: int
    drawn: int
    round_winner: int | None
    game_winner: int | None
    version: int
    _events: list[dict]
    _event_count: int

    def __init__(self, game: Game | None, seat: int | None, glance: bool = False):
        if game is None:
            return  # to be filled in by _restored_view
        if seat is not None and not 0 <= seat < game.n:
            raise IllegalAction("R2.1", f"there is no seat {seat} (seats 0 to {game.n - 1})",
                                "core.refusal.no_such_seat", {"number": seat, "last": game.n - 1})
        self.hand_sizes = game.hand_sizes()
        if glance:
            self._events = []
        self._fill(game, seat, glance)

    def _fill(self, game: Game, seat: int | None, glance: bool) -> None:
        """Every field but ``hand_sizes`` (which ``Game.glance`` refreshes in place)."""
        self.seat = seat
        self.n = game.n
        self.options = game.options
        self.color = game._color
        self.direction = game._direction
        self.to_act = game.to_act
        self.awaiting = game.awaiting
        self.stock = len(game._stock)
        self.uno_window = game._uno_window
        self.round = game.round
        self.dealer = game.dealer
        self.pending = game._pending
        self.drawn = game._drawn if game.awaiting == AWAIT_DRAWN and seat is not None and seat == game.to_act else -1
        self.round_winner = game.round_winner
        self.game_winner = game.game_winner
        self.version = game.version
        hand = game._hands[seat] if seat is not None else []
        if glance:  # the game's own lists, no events (Game.glance)
            self.names, self.hand, self.discard = game.names, hand, game._discard
            self.uno_said, self.scores = game._uno_said, game.scores
            self._event_count = 0  # no events: the list is read only up to this count (a refresh allocates none)
            return
        self.names = game.names[:]
        self.hand = hand[:]
        self.discard = game._discard[:]
        self.uno_said = game._uno_said[:]
        self.scores = game.scores[:]
        # Only events this seat may see (docs/DESIGN.md, "What a seat may see"); that list only grows, so a length is a snapshot.
        self._events = game._visible_events(seat)
        self._event_count = len(self._events)

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        # Views travel to bot processes (the server's search pool); a compiled class needs telling how.
        return (_restored_view, (tuple(getattr(self, name) for name in View.__slots__),))

    @property
    def own_seat(self) -> int:
        """The seat of a player's view; a spectator's view belongs to none (asking is a bug)."""
        if self.seat is None:
            raise ValueError("a spectator's view belongs to no seat")
        return self.seat

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


def challenged_seat(view: Any) -> int:
    """The seat whose Wild Draw Four may be challenged now (R7.2): the one before the seat to act, read
    from a View (or anything with its fields); -1 when no challenge is pending."""
    if view.awaiting != AWAIT_CHALLENGE or view.to_act is None:
        return -1
    return int((view.to_act - view.direction) % view.n)


def expand_event(entry: tuple) -> list[tuple[tuple[int, ...] | None, dict]]:
    """A flat tuple the hot path logged, as ``(seats that may see it or None, event dict)`` pairs."""
    kind = entry[0]
    if kind == "play":
        _, seat, face, color, uno = entry
        return [(None, {"type": "play", "seat": seat, "card": FACE_CODE[face], "color": COLORS[color] if color >= 0 else None, "uno": uno})]
    if kind == "draw":  # everyone sees how many; only the drawer sees which
        _, seat, got, cause = entry
        return [(None, {"type": "draw", "seat": seat, "count": len(got), "cause": cause}),
                ((seat,), {"type": "drew", "seat": seat, "cards": card_codes(got)})]
    return [(None, {"type": kind, "seat": entry[1]})]  # skipped


def may_see(to: tuple[int, ...] | None, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see an event logged for the seats ``to`` (None: everyone)."""
    return to is None or (seat is not None and seat in to)


def visible_events(entries: list, seat: int | None) -> list[dict]:
    """The events of ``entries`` that ``seat`` may see (None: the public ones only)."""
    return [e for to, e in entries if may_see(to, seat)]



def _restored_view(fields: tuple[Any, ...]) -> View:
    """A view rebuilt from its fields, in slot order (what ``View.__reduce__`` pickles)."""
    view = View(None, None)
    for name, value in zip(View.__slots__, fields):
        setattr(view, name, value)
    return view

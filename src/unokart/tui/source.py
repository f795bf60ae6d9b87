"""What the screen is drawn from: one seat's view, its legal actions and its events."""

from __future__ import annotations

from typing import Callable

from ..i18n import t
from ..rules import Action

# Called after every change with the events (engine event dicts) that arrived since the last call,
# and a notice to show (a connection message, a bot's failure) or None.
OnChange = Callable[[list[dict], "str | None"], None]


class TableError(Exception):
    """A refusal or failure the player should read (already in words); ``rule``: the rule id, if one applies."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


class TableSource:
    """One seat at a table. Subclasses keep ``view`` and ``legal`` current and call ``on_change``.

    ``view`` is the seat's view in the JSON form of NOTATION.md (``View.to_json()``),
    ``legal`` the seat's legal actions, out of turn too (UNO, catch, jump-in).
    """

    seat: int = 0
    target_score: int = 500
    deals_itself = False  # True when rounds are dealt without asking (a server's table)
    status_note: str | None = None  # what to show while there is no game yet (a lobby)
    view: dict | None = None
    legal: list[Action] = []
    deadline: float | None = None  # when this seat's decision is due (Unix seconds), at a timed table
    away = False  # a bot plays this seat until its player comes back

    async def start(self, on_change: OnChange) -> None:
        raise NotImplementedError

    async def act(self, action: Action) -> None:
        """Send one of ``legal``; raise TableError (or UnoKartError) with the reason it was refused."""
        raise NotImplementedError

    async def next_round(self) -> None:
        """Ask for the next round once this one is over (at a server's table: start, or a rematch)."""
        raise NotImplementedError

    async def fill_empty_seats(self, level: str) -> None:
        """Seat a bot of ``level`` in every empty seat of a lobby."""
        raise TableError(t("tui.error.no_lobby"))

    async def come_back(self) -> None:
        """End the away state: this seat's player decides again."""
        raise TableError(t("tui.error.not_away"))

    async def stop(self) -> None:
        """Leave the table (the game itself may go on elsewhere)."""

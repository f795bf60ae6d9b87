"""A local table: the human's seat in a ``Game`` held here, every other seat a bot."""

from __future__ import annotations

import asyncio
import random

from ..bots import Bot, make_bot
from ..i18n import t
from ..rules import Action, Game
from ..rules.actions import UNO
from ..rules.engine import RACERS
from .source import OnChange, TableSource

# Out of turn (a catch, a late UNO) a bot waits this many turn delays, so a person can act first.
OUT_OF_TURN_PATIENCE = 3


class LocalTable(TableSource):
    """The human sees only ``game.view(seat)`` and ``game.events_for(seat)``; bots act with a visible delay."""

    def __init__(self, game: Game, bots: dict[int, Bot], seat: int = 0, delay: float = 0.6, seed: int | None = None):
        self.game = game
        self.bots = bots
        self.seat = seat
        self.delay = delay
        self.rng = random.Random(seed)
        self.target_score = game.options.target_score
        self._seen = 0  # events of this round already passed on
        self._asked: dict[int, int] = {}  # bot seat -> game version it was last asked at, out of turn
        self._changed = asyncio.Event()
        self._on_change: OnChange | None = None
        self._task: asyncio.Task | None = None

    async def start(self, on_change: OnChange) -> None:
        self._on_change = on_change
        self._publish()
        self._task = asyncio.create_task(self._play_bots())

    async def act(self, action) -> None:
        self.game.apply(action)  # an illegal action raises IllegalAction and changes nothing
        self._publish()

    async def next_round(self) -> None:
        self.game.next_round()
        self._seen = 0
        self._publish()

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()

    def _publish(self, notice: str | None = None) -> None:
        game = self.game
        events = game.events_for(self.seat, self._seen)
        self._seen = len(game.events)
        self.view = game.view(self.seat).to_json()
        self.legal = list(game.legal_actions(self.seat))
        self._changed.set()
        if self._on_change:
            self._on_change(events, notice)

    def next_bot(self) -> tuple[int, float] | None:
        """The bot to ask next and how long it waits first, or None while only the human can act."""
        game = self.game
        if game.to_act in self.bots:
            # The human just played down to one card: give them time to say UNO before a turn closes the window.
            may_say_uno = any(a.verb == UNO for a in game.legal_actions(self.seat))
            return game.to_act, self.delay * (OUT_OF_TURN_PATIENCE if may_say_uno else 1)
        for seat in game.may_act():
            if seat in self.bots and self._asked.get(seat) != game.version:
                return seat, self.delay * OUT_OF_TURN_PATIENCE
        return None

    async def _play_bots(self) -> None:
        game = self.game
        while True:
            move = self.next_bot()
            if move is None:
                self._changed.clear()
                await self._changed.wait()
                continue
            seat, wait = move
            version = game.version
            await asyncio.sleep(wait)
            if game.version != version:  # the human acted meanwhile: look again
                continue
            action, problem = await self._ask_bot(seat)
            self._asked[seat] = version
            if game.version != version:
                continue
            if action is not None:
                game.apply(action)
            if action is not None or problem:
                self._publish(problem)

    async def _ask_bot(self, seat: int) -> tuple[Action | None, str | None]:
        """The bot's choice (None: it lets the moment pass), and what went wrong if it failed.

        A failing bot must not freeze the table: on its turn a random legal action is played for it.
        """
        game = self.game
        view, legal = game.view(seat), game.legal_actions(seat)
        try:
            action = await asyncio.to_thread(self.bots[seat].choose, view, legal, self.rng)
            if action is None or action in legal:
                return action, None
            problem = t("tui.bot_not_legal", action=str(action))
        except Exception as err:
            problem = f"{type(err).__name__}: {err}"
        if seat != game.to_act:
            return None, t("tui.bot_failed", name=game.names[seat], reason=problem)
        return self.rng.choice(legal), t("tui.bot_failed_played", name=game.names[seat], reason=problem)


def bot_levels(spec: str) -> list[str]:
    """``"heuristic,easy"`` -> ["heuristic", "easy"] (cycled over the bot seats)."""
    levels = [level.strip() for level in spec.split(",") if level.strip()]
    if not levels:
        raise ValueError(t("tui.error.no_bots"))
    return levels


def local_table(players: int, bots: str, name: str, seed: int, options: dict, delay: float) -> LocalTable:
    """The human in seat 0 named ``name``; the other seats racers played by bots, levels cycled."""
    levels = bot_levels(bots)
    racers = [racer for racer in RACERS if racer.lower() != name.lower()]
    names = [name] + racers[: players - 1]
    game = Game.new(names, seed=seed, options=options)
    seat_bots = {seat: make_bot(levels[(seat - 1) % len(levels)]) for seat in range(1, len(names))}
    for level in levels[len(names) - 1:]:  # a level no seat takes is still checked: a typo is not ignored
        make_bot(level)
    return LocalTable(game, seat_bots, seat=0, delay=delay, seed=seed)

"""A local table: the human's seat in a ``Game`` held here, every other seat a bot."""

from __future__ import annotations

import asyncio
import random

from ..bots import Bot, make_bot
from ..i18n import t
from ..levels import BotLevel, level_name, parse_levels
from ..rules import Action, Game
from ..rules.actions import UNO
from ..rules.engine import RACERS
from ..rules.records import MAX_NAME_CHARS
from ..rules.referee import Referee
from .source import OnChange, TableSource

# Out of turn (a catch, a late UNO) a bot waits this many turn delays, so a person can act first.
OUT_OF_TURN_PATIENCE = 3


class LocalTable(TableSource):
    """The human sees only ``game.view(seat)`` and ``game.events_for(seat)``; bots act with a visible delay."""

    def __init__(self, game: Game, bots: dict[int, Bot], seat: int = 0, delay: float = 0.6, seed: int | None = None):
        self.game = game
        self.referee = Referee(game)  # who is asked next; every change of the game goes through it
        self.bots = bots
        self.seat = seat
        self.delay = delay
        self.rng = random.Random(seed)
        self.target_score = game.options.target_score
        self._seen = 0  # events of this round already passed on
        self._changed = asyncio.Event()
        self._on_change: OnChange | None = None
        self._task: asyncio.Task | None = None

    async def start(self, on_change: OnChange) -> None:
        self._on_change = on_change
        self._publish()
        self._task = asyncio.create_task(self._play_bots())

    async def act(self, action) -> None:
        self.referee.apply(action)  # an illegal action raises IllegalAction and changes nothing
        self._publish()

    async def next_round(self) -> None:
        self.referee.next_round()
        self._seen = 0
        self._publish()

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()

    def _publish(self, notice: str | None = None) -> None:
        game = self.game
        events = game.events_for(self.seat, self._seen)
        self._seen = game.event_count()
        self.view = game.view(self.seat).to_json()
        self.legal = list(game.legal_actions(self.seat))
        self._changed.set()
        if self._on_change:
            self._on_change(events, notice)

    def next_bot(self) -> tuple[int, float] | None:
        """The bot the referee asks next and how long it waits first, or None while only the human can act.

        Out of turn the person is never waited for (they may speak whenever they like), nor is a bot with
        nothing to do: the referee passes over both."""
        referee = self.referee
        referee.decline_idle()
        while referee.reacting and referee.seat not in self.bots:
            referee.decline()
            referee.decline_idle()
        seat = referee.seat
        if seat not in self.bots:
            return None
        if referee.reacting:  # a catch, a late UNO, a jump-in: a person can act first
            return seat, self.delay * OUT_OF_TURN_PATIENCE
        # The human just played down to one card: give them time to say UNO before a turn closes the window.
        may_say_uno = any(a.verb == UNO for a in self.game.legal_actions(self.seat))
        return seat, self.delay * (OUT_OF_TURN_PATIENCE if may_say_uno else 1)

    async def _play_bots(self) -> None:
        game, referee = self.game, self.referee
        while True:
            move = self.next_bot()
            if move is None:
                self._changed.clear()
                await self._changed.wait()
                continue
            seat, wait = move
            version = game.version
            await asyncio.sleep(wait)
            if game.version != version or referee.seat != seat:  # the human acted meanwhile: look again
                continue
            action, problem = await self._ask_bot(seat)
            if game.version != version or referee.seat != seat:
                continue
            referee.answer(action)  # None: the bot lets the moment pass
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
            if action in legal or (action is None and self.referee.reacting):
                return action, None
            problem = t("tui.bot_not_legal", action=str(action))
        except Exception as err:
            problem = f"{type(err).__name__}: {err}"
        if self.referee.reacting:
            return None, t("tui.bot_failed", name=game.names[seat], reason=problem)
        return self.rng.choice(legal), t("tui.bot_failed_played", name=game.names[seat], reason=problem)


def bot_levels(spec: str) -> list[BotLevel]:
    """``"heuristic,easy"`` -> their levels (cycled over the bot seats); ValueError for one that is none."""
    levels = parse_levels(spec)
    if not levels:
        raise ValueError(t("tui.error.no_bots"))
    return levels


def racer_name(racer: str, level: str) -> str:
    """A bot's racer with its level in the player's words ("Luigi (good)"), as the lobby names levels;
    the racer alone when that would be longer than a name may be."""
    named = t("tui.racer_level", racer=racer, level=level_name(level))
    return named if len(named) <= MAX_NAME_CHARS else racer


def local_table(players: int, bots: str, name: str, seed: int, options: dict, delay: float) -> LocalTable:
    """The human in seat 0 named ``name``; the other seats racers played by bots, levels cycled."""
    levels = bot_levels(bots)
    racers = [racer for racer in RACERS if racer.lower() != name.lower()]
    seat_levels = [str(levels[(seat - 1) % len(levels)]) for seat in range(1, min(players, len(racers) + 1))]
    names = [name] + [racer_name(racer, level) for racer, level in zip(racers, seat_levels)]
    game = Game.new(names, seed=seed, options=options)
    seat_bots = {seat: make_bot(level) for seat, level in enumerate(seat_levels, 1)}
    for level in levels[len(names) - 1:]:  # a level no seat takes is still built: a missing policy is said
        make_bot(str(level))
    return LocalTable(game, seat_bots, seat=0, delay=delay, seed=seed)

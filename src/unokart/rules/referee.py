"""The referee: whose decision is pending, in turn and out of turn (docs/DESIGN.md, "The referee").

The game says who must decide (``to_act``) and who may speak out of turn (``out_of_turn_seats``:
say UNO, catch, jump in). The referee turns that into one order of asking, the same for every
face (the simulator, the environments, the terminal, ``watch``):

- A **moment** opens with every turn action (``actions.TURN_VERBS``: a jump-in too) and with every deal.
- In a moment, before the seat to act decides, each seat the game lists as able to speak out of turn
  is asked **once**, in seat order from the left of the seat whose action opened the moment (the
  dealer after a deal), that seat itself last.
- A seat asked out of turn may **decline**: it is not asked again in this moment. A ``uno`` or a
  ``catch`` does not end the moment (the seats not yet asked still are); a turn action opens a new one.
- The seat to act has no decline: its own UNO or catch is among its turn's legal actions.

Who is asked depends on public facts only (the game's list is public), so being asked tells a
seat nothing; a seat may be asked whose only answer is to decline (under ``jump_in``).
Compiled with the core (setup.py): the batch environment asks it at every decision.
"""

from __future__ import annotations

from .actions import PASS, TURN_VERBS, Action, as_action, make
from .engine import Game
from .refusals import expected_decision, explain


class Referee:
    """One game's moment: the seat asked now (``seat``), whether out of turn (``reacting``), and what it
    may do (``legal``). Every change of the game goes through ``apply``, ``decline`` or ``next_round``."""

    game: Game
    seat: int           # the seat whose decision is pending; -1 when the round or the game is over
    reacting: bool      # asked out of turn: it may decline
    legal: tuple[Action, ...]
    _opener: int        # the seat whose action (or deal) opened this moment
    _declined: int      # the seats that declined in this moment, as bits

    def __init__(self, game: Game) -> None:
        """The referee of ``game`` as it stands: the moment opened by this round's last turn action, or by
        its deal (a game rebuilt from its record is asked as it was; declines are not recorded, so every
        seat of that moment is asked again)."""
        self.game = game
        self.seat = -1
        self.reacting = False
        self.legal = ()
        opener = game.dealer
        for action in reversed(game.actions):
            if action.verb in TURN_VERBS:
                opener = action.seat
                break
        self._open(opener)

    def _open(self, opener: int) -> None:
        self._opener = opener
        self._declined = 0
        self.refresh()

    def refresh(self) -> None:
        """The seat asked now, worked out again from the game (after every change; a test that swaps
        ``game`` for a copy with the hidden cards dealt differently calls it to ask who is asked then)."""
        game = self.game
        to_act = game.to_act
        seat = to_act if to_act is not None else -1
        reacting = False
        for other in game.out_of_turn_seats((self._opener + 1) % game.n):
            if not (self._declined >> other) & 1:
                seat = other
                reacting = True
                break
        self.seat = seat
        self.reacting = reacting
        self.legal = game.legal_actions(seat) if seat >= 0 else ()

    def asking(self) -> tuple[int, ...]:
        """The seats still to be asked in this moment, in order: the out-of-turn seats that have not
        declined, then the seat to act (empty once the round is over). ``asking()[0] == seat``."""
        game = self.game
        order = [s for s in game.out_of_turn_seats((self._opener + 1) % game.n) if not (self._declined >> s) & 1]
        if game.to_act is not None:
            order.append(game.to_act)
        return tuple(order)

    def apply(self, action: object) -> None:
        """Apply any seat's legal action (out of turn one need not wait to be asked); a turn action opens a
        new moment. An illegal action raises IllegalAction naming the rule, and changes nothing."""
        a = as_action(action)
        self.game.apply(a)
        if a.verb in TURN_VERBS:
            self._open(a.seat)
        else:
            self.refresh()

    def decline(self) -> None:
        """The seat asked out of turn lets the moment pass. The seat to act may not: it must decide
        (IllegalAction naming what it owes; nothing changes)."""
        if not self.reacting:
            game = self.game
            if game.to_act is None:  # nobody is asked: the round or the game is over
                raise explain(game, make(0, PASS))
            raise expected_decision(game, "decline")
        self._declined |= 1 << self.seat
        self.refresh()

    def answer(self, action: Action | None) -> None:
        """The asked seat's answer: an action to apply, or None to decline."""
        if action is None:
            self.decline()
        else:
            self.apply(action)

    def decline_idle(self, keep: int = -1) -> None:
        """Decline for each seat asked out of turn with nothing to do (no legal action), but ``keep``:
        for a face that asks only players with a choice (bots; an environment asks its agent anyway)."""
        while self.reacting and not self.legal and self.seat != keep:
            self.decline()

    def next_round(self, seed: int | None = None, deck: "list[str] | None" = None) -> None:
        """Deal the next round (``Game.next_round``); the deal opens a moment."""
        self.game.next_round(seed, deck)
        self._open(self.game.dealer)


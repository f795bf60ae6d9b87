"""The hand-written players: ``heuristic`` (careful) and ``easy`` (forgets UNO now and then)."""

from __future__ import annotations

import random

from ..rules import Action, View
from ..rules import actions as A
from ..rules.cards import FACE_COLOR, WILD_DRAW_FOUR
from ..rules.states import AWAIT_CHALLENGE, AWAIT_COLOR, AWAIT_DRAWN, AWAIT_PLAY, AWAIT_STACK, AWAIT_SWAP, AWAIT_TARGET
from .knowledge import chance_guilty
from .playout import best_color, best_play

# Challenge a Wild Draw Four above this chance of guilt: a won challenge swings
# eight cards and keeps the turn, a lost one costs two cards more than accepting.
CHALLENGE_THRESHOLD = 0.3


class HeuristicBot:
    """Keeps wilds for when they matter, follows the colour it holds most, aims at the leader,
    challenges a likely bluff, always says UNO and catches others who forget."""

    name = "heuristic"

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        for action in legal_actions:  # free words first: they cost nothing and only help
            if action.verb == A.UNO and self.says_uno(rng):
                return action
            if action.verb == A.CATCH:
                return action
        if view.seat != view.to_act:
            jumps = [a for a in legal_actions if a.verb == A.JUMP]
            return self.with_uno(jumps, view)[0] if jumps else None
        turn = [a for a in legal_actions if a.verb not in (A.UNO, A.CATCH)]
        aw = view.awaiting
        if aw == AWAIT_PLAY:
            return self.play(view, turn)
        if aw == AWAIT_DRAWN:
            plays = self.with_uno([a for a in turn if a.verb == A.PLAY], view)
            if plays and not self.bluffing(view, plays[0]):
                return self.pick_play(view, plays)
            return next((a for a in turn if a.verb == A.PASS), turn[0])
        if aw in (AWAIT_CHALLENGE, AWAIT_STACK):
            stacks = self.with_uno([a for a in turn if a.verb == A.PLAY], view)
            if stacks:
                return self.pick_play(view, stacks)
            if aw == AWAIT_CHALLENGE and self.challenges(view):
                return next(a for a in turn if a.verb == A.CHALLENGE)
            return next(a for a in turn if a.verb == A.ACCEPT)
        if aw == AWAIT_COLOR:
            color = self.pick_color(view)
            return next(a for a in turn if a.color == color)
        if aw in (AWAIT_TARGET, AWAIT_SWAP):
            leader = self.leader(view)
            return next(a for a in turn if a.target == leader)
        return rng.choice(turn)

    def says_uno(self, rng: random.Random) -> bool:
        return True

    @staticmethod
    def with_uno(plays: list[Action], view: View) -> list[Action]:
        """Keep, of each play, the variant that says UNO when there is one (R8.1)."""
        if len(view.hand) == 2 and any(a.uno for a in plays):
            return [a for a in plays if a.uno]
        return plays

    @staticmethod
    def leader(view: View) -> int:
        """The opponent closest to going out (fewest cards, then most points)."""
        others = [s for s in range(view.n) if s != view.seat]
        return min(others, key=lambda s: (view.hand_sizes[s], -view.scores[s]))

    @staticmethod
    def bluffing(view: View, action: Action) -> bool:
        """A Wild Draw Four played while holding the active colour loses any challenge (R7.2)."""
        return action.card == WILD_DRAW_FOUR and any(f < 52 and FACE_COLOR[f] == view.color for f in view.hand)

    def challenges(self, view: View) -> bool:
        """Whether the Wild Draw Four just played on this seat is likely a bluff (R7.2)."""
        return chance_guilty(view, (view.own_seat - view.direction) % view.n) > CHALLENGE_THRESHOLD

    def play(self, view: View, turn: list[Action]) -> Action:
        plays = self.with_uno([a for a in turn if a.verb == A.PLAY], view)
        draw = next((a for a in turn if a.verb == A.DRAW), None)
        if not plays:
            return draw if draw is not None else turn[0]
        return self.pick_play(view, plays)

    def pick_play(self, view: View, plays: list[Action]) -> Action:
        return best_play(plays, view.hand, view.own_seat, view.direction, view.hand_sizes, view.color)

    def pick_color(self, view: View) -> int:
        return best_color(view.hand)


class EasyBot(HeuristicBot):
    """A beginner: plays the first card that fits, forgets UNO a third of the time, rarely catches anyone."""

    name = "easy"
    FORGETS_UNO = 1 / 3
    CATCHES = 1 / 4

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action | None:
        if view.seat != view.to_act:  # an UNO forgotten with the play stays forgotten
            catches = [a for a in legal_actions if a.verb == A.CATCH]
            return catches[0] if catches and rng.random() < self.CATCHES else None
        turn = [a for a in legal_actions if a.verb not in (A.UNO, A.CATCH)]
        if view.awaiting == AWAIT_PLAY:
            plays = [a for a in turn if a.verb == A.PLAY]
            if not plays:
                return turn[-1]
            play = rng.choice(plays)
            return self.forget_or_say(view, play, plays, rng)
        return super().choose(view, turn, rng)

    def says_uno(self, rng: random.Random) -> bool:
        return rng.random() >= self.FORGETS_UNO

    def forget_or_say(self, view: View, play: Action, plays: list[Action], rng: random.Random) -> Action:
        """The same play, with or without the word UNO."""
        if len(view.hand) != 2:
            return play
        say = self.says_uno(rng)
        return next((a for a in plays if a.card == play.card and a.color == play.color and a.uno == say), play)

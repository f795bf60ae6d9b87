"""A whole Game built from one seat's view, the unseen cards dealt at random (a determinization).

Only the view's public facts and the seat's own hand go in; the other hands
and the stock are a random deal of the cards the seat cannot see, respecting
every hand size and what each player's draws suggest they lack (built with
``Game.from_view``, for search only).
"""

from __future__ import annotations

import random

from ..rules import Game, View
from ..rules.cards import FACE_COLOR
from ..rules.states import AWAIT_CHALLENGE
from ..rules.view import challenged_seat
from .knowledge import color_before_wild_draw_four, hand_voids, unseen_faces


class Determinizer:
    """Deals the unseen cards of one view again and again, cheaply."""

    def __init__(self, view: View):
        self.view = view
        self.unseen = unseen_faces(view)
        self.voids = hand_voids(view)
        self.w4_color = color_before_wild_draw_four(view) if view.awaiting == AWAIT_CHALLENGE else -1

    def sample(self, rng: random.Random) -> Game:
        view = self.view
        hidden = self.unseen[:]
        rng.shuffle(hidden)
        hands: list[list[int]] = [[] for _ in view.hand_sizes]
        hands[view.own_seat] = view.hand[:]
        for seat, (lacks, count) in enumerate(self.voids):  # first the cards read as lacking something
            if count:
                allowed = [i for i, f in enumerate(hidden) if f not in lacks][:count]
                if len(allowed) == count:  # otherwise the reading was wrong: deal freely
                    hands[seat] = [hidden[i] for i in allowed]
                    for i in reversed(allowed):
                        del hidden[i]
        for seat, size in enumerate(view.hand_sizes):
            if seat != view.seat:
                free = size - len(hands[seat])
                if free:
                    hands[seat] += hidden[-free:]
                    del hidden[len(hidden) - free:]
        w4_seat = challenged_seat(view)
        w4_guilty = w4_seat >= 0 and any(f < 52 and FACE_COLOR[f] == self.w4_color for f in hands[w4_seat])
        return Game.from_view(view, hands, hidden, rng, w4_guilty=w4_guilty)


def determinize(view: View, rng: random.Random) -> Game:
    """One random determinization of ``view``."""
    return Determinizer(view).sample(rng)


__all__ = ["Determinizer", "determinize"]

"""A whole Game built from one seat's view, the unseen cards dealt at random (a determinization).

Only the view's public facts and the seat's own hand go in; the other hands
and the stock are a random deal of the cards the seat cannot see, respecting
every hand size, the cards a player showed this seat in a challenge (R7.2) and
has not played since, and what each player's draws suggest they lack (built
with ``Game.from_view``, for search only). The shuffle and the deal are
compiled (bots/playout.py): search deals once for every few playouts.
"""

from __future__ import annotations

import random

from ..rules import Game, View
from ..rules.cards import FACE_COLOR
from ..rules.states import AWAIT_CHALLENGE
from ..rules.view import challenged_seat
from .knowledge import color_before_wild_draw_four, hand_voids, known_cards, unseen_faces
from .playout import deal


class Determinizer:
    """Deals the unseen cards of one view again and again, cheaply."""

    def __init__(self, view: View):
        self.view = view
        unseen = unseen_faces(view)
        self.known: list[list[int]] = [[] for _ in view.hand_sizes]
        self.known[view.own_seat] = view.hand[:]
        self.lacks, self.counts = [0] * view.n, [0] * view.n
        for seat, (lacks, count) in enumerate(hand_voids(view)):
            shown = known_cards(view, seat) if seat != view.seat else None
            if shown and _take(unseen, shown, view.hand_sizes[seat]):
                # R7.2: what it showed in a challenge is in its hand, and says more than a draw
                self.known[seat] = shown
                count = 0 if any(face in lacks for face in shown) else min(count, view.hand_sizes[seat] - len(shown))
            self.lacks[seat] = sum(1 << face for face in lacks)
            self.counts[seat] = count
        self.unseen = unseen
        self.w4_seat = challenged_seat(view)
        self.w4_color = color_before_wild_draw_four(view) if view.awaiting == AWAIT_CHALLENGE else -1

    def cards(self, rng: random.Random) -> tuple[list[list[int]], list[int], bool]:
        """One deal: every hand, the stock, and whether a Wild Draw Four to be challenged is guilty."""
        hidden = self.unseen[:]
        hands = [hand[:] for hand in self.known]
        deal(hidden, hands, self.view.hand_sizes, self.lacks, self.counts, rng)
        seat = self.w4_seat
        guilty = seat >= 0 and any(f < 52 and FACE_COLOR[f] == self.w4_color for f in hands[seat])
        return hands, hidden, guilty

    def sample(self, rng: random.Random) -> Game:
        hands, stock, guilty = self.cards(rng)
        return Game.from_view(self.view, hands, stock, rng, w4_guilty=guilty)


def _take(unseen: list[int], shown: list[int], size: int) -> bool:
    """Take the cards a seat showed out of the unseen ones; False (nothing taken) if they cannot be its."""
    left = unseen[:]
    for face in shown:
        if face not in left:
            return False
        left.remove(face)
    if len(shown) > size:
        return False
    unseen[:] = left
    return True


def determinize(view: View, rng: random.Random) -> Game:
    """One random determinization of ``view``."""
    return Determinizer(view).sample(rng)


__all__ = ["Determinizer", "determinize"]

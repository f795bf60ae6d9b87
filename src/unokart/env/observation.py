"""The observation of one seat: a flat float32 vector of what that seat's ``View`` holds, nothing more.

Seats are relative (index 0 is the observing seat, index k the seat k places to
its left), padded to 10 seats, so one policy fits every seat and table size.
``docs/ENV.md`` describes every part; ``LAYOUT`` gives the slices by name.
"""

from __future__ import annotations

from array import array

import numpy as np

from ..rules import View
from ..rules.cards import N_FACES, WILD_DRAW_FOUR
from ..rules.states import AWAITING
from .actions import MAX_PLAYERS
from .layout import LAYOUT, OBS_SIZE


_HAND, _TOP, _COLOR, _DISCARD = (LAYOUT[k].start for k in ("hand", "top", "color", "discard"))
_SIZES, _SEATED, _SCORES, _UNO_SAID = (LAYOUT[k].start for k in ("hand_sizes", "seated", "scores", "uno_said"))
_WINDOW, _TO_ACT, _AWAITING = (LAYOUT[k].start for k in ("uno_window", "to_act", "awaiting"))
_DIRECTION, _PENDING, _STOCK, _DRAWN = (LAYOUT[k].start for k in ("direction", "pending", "stock", "drawn"))
_COVERED, _REACTING = LAYOUT["covered_color"].start, LAYOUT["reacting"].start
_AWAITING_SLOT = {name: _AWAITING + i for i, name in enumerate(AWAITING)}
# Observations are written into a plain float32 ``array.array`` (an element write costs about half of
# numpy's) copied from a per-table template, then handed out as a numpy array over that fresh buffer:
# nothing is shared between observations, so one handed out never changes when the env steps.
_TEMPLATES = [array("f", bytes(4 * OBS_SIZE)) for _ in range(MAX_PLAYERS + 1)]
for _n, _template in enumerate(_TEMPLATES):
    _template[_SEATED:_SEATED + _n] = array("f", [1.0] * _n)


def encode(view: View, covered_color: int = -1, reacting: bool = False) -> np.ndarray:
    """The observation vector of ``view.seat``. Only the view goes in: nothing hidden can come out.

    ``covered_color`` is the colour active before a Wild Draw Four on top (public:
    the env tracks it as play goes; a bot reads it from the view's events).
    """
    return encode_fields(view.own_seat, view.n, view.hand, view.hand_sizes, view.discard, view.color, view.direction,
                         view.to_act, view.awaiting, view.pending, view.stock, view.drawn, view.uno_said,
                         view.uno_window, view.scores, view.options.target_score, covered_color, reacting)


def encode_fields(seat: int, n: int, hand: list[int], hand_sizes: list[int], discard: list[int], color: int,
                  direction: int, to_act: int | None, awaiting: str, pending: int, stock: int, drawn: int,
                  uno_said: list[bool], uno_window: int, scores: list[int], target_score: int,
                  covered_color: int, reacting: bool, discard_counts: "DiscardCounts | None" = None) -> np.ndarray:
    """``encode`` from a view's fields one by one (the env's hot path passes them without building a View,
    with ``discard_counts``, the pile's face counts it keeps up to date as cards are played)."""
    obs = _TEMPLATES[n].__copy__()  # zeros, with the seated flags set
    for face in hand:
        obs[face] += 1.0
    obs[_DISCARD:_DISCARD + N_FACES] = (discard_counts or DiscardCounts()).update(discard)
    top = discard[-1]
    obs[_TOP + top] = 1.0
    obs[_AWAITING_SLOT[awaiting]] = 1.0
    if color >= 0:
        obs[_COLOR + color] = 1.0
    for k in range(n):  # relative seats: k places to the observer's left
        other = seat + k - n if seat + k >= n else seat + k
        size = hand_sizes[other]
        obs[_SIZES + k] = size
        if scores[other]:
            obs[_SCORES + k] = scores[other] / target_score
        if size == 1 and uno_said[other]:
            obs[_UNO_SAID + k] = 1.0
    if uno_window >= 0:
        obs[_WINDOW + (uno_window - seat) % n] = 1.0
    if to_act is not None:
        obs[_TO_ACT + (to_act - seat) % n] = 1.0
    if direction > 0:
        obs[_DIRECTION] = 1.0
    if pending:
        obs[_PENDING] = pending
    obs[_STOCK] = stock / 112.0
    if drawn >= 0:
        obs[_DRAWN + drawn] = 1.0
    if covered_color >= 0 and top == WILD_DRAW_FOUR:
        obs[_COVERED + covered_color] = 1.0
    if reacting:
        obs[_REACTING] = 1.0
    return np.frombuffer(obs, np.float32)


class DiscardCounts:
    """The discard pile's face counts, kept up to date cheaply: the core only appends to its pile,
    and replaces the list (a new object) when it reshuffles or deals a new round."""

    def __init__(self) -> None:
        self.counts = array("f", bytes(4 * N_FACES))
        self._pile: list[int] | None = None
        self._seen = 0

    def update(self, pile: list[int]) -> array:
        seen = self._seen
        if pile is not self._pile or len(pile) < seen:
            self.counts = array("f", bytes(4 * N_FACES))
            self._pile, seen = pile, 0
        counts = self.counts
        for face in pile[seen:]:
            counts[face] += 1.0
        self._seen = len(pile)
        return counts

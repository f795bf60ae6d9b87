"""The observation of one seat: a flat float32 vector built from that seat's ``View`` only.

Seats are relative (index 0 is the observing seat, index k the seat k places to
its left), padded to 10 seats, so one policy fits every seat and table size.
``docs/ENV.md`` describes every part; ``LAYOUT`` gives the slices by name.
"""

from __future__ import annotations

import numpy as np

from ..rules import View
from ..rules.cards import N_FACES, WILD_DRAW_FOUR
from ..rules.engine import AWAITING
from .actions import MAX_PLAYERS

_PARTS = (
    ("hand", N_FACES),            # how many of each face the seat holds
    ("top", N_FACES),             # the top card of the discard pile (one-hot)
    ("color", 4),                 # the active colour R, Y, G, B (all 0 while a starting Item Box awaits its colour)
    ("discard", N_FACES),         # the discard pile: how many of each face (what has been played since the last reshuffle)
    ("hand_sizes", MAX_PLAYERS),  # cards held, by relative seat (0 for seats the table does not have)
    ("seated", MAX_PLAYERS),      # 1 for each relative seat the table has
    ("scores", MAX_PLAYERS),      # game scores by relative seat, divided by the target score
    ("uno_said", MAX_PLAYERS),    # 1 where that seat has said UNO and still holds one card
    ("uno_window", MAX_PLAYERS),  # one-hot: the seat whose UNO window is open (R8.3)
    ("to_act", MAX_PLAYERS),      # one-hot: the seat that must decide the turn
    ("awaiting", len(AWAITING)),  # one-hot: play, drawn, challenge, stack, color, target, swap, round_over, game_over
    ("direction", 1),             # 1 when play goes left (seat order), 0 when it goes right
    ("pending", 1),               # cards the seat facing a Draw Two / Wild Draw Four (stack) would draw
    ("stock", 1),                 # cards in the stock, divided by 112
    ("drawn", N_FACES),           # one-hot: the card this seat just drew and may play (awaiting drawn)
    ("covered_color", 4),         # while a Wild Draw Four is on top: the colour active before it (R7.2)
    ("reacting", 1),              # 1 when this seat is asked out of turn (UNO, catch, jump-in)
)

LAYOUT: dict[str, slice] = {}
_start = 0
for _name, _size in _PARTS:
    LAYOUT[_name] = slice(_start, _start + _size)
    _start += _size
OBS_SIZE = _start

_HAND, _TOP, _COLOR, _DISCARD = (LAYOUT[k].start for k in ("hand", "top", "color", "discard"))
_SIZES, _SEATED, _SCORES, _UNO_SAID = (LAYOUT[k].start for k in ("hand_sizes", "seated", "scores", "uno_said"))
_WINDOW, _TO_ACT, _AWAITING = (LAYOUT[k].start for k in ("uno_window", "to_act", "awaiting"))
_DIRECTION, _PENDING, _STOCK, _DRAWN = (LAYOUT[k].start for k in ("direction", "pending", "stock", "drawn"))
_COVERED, _REACTING = LAYOUT["covered_color"].start, LAYOUT["reacting"].start
_AWAITING_INDEX = {name: i for i, name in enumerate(AWAITING)}
_SEATED_ROWS = [np.array([1.0] * n + [0.0] * (MAX_PLAYERS - n), np.float32) for n in range(MAX_PLAYERS + 1)]


def encode(view: View, covered_color: int = -1, reacting: bool = False) -> np.ndarray:
    """The observation vector of ``view.seat``. Only the view goes in: nothing hidden can come out.

    ``covered_color`` is the colour active before a Wild Draw Four on top (public:
    the env tracks it as play goes; a bot reads it from the view's events).
    """
    obs = np.zeros(OBS_SIZE, np.float32)
    seat, n = view.seat, view.n
    for face in view.hand:
        obs[face] += 1.0
    discard = view.discard
    obs[_DISCARD:_DISCARD + N_FACES] = np.bincount(discard, minlength=N_FACES)
    top = discard[-1]
    obs[_TOP + top] = 1.0
    if view.color >= 0:
        obs[_COLOR + view.color] = 1.0
    sizes = view.hand_sizes
    obs[_SIZES:_SIZES + n] = sizes[seat:] + sizes[:seat]
    obs[_SEATED:_SEATED + MAX_PLAYERS] = _SEATED_ROWS[n]
    scores = view.scores
    if any(scores):
        obs[_SCORES:_SCORES + n] = np.array(scores[seat:] + scores[:seat], np.float32) / view.options.target_score
    said = view.uno_said
    if any(said):
        for s in range(n):
            if said[s] and sizes[s] == 1:
                obs[_UNO_SAID + (s - seat) % n] = 1.0
    if view.uno_window >= 0:
        obs[_WINDOW + (view.uno_window - seat) % n] = 1.0
    if view.to_act is not None:
        obs[_TO_ACT + (view.to_act - seat) % n] = 1.0
    obs[_AWAITING + _AWAITING_INDEX[view.awaiting]] = 1.0
    if view.direction > 0:
        obs[_DIRECTION] = 1.0
    obs[_PENDING] = view.pending
    obs[_STOCK] = view.stock / 112.0
    if view.drawn >= 0:
        obs[_DRAWN + view.drawn] = 1.0
    if covered_color >= 0 and top == WILD_DRAW_FOUR:
        obs[_COVERED + covered_color] = 1.0
    if reacting:
        obs[_REACTING] = 1.0
    return obs

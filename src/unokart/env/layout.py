"""The observation's parts, by name: ``LAYOUT[name]`` is its slice of the flat vector (docs/ENV.md).

Written once, here, without numpy: ``observation.py`` encodes by it, and the compiled writer of the
batch environment (``batch_core.py``, built where numpy may be missing) takes its offsets from it.
"""

from __future__ import annotations

from ..rules.cards import N_FACES
from ..rules.states import AWAITING
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
    ("covered_color", 4),         # while a Wild Draw Four is on top: the colour active before the last one played (R7.2)
    ("reacting", 1),              # 1 when this seat is asked out of turn (UNO, catch, jump-in)
)

LAYOUT: dict[str, slice] = {}
_start = 0
for _name, _size in _PARTS:
    LAYOUT[_name] = slice(_start, _start + _size)
    _start += _size
OBS_SIZE = _start

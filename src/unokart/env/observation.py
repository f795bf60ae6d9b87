"""The observation of one seat: a flat float32 vector of what that seat's ``View`` holds, nothing more.

Seats are relative (index 0 is the observing seat, index k the seat k places to
its left), padded to 10 seats, so one policy fits every seat and table size.
``docs/ENV.md`` describes every part; ``LAYOUT`` gives the slices by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import View
from .actions import MAX_PLAYERS
from .batch_core import SCORES_AT, SeatRows, write_row
from .layout import LAYOUT, OBS_SIZE

_STOCK = LAYOUT["stock"].start
_SCORES = LAYOUT["scores"]


def encode(view: View, covered_color: int = -1, reacting: bool = False) -> np.ndarray:
    """The observation vector of ``view.seat``. Only the view goes in: nothing hidden can come out.

    ``covered_color`` is the colour active before a Wild Draw Four on top (public:
    the env tracks it as play goes; a bot reads it from the view's events). The environments'
    own writer (``batch_core.write_row``) does the encoding, into fresh rows.
    """
    rows = SeatRows(view.n)
    write_row(rows, view, view.own_seat, view.n, covered_color, reacting)
    return widen(rows.row, view.options.target_score, any(view.scores))


def widen(row: Any, target: float, scored: bool = True) -> np.ndarray:
    """A seat's byte row (``batch_core.SeatRows.row``) as its float32 observation: the stock divided by 112,
    the raw scores (two bytes each after the observation) by the target score, in doubles as ``BatchEnv``
    widens a whole batch of rows. ``scored=False`` says every score is 0 (nothing to divide)."""
    obs = np.frombuffer(row, np.uint8, count=OBS_SIZE).astype(np.float32)
    obs[_STOCK] = row[_STOCK] / 112.0
    if scored:
        obs[_SCORES] = np.frombuffer(row, "<u2", count=MAX_PLAYERS, offset=SCORES_AT) / target
    return obs

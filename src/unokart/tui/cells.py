"""Text width as terminals draw it, for Tamil, Telugu, Kannada and the other Indic scripts.

Terminals (tmux, xterm, VTE) place text one code point at a time with the C library's
``wcwidth``: a spacing vowel sign (Unicode category Mc, e.g. U+0BBE TAMIL VOWEL SIGN AA)
takes a cell of its own, a non-spacing mark (Mn) or a format character (Cf) none.
Rich, and so Textual, counts spacing marks as 0 cells: "கார்டு" is 3 cells to Rich
and 5 in tmux 3.3, so every line with Indic text ran past the right edge and was cut.
Measured: Debian's tmux 3.3a (built without utf8proc, so glibc's wcwidth) gives every
assigned code point of Latin-1, the Indic blocks U+0900-U+0DFF, Arabic and its
presentation forms, punctuation, arrows and box drawing the width Rich gives it, except
the 100 spacing marks there, which take 1 cell, not 0.

``install()`` gives Rich (and so Textual) the terminals' measure: Rich's own table,
with every spacing mark one cell. tests/tui/test_cells_match_tmux.py checks the
measure against tmux itself, with the cursor position after each catalogue text.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from functools import lru_cache

import rich.cells
from rich.cells import CellTable
from rich._unicode_data import load as _rich_table

# Sample: KA + the spacing vowel sign AA: 2 cells in a terminal, 1 to Rich's own table.
_PROBE = "கா"


def _spacing_marks() -> list[int]:
    return [cp for cp in range(0x300, 0x20000) if unicodedata.category(chr(cp)) == "Mc"]


def terminal_table(unicode_version: str = "auto") -> CellTable:
    """Rich's width table with every spacing mark (Mc) one cell wide, as wcwidth has it."""
    base = _rich_table(unicode_version)
    marks = _spacing_marks()
    ranges: list[tuple[int, int, int]] = []
    for start, end, width in base.widths:  # split Rich's ranges where a spacing mark breaks them
        run_start = start
        for cp in marks[bisect_left(marks, start):bisect_right(marks, end)] if width != 1 else ():
            if run_start < cp:
                ranges.append((run_start, cp - 1, width))
            ranges.append((cp, cp, 1))
            run_start = cp + 1
        if run_start <= end:
            ranges.append((run_start, end, width))
    # Spacing marks outside every range already count 1 (Rich's default).
    return CellTable(base.unicode_version, ranges, base.narrow_to_wide)


@lru_cache(maxsize=None)
def _table(unicode_version: str = "auto") -> CellTable:
    return terminal_table(unicode_version)


def install() -> None:
    """Make Rich and Textual measure text as terminals do. Idempotent; call before drawing."""
    if rich.cells.load_cell_table is not _table:
        rich.cells.load_cell_table = _table  # rich.cells looks the table up by this name at each measure
        rich.cells.get_character_cell_size.cache_clear()
        rich.cells.cached_cell_len.cache_clear()
    if rich.cells.cell_len(_PROBE) != 2:  # a Rich that measures elsewhere: fail loudly, not cut lines silently
        raise RuntimeError("unokart.tui.cells.install: this Rich version ignores the terminal width table")


def cell_width(text: str) -> int:
    """The cells ``text`` takes in a terminal (after ``install``, the same as Rich's ``cell_len``)."""
    install()
    return rich.cells.cell_len(text)

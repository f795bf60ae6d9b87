"""Cards and hands as styled text, drawn as the browser draws them: a face on the card's colour.

A face is the colour's shape (▲ red, ● yellow, ■ green, ◆ blue; ★ a wild) and the card's number
or symbol (⊘ Skip, ⇄ Reverse, +2, +4, ? the Wild Item Box), so a colour-blind player tells colours
apart by shape. Notation codes ("Y+2", "W+4") are for records and never reach the screen.
"""

from __future__ import annotations

from rich.text import Text

from ..rules.cards import parse_card

CARD_STYLE = {
    "R": "bold white on #c62828",
    "Y": "bold black on #f9c513",
    "G": "bold black on #43a047",
    "B": "bold white on #1e63d6",
    "W": "bold white on #6a1b9a",
}
DIM_STYLE = {"R": "#ef5350", "Y": "#fdd835", "G": "#66bb6a", "B": "#64a0ff", "W": "#ce93d8"}
# The browser's marks (web/js/cards.js): one shape a colour; every one a single cell in a terminal.
COLOR_SHAPE = {"R": "▲", "Y": "●", "G": "■", "B": "◆", "W": "★"}
RANK_GLYPH = {"S": "⊘", "R": "⇄", "IB": "?"}  # +2, +4 and the numbers stand as they are
CELL = 6  # a card's width in the hand, gap included
PLAYABLE_MARK = "*"


def sort_hand(codes: list[str]) -> list[str]:
    """Cards grouped by colour, then by rank (faces are numbered that way)."""
    return sorted(codes, key=parse_card)


def face(code: str) -> str:
    """A card's face, at most 3 cells: its colour's shape, then its number or symbol ("▲5", "●+2", "★+4")."""
    rank = code[1:]
    return COLOR_SHAPE[code[0]] + RANK_GLYPH.get(rank, rank)


def shape(letter: str) -> str:
    """The shape that stands for a colour (``letter``: R, Y, G or B), beside its name."""
    return COLOR_SHAPE[letter]


def card(code: str) -> Text:
    """One card: its face on its colour."""
    return Text(f" {face(code)} ", style=CARD_STYLE[code[0]])


def hand_rows(codes: list[str], playable: set[str], selected: int, width: int) -> Text:
    """The hand as rows of (key, card) lines: the key is the digit that picks the card, marked when playable."""
    per_row = max(1, width // CELL)
    out = Text()
    for start in range(0, len(codes), per_row):
        labels, cards = Text(), Text()
        for index in range(start, min(start + per_row, len(codes))):
            code = codes[index]
            key = str(index + 1) if index < 9 else ("0" if index == 9 else "")
            mark = PLAYABLE_MARK if code in playable else ""
            labels.append(f"{key + mark:^5} ", style="bold" if mark else "dim")
            chosen = index == selected
            text = f"[{face(code):^3}]" if chosen else f" {face(code):^3} "
            style = CARD_STYLE[code[0]] if code in playable or chosen else DIM_STYLE[code[0]]
            cards.append(text, style=style + (" underline" if chosen else ""))
            cards.append(" ")
        if start:
            out.append("\n")
        out.append_text(labels)
        out.append("\n")
        out.append_text(cards)
    return out

"""Cards as small integers ("faces") with precomputed tables (R1).

A face is what a card shows; the 112 cards are 54 faces, some repeated.
Coloured faces are ``colour * 13 + rank``; the two wild faces come last.
"""

from __future__ import annotations

from typing import Final, Iterable

from .errors import NotationError, shown

COLORS: Final = "RYGB"
COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
WILD: Final = 4  # the "colour" of a wild face

SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
WILD_DRAW_FOUR: Final = 52
WILD_ITEM_BOX: Final = 53
N_FACES: Final = 54
DECK_SIZE: Final = 112

_RANK_CODES: Final = [str(d) for d in range(10)] + ["S", "R", "+2"]

FACE_CODE: Final[list[str]] = [c + r for c in COLORS for r in _RANK_CODES] + ["W+4", "WIB"]
FACE_COLOR: Final[list[int]] = [f // 13 for f in range(52)] + [WILD, WILD]
FACE_RANK: Final[list[int]] = [f % 13 for f in range(52)] + [13, 14]
# R11.1: numbers at face value, coloured actions 20, wilds 50.
FACE_POINTS: Final[list[int]] = [r if r < 10 else 20 for r in FACE_RANK[:52]] + [50, 50]
# R3.1: action cards and wilds count as 0 when drawing for dealer.
DEALER_DRAW_VALUE: Final[list[int]] = [r if r < 10 else 0 for r in FACE_RANK[:52]] + [0, 0]
# R1.4: the item in each card's corner.
ITEMS: Final = ("mushroom", "banana", "green_shell", "lightning", "bobomb")
FACE_ITEM: Final[list[str]] = [ITEMS[c] for c in FACE_COLOR]

_CODE_FACE: Final = {code: f for f, code in enumerate(FACE_CODE)}


def _full_deck() -> list[int]:
    deck = []
    for color in range(4):
        base = color * 13
        deck.append(base)  # one 0
        for rank in range(1, 13):  # two each of 1-9, Skip, Reverse, Draw Two
            deck += [base + rank, base + rank]
    deck += [WILD_DRAW_FOUR] * 4 + [WILD_ITEM_BOX] * 8
    return deck


FULL_DECK: Final[tuple[int, ...]] = tuple(_full_deck())
assert len(FULL_DECK) == DECK_SIZE
FACE_COUNT: Final[tuple[int, ...]] = tuple(FULL_DECK.count(f) for f in range(N_FACES))


def parse_card(text: object) -> int:
    """Parse a card code (case-insensitive) into its face."""
    face = _CODE_FACE.get(text.strip().upper()) if isinstance(text, str) else None
    if face is None:
        raise NotationError(f"unknown card code {shown(text)}", "core.notation.card", {"text": shown(text)})
    return face


def card_code(face: int) -> str:
    return FACE_CODE[face]


def card_codes(faces: Iterable[int]) -> list[str]:
    return [FACE_CODE[f] for f in faces]


def parse_color(text: object) -> int:
    idx = COLORS.find(text.strip().upper()) if isinstance(text, str) and len(text.strip()) == 1 else -1
    if idx < 0:
        raise NotationError(f"unknown colour {shown(text)} (expected one of R, Y, G, B)", "core.notation.colour", {"text": shown(text)})
    return idx

"""What one seat can work out from its view alone: unseen cards and the colour a Wild Draw Four covered."""

from __future__ import annotations

from ..rules import View
from ..rules.cards import COLORS, FACE_COLOR, FACE_COUNT, N_FACES, WILD, parse_card


def unseen_counts(view: View) -> list[int]:
    """How many of each face the seat cannot see: the deck minus its hand and the discard pile."""
    counts = list(FACE_COUNT)
    for face in view.hand:
        counts[face] -= 1
    for face in view.discard:
        counts[face] -= 1
    return counts


def unseen_faces(view: View) -> list[int]:
    """The unseen cards as a list (one entry per card), in face order."""
    counts = unseen_counts(view)
    return [face for face in range(N_FACES) for _ in range(counts[face])]


def color_before_wild_draw_four(view: View) -> int:
    """R7.2: the colour that was active just before the last Wild Draw Four (-1 if unknown)."""
    color = -1
    before = -1
    for event in view.events:
        kind = event["type"]
        if kind in ("play", "jump_in") or kind == "first_card":
            if kind == "jump_in":
                continue  # the play event that follows carries the card
            face = parse_card(event["card"])
            if face == 52:  # Wild Draw Four: remember what it covered
                before = color
                color = COLORS.index(event["color"]) if event.get("color") else -1
            elif FACE_COLOR[face] != WILD:
                color = FACE_COLOR[face]
        elif kind == "item" and event.get("card"):
            face = parse_card(event["card"])
            if FACE_COLOR[face] != WILD:
                color = FACE_COLOR[face]
        elif kind == "color":
            color = COLORS.index(event["color"])
    return before


def chance_guilty(view: View, culprit: int) -> float:
    """The chance that ``culprit`` holds a card of the colour the Wild Draw Four covered,
    if its hand were a uniform sample of the cards this seat cannot see."""
    color = color_before_wild_draw_four(view)
    if color < 0:
        return 0.0
    counts = unseen_counts(view)
    unseen = sum(counts)
    of_color = sum(counts[color * 13:color * 13 + 13])
    size = view.hand_sizes[culprit]
    none = 1.0
    for i in range(size):
        if unseen - i <= 0:
            break
        none *= max(0, unseen - of_color - i) / (unseen - i)
    return 1.0 - none

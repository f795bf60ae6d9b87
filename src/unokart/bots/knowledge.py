"""What one seat can work out from its view alone: unseen cards and the colour a Wild Draw Four covered."""

from __future__ import annotations

from ..rules import View
from ..rules.cards import COLORS, FACE_COLOR, FACE_COUNT, FACE_RANK, N_FACES, WILD, parse_card


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


def hand_voids(view: View, trust_wild_draw_four: bool = True) -> list[tuple[frozenset[int], int]]:
    """Per seat: faces it most likely lacks and how many of its cards that applies to.

    A player who draws on their turn instead of playing is read as holding no
    card of the active colour, of the top card's number or symbol, and no wild
    (a careful player's reason to draw); one who plays a Wild Draw Four, as
    holding none of the colour it covered. Cards drawn later are unconstrained.
    Only the latest such reading is kept: earlier ones may not cover cards drawn since.
    Nothing is inferred about this seat itself, nor after hands move (R12.5). Without
    ``trust_wild_draw_four`` a Wild Draw Four says nothing (to weigh a challenge of it).
    """
    n = view.n
    readings = _readings(view, trust_wild_draw_four)
    if readings is None:
        return [(frozenset(), 0)] * n
    voids, constrained = readings
    return [(frozenset(f for f in range(N_FACES) if _lacked(v, f)) if s != view.seat and k else frozenset(),
             k if s != view.seat else 0) for s, (v, k) in enumerate(zip(voids, constrained))]


def _readings(view: View, trust_wild_draw_four: bool) -> tuple[list[tuple[int, int, bool]], list[int]] | None:
    """hand_voids' readings, per seat: (colour, rank, wilds) it lacks and how many cards that covers
    (None: nothing can be inferred)."""
    n = view.n
    sizes = [view.options.hand_size] * n
    nothing = (-1, -1, False)
    voids = [nothing] * n  # per seat, a reading: (colour, rank, wilds) it lacks; sets only at the end (this is hot)
    constrained = [0] * n
    color, rank = -1, -1
    for event in view.events:
        kind = event["type"]
        if kind in ("play", "first_card") or (kind == "item" and event.get("card")):
            face = parse_card(event["card"])
            if kind == "play":
                seat = event["seat"]
                sizes[seat] -= 1
                # A card it lacked came from the free part; any other may have been a constrained one.
                kept = constrained[seat] if _lacked(voids[seat], face) else constrained[seat] - 1
                constrained[seat] = max(0, min(kept, sizes[seat]))
            if face == 52:
                if kind == "play" and color >= 0 and trust_wild_draw_four:  # R7.2: a careful player's Wild Draw Four says it lacked the colour
                    voids[seat] = (color, -1, False)
                    constrained[seat] = sizes[seat]
                color = COLORS.index(event["color"]) if event.get("color") else -1
            elif FACE_COLOR[face] != WILD:
                color = FACE_COLOR[face]
            rank = FACE_RANK[face]
        elif kind == "color":
            color = COLORS.index(event["color"])
        elif kind == "draw":
            seat = event["seat"]
            if event["cause"] == "turn" and event["count"] and constrained[seat] < sizes[seat] and color >= 0:
                voids[seat] = (color, rank, True)
                constrained[seat] = sizes[seat]
            sizes[seat] += event["count"]
        elif kind in ("swap", "rotate"):
            return None
    if sizes != view.hand_sizes:  # an event this reading does not know: infer nothing
        return None
    return voids, constrained


def _lacked(reading: tuple[int, int, bool], face: int) -> bool:
    """Whether ``face`` is among what a reading of hand_voids says a hand lacks."""
    color, rank, wilds = reading
    if face >= 52:
        return wilds
    return FACE_COLOR[face] == color or FACE_RANK[face] == rank


def next_seat_lacks(view: View) -> list[float]:
    """Per colour, the share of the next seat's hand read as holding none of it (hand_voids):
    1.0 when its whole hand is, 0.0 when nothing is known."""
    following = (view.own_seat + view.direction) % view.n
    readings = _readings(view, True)
    size = view.hand_sizes[following]
    if readings is None or following == view.seat or not readings[1][following] or not size:
        return [0.0] * 4
    color = readings[0][following][0]  # a reading lacks a whole colour only by its colour
    return [readings[1][following] / size if c == color else 0.0 for c in range(4)]


def known_cards(view: View, seat: int) -> list[int] | None:
    """The cards ``seat`` showed this seat in a challenge this round (R7.2) and has not played
    since, or None if it showed none (or hands have moved since, R12.5)."""
    known: list[int] | None = None
    for event in view.events:
        kind = event["type"]
        if kind == "reveal" and event["seat"] == seat:
            known = [parse_card(code) for code in event["cards"]]
        elif known is not None and kind == "play" and event["seat"] == seat:
            face = parse_card(event["card"])
            if face in known:
                known.remove(face)
        elif kind in ("swap", "rotate"):
            known = None
    return known


def challenge_record(view: View, seat: int) -> tuple[int, int]:
    """How many of ``seat``'s Wild Draw Fours were challenged this round and found guilty, and innocent."""
    guilty = innocent = 0
    for event in view.events:
        if event["type"] == "challenge" and event["target"] == seat:
            if event["guilty"]:
                guilty += 1
            else:
                innocent += 1
    return guilty, innocent

"""The fixed discrete action space: every legal action of the core is exactly one index.

Seats in actions are relative to the deciding seat ("offset k" is the seat k
places to its left, ``(seat + k) % players``), so one policy fits every seat and
every table size from 2 to 10. ``docs/ENV.md`` lists every index.
"""

from __future__ import annotations

from functools import lru_cache

from ..rules import Action
from ..rules import actions as A
from ..rules.actions import make
from ..rules.cards import COLORS, FACE_CODE, N_FACES, WILD_DRAW_FOUR, WILD_ITEM_BOX

MAX_PLAYERS = 10
MAX_OFFSETS = MAX_PLAYERS - 1
COLORED_FACES = 52

# A "play variant" is a face, with its colour for a Wild Draw Four:
# 0-51 the coloured faces, 52-55 Wild Draw Four choosing R/Y/G/B, 56 Wild Item Box.
PLAY_VARIANTS = COLORED_FACES + 4 + 1
PLAY = 0                                  # play variant v
PLAY_UNO = PLAY + PLAY_VARIANTS           # play variant v and say UNO with it
JUMP = PLAY_UNO + PLAY_VARIANTS           # jump in with coloured face f (R12.4)
JUMP_UNO = JUMP + COLORED_FACES
DRAW = JUMP_UNO + COLORED_FACES
PASS = DRAW + 1
CHALLENGE = PASS + 1
ACCEPT = CHALLENGE + 1
COLOR = ACCEPT + 1                        # colour R, Y, G, B
TARGET = COLOR + 4                        # Green Shell target, offsets 1-9
SWAP = TARGET + MAX_OFFSETS               # swap hands after a 7, offsets 1-9 (R12.5)
UNO = SWAP + MAX_OFFSETS                  # say UNO after the play (R8.3)
CATCH = UNO + 1                           # catch the seat at offset 1-9 (R8.2)
DECLINE = CATCH + MAX_OFFSETS             # out of turn: let the moment pass (not a core action)
N_ACTIONS = DECLINE + 1

_BLOCKS = (
    (PLAY, "play"), (PLAY_UNO, "play_uno"), (JUMP, "jump"), (JUMP_UNO, "jump_uno"), (DRAW, "draw"),
    (PASS, "pass"), (CHALLENGE, "challenge"), (ACCEPT, "accept"), (COLOR, "color"), (TARGET, "target"),
    (SWAP, "swap"), (UNO, "uno"), (CATCH, "catch"), (DECLINE, "decline"),
)


def _variant(face: int, color: int) -> int:
    if face == WILD_DRAW_FOUR:
        return COLORED_FACES + color
    return PLAY_VARIANTS - 1 if face == WILD_ITEM_BOX else face


def _variant_face_color(variant: int) -> tuple[int, int]:
    if variant < COLORED_FACES:
        return variant, -1
    if variant < COLORED_FACES + 4:
        return WILD_DRAW_FOUR, variant - COLORED_FACES
    return WILD_ITEM_BOX, -1


def _index_to_action(seat: int, players: int, index: int) -> Action | None:
    """The core action an index means for ``seat``; None for DECLINE or a seat beyond the table."""
    if index < PLAY_UNO:
        return make(seat, A.PLAY, *_variant_face_color(index - PLAY), uno=False)
    if index < JUMP:
        return make(seat, A.PLAY, *_variant_face_color(index - PLAY_UNO), uno=True)
    if index < JUMP_UNO:
        return make(seat, A.JUMP, index - JUMP)
    if index < DRAW:
        return make(seat, A.JUMP, index - JUMP_UNO, uno=True)
    simple = {DRAW: A.DRAW, PASS: A.PASS, CHALLENGE: A.CHALLENGE, ACCEPT: A.ACCEPT, UNO: A.UNO}
    if index in simple:
        return make(seat, simple[index])
    if COLOR <= index < TARGET:
        return make(seat, A.COLOR, color=index - COLOR)
    for start, verb in ((TARGET, A.TARGET), (SWAP, A.SWAP), (CATCH, A.CATCH)):
        if start <= index < start + MAX_OFFSETS:
            offset = index - start + 1
            return make(seat, verb, target=(seat + offset) % players) if offset < players else None
    return None  # DECLINE


@lru_cache(maxsize=None)
def action_table(players: int) -> tuple[tuple[tuple[Action | None, ...], ...], dict[Action, int]]:
    """For a table size: ``actions[seat][index]`` (None where the index means nothing) and ``index_of[action]``."""
    actions = tuple(tuple(_index_to_action(seat, players, i) for i in range(N_ACTIONS)) for seat in range(players))
    index_of = {a: i for row in actions for i, a in enumerate(row) if a is not None}
    return actions, index_of


def index_of_action(action: Action, players: int) -> int:
    """The index of a core action (from any seat) at a table of ``players``."""
    return action_table(players)[1][action]


def action_of_index(index: int, seat: int, players: int) -> Action | None:
    """The core action ``index`` means for ``seat`` (None: DECLINE, or a seat offset beyond the table)."""
    return action_table(players)[0][seat][index]


def describe_index(index: int) -> str:
    """What an index does, in NOTATION.md's words with the card named: ``play Y6``, ``play W+4 G uno``,
    ``jump R+2``, ``color B``, ``catch offset 3`` (seats stay relative: offset k is k seats to the left)."""
    if not 0 <= index < N_ACTIONS:
        return f"out of range (0 to {N_ACTIONS - 1})"
    start, name = max((s, n) for s, n in _BLOCKS if s <= index)
    arg = index - start
    if name in ("play", "play_uno"):
        face, color = _variant_face_color(arg)
        text = f"play {FACE_CODE[face]}" + (f" {COLORS[color]}" if color >= 0 else "")
        return text + " uno" if name == "play_uno" else text
    if name in ("jump", "jump_uno"):
        return f"jump {FACE_CODE[arg]}" + (" uno" if name == "jump_uno" else "")
    if name == "color":
        return f"color {COLORS[arg]}"
    if name in ("target", "swap", "catch"):
        return f"{name} offset {arg + 1}"
    return name  # draw, pass, challenge, accept, uno, decline


assert N_ACTIONS == 255 and N_FACES == 54

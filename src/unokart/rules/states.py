"""What a game awaits: the decision it is waiting for, or the end of a round or of the game."""

from __future__ import annotations

from typing import Final

# Each is the word the full-state JSON uses (NOTATION.md); DRAWN: the seat that drew may play that card or keep it.
PLAY: Final = "play"
DRAWN: Final = "drawn"
CHALLENGE: Final = "challenge"
STACK: Final = "stack"
COLOR: Final = "color"
TARGET: Final = "target"
SWAP: Final = "swap"
ROUND_OVER: Final = "round_over"
GAME_OVER: Final = "game_over"
AWAITING: Final = (PLAY, DRAWN, CHALLENGE, STACK, COLOR, TARGET, SWAP, ROUND_OVER, GAME_OVER)

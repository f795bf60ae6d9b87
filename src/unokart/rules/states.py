"""What a game awaits: the decision it is waiting for, or the end of a round or of the game."""

from __future__ import annotations

from typing import Final

# Each is the word the full-state JSON uses (NOTATION.md); AWAIT_DRAWN: the seat that drew may play that card or keep it.
AWAIT_PLAY: Final = "play"
AWAIT_DRAWN: Final = "drawn"
AWAIT_CHALLENGE: Final = "challenge"
AWAIT_STACK: Final = "stack"
AWAIT_COLOR: Final = "color"
AWAIT_TARGET: Final = "target"
AWAIT_SWAP: Final = "swap"
ROUND_OVER: Final = "round_over"
GAME_OVER: Final = "game_over"
AWAITING: Final = (AWAIT_PLAY, AWAIT_DRAWN, AWAIT_CHALLENGE, AWAIT_STACK, AWAIT_COLOR, AWAIT_TARGET, AWAIT_SWAP, ROUND_OVER, GAME_OVER)

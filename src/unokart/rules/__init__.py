"""The pure rules core of UNO Mario Kart."""

from .actions import Action, parse_action
from .cards import FULL_DECK, card_code, parse_card
from .engine import Game
from .errors import IllegalAction, NotationError, RecordError, SetupError, UnoKartError
from .options import Options
from .view import View

__all__ = [
    "Action", "Game", "IllegalAction", "NotationError", "Options", "RecordError", "SetupError", "UnoKartError", "View",
    "FULL_DECK", "card_code", "parse_action", "parse_card",
]

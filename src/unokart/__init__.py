"""unokart: UNO Mario Kart, complete, fast and faithful."""

from .rules import Action, Game, IllegalAction, NotationError, Options, RecordError, SetupError, UnoKartError, View

__all__ = ["Action", "Game", "IllegalAction", "NotationError", "Options", "RecordError", "SetupError", "UnoKartError", "View"]
__version__ = "0.1.0"

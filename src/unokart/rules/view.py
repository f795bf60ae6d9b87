"""Per-seat views (DESIGN 6). ``View`` lives in the engine's module, so that it is compiled with it."""

from .engine import View

__all__ = ["View"]

"""The terminal client: ``unokart play`` (a Textual app).

The screen is drawn from one model, a :class:`~unokart.tui.source.TableSource`:
the seat's view, its legal actions and the events it may see. Two sources
stand behind that interface: a local game against bots, and a remote table.
"""

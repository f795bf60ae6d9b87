"""The game server: tables, seats, bots, SQLite persistence, the HTTP API and websockets (docs/PROTOCOL.md).

``unokart serve`` runs it; ``create_app(db_path, settings)`` builds the ASGI app.
"""

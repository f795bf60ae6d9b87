"""The browser client: static files (index.html, style.css, js/) served by the game server, and the
replay frames it steps through (replay.py)."""

"""The browser tests' window sizes, and a finished game to open in them."""

import time

import httpx

VIEWPORTS = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
# The three sizes every language is checked at (issue 14): a phone, a tablet, a laptop.
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024}, "laptop": {"width": 1280, "height": 800}}


def finished_game(server) -> dict:
    """A game that three bots played to its end at ``server`` (GET /api/games/{id})."""
    server.create(seats=3, bots={"0": "easy", "1": "random", "2": "easy"}, options={"hand_size": 3, "target_score": 1}, start=True)
    deadline = time.monotonic() + 30
    while not (games := httpx.get(server.url + "/api/games").json()["games"]):
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    return httpx.get(f"{server.url}/api/games/{games[0]['id']}").json()

"""Game.glance: the seat's view without copies or events, for environments; refreshed in place it stays exact."""

import random

from unokart import Game
from unokart.rules.view import View

FIELDS = [name for name in View.__slots__ if not name.startswith("_")]


def test_a_glance_holds_what_the_view_holds_and_no_events_and_a_refreshed_one_stays_exact():
    rng = random.Random(4)
    game = Game.new(3, seed=4)
    kept = None
    checked = 0
    while game.awaiting not in ("round_over", "game_over"):
        for seat in (None, 0, 1, 2):
            view, glance = game.view(seat), game.glance(seat)
            assert {f: getattr(glance, f) for f in FIELDS} == {f: getattr(view, f) for f in FIELDS}
            assert glance.events == [] and view.events
        kept = game.glance(game.to_act, kept)
        assert {f: getattr(kept, f) for f in FIELDS} == {f: getattr(game.view(game.to_act), f) for f in FIELDS}
        checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 10


def test_another_seats_glance_never_holds_the_drawn_card():
    for seed in range(40):
        game = Game.new(2, seed=seed)
        for action in game.legal_actions():
            if action.verb == "draw":
                game.apply(action)
                break
        if game.awaiting == "drawn":
            other = 1 - game.to_act
            assert game.glance(game.to_act).drawn >= 0 and game.glance(other).drawn == -1
            return
    raise AssertionError("no seed reached a drawn card")

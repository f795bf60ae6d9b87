"""What the simulator hands a bot (a view, its events) reaches no hidden card and no part of the game.

Walks every object reachable from a view through data (lists, tuples, dicts, slots and
attributes of instances; not through classes, modules or code, which any Python code can
reach anyway) and checks that none is the game, its hands, stock or event log, and that
no card list in it is another seat's hand.
"""

import gc
import random
import types

import pytest

from unokart import Game
from unokart.bots import make_bot

NOT_DATA = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.CodeType)


def reachable(root) -> list:
    seen, todo, found = set(), [root], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, NOT_DATA):
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, (str, bytes, int, float, bool)) or obj is None:
            continue
        todo.extend(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):  # slot values are not gc referents of every type
            if hasattr(obj, name):
                todo.append(getattr(obj, name))
    return found


def positions(options: dict, seeds: range):
    """Decision points of 3-player games between heuristic and random players."""
    bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
    for seed in seeds:
        game = Game.new(3, seed=seed, options=options)
        rng = random.Random(seed)
        while game.awaiting not in ("round_over", "game_over"):
            yield game
            seat = game.to_act
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat), rng))


@pytest.mark.parametrize("options", [{}, {"seven_zero": True, "stacking": True}], ids=["standard", "seven_zero,stacking"])
def test_nothing_reachable_from_a_view_is_the_game_or_a_hidden_card(options):
    checked = 0
    for index, game in enumerate(positions(options, range(6))):
        if index % 5:
            continue  # every 5th position: the walk is slow, and positions repeat their shapes
        private = [game, game._hands, game._stock, game._log, *game._hands]  # even its own hand: a view holds a copy
        for seat in (None, 0, 1, 2):
            view = game.view(seat)
            objects = reachable(view)
            view.events  # reading the events must not hand out anything more
            objects += reachable(view.events)
            for obj in objects:
                assert not any(obj is p for p in private), f"seat {seat}'s view reaches {type(obj).__name__} of the game"
            for other in range(3):
                if other != seat and len(game.hand(other)) > 1:
                    assert not any(isinstance(obj, list) and obj == game.hand(other) for obj in objects), \
                        f"seat {seat}'s view holds seat {other}'s hand"
            checked += 1
    assert checked > 100

"""Fixed-seed move-tree counts in the spirit of chess perft: any change to legal moves or their effects shows.

Depth 1 is checked by hand in each comment; deeper counts pin the engine's behaviour (update them only for
an intended rules change, and say which). Every node is a ``copy()``, so this also proves copies are independent.
"""

import pytest

from unokart import Game

ALL_OPTIONS = {"stacking": True, "jump_in": True, "seven_zero": True, "force_play": True, "draw_until_playable": True}


def perft(game: Game, depth: int) -> int:
    if depth == 0 or game.to_act is None:
        return 1
    total = 0
    for action in game.legal_actions():
        child = game.copy()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("players, options, counts", [
    (3, {}, [5, 16, 60, 199]),  # WIB Y7 R3 B8 G7 B+2 Y5 on B3: WIB, R3, B8, B+2, draw
    (4, ALL_OPTIONS, [3, 6, 20, 63]),  # WIB G4 B2 G7 R6 Y6 B1 on R3: WIB, R6, draw
    (2, {}, [2, 8, 32, 94]),  # WIB R7 G4 R3 B2 B3 G7 on Y9: WIB, draw
])
def test_perft_fixed_seed_move_tree_counts(players, options, counts):
    game = Game.new(players, seed=1, options=options)
    before = game.state()
    assert [perft(game, depth) for depth in range(1, len(counts) + 1)] == counts
    assert game.state() == before and game.version == 0

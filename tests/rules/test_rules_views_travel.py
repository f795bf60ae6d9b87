"""A view pickles and comes back equal, compiled or not: the server sends views to its search processes."""

import pickle

from unokart import Game


def test_a_view_comes_back_from_pickling_with_every_field():
    game = Game.new(4, seed=11)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        back = pickle.loads(pickle.dumps(view))
        assert type(back) is type(view)
        assert back.to_json() == view.to_json()
        assert back.events == view.events and back.events
        assert [getattr(back, name) for name in type(view).__slots__] == [getattr(view, name) for name in type(view).__slots__]

"""What a seat works out from its view is true of the real game: the colour a Wild Draw Four
covered (R7.2), the cards it cannot see, and what careful players' draws say they lack."""

import random

from unokart import Game
from unokart.bots import make_bot
from unokart.bots.knowledge import color_before_wild_draw_four, hand_voids, unseen_counts
from unokart.rules.states import AWAIT_CHALLENGE, GAME_OVER, ROUND_OVER


def heuristic_positions(players: int, seeds: range):
    """Every position of whole rounds between heuristic players, before each turn action."""
    bot = make_bot("heuristic")
    for seed in seeds:
        game = Game.new(players, seed=seed)
        rng = random.Random(seed)
        while game.awaiting not in (ROUND_OVER, GAME_OVER):
            yield game
            game.apply(bot.choose(game.view(game.to_act), game.legal_actions(), rng))
            for other in game.out_of_turn_seats():
                if game.legal_actions(other):
                    action = bot.choose(game.view(other), game.legal_actions(other), rng)
                    if action is not None:
                        game.apply(action)
                        break


def test_the_colour_before_a_wild_draw_four_is_read_right_from_events():
    checked = 0
    for seed in range(150):
        game = Game.new(3, seed=seed)
        rng = random.Random(seed)
        while game.awaiting not in (ROUND_OVER, GAME_OVER):
            before = game.color
            action = rng.choice(game.legal_actions())
            game.apply(action)
            if action.verb == "play" and action.card == 52 and game.awaiting == AWAIT_CHALLENGE:
                assert color_before_wild_draw_four(game.view(game.to_act)) == before
                checked += 1
    assert checked > 100


def test_unseen_cards_are_exactly_the_other_hands_and_the_stock():
    for game in heuristic_positions(3, range(3)):
        seat = game.to_act
        counts = unseen_counts(game.view(seat))
        hidden = [f for s, hand in enumerate(game._hands) if s != seat for f in hand] + list(game._stock)
        assert counts == [hidden.count(face) for face in range(54)]


def test_what_careful_players_draws_say_they_lack_is_almost_always_true():
    """A careful player may still bluff a Wild Draw Four when the next player is about to go out,
    so the reading is a strong guess, not a certainty."""
    readings = wrong = 0
    for game in heuristic_positions(3, range(30)):
        seat = game.to_act
        for other, (lacks, count) in enumerate(hand_voids(game.view(seat))):
            if count:
                readings += 1
                assert other != seat
                wrong += sum(face not in lacks for face in game.hand(other)) < count
    assert readings > 500
    assert wrong / readings < 0.03

"""Bots decide from their seat's view alone: hidden cards never change a decision, and
the only parts of the view they touch are its public attributes."""

import random

import pytest

from unokart import Game
from unokart.bots import make_bot
from unokart.bots.determinize import determinize
from unokart.rules.cards import FACE_COUNT
from unokart.rules.states import AWAIT_CHALLENGE, AWAIT_COLOR, AWAIT_DRAWN, AWAIT_PLAY, AWAIT_TARGET

PUBLIC = {name for name in ("seat", "n", "names", "options", "hand", "hand_sizes", "discard", "color", "direction",
                            "to_act", "awaiting", "stock", "uno_said", "uno_window", "scores", "round", "dealer",
                            "pending", "drawn", "round_winner", "game_winner", "version", "events", "top", "own_seat")}


class RecordingView:
    """Passes a real view through, writing down every attribute the bot asks for."""

    def __init__(self, view, asked: set):
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "_asked", asked)

    def __getattr__(self, name):
        self._asked.add(name)
        return getattr(self._view, name)


def hidden_cards_shuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with every card it cannot see dealt differently."""
    other = game.copy()
    hidden = [f for s, hand in enumerate(other._hands) if s != seat for f in hand] + other._stock
    rng.shuffle(hidden)
    for s, hand in enumerate(other._hands):
        if s != seat:
            size = len(hand)
            other._hands[s] = [hidden.pop() for _ in range(size)]
    other._stock = hidden  # the deciding seat's own hand, and so its legal actions, stay as they were
    return other


def positions(bot_name: str, seeds: range):
    """Decision points reached by heuristic play, with the seat deciding."""
    driver = make_bot("heuristic")
    for seed in seeds:
        game = Game.new(3, seed=seed)
        rng = random.Random(seed)
        while game.awaiting in (AWAIT_PLAY, AWAIT_DRAWN, AWAIT_CHALLENGE, AWAIT_COLOR, AWAIT_TARGET):
            yield game
            seat = game.to_act
            game.apply(driver.choose(game.view(seat), game.legal_actions(seat), rng))


@pytest.mark.parametrize("bot_name", ["random", "easy", "heuristic", "careful", "ismcts:12"])
def test_a_bot_touches_only_public_view_attributes(bot_name):
    bot = make_bot(bot_name)
    asked: set = set()
    count = 0
    for game in positions(bot_name, range(3)):
        seat = game.to_act
        bot.choose(RecordingView(game.view(seat), asked), game.legal_actions(seat), random.Random(count))
        count += 1
    assert count > 50
    assert asked and asked <= PUBLIC, f"reached beyond the view: {sorted(asked - PUBLIC)}"


@pytest.mark.parametrize("bot_name", ["easy", "heuristic", "careful", "ismcts:12"])
def test_dealing_the_hidden_cards_differently_never_changes_a_decision(bot_name):
    bot = make_bot(bot_name)
    shuffler = random.Random(99)
    compared = 0
    for game in positions(bot_name, range(2)):
        seat = game.to_act
        other = hidden_cards_shuffled(game, seat, shuffler)
        assert other._hands != game._hands or len(other._stock) == 0
        first = bot.choose(game.view(seat), game.legal_actions(seat), random.Random(compared))
        second = bot.choose(other.view(seat), other.legal_actions(seat), random.Random(compared))
        assert first == second
        compared += 1
    assert compared > 30


def test_a_determinization_keeps_what_the_seat_sees_and_deals_the_rest():
    game = Game.new(4, seed=8)
    driver = make_bot("heuristic")
    rng = random.Random(8)
    for _ in range(40):
        seat = game.to_act
        game.apply(driver.choose(game.view(seat), game.legal_actions(seat), rng))
        if game.awaiting != AWAIT_PLAY:
            break
    seat = game.to_act
    view = game.view(seat)
    deal = determinize(view, random.Random(1))
    assert deal.hand(seat) == game.hand(seat)
    assert deal._discard == game._discard
    assert deal.hand_sizes() == game.hand_sizes()
    counts = [0] * len(FACE_COUNT)
    for face in [f for h in deal._hands for f in h] + deal._stock + deal._discard:
        counts[face] += 1
    assert counts == list(FACE_COUNT)
    assert deal.legal_actions() == game.legal_actions()

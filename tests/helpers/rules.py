"""Stacked decks and small helpers that make rule scenarios read like the rule they prove."""

from __future__ import annotations

import random
from collections import Counter

from unokart import Game
from unokart.rules.cards import FACE_CODE, FULL_DECK

FULL_CODES = [FACE_CODE[f] for f in FULL_DECK]


def stacked_deck(players: int, hands: "dict[int, list[str]] | list[list[str]]", first: str,
                 stock: "list[str] | tuple[str, ...]" = (), dealer: int = 0, hand_size: int = 7) -> list[str]:
    """A 112-card record ``deck`` (top of the stock first) that deals ``hands``, turns ``first``
    and then has ``stock`` on top of the stock, in that order.

    Hands may be given short: the missing cards (and the rest of the stock) are the remaining
    cards in a fixed arbitrary order, so a scenario names every card that matters to it.
    The deal follows NOTATION.md: one card at a time, from the dealer's left, ``hand_size`` times around.
    """
    wanted = dict(enumerate(hands)) if isinstance(hands, list) else dict(hands)
    named = [c for h in wanted.values() for c in h] + [first, *stock]
    named = [c.upper() for c in named]
    rest = Counter(FULL_CODES)
    rest.subtract(Counter(named))
    over = [c for c, k in rest.items() if k < 0]
    if over:
        raise ValueError(f"more copies than the deck holds, or unknown codes: {over}")
    fillers = sorted(rest.elements())
    random.Random(0).shuffle(fillers)
    full_hands = {}
    for seat in range(players):
        hand = [c.upper() for c in wanted.get(seat, [])]
        if len(hand) > hand_size:
            raise ValueError(f"seat {seat} is given {len(hand)} cards, hands hold {hand_size}")
        while len(hand) < hand_size:
            hand.append(fillers.pop())
        full_hands[seat] = hand
    deck = []
    for turn in range(hand_size):
        for i in range(1, players + 1):
            deck.append(full_hands[(dealer + i) % players][turn])
    deck += [first.upper(), *(c.upper() for c in stock)] + fillers
    assert sorted(deck) == sorted(FULL_CODES)
    return deck


def table(hands: "dict[int, list[str]] | list[list[str]]", first: str, stock: "list[str] | tuple[str, ...]" = (),
          players: int | None = None, dealer: int = 0, seed: int = 0, **options) -> Game:
    """A game dealt from a stacked deck. ``players`` defaults to the number of hands given as a list.

    Give every hand in full (``hand_size`` defaults to the longest hand given) when the fillers could matter.
    """
    if players is None:
        players = len(hands) if isinstance(hands, list) else max(hands) + 1
    if "hand_size" not in options:
        longest = max(len(h) for h in (hands if isinstance(hands, list) else hands.values()))
        options["hand_size"] = longest or 7
    deck = stacked_deck(players, hands, first, stock, dealer, options["hand_size"])
    return Game.new(players, seed=seed, options=options, dealer=dealer, deck=deck)


def play(game: Game, *actions: str) -> Game:
    for action in actions:
        game.apply(action)
    return game


def drain_stock(game: Game) -> Game:
    """Draw turn after turn (keeping playable cards) until the stock is empty."""
    while game._stock:
        seat = game.to_act
        game.apply(f"{seat}: draw")
        if game.awaiting == "drawn":
            game.apply(f"{seat}: pass")
    return game


def hand(game: Game, seat: int) -> list[str]:
    return game.state()["hands"][seat]


def sizes(game: Game) -> list[int]:
    return game.hand_sizes()


def legal(game: Game, seat: int | None = None) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def last_events(game: Game, kind: str, seat: int | None = None) -> list[dict]:
    """This round's events of one type, as ``seat`` sees them (None: everything)."""
    events = [e for _, e in game.events] if seat is None else game.events_for(seat)
    return [e for e in events if e["type"] == kind]


def random_whole_game(names: list[str], seed: int, target_score: int, **options) -> Game:
    """A game played to its end with random legal moves (seeded), every round dealt in turn."""
    game = Game.new(names, seed=seed, options={"target_score": target_score, **options})
    rng = random.Random(seed)
    while game.awaiting != "game_over":
        if game.awaiting == "round_over":
            game.next_round()
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game

"""ISMCTS's search is a race against its prior's move: a move that clearly beats the prior's wins it
whatever the prior chose, and a decision where no move gets ahead of the prior's stops early,
spending a fraction of its budget."""

import random

import pytest
from helpers.rules import play, table

import unokart.bots.ismcts as ismcts
from unokart.bots import IsmctsBot
from unokart.bots.ismcts import search_actions
from unokart.rules.actions import DRAW, PLAY


def one_card_left():
    """Seat 0 holds R5 alone on R7: playing it ends the round; drawing leaves it to luck."""
    game = table([["R5", "R7"], ["G1", "G2"]], "R3", stock=["Y1", "B3", "G9", "B4"], dealer=1, hand_size=2)
    play(game, "0: play R7 uno", "1: draw")  # Y1 does not fit: the turn passes
    assert game.to_act == 0
    view = game.view(0)
    candidates = search_actions(list(game.legal_actions(0)))
    assert sorted(a.verb for a in candidates) == [DRAW, PLAY]
    return view, candidates


def counting_playouts(monkeypatch) -> list[int]:
    """The real playouts, counted as the search asks for them."""
    played: list[int] = []
    real = ismcts.play_candidates

    def count(view, hands, stock, candidates, *rest):
        played.append(len(candidates))
        return real(view, hands, stock, candidates, *rest)

    monkeypatch.setattr(ismcts, "play_candidates", count)
    return played


def test_a_move_that_clearly_beats_the_prior_wins_the_race(monkeypatch):
    view, candidates = one_card_left()
    played = counting_playouts(monkeypatch)
    drawing = next(i for i, a in enumerate(candidates) if a.verb == DRAW)
    chosen = IsmctsBot(400).search(view, candidates, drawing, random.Random(1))
    assert chosen.verb == PLAY
    assert sum(played) >= 400  # it stayed in the race to the end of the budget


@pytest.mark.parametrize("budget", [400, 1600])
def test_a_decision_where_no_move_gets_ahead_of_the_prior_stops_at_a_quarter(monkeypatch, budget):
    view, candidates = one_card_left()
    played = counting_playouts(monkeypatch)
    going_out = next(i for i, a in enumerate(candidates) if a.verb == PLAY)
    chosen = IsmctsBot(budget).search(view, candidates, going_out, random.Random(1))
    assert chosen.verb == PLAY
    assert sum(played) == 2 * (budget // 2 // 4)  # both moves, a quarter of the deals

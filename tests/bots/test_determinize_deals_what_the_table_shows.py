"""Search's deals follow what the table showed this seat: a challenged player's shown hand (R7.2)
is dealt back to it, a player who drew on a colour gets none of it; and every candidate move is
played on one deal that stays as it was dealt."""

import random
from collections import Counter

from helpers.rules import play, table
from test_ismcts_prior_and_playouts import after_the_next_player_drew_on_red

from unokart.bots.determinize import Determinizer
from unokart.bots.ismcts import PLAYOUT_LIMIT, POINT_SCALE, search_actions
from unokart.bots.playout import play_candidates
from unokart.rules.cards import FULL_DECK, FACE_COLOR, parse_card
from unokart.rules.states import AWAIT_CHALLENGE

SHOWN_KEPT = ["G1", "Y1", "Y2", "B1", "B2"]


def after_a_shown_hand():
    """Seat 0 plays a Wild Draw Four on red naming green; seat 1 challenges and loses, seeing seat 0's
    hand; seat 0 then plays its second Wild Draw Four, covering green, which it holds (G1)."""
    game = table([["W+4", "W+4", *SHOWN_KEPT], ["G7", "G8", "B7", "B8", "Y7", "Y8", "R7"]], "R3", dealer=1, hand_size=7)
    play(game, "0: play W+4 G", "1: challenge", "0: play W+4 B")
    assert (game.to_act, game.awaiting) == (1, AWAIT_CHALLENGE)
    return game


def the_whole_deck(hands, stock, view) -> bool:
    return Counter(f for hand in hands for f in hand) + Counter(stock) + Counter(view.discard) == Counter(FULL_DECK)


def test_a_challenged_players_shown_hand_is_dealt_back_to_it_and_found_guilty():
    view = after_a_shown_hand().view(1)
    deal = Determinizer(view)
    for seed in range(20):
        hands, stock, guilty = deal.cards(random.Random(seed))
        assert sorted(hands[0]) == sorted(parse_card(c) for c in SHOWN_KEPT)
        assert hands[1] == view.hand
        assert guilty  # it holds G1, and the Wild Draw Four covered green
        assert the_whole_deck(hands, stock, view)


def test_a_player_who_drew_on_red_is_dealt_no_red_card_for_the_cards_it_then_held():
    view = after_the_next_player_drew_on_red().view(0)
    deal = Determinizer(view)
    for seed in range(20):
        hands, stock, _ = deal.cards(random.Random(seed))
        reds = [f for f in hands[1] if f < 52 and FACE_COLOR[f] == 0]
        assert len(hands[1]) == 8 and len(reds) <= 1  # seven cards lacked red; the one drawn may be any
        assert the_whole_deck(hands, stock, view)


def test_every_candidate_is_played_on_the_same_deal_left_as_it_was_dealt():
    game = after_the_next_player_drew_on_red()
    view = game.view(0)
    candidates = search_actions(list(game.legal_actions(0)))
    hands, stock, guilty = Determinizer(view).cards(random.Random(3))
    kept = [hand[:] for hand in hands], stock[:]
    values = play_candidates(view, hands, stock, candidates, 0, random.Random(4), guilty, PLAYOUT_LIMIT, POINT_SCALE)
    assert len(values) == len(candidates) > 1
    assert all(-1.0 <= value <= 1.0 for value in values)
    assert (hands, stock) == kept

"""R1 (the deck), R2 (players) and R3 (setup), one scenario per rule and case."""

import random
from collections import Counter

import pytest

from helpers.rules import FULL_CODES, hand, last_events, legal, play, stacked_deck, table
from unokart import Game, SetupError
from unokart.rules.cards import DEALER_DRAW_VALUE, FACE_CODE, FACE_ITEM, FULL_DECK
from unokart.rules.engine import _choose_dealer, shuffle


def test_R1_1_four_colours_red_yellow_green_blue():
    colours = Counter(code[0] for code in FULL_CODES if not code.startswith("W"))
    assert sorted(colours) == ["B", "G", "R", "Y"]


@pytest.mark.parametrize("colour", "RYGB")
def test_R1_2_each_colour_has_one_zero_two_of_each_number_and_two_of_each_action(colour):
    counts = Counter(code for code in FULL_CODES if code[0] == colour)
    assert sum(counts.values()) == 25
    assert counts[colour + "0"] == 1
    for rank in [str(d) for d in range(1, 10)] + ["+2", "R", "S"]:
        assert counts[colour + rank] == 2, rank


def test_R1_3_four_wild_draw_four_and_eight_item_boxes_make_112():
    counts = Counter(FULL_CODES)
    assert counts["W+4"] == 4 and counts["WIB"] == 8
    assert len(FULL_CODES) == 112
    assert sum(1 for code in FULL_CODES if not code.startswith("W")) == 100


def test_R1_4_every_card_shows_the_item_of_its_colour_and_wilds_show_the_bobomb():
    expected = {"R": "mushroom", "Y": "banana", "G": "green_shell", "B": "lightning", "W": "bobomb"}
    for face in set(FULL_DECK):
        assert FACE_ITEM[face] == expected[FACE_CODE[face][0]], FACE_CODE[face]


@pytest.mark.parametrize("players", [2, 3, 10])
def test_R2_1_two_to_ten_players_are_seated(players):
    game = Game.new(players, seed=1)
    assert game.n == players and len(game.state()["hands"]) == players


@pytest.mark.parametrize("players", [0, 1, 11, -1, ["Solo"], [f"P{i}" for i in range(11)]])
def test_R2_1_fewer_than_two_or_more_than_ten_players_is_refused(players):
    with pytest.raises(SetupError, match="R2.1"):
        Game.new(players, seed=1)


def test_R2_1_left_is_the_next_seat_and_play_starts_clockwise():
    game = table([["R1", "G1"], ["R2", "G2"], ["R3", "G3"], ["R4", "G4"]], "R9", dealer=2)
    assert game.to_act == 3 and game.direction == 1
    play(game, "3: play R4")
    assert game.to_act == 0


class _Unshuffled(random.Random):
    """A random source whose shuffle leaves the deck in FULL_DECK order (drawn from its end)."""

    def shuffle(self, x):
        pass


def test_R3_1_highest_number_deals_actions_and_wilds_count_zero_ties_draw_again():
    # In deck order from the end: 12 wilds (0s), then B+2 B+2 BR BR BS BS (0s), then B9 B9 B8 B8 B7 ...
    # Three players tie on 0 four times, then seats 0 and 1 tie on 9 (B9 B9 vs B8) and draw again: B8 beats B7.
    assert [DEALER_DRAW_VALUE[f] for f in (52, 53, 12, 11, 10)] == [0] * 5
    assert _choose_dealer(_Unshuffled(), 3) == 0
    assert _choose_dealer(random.Random(5), 4) == _choose_dealer(random.Random(5), 4)


def test_R3_1_first_dealer_is_drawn_from_the_seed_and_every_seat_can_deal():
    dealers = {Game.new(4, seed=s).dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    game = Game.new(4, seed=7)
    record = game.record()
    assert "dealer" not in record["rounds"][0]  # drawn by R3.1 from the seed, so replayable
    assert Game.from_record(record).dealer == game.dealer


@pytest.mark.parametrize("dealer", [0, 2])
def test_R3_2_seven_cards_each_dealt_one_at_a_time_from_the_dealers_left(dealer):
    deck = stacked_deck(3, {}, "R5", dealer=dealer)
    game = Game.new(3, seed=0, dealer=dealer, deck=deck)
    for i in range(1, 4):
        seat = (dealer + i) % 3
        assert hand(game, seat) == deck[i - 1:21:3]
    assert game.state()["stock"] == 112 - 21 - 1
    assert game.state()["top"] == deck[21]


def test_R3_3_the_next_card_starts_the_discard_pile_and_the_left_player_starts():
    game = table([["G1"], ["G2"], ["G3"]], "Y4", dealer=0)
    state = game.state()
    assert state["top"] == "Y4" and state["color"] == "Y" and state["discard"] == 1
    assert game.to_act == 1 and game.awaiting == "play"


def test_R3_3_wild_draw_four_goes_back_the_stock_is_shuffled_and_another_card_turned():
    game = table([["G1"], ["G2"], ["G3"]], "W+4", ["W+4", "W+4", "W+4"], dealer=0, seed=3)
    state = game.state()
    assert state["top"] != "W+4"
    assert state["stock"] == 112 - 3 - 1
    assert FACE_CODE.index("W+4") in game._stock and game._stock.count(FACE_CODE.index("W+4")) == 4
    assert len(last_events(game, "first_card_returned")) >= 1


def test_R3_3_a_round_never_starts_on_a_wild_draw_four():
    deck = stacked_deck(2, {}, "W+4", ["W+4", "W+4", "W+4"])
    for seed in range(40):
        assert Game.new(2, seed=seed, dealer=0, deck=deck).state()["top"] != "W+4"


def test_R3_3_item_box_first_dealer_chooses_the_colour_and_the_item_does_not_activate():
    game = table([["R1", "G1"], ["R2", "G2"], ["R3", "G3"]], "WIB", ["Y5"], dealer=1)
    assert game.to_act == 1 and game.awaiting == "color"
    assert legal(game) == ["1: color R", "1: color Y", "1: color G", "1: color B"]
    assert game.state()["stock"] == 112 - 6 - 1  # no card turned
    assert game.hand_sizes() == [2, 2, 2]  # nobody drew
    assert last_events(game, "item") == []
    play(game, "1: color G")
    assert game.to_act == 2 and game.state()["color"] == "G"
    assert "2: play G3" in legal(game) and "2: play R3" not in legal(game)


def test_R3_3_reverse_first_dealer_plays_first_and_play_goes_right():
    game = table([["Y1", "G1"], ["Y2", "G2"], ["R3", "G3"], ["Y4", "G4"]], "RR", dealer=2)
    assert game.to_act == 2 and game.direction == -1
    play(game, "2: play R3")
    assert game.to_act == 1


def test_R3_3_reverse_first_with_two_players_the_dealer_plays_first():
    game = table([["Y1"], ["R2"]], "RR", dealer=0)
    assert game.to_act == 0


def test_R3_3_draw_two_first_left_player_draws_two_and_the_next_starts():
    game = table([["B1"], ["B2"], ["B3"], ["B4"]], "G+2", ["Y7", "Y8"], dealer=3)
    assert hand(game, 0) == ["B1", "Y7", "Y8"]
    assert game.to_act == 1


def test_R3_3_skip_first_left_player_is_skipped():
    game = table([["B1"], ["B2"], ["B3"]], "YS", dealer=0)
    assert game.to_act == 2 and game.hand_sizes() == [1, 1, 1]


@pytest.mark.parametrize("first", ["YS", "Y+2"])
def test_R3_3_skip_or_draw_two_first_with_two_players_the_dealer_starts(first):
    game = table([["B1"], ["B2"]], first, dealer=0)
    assert game.to_act == 0 and len(game.hand(1)) == (3 if first == "Y+2" else 1)


def test_R3_4_in_later_rounds_the_deal_passes_left():
    game = table([["R1"], ["G2"], ["B4"]], "R9", dealer=2)
    play(game, "0: play R1")
    assert game.awaiting == "round_over"
    game.next_round(seed=5)
    assert game.dealer == 0 and game.round == 2
    # Round 2 ends at once when its first player goes out; round 3 is dealt by seat 1.
    assert game.record()["rounds"][1]["dealer"] == 0
    again = Game.from_record(game.record())
    assert again.dealer == 0 and again.round == 2


def test_a_game_made_without_an_event_log_deals_the_same_and_keeps_no_events():
    logged, quiet = Game.new(3, seed=4), Game.new(3, seed=4, log_events=False)
    assert quiet.events == () and logged.events
    assert quiet.state() == logged.state()


def test_the_cores_shuffle_puts_cards_in_pythons_order_and_leaves_the_generator_where_pythons_does():
    # The core shuffles with its own compiled loop; deals, reshuffles and records depend on it being random.Random.shuffle.
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 54, 100, 112, 113, 300):
            ours, pythons = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            shuffle(ours, cards)
            pythons.shuffle(expected)
            assert cards == expected, (seed, size)
            assert ours.getstate() == pythons.getstate(), (seed, size)

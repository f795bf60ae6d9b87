"""NOTATION.md: cards and actions round-trip through text; records load, save and fail clearly."""

import dataclasses
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.rules import FULL_CODES, random_whole_game, stacked_deck
from unokart import Action, Game, IllegalAction, NotationError, RecordError, SetupError
from unokart.rules import card_code, parse_card

ALL_CODES = sorted(set(FULL_CODES))

# Every action form NOTATION.md shows, in its canonical spelling.
NOTATION_ACTIONS = [
    "2: play Y5", "2: play Y5 uno", "2: play W+4 G", "2: play W+4 G uno", "2: play WIB", "2: play WIB uno",
    "2: draw", "2: pass", "3: challenge", "3: accept", "2: color B", "2: target 0", "2: uno", "0: catch 2",
    "3: play Y+2", "2: swap 0", "3: jump Y5", "3: jump Y5 uno",
    "1: play R0", "1: play RS", "1: play BR", "1: play G9", "10: draw",
]


# ---------------------------------------------------------------- cards
def test_notation_every_card_code_parses_and_prints_back_identically():
    assert len(ALL_CODES) == 54
    for code in ALL_CODES:
        assert card_code(parse_card(code)) == code


@pytest.mark.parametrize("text, code", [("y5", "Y5"), ("w+4", "W+4"), ("wib", "WIB"), ("b+2", "B+2"), (" gr ", "GR"), ("rS", "RS")])
def test_notation_card_parsing_is_case_insensitive(text, code):
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("text", ["", "X5", "R10", "Y", "W+2", "W", "WILD", "R-2", "5", "R 5", None, 5])
def test_notation_an_unknown_card_code_raises_notation_error_naming_it(text):
    with pytest.raises(NotationError, match="unknown card code"):
        parse_card(text)


# ---------------------------------------------------------------- actions
@pytest.mark.parametrize("text", NOTATION_ACTIONS)
def test_notation_every_action_form_round_trips(text):
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


@pytest.mark.parametrize("text, canonical", [
    ("2: PLAY w+4 g UNO", "2: play W+4 G uno"), ("3:jump y5", "3: jump Y5"), ("0: Catch 2", "0: catch 2"),
    ("  1 :  draw ", "1: draw"), ("2: Color b", "2: color B"), ("2: play wib UnO", "2: play WIB uno"),
])
def test_notation_action_parsing_is_case_insensitive_and_prints_canonically(text, canonical):
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize("text, message", [
    ("play Y5", "no 'SEAT:' prefix"),
    ("x: play Y5", "must be a seat number"),
    ("-1: draw", "must be a seat number"),
    ("²: draw", "must be a seat number"),
    ("2:", "has no verb"),
    ("2: fly", "unknown verb 'fly'"),
    ("2: play", "'play' needs a card"),
    ("2: play Q7", "unknown card code 'Q7'"),
    ("2: play W+4", "needs a colour"),
    ("2: play W+4 P", "unknown colour 'P'"),
    ("2: play Y5 G", "unexpected 'G'"),
    ("2: play WIB R", "unexpected 'R'"),
    ("2: play Y5 uno uno", "unexpected 'uno'"),
    ("2: draw 2", "'draw' takes no arguments"),
    ("2: uno now", "'uno' takes no arguments"),
    ("2: color", "'color' takes one colour"),
    ("2: color RED", "unknown colour 'RED'"),
    ("2: target", "'target' takes one seat number"),
    ("2: target me", "must be a seat number, not 'me'"),
    ("2: catch 1 2", "'catch' takes one seat number"),
])
def test_notation_malformed_text_raises_notation_error_with_a_clear_message(text, message):
    with pytest.raises(NotationError, match=message.replace("+", r"\+")):
        Action.parse(text)


def test_notation_an_action_must_be_text():
    with pytest.raises(NotationError, match="must be text"):
        Action.parse(None)


def test_notation_malformed_text_applied_to_a_game_changes_nothing():
    game = Game.new(3, seed=1)
    before = game.state()
    for text in ("", "1 play", "1: play Q9", "9: fly"):
        with pytest.raises(NotationError):
            game.apply(text)
    assert game.state() == before and game.version == 0 and game.actions == []


_seat = st.integers(0, 9)
_card = st.sampled_from(range(54))
_actions = st.one_of(
    st.builds(lambda s, c, col, uno, verb: Action(s, verb, c, col if c == 52 else -1, -1, uno),
              _seat, _card, st.integers(0, 3), st.booleans(), st.sampled_from(["play", "jump"])),
    st.builds(lambda s, verb: Action(s, verb), _seat, st.sampled_from(["draw", "pass", "challenge", "accept", "uno"])),
    st.builds(lambda s, c: Action(s, "color", color=c), _seat, st.integers(0, 3)),
    st.builds(lambda s, t, verb: Action(s, verb, target=t), _seat, _seat, st.sampled_from(["target", "catch", "swap"])),
)


@given(_actions)
def test_notation_any_action_prints_and_parses_back_to_itself(action):
    assert Action.parse(str(action)) == action
    assert Action.parse(str(action).upper()) == action


# ---------------------------------------------------------------- records
def finished_record(seed=4, players=3, options=None):
    """A game played at random to the end of its second round."""
    game = Game.new(players, seed=seed, options=options or {})
    rng = random.Random(seed)
    while game.round < 2 or game.awaiting not in ("round_over", "game_over"):
        if game.awaiting == "round_over":
            game.next_round()
            continue
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_record_saves_and_loads_to_the_identical_game():
    game = finished_record(options={"stacking": True, "target_score": 300})
    record = game.record()
    assert record["format"] == "unokart-record/1" and record["options"] == {"target_score": 300, "stacking": True}
    assert len(record["rounds"]) == 2 and "dealer" not in record["rounds"][0] and record["rounds"][1]["dealer"] == (game.dealer)
    text = json.dumps(record)
    loaded = Game.from_record(json.loads(text))
    assert loaded.state() == game.state() and loaded.record() == record


def test_record_with_a_deck_deals_that_deck_and_saves_it():
    deck = stacked_deck(3, [["R1", "R2"], ["G1", "G2"], ["B1", "B2"]], "G5", dealer=0, hand_size=2)
    record = {"players": ["A", "B", "C"], "options": {"hand_size": 2},
              "rounds": [{"dealer": 0, "deck": deck, "actions": ["1: play G1"]}]}
    game = Game.from_record(record)
    assert game.state()["hands"] == [["R1", "R2"], ["G2"], ["B1", "B2"]]
    saved = game.record()
    assert saved["rounds"][0]["deck"] == deck and saved["rounds"][0]["actions"] == ["1: play G1"]
    assert Game.from_record(saved).state() == game.state()


def test_record_deck_codes_are_case_insensitive_and_saved_canonically():
    deck = stacked_deck(2, {}, "R5")
    game = Game.from_record({"players": ["A", "B"], "rounds": [{"dealer": 0, "deck": [c.lower() for c in deck]}]})
    assert game.record()["rounds"][0]["deck"] == deck


def base_record(**changes):
    record = {"format": "unokart-record/1", "players": ["Ann", "Bob", "Cy"], "options": {},
              "rounds": [{"dealer": 0, "seed": 1, "actions": []}]}
    record.update(changes)
    return record


def round_record(**round_changes):
    return base_record(rounds=[{"dealer": 0, "seed": 1, "actions": [], **round_changes}])


DECK = stacked_deck(3, {}, "R5")


@pytest.mark.parametrize("record, message", [
    (round_record(deck=DECK[:-1]), r"'deck' is not the 112 cards \(R1\): 111 cards, missing"),
    (round_record(deck=DECK + ["R1"]), r"'deck' is not the 112 cards \(R1\): 113 cards, too many R1"),
    (round_record(deck=["R1"] + DECK[1:]), r"112 cards, too many R1, missing " + DECK[0].replace("+", r"\+")),
    (round_record(deck=["Q1"] + DECK[1:]), r"'deck': unknown card code 'Q1'"),
    (round_record(deck="R1 R2"), r"'deck' must be a list of card codes"),
    (round_record(deck=[1] * 112), r"'deck' must be a list of card codes"),
    (base_record(options={"stackng": True}), r"unknown option 'stackng'"),
    (base_record(options={"stacking": 1}), r"option 'stacking' must be true or false"),
    (base_record(options={"target_score": -5}), r"option 'target_score' must be a positive whole number"),
    (base_record(options=["stacking"]), r"options must be an object"),
    (base_record(players=["Solo"]), r"R2.1 a game has 2 to 10 players, not 1"),
    (base_record(players=[f"P{i}" for i in range(11)]), r"R2.1 a game has 2 to 10 players, not 11"),
    (base_record(players="Ann, Bob"), r"'players' must be a list of names"),
    (base_record(players=[1, 2]), r"'players' must be a list of names"),
    (base_record(winner="Ann"), r"unknown record field\(s\): winner"),
    (round_record(notes="x"), r"unknown round field\(s\): notes"),
    (round_record(actions="0: draw"), r"'actions' must be a list"),
    (round_record(actions=[{"seat": 1}]), r"action 0 is not text"),
    (round_record(actions=["1: fly"]), r"action 0 \"1: fly\": unknown verb 'fly'"),
    (round_record(seed="abc"), r"'seed' must be a whole number"),
    (base_record(rounds=[{"dealer": 0, "actions": []}]), r"a round needs a 'seed' \(or a 'deck'\)"),
    (round_record(dealer=3), r"'dealer' must be a seat from 0 to 2, not 3"),
    (base_record(rounds=[]), r"'rounds' must be a non-empty list"),
    (base_record(rounds={"dealer": 0}), r"'rounds' must be a non-empty list"),
    (base_record(rounds=["x"]), r"a round must be an object"),
    (base_record(format="pgn"), r"unknown record format 'pgn'"),
    (base_record(rounds=[{"seed": 1}, {"seed": 2}]), r"round 2: the previous round did not end \(awaiting play\)"),
    ([1, 2], r"a record must be a JSON object"),
])
def test_record_that_is_broken_raises_record_error_with_a_clear_message(record, message):
    with pytest.raises(RecordError, match=message):
        Game.from_record(record)


def test_record_later_rounds_must_follow_the_deal_to_the_left():
    game = finished_record()
    record = game.record()
    record["rounds"][1]["dealer"] = (record["rounds"][1]["dealer"] + 1) % 3
    with pytest.raises(RecordError, match="round 2: R3.4 the deal passes left"):
        Game.from_record(record)


def illegal_at_seven():
    # Seats 1, 2, 0 draw twice around (none can play on R9), seat 1 plays R5, then seat 2 tries Y3 on it.
    deck = stacked_deck(3, [["G7", "G8"], ["R5", "B8"], ["Y3", "B9"]], "R9", ["G1", "G2", "G3", "G4", "B1", "B2"],
                        dealer=0, hand_size=2)
    actions = ["1: draw", "2: draw", "0: draw", "1: draw", "2: draw", "0: draw", "1: play R5", "2: play Y3", "0: draw"]
    return {"players": ["Ann", "Bob", "Cy"], "options": {"hand_size": 2},
            "rounds": [{"dealer": 0, "deck": deck, "actions": actions}]}


def test_record_an_illegal_action_names_its_index_the_action_and_the_rule():
    with pytest.raises(RecordError) as err:
        Game.from_record(illegal_at_seven())
    assert str(err.value) == 'action 7 "2: play Y3": R4.1 Y3 does not match R5 (active colour red)'
    assert err.value.index == 7 and err.value.action == "2: play Y3"


def test_record_an_illegal_action_in_a_later_round_names_the_round():
    record = finished_record().record()
    record["rounds"][1]["actions"].append("0: play Q1")
    with pytest.raises(RecordError, match=r"round 2: action \d+ \"0: play Q1\": unknown card code 'Q1'"):
        Game.from_record(record)


def test_record_game_options_cannot_be_changed_during_a_game():
    game = Game.new(3, seed=1, options={"stacking": True})
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.options.stacking = False  # R12: fixed when the table is created
    assert game.options.stacking is True and game.record()["options"] == {"stacking": True}


@pytest.mark.parametrize("action, message", [
    (Action(0, "fly"), "unknown verb 'fly'"),
    (Action(0, "play", 99), "there is no card 99"),
    (Action(0, "play", 52, 7), "7 is not a colour"),
    (Action(0, "color", color=-1), "-1 is not a colour"),
])
def test_notation_a_malformed_action_object_raises_notation_error_and_changes_nothing(action, message):
    game = Game.new(2, seed=1)
    before = game.state()
    with pytest.raises(NotationError, match=message):
        game.apply(action)
    assert game.state() == before and game.version == 0


def test_a_seat_that_does_not_exist_has_no_legal_action_and_cannot_act():
    game = Game.new(3, seed=1)
    assert game.legal_actions(3) == () and game.legal_actions(-1) == ()
    with pytest.raises(IllegalAction, match="R2.1 there is no seat 7"):
        game.apply(Action(7, "catch", target=0))
    with pytest.raises(SetupError, match="the dealer must be a seat from 0 to 2, not 3"):
        Game.new(3, seed=1, dealer=3)


def test_an_actions_repr_is_its_notation_and_round_trips():
    from unokart.rules.actions import Action

    action = Action.parse("2: play W+4 G uno")
    assert repr(action) == "Action.parse('2: play W+4 G uno')"
    assert eval(repr(action), {"Action": Action}) == action
    game = Game.new(3, seed=2)
    for legal_action in game.legal_actions():
        assert eval(repr(legal_action), {"Action": Action}) == legal_action


def test_replay_steps_deals_each_round_then_moves_one_action_at_a_time():
    from unokart.rules.replaying import replay_steps

    record = random_whole_game(["Ann", "Bob"], seed=3, target_score=60).record()
    steps = [(replayed.round, action, replayed.awaiting) for replayed, action in replay_steps(record)]
    assert [action for _round, action, _a in steps if action is not None] == [
        action for rnd in record["rounds"] for action in rnd["actions"]]
    assert [r for r, action, _a in steps if action is None] == list(range(1, len(record["rounds"]) + 1))
    assert steps[-1][2] == "game_over"
    broken = {**record, "rounds": [{**record["rounds"][0], "actions": ["0: fly"]}]}
    with pytest.raises(RecordError):
        next(replay_steps(broken))  # a broken record fails before the first step

"""The notation door: action texts parsed, and applied to games in progress."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzz_helpers import action_texts, assert_one_sentence, door, fuzz_settings, games, snapshot, within
from unokart import Action, Game, NotationError, UnoKartError
from unokart.rules.cards import parse_card, parse_color

texts = st.one_of(action_texts(), st.text(max_size=80), st.integers(0, 10**6).map(lambda k: "0: play " + "R" * k))


def check_parse(text: object) -> str:
    with within():
        try:
            action = Action.parse(text)
        except NotationError as err:
            assert_one_sentence(err)
            return "refused"
        assert Action.parse(str(action)) == action  # the text form round-trips
        return "parsed"


@fuzz_settings(1000)
@given(st.one_of(texts, st.none(), st.integers(), st.binary(max_size=10)))
@door("notation")
def test_fuzz_an_action_text_parses_and_round_trips_or_is_one_notation_error(text):
    check_parse(text)


@fuzz_settings(600)
@given(st.one_of(st.text(max_size=12), st.none(), st.integers(), st.integers(0, 10**5).map(lambda k: "Q" * k)))
@door("notation")
def test_fuzz_a_card_or_colour_code_parses_or_is_one_notation_error(text):
    for parse in (parse_card, parse_color):
        try:
            parse(text)
        except NotationError as err:
            assert_one_sentence(err)


def check_apply(game: Game, text: str) -> str:
    """Applied to a game: accepted (one more action recorded), or refused with the game unchanged."""
    before = snapshot(game)
    with within():
        try:
            game.apply(text)
        except UnoKartError as err:
            assert_one_sentence(err)
            assert snapshot(game) == before, "a refused action changed the game"
            return "refused"
    assert game.version == before[2] + 1 and len(game.actions) == len(before[1]) + 1
    return "applied"


@fuzz_settings(250)
@given(games(), st.lists(texts, min_size=1, max_size=8))
@door("notation (applied)")
def test_fuzz_an_action_applies_or_changes_nothing(game, many):
    for text in many:
        check_apply(game, text)

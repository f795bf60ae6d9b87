"""The house-rule door: ``-o`` texts, option objects, and the table they make."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzz_helpers import BOOLEAN_OPTIONS, assert_one_sentence, door, fuzz_settings, json_values, option_pairs, within
from unokart import Game, Options, SetupError
from unokart.rules.options import options_from_text


def check_option_text(pairs: list[str], players: int) -> str:
    with within():
        try:
            options = options_from_text(pairs)
        except SetupError as err:
            assert_one_sentence(err)
            return "refused"
        parsed = Options.from_dict(options)  # what the text parser accepts, the record door accepts
        assert all(getattr(parsed, name) == value for name, value in options.items())
        try:
            Game.new(players, seed=1, options=options)
        except SetupError as err:  # the hands do not fit (R3.2)
            assert_one_sentence(err)
            assert err.key == "core.setup.hands_do_not_fit", err
            return "refused"
        return "accepted"


@fuzz_settings(500)
@given(option_pairs, st.integers(2, 10))
@door("options (-o text)")
def test_fuzz_option_texts_make_a_table_or_one_setup_error(pairs, players):
    check_option_text(pairs, players)


def check_option_object(options: object) -> str:
    with within():
        try:
            parsed = Options.from_dict(options)
        except SetupError as err:
            assert_one_sentence(err)
            return "refused"
        assert Options.from_dict(parsed.to_dict()) == parsed
        return "accepted"


@fuzz_settings(400)
@given(st.one_of(json_values, st.dictionaries(
    st.sampled_from(BOOLEAN_OPTIONS + ("target_score", "hand_size")) | st.text(max_size=8), json_values, max_size=4)))
@door("options (object)")
def test_fuzz_an_options_object_is_options_or_one_setup_error(options):
    check_option_object(options)

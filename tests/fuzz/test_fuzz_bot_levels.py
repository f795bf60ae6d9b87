"""The bot-level door: ``make_bot`` on any text."""

from __future__ import annotations

from hypothesis import given

from fuzz_helpers import assert_one_sentence, bot_levels, door, fuzz_settings, within
from unokart.bots import make_bot


def check_level(level: str) -> str:
    with within():
        try:
            bot = make_bot(level)
        except (ValueError, RuntimeError, OSError) as err:  # an unknown level, a model that cannot load
            assert_one_sentence(err)
            return "refused"
        assert callable(bot.choose)
        return "made"


@fuzz_settings(300)
@given(bot_levels)
@door("bot levels")
def test_fuzz_a_bot_level_makes_a_bot_or_one_sentence(level):
    check_level(level)

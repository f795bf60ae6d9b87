"""The patterns the OpenAPI document publishes accept exactly what the server accepts.

A name's three patterns (protocol.name_patterns) and a level's (protocol.level_pattern) are read here as a
JSON Schema validator reads them (a search, anchored by their own ^ and $) and set against clean_name and
bot_level on the same text: valid and broken names and levels, drawn from the patterns themselves and from an
alphabet of the characters each rule is about.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from unokart.levels import SIMPLE
from unokart.rules.engine import Game
from unokart.rules.errors import SetupError
from unokart.rules.options import Options
from unokart.server import protocol
from unokart.server.patterns import number_pattern

WHOLE, VISIBLE, MISPLACED = map(re.compile, protocol.name_patterns())
MODELS = frozenset({"baseline", "tuned_2"})
LEVEL = re.compile(protocol.level_pattern(MODELS))
EXACT = settings(max_examples=400, derandomize=True, deadline=None)

# The characters a name's rules speak of: letters and marks of several scripts, emoji and their parts, spaces
# of both kinds, joiners, controls, format and bidirectional characters, blanks, fillers, a letter NFC splits.
NAME_CHARS = ["a", "Z", "1", " ", ".", "-", "\u00a0", "\u3000", "\t", "\n", "\x00", "\x85", "\u2028", "\u200c", "\u200d",
              "\u200b", "\u202e", "\u2066", "\ufeff", "\ufe0f", "\u034f", "\u2800", "\u17b4", "\u3164", "\u1160", "\u0301",
              "\u0915", "\u094d", "\u0958", "\u0633", "\U0001F469", "\U0001F52C", "\U0001F3FD", "\u2764", "\ue000",
              "\u0378", "\U000E0001", "\U0001D15E"]


def published_name(text: str) -> bool:
    return len(text) <= protocol.MAX_NAME_CHARS and bool(WHOLE.search(text)) and bool(VISIBLE.search(text)) \
        and not MISPLACED.search(text)


def accepted(check, text: str, *args) -> bool:
    try:
        check(text, *args)
    except protocol.ServerError:
        return False
    return True


@EXACT
@given(st.lists(st.sampled_from(NAME_CHARS), max_size=27).map("".join))
@example("\U0001F469\u200d\U0001F52C")  # a joined emoji
@example("\U0001F469\u200c\U0001F52C")  # a non-joiner between emoji: refused
@example("க்\u200dஷ")
@example(" " + "a" * 24)  # 25 characters as sent: the limit counts them all
@example("\u0958" * 24)  # 48 once composed: stored as sent, within a record's limit
def test_a_name_matches_the_published_patterns_exactly_when_the_server_accepts_it(name):
    assert published_name(name) == accepted(protocol.clean_name, name), ascii(name)
    if accepted(protocol.clean_name, name):
        assert len(protocol.clean_name(name)) <= protocol.MAX_NAME_CHARS


@EXACT
@given(st.from_regex(WHOLE).filter(lambda name: len(name) <= protocol.MAX_NAME_CHARS))
def test_names_drawn_from_the_published_pattern_are_judged_alike(name):
    assert published_name(name) == accepted(protocol.clean_name, name), ascii(name)


LEVEL_PARTS = ["ismcts", "ISMCTS", "Ismcts", "policy", "POLICY", ":", "ms", "MS", "0", "1", "5", "00", "500", "501",
               "9", "baseline", "tuned_2", "other", " ", "\t", "\u3000", "\u0665", "\uff15", "ſ", "K", "-", *SIMPLE,
               *(kind.upper() for kind in SIMPLE)]


@EXACT
@given(st.lists(st.sampled_from(LEVEL_PARTS), max_size=6).map("".join) | st.from_regex(LEVEL))
@example("ismcts:0ms")
@example("ismcts:500ms")
@example("policy:baseline")
@example("ismcts:0500")
def test_a_level_matches_the_published_pattern_exactly_when_the_server_accepts_it(level):
    published = len(level) <= protocol.MAX_LEVEL_CHARS and bool(LEVEL.search(level))
    assert published == accepted(protocol.bot_level, level, MODELS), ascii(level)


def test_without_offered_policies_the_published_pattern_names_no_policy():
    assert not re.search(protocol.level_pattern(frozenset()), "policy:baseline")
    assert re.search(protocol.level_pattern(frozenset()), "ismcts:200")


def test_a_number_pattern_is_exactly_its_range_in_digits_without_leading_zeros():
    for low, high in ((0, 500), (1, 500), (0, 0), (3, 7), (5, 600), (0, 9999), (17, 4321), (1, 100), (99, 101)):
        pattern = re.compile(f"(?:{number_pattern(low, high)})")
        assert [n for n in range(12000) if pattern.fullmatch(str(n))] == list(range(low, high + 1)), (low, high)
        assert not pattern.fullmatch(f"0{low}") and not pattern.fullmatch(f"{low} ")


def test_the_largest_hand_for_each_table_size_is_the_one_the_rules_core_deals():
    for seats in range(2, protocol.MAX_SEATS + 1):
        largest = protocol.largest_hand(seats)
        Game.check_table(seats, Options(hand_size=largest))
        if largest < protocol.MAX_HAND_SIZE:
            try:
                Game.check_table(seats, Options(hand_size=largest + 1))
            except SetupError:
                continue
            raise AssertionError(f"{seats} seats deal hands of {largest + 1} too")

"""Issue 15: every door of the rules core answers bad input with one typed error and one sentence."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from unokart import Game, IllegalAction, NotationError, Options, RecordError, SetupError, UnoKartError
from unokart.i18n import LANGUAGES, catalogue
from unokart.rules.options import options_from_text
from unokart.rules.records import MAX_DEPTH, nesting_depth, parse_record_text

RULES = Path(__file__).resolve().parents[2] / "src" / "unokart" / "rules"


def record(players=("Ann", "Bob"), **extra) -> dict:
    return {"players": list(players), "rounds": [{"seed": 1, "actions": []}], **extra}


# ---------------------------------------------------------------- setups
@pytest.mark.parametrize("make", [
    lambda: Game.new(players=11), lambda: Game.new(players=2, options={"stacking": "maybe"}),
    lambda: Game.new(players=10, options={"hand_size": 11}), lambda: Game.new(players=2, options={"teleport": True}),
])
def test_a_bad_setup_is_a_setup_error_and_no_record_is_blamed(make):
    with pytest.raises(SetupError) as err:
        make()
    assert type(err.value) is SetupError and "record" not in str(err.value)


@pytest.mark.parametrize("make", [
    lambda: Game.new(players=11), lambda: Game.new(players=2, options={"stacking": "maybe"}),
    lambda: options_from_text(["hand_size=abc"]),
])
def test_a_bad_setup_is_not_a_record_error_so_a_record_handler_does_not_take_it(make):
    with pytest.raises(UnoKartError) as err:
        make()
    assert isinstance(err.value, SetupError) and not isinstance(err.value, RecordError)


@pytest.mark.parametrize("broken, key, rule", [
    (record(players=[f"P{i}" for i in range(11)]), "core.setup.players", "R2.1"),
    (record(options={"stacking": "maybe"}), "core.setup.not_boolean", ""),
    (record(players=[f"P{i}" for i in range(10)], options={"hand_size": 11}), "core.setup.hands_do_not_fit", "R3.2"),
    (record(rounds="none"), "core.record.rounds", ""),
])
def test_a_broken_record_is_a_record_error_even_when_its_table_cannot_be_set_up(broken, key, rule):
    with pytest.raises(UnoKartError) as err:
        Game.from_record(broken)
    assert isinstance(err.value, RecordError) and not isinstance(err.value, SetupError)
    assert err.value.key == key and err.value.rule == rule


def test_a_view_of_a_seat_the_table_lacks_is_a_typed_refusal_not_a_bare_value_error():
    with pytest.raises(IllegalAction) as err:
        Game.new(players=3, seed=1).view(3)
    assert err.value.rule == "R2.1" and err.value.key == "core.refusal.no_such_seat"


# ---------------------------------------------------------------- options as text
@pytest.mark.parametrize("word, on", [(w, True) for w in ("true", "yes", "on", "1", "TRUE", "Yes")]
                         + [(w, False) for w in ("false", "no", "off", "0", "OFF")])
def test_an_option_takes_the_usual_spellings_of_on_and_off(word, on):
    assert options_from_text([f"stacking={word}"]) == {"stacking": on}


def test_an_option_that_is_neither_on_nor_off_is_refused_naming_what_is_accepted():
    with pytest.raises(SetupError) as err:
        options_from_text(["stacking=maybe"])  # was taken for off
    assert str(err.value) == "option 'stacking' must be true or false (true/false, yes/no, on/off, 1/0), not 'maybe'"


@pytest.mark.parametrize("text", ["abc", "²", "0", "-3", "1.5", "9" * 10, ""])
def test_a_number_option_names_the_text_it_refuses(text):
    with pytest.raises(SetupError) as err:
        options_from_text([f"hand_size={text}"])  # "abc" was reported as "not False"
    assert repr(text) in str(err.value) and "False" not in str(err.value)


def test_the_record_door_stays_strict_about_types():
    with pytest.raises(SetupError, match="must be true or false, not 'yes'"):
        Options.from_dict({"stacking": "yes"})


# ---------------------------------------------------------------- records
def test_nesting_is_measured_without_recursion_and_brackets_in_strings_do_not_count():
    assert nesting_depth("[" * 400_000) == MAX_DEPTH + 1
    assert nesting_depth('{"a": ["[[[[", {"b": "]]{{"}]}') == 3
    assert nesting_depth('["\\"[[[["]') == 1


@pytest.mark.parametrize("text, key", [
    ("[" * 400_000, "core.record.too_deep"), ('{"a":' * 5000, "core.record.too_deep"),
    (b"\xff\xfe[]", "core.record.not_utf8"), ("[1, 2", "core.record.not_json"),
    ('{"seed": ' + "7" * 5000 + "}", "core.record.not_json_value"),
])
def test_a_record_text_that_is_not_a_record_is_one_record_error(text, key):
    with pytest.raises(RecordError) as err:
        parse_record_text(text)
    assert err.value.key == key and "\n" not in str(err.value)


def test_a_record_larger_than_the_limit_is_refused_before_parsing():
    with pytest.raises(RecordError) as err:
        parse_record_text(b" " * 101, limit=100)
    assert err.value.key == "core.record.too_large"


@pytest.mark.parametrize("name, key", [
    ("A" * 25, "core.record.name_too_long"), ("A" * 2_000_000, "core.record.name_too_long"),
    ("", "core.record.name_empty"), ("   ", "core.record.name_empty"), ("Ann\nBob", "core.record.name_char"),
    ("\ud800", "core.record.name_char"), ("\x1b[31mAnn", "core.record.name_char"),
])
def test_a_record_name_is_limited_as_the_server_limits_names(name, key):
    with pytest.raises(RecordError) as err:
        Game.from_record(record(players=(name, "Bob")))
    assert err.value.key == key and len(str(err.value)) < 120


@pytest.mark.parametrize("name", ["A" * 24, "ಕನ್ನಡ\u200cಹೆಸರು", "Zoë", "سنڌي نالو"])
def test_a_record_name_of_up_to_24_visible_characters_replays(name):
    assert Game.from_record(record(players=(name, "Bob"))).names[0] == name


@pytest.mark.parametrize("make", [
    lambda: Game.from_record(record() | {"rounds": [{"seed": 1, "actions": ["0: play " + "R" * 100_000]}]}),
    lambda: Game.from_record(record() | {"x" * 100_000: 1}),
    lambda: Game.new(players=2, seed=1).apply("0: " + "x" * 100_000),
    lambda: Options.from_dict({"x" * 100_000: 1}),
])
def test_an_error_echoes_a_bounded_part_of_its_input(make):
    with pytest.raises(UnoKartError) as err:
        make()
    assert len(str(err.value)) < 300


# ---------------------------------------------------------------- every key in every catalogue
def _keys_in_source() -> set[str]:
    found = set()
    for path in RULES.glob("*.py"):
        found |= set(re.findall(r'"(core\.(?:refusal|setup|record|notation)\.[a-z0-9_.]*[a-z0-9_])"', path.read_text()))
    return found


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_error_key_of_the_rules_core_is_in_every_catalogue(lang):
    keys = _keys_in_source()
    assert len(keys) > 60
    messages = catalogue(lang)
    missing = sorted(k for k in keys if k not in messages)
    assert not missing, f"{lang} lacks {missing}"
    english = catalogue("en")
    for key in keys:
        fields = {f for _l, f, _s, _c in string.Formatter().parse(messages[key]) if f}
        assert fields == {f for _l, f, _s, _c in string.Formatter().parse(english[key]) if f}, (lang, key)


def test_a_notation_error_carries_a_key_and_says_it_in_every_language():
    from unokart import Action
    from unokart.narrate import describe_refusal

    with pytest.raises(NotationError) as err:
        Action.parse("2: fly away")
    assert err.value.key == "core.notation.unknown_verb"
    for lang in LANGUAGES:
        assert "'fly'" in describe_refusal(err.value, lang)


@pytest.mark.parametrize("field, shown", [("", "''"), (" ", "' '"), ("zz", "zz"), ("a\nb", "'aU+000Ab'")])
def test_an_unknown_field_is_named_visibly_even_when_empty(field, shown):
    # Found by the fuzz suite on the old main: {"": null} was "unknown record field(s): " (naming nothing).
    with pytest.raises(RecordError) as err:
        Game.from_record(record() | {field: 1})
    assert str(err.value) == f"unknown record field(s): {shown}"


def test_an_echoed_value_names_unseen_characters_as_the_server_does():
    """The core quotes what it was given with each control, format or bidirectional character as U+XXXX, as the
    server's refusals do (not Python's \\x14), so one value is said one way by every face."""
    from unokart import Action
    from unokart.rules.errors import printable, shown

    assert shown("fly\x14\u202eaway") == "'flyU+0014U+202Eaway'"
    assert printable("a\nb\u2028c") == "aU+000AbU+2028c"
    assert shown("x" * 45) == "'" + "x" * 40 + "'…"
    with pytest.raises(NotationError) as err:
        Action.parse("2: fly\x14")
    assert "U+0014" in str(err.value) and "\x14" not in str(err.value) and "\\x14" not in str(err.value)

"""BotLevel: the bot-level grammar read once (unokart.levels), its one spelling written back, and the
same levels accepted as make_bot builds."""

from __future__ import annotations

import pytest

from unokart.bots import make_bot
from unokart.levels import BotLevel, parse_levels

GOOD = {
    "random": "random", " Heuristic ": "heuristic", "EASY": "easy", "careful": "careful", "ismcts": "ismcts",
    "ismcts:0": "ismcts:0", "ISMCTS:200": "ismcts:200", "ismcts:150MS": "ismcts:150ms",
    "policy:baseline": "policy:baseline", "policy:Some_Net-2": "policy:Some_Net-2",
}
BAD = ["", "grandmaster", "random:3", "ismcts:-1", "ismcts:0ms", "ismcts:fast", "policy:", "heuristic:2", ":"]


@pytest.mark.parametrize("text,spelling", GOOD.items())
def test_a_level_is_read_and_written_back_in_its_one_spelling(text, spelling):
    level = BotLevel.parse(text)
    assert str(level) == spelling
    assert BotLevel.parse(str(level)) == level


def test_the_parts_of_a_level():
    assert BotLevel.parse("ismcts:200") == BotLevel("ismcts", iterations=200)
    assert BotLevel.parse("ismcts:40ms") == BotLevel("ismcts", milliseconds=40)
    assert BotLevel.parse("policy:baseline").named_policy
    assert not BotLevel.parse("policy:models/net.npz").named_policy
    assert BotLevel.parse("policy:models/net.npz").policy == "models/net.npz"


@pytest.mark.parametrize("text", BAD)
def test_a_bad_level_is_one_sentence_naming_it(text):
    with pytest.raises(ValueError) as refused:
        BotLevel.parse(text)
    message = str(refused.value)
    assert "\n" not in message and ("unknown bot" in message or "ISMCTS budget" in message)


# Spellings the server refuses (server/protocol.py's level_pattern) and BotLevel refuses too, each with its reason.
STRICT = {
    "ismcts:0500": "without leading zeros", "ismcts:00ms": "without leading zeros",
    "ismcts:\u0665\u0660\u0660": "digits 0-9", "ismcts:\uff15\uff10\uff10": "digits 0-9",
    "ismcts : 200": "no spaces around", "ismcts: 200": "no spaces around", "policy: baseline": "no spaces around",
    "ismcts:0ms": "1 ms or more", "ismcts:+5": "no sign", "\u0131smcts": "unknown bot",
}


@pytest.mark.parametrize("text,reason", STRICT.items())
def test_a_level_in_no_canonical_spelling_is_refused_naming_why(text, reason):
    with pytest.raises(ValueError, match=reason):
        BotLevel.parse(text)


@pytest.mark.parametrize("text", [*GOOD, *BAD, *STRICT, "policy:nope", " ismcts:7MS\t"])
def test_the_grammar_is_the_servers(text):
    """What BotLevel accepts the server accepts, spelt the same (policy names: the ones the server offers)."""
    from unokart.server.protocol import ServerError, bot_level

    try:
        parsed = str(BotLevel.parse(text))
    except ValueError:
        parsed = None
    try:
        served = bot_level(text, frozenset({"baseline", "Some_Net-2", "nope"}))
    except ServerError:
        served = None
    assert parsed == served


@pytest.mark.parametrize("text", [t for t in GOOD if not t.startswith("policy")] + BAD + list(STRICT))
def test_make_bot_builds_exactly_what_the_grammar_accepts_and_refuses_with_its_words(text):
    try:
        parsed = BotLevel.parse(text)
        refusal = None
    except ValueError as err:
        parsed, refusal = None, str(err)
    if refusal is not None:
        with pytest.raises(ValueError) as refused:
            make_bot(text)
        assert str(refused.value) == refusal
    else:
        assert type(make_bot(text)).__name__.lower() == f"{parsed.kind}bot"


def test_a_list_of_levels_skips_empty_entries_and_refuses_a_bad_one():
    assert [str(level) for level in parse_levels("heuristic, ,Easy,")] == ["heuristic", "easy"]
    with pytest.raises(ValueError, match="unknown bot"):
        parse_levels("heuristic,wizard")

"""Every refusal of the rules core travels as a catalogue key with plain parameters.

The server and the clients say a refusal in the player's language from its key
and parameters (``unokart.narrate.describe_refusal``); the English sentence
(``str(err)``) stays as it was. These tests find every ``IllegalAction`` site in
the core's source, then make the engine raise each one in seeded random games
(every house rule), and check each key against all five catalogues.
"""

from __future__ import annotations

import ast
import random
import re
import string
from pathlib import Path

import pytest

from unokart import Action, Game, IllegalAction, NotationError, RecordError, SetupError, UnoKartError
from unokart.i18n import LANGUAGES, catalogue
from unokart.narrate import describe_refusal
from unokart.rules.states import AWAITING
from unokart.rules.cards import COLOR_NAMES, COLORS, FACE_CODE
from unokart.rules.options import Options

# The core refuses in the engine, in its explanations and in its views.
CORE_SOURCES = sorted((Path(__file__).resolve().parents[2] / "src" / "unokart" / "rules").glob("*.py"))
CORE_TEXT = "\n".join(path.read_text(encoding="utf-8") for path in CORE_SOURCES)
DECISIONS = [a for a in AWAITING if a not in ("round_over", "game_over")]
# A card code standing alone: what must never reach a player's sentence.
CARD_CODE = re.compile(r"(?<![A-Za-z0-9+])(?:[RYGB](?:[0-9]|S|R|\+2)|W\+4|WIB)(?![A-Za-z0-9])")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
OPTION_SETS = [{}, {"stacking": True}, {"force_play": True}, {"jump_in": True}, {"seven_zero": True},
               {"draw_until_playable": True, "force_play": True},
               {"stacking": True, "jump_in": True, "seven_zero": True, "force_play": True}]


def _placeholders(text: str) -> set[str]:
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}


def _core_calls() -> list[tuple[str, ast.Call]]:
    return [(path.name, node) for path in CORE_SOURCES for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction"]


def _expected_keys() -> set[str]:
    """Every key the core's source names, and the per-decision keys it builds."""
    literal = set(re.findall(r'"(core\.refusal\.[a-z0-9_.]*[a-z0-9_])"', CORE_TEXT))
    assert '"core.refusal.expect." + wanted' in CORE_TEXT
    return literal | {f"core.refusal.expect.{aw}" for aw in DECISIONS} | {"core.refusal.expect.challenge_or_stack"}


def _candidates(game: Game) -> list[Action]:
    """Every kind of action for every seat (and one seat beyond the table): mostly illegal ones."""
    out = []
    for seat in range(-1, game.n + 1):
        hand = game.hand(seat) if 0 <= seat < game.n else []
        cards = sorted(set(hand)) + [f for f in (0, 5, 23, 52, 53) if f not in hand]
        for card in cards:
            color = 1 if card == 52 else -1
            for uno in (False, True):
                out.append(Action(seat, "play", card, color, -1, uno))
                out.append(Action(seat, "jump", card, color, -1, uno))
        for verb in ("draw", "pass", "challenge", "accept", "uno"):
            out.append(Action(seat, verb, -1, -1, -1, False))
        out.append(Action(seat, "color", -1, 2, -1, False))
        for target in (-1, seat, (seat + 1) % game.n, game.n):
            for verb in ("target", "catch", "swap"):
                out.append(Action(seat, verb, -1, -1, target, False))
    return out


def _collect() -> dict[str, list[IllegalAction]]:
    """Refusals by key, from seeded random games under every option set."""
    found: dict[str, list[IllegalAction]] = {}

    def keep(err: IllegalAction) -> None:
        examples = found.setdefault(err.key, [])
        if len(examples) < 12:
            examples.append(err)

    def try_all(game: Game) -> None:
        legal = {a for s in range(game.n) for a in game.legal_actions(s)}
        for cand in _candidates(game):
            if cand in legal:
                continue
            # A catch that has no effect is accepted (R8.3): try those on a copy.
            try:
                (game.copy() if cand.verb == "catch" else game).apply(cand)
            except IllegalAction as err:
                keep(err)
            except NotationError:
                pass

    for index, options in enumerate(OPTION_SETS):
        for players in (2, 4, 6):
            seed = 1000 * index + players
            rng = random.Random(seed)
            game = Game.new(players, seed=seed, options={**options, "target_score": 150})
            steps = 0
            while game.awaiting != "game_over" and steps < 400:
                if game.awaiting == "round_over":
                    try_all(game)
                    game.next_round()
                    continue
                if steps % 4 == 0:
                    try_all(game)
                acts = game.legal_actions()
                if rng.random() < 0.15:
                    acts = [a for s in range(game.n) for a in game.legal_actions(s)] or acts
                plays = [a for a in acts if a.verb not in ("draw", "pass", "accept")]
                game.apply(rng.choice(plays if plays and rng.random() < 0.8 else acts))
                steps += 1
                if game.awaiting not in ("round_over", "game_over"):
                    try:
                        game.next_round()
                    except IllegalAction as err:
                        keep(err)
            if game.awaiting == "game_over":
                try_all(game)
    # Outside apply: a view of a seat the table lacks.
    try:
        Game.new(3, seed=1).view(5)
    except IllegalAction as err:
        keep(err)
    return found


@pytest.fixture(scope="module")
def refusals() -> dict[str, list[IllegalAction]]:
    return _collect()


def test_every_illegal_action_in_the_core_source_is_given_a_key_and_params():
    calls = _core_calls()
    assert len(calls) >= 25
    for name, call in calls:
        where = f"{name} line {call.lineno}"
        assert len(call.args) == 4, f"{where}: IllegalAction(rule, reason, key, params) takes four arguments"
        key = call.args[2]
        assert (isinstance(key, ast.Constant) and str(key.value).startswith("core.refusal.")) or \
            (isinstance(key, ast.IfExp) and all(isinstance(k, ast.Constant) for k in (key.body, key.orelse))) or \
            isinstance(key, ast.BinOp), f"{where}: the key must be a catalogue key"


def test_the_engine_raises_every_refusal_it_names(refusals):
    missing = sorted(_expected_keys() - set(refusals))
    assert not missing, f"never raised in the random games: {missing}"
    assert set(refusals) <= _expected_keys() | {""}, sorted(set(refusals) - _expected_keys())
    assert "" not in refusals, [str(e) for e in refusals.get("", [])]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_refusal_key_is_in_the_catalogue_with_placeholders_its_params_fill(refusals, lang):
    messages = catalogue(lang)
    english = catalogue("en")
    for key, examples in refusals.items():
        assert key in messages, f"{lang} lacks {key}"
        assert _placeholders(messages[key]) == _placeholders(english[key]), (lang, key)
        for err in examples:
            assert _placeholders(messages[key]) <= set(err.params), (key, err.params)
            assert all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in err.params.values()), err.params


def test_params_are_plain_codes(refusals):
    """Cards as card codes, colours as letters, seats as numbers, decisions as awaiting codes."""
    for examples in refusals.values():
        for err in examples:
            for name, value in err.params.items():
                if name in ("card", "top") or (name == "drawn" and value != "-"):
                    assert value in FACE_CODE, (err.key, name, value)
                elif name == "color":
                    assert value in COLORS and len(value) == 1, (err.key, value)
                elif name in ("seat", "to_act", "number", "last", "count"):
                    assert isinstance(value, int), (err.key, name, value)
                elif name == "awaiting":
                    assert value in AWAITING, (err.key, value)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_describe_refusal_says_each_refusal_in_words_in_every_language(refusals, lang):
    for key, examples in refusals.items():
        for err in examples:
            for names in (None, NAMES[:10]):
                text = describe_refusal(err, lang, names)
                assert text.strip() and "{" not in text and "}" not in text, (key, text)
                assert not CARD_CODE.search(text), f"{lang} {key} shows a card code: {text!r}"
                assert err.rule not in text  # the rule id is shown apart by each face
                if names is not None and key == "core.refusal.not_your_turn":
                    assert NAMES[err.params["to_act"]] in text


def test_describe_refusal_names_the_cards_colour_and_player_in_english():
    game = Game.new(["Ann", "Bob"], seed=1)
    top = FACE_CODE[game.top]
    with pytest.raises(IllegalAction) as err:
        game.apply(f"{1 - game.to_act}: draw")
    assert describe_refusal(err.value, "en", ["Ann", "Bob"]) == f"It is {['Ann', 'Bob'][game.to_act]}'s turn, not yours."
    assert describe_refusal(err.value, "en") == f"It is seat {game.to_act}'s turn, not yours."
    seat = game.to_act
    unmatched = next(f for f in game.hand(seat) if f < 52 and f // 13 != game.color and f % 13 != game.top % 13)
    with pytest.raises(IllegalAction) as err:
        game.apply(Action(seat, "play", unmatched, -1, -1, False))
    assert err.value.key == "core.refusal.no_match"
    color_word = COLOR_NAMES[game.color]
    text = describe_refusal(err.value, "en")
    assert text.endswith(f"the colour in play is {color_word}.") and FACE_CODE[unmatched] not in text and top not in text


def test_str_of_a_refusal_is_its_english_sentence_unchanged(refusals):
    for examples in refusals.values():
        for err in examples:
            assert str(err) == f"{err.rule} {err.reason}"
    for err in refusals["core.refusal.no_match"]:
        p = err.params
        assert str(err) == f"R4.1 {p['card']} does not match {p['top']} (active colour {COLOR_NAMES[COLORS.index(p['color'])]})"
    for err in refusals["core.refusal.not_your_turn"]:
        p = err.params
        assert str(err) == f"R2.1 it is seat {p['to_act']}'s turn (awaiting {p['awaiting']}), not seat {p['seat']}'s"


def test_a_refusal_built_without_a_key_still_reads_in_english():
    err = IllegalAction("R4.1", "a sentence")
    assert (err.key, err.params, str(err)) == ("", {}, "R4.1 a sentence")
    assert describe_refusal(err, "ta") == "R4.1 a sentence"


# ---------------------------------------------------------------- bad setups
@pytest.mark.parametrize("make, key", [
    (lambda: Game.new(players=1), "core.setup.players"),
    (lambda: Game.new(players=11), "core.setup.players"),
    (lambda: Game.new(players=["Ann"]), "core.setup.players"),
    (lambda: Game.new(players=3, dealer=3), "core.setup.dealer"),
    (lambda: Game.new(players=10, options={"hand_size": 11}), "core.setup.hands_do_not_fit"),
    (lambda: Game.new(players=2, options=[1]), "core.setup.options_not_object"),
    (lambda: Options.from_dict({"stack": True}), "core.setup.unknown_option"),
    (lambda: Options.from_dict({"stacking": "maybe"}), "core.setup.not_boolean"),
    (lambda: Options.from_dict({"hand_size": 0}), "core.setup.not_positive"),
])
def test_a_bad_setup_raises_setup_error_with_a_key_every_language_says(make, key):
    with pytest.raises(SetupError) as err:
        make()
    assert err.value.key == key
    assert not isinstance(err.value, RecordError) and isinstance(err.value, UnoKartError)  # no record involved
    for lang in LANGUAGES:
        text = describe_refusal(err.value, lang)
        assert "{" not in text and _placeholders(catalogue(lang)[key]) <= set(err.value.params)


def test_setup_error_is_exported_from_the_rules_core():
    import unokart.rules as rules

    assert rules.SetupError is SetupError and "SetupError" in rules.__all__

"""``unokart replay`` as a user runs it: a real subprocess on real files."""

import json
import os
import subprocess
import sys

import pytest

from test_rules_notation_and_records import illegal_at_seven
from helpers.rules import random_whole_game, stacked_deck
from unokart import Game

ENV = {**os.environ, "UNOKART_LANG": "en", "COLUMNS": "200", "TERM": "dumb"}


def replay(*args):
    return subprocess.run([sys.executable, "-m", "unokart.cli", "replay", *map(str, args)],
                          capture_output=True, text=True, env=ENV, timeout=60)


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def whole_game():
    return random_whole_game(["Ann", "Bob", "Cy"], seed=11, target_score=150)


def assert_one_clear_error(result, *fragments):
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_replay_prints_every_action_and_what_it_caused_readably(tmp_path, whole_game):
    result = replay(write(tmp_path, whole_game.record()), "--notation")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first_actions = whole_game.record()["rounds"][0]["actions"][:3]
    for text in first_actions:
        assert text in out
    assert "Ann" in out and "Bob" in out and "Cy" in out
    assert out.count(f"{whole_game.names[whole_game.game_winner]} wins the game!") == 1  # once, by its event
    assert "Traceback" not in out + result.stderr


def test_replay_says_the_house_rules_in_words(tmp_path):
    game = random_whole_game(["Ann", "Bob"], seed=3, target_score=1, hand_size=3, stacking=True)
    result = subprocess.run([sys.executable, "-m", "unokart.cli", "replay", str(write(tmp_path, game.record())), "--lang", "sd"],
                            capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 0, result.stderr
    from unokart.i18n import t
    rules = "، ".join([t("web.wait.target", "sd", n=1), t("web.wait.hand", "sd", n=3)]) + "، ۽ " + t("web.rule.stacking", "sd")
    assert t("cli.replay_options", "sd", options=rules) in result.stdout, result.stdout[:400]
    assert "true" not in result.stdout and "{" not in result.stdout


def test_watch_names_the_colour_chosen_for_a_wild_on_top():
    done = subprocess.run([sys.executable, "-m", "unokart.cli", "watch", "--players", "2", "--seed", "3",
                           "-o", "hand_size=3", "-o", "target_score=1"], capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    wild_tops = [line for line in done.stdout.splitlines() if "top card Wild" in line]
    assert any("the colour in play red" in line for line in wild_tops), wild_tops
    assert done.stdout.count("wins the game!") == 1


def test_replay_json_prints_the_final_full_state_as_notation_shows_it(tmp_path, whole_game):
    result = replay(write(tmp_path, whole_game.record()), "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state == whole_game.state()
    assert list(state) == ["round", "dealer", "direction", "to_act", "awaiting", "top", "color", "hands", "stock",
                           "discard", "uno_said", "scores", "round_winner", "game_winner"]
    assert state["awaiting"] == "game_over" and state["game_winner"] == whole_game.game_winner


def test_replay_json_of_a_game_in_progress(tmp_path):
    deck = stacked_deck(2, [["R1", "G2"], ["B1", "B2"]], "R5", dealer=1, hand_size=2)
    record = {"players": ["A", "B"], "options": {"hand_size": 2},
              "rounds": [{"dealer": 1, "deck": deck, "actions": ["0: play R1"]}]}
    state = json.loads(replay(write(tmp_path, record), "--json").stdout)
    assert state["hands"] == [["G2"], ["B1", "B2"]] and state["top"] == "R1" and state["to_act"] == 1


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_replay_an_illegal_action_exits_2_naming_index_action_and_rule(tmp_path, flag):
    result = replay(write(tmp_path, illegal_at_seven()), *flag)
    assert_one_clear_error(result)
    # The sentence comes from the catalogue: card names in words, the rule id kept.
    assert result.stderr.strip() == "error: Action 7 (2: play Y3): R4.1 Yellow 3 does not match red 5: the colour in play is red."


BROKEN = {
    "bad_json": ('{"players": ["A", "B"], "rounds": [', ["is not valid JSON", "line 1"]),
    "not_an_object": ([1, 2], ["A record must be a JSON object"]),
    "unknown_card_in_deck": ({"players": ["A", "B"], "rounds": [{"deck": ["Q1"] + stacked_deck(2, {}, "R5")[1:]}]},
                             ["The deck holds 'Q1', which is not a card code."]),
    "unknown_card_in_action": ({"players": ["A", "B"], "rounds": [{"seed": 1, "actions": ["1: play Q1"]}]},
                               ["Action 0 (1: play Q1)", "'Q1' is not a card code."]),
    "wrong_deck": ({"players": ["A", "B"], "rounds": [{"deck": stacked_deck(2, {}, "R5")[:100]}]},
                   ["The deck is not the 112 cards: it has 100"]),
    "wrong_player_count": ({"players": ["A"], "rounds": [{"seed": 1}]}, ["R2.1 A game has 2 to 10 players, not 1."]),
    "unknown_option": ({"players": ["A", "B"], "options": {"stackng": True}, "rounds": [{"seed": 1}]},
                       ["There is no house rule named 'stackng'"]),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_replay_a_broken_file_exits_2_with_one_clear_line(tmp_path, case):
    data, fragments = BROKEN[case]
    assert_one_clear_error(replay(write(tmp_path, data)), *fragments)


@pytest.mark.parametrize("case", ["bad_json", "wrong_deck"])
def test_replay_json_of_a_broken_file_exits_2_with_one_clear_line(tmp_path, case):
    data, fragments = BROKEN[case]
    assert_one_clear_error(replay(write(tmp_path, data), "--json"), *fragments)


def test_replay_a_missing_file_exits_2_with_one_clear_line(tmp_path):
    assert_one_clear_error(replay(tmp_path / "nowhere.json"), "Cannot read", "nowhere.json", "no such file or folder")


def test_replay_a_directory_exits_2_with_one_clear_line(tmp_path):
    assert_one_clear_error(replay(tmp_path), "Cannot read", "it is a folder, not a file")


def test_why_a_file_cannot_be_read_is_said_in_the_users_language_not_the_systems(tmp_path):
    from unokart.i18n import t

    result = replay(tmp_path, "--lang", "ta")
    assert result.returncode == 2
    assert t("cli.os.EISDIR", "ta") in result.stderr and "directory" not in result.stderr, result.stderr


def test_replay_a_file_that_is_not_utf8_exits_2_with_one_clear_line(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'\xff\xfe{"players": []}')
    assert_one_clear_error(replay(path))


def test_replay_player_names_are_printed_as_text_not_markup(tmp_path):
    result = replay(write(tmp_path, {"players": ["[/]", "[bold]Bob"], "rounds": [{"seed": 1, "actions": []}]}))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "[bold]Bob" in result.stdout


# ---------------------------------------------------------------- issue 15: the record door
def test_replay_of_400_kb_of_nested_brackets_is_one_sentence_not_a_recursion_error(tmp_path):
    path = write(tmp_path, "[" * 400_000, "deep.json")
    assert_one_clear_error(replay(path), "more than 32 deep")


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_replay_of_a_2_mb_player_name_is_refused_naming_the_limit(tmp_path, flag):
    record = {"players": ["A" * 2_000_000, "Bob"], "rounds": [{"seed": 1, "actions": []}]}
    result = replay(write(tmp_path, record), *flag)
    assert_one_clear_error(result, "Player 0's name is 2000000 characters long; a name has at most 24.")
    assert len(result.stderr) < 200


def test_replay_of_a_50_mb_record_is_refused_by_its_size_before_it_is_parsed(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("w") as out:  # a 50 MB name, as in the issue
        out.write('{"players": ["')
        for _ in range(50):
            out.write("A" * 1_000_000)
        out.write('", "Bob"], "rounds": [{"seed": 1}]}')
    assert_one_clear_error(replay(path), "larger than 16777216 bytes")


def test_replay_says_its_error_in_the_users_language(tmp_path):
    result = subprocess.run([sys.executable, "-m", "unokart.cli", "replay", str(write(tmp_path, illegal_at_seven()))],
                            capture_output=True, text=True, env={**ENV, "UNOKART_LANG": "ta"}, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    line = result.stderr.strip()
    assert line == "பிழை: நகர்வு 7 (2: play Y3): R4.1 மஞ்சள் 3, சிவப்பு 5 உடன் பொருந்தவில்லை: இப்போதைய நிறம் சிவப்பு.", line


def test_replay_tells_the_game_in_words_without_the_notation_unless_asked(tmp_path, whole_game):
    path = write(tmp_path, whole_game.record())
    plain = subprocess.run([sys.executable, "-m", "unokart.cli", "replay", str(path), "--lang", "ta"],
                           capture_output=True, text=True, env=ENV, timeout=60)
    assert plain.returncode == 0, plain.stderr
    actions = whole_game.record()["rounds"][0]["actions"]
    assert not [text for text in actions[:20] if f" {text}\n" in plain.stdout]
    assert "play" not in plain.stdout and "draw" not in plain.stdout
    from unokart.i18n import t

    assert t("core.event.game_end", "ta", name=whole_game.names[whole_game.game_winner]) in plain.stdout


def test_replay_reads_a_finished_game_as_the_server_serves_it(tmp_path, whole_game):
    served = {"id": 1, "record": whole_game.record(), "commitments": ["0" * 64], "scores": whole_game.scores}
    result = replay(write(tmp_path, served))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(f"{whole_game.names[whole_game.game_winner]} wins the game!") == 1

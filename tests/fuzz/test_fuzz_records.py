"""The record door: ``Game.from_record`` on any file's contents, and ``unokart replay`` on any file."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzz_helpers import (MAX_SENTENCE, assert_answered, assert_one_sentence, door, fuzz_settings, record_texts,
                         run_command, run_process, within)
from unokart import Game, RecordError
from unokart.i18n import LANGUAGES
from unokart.rules.records import parse_record_text


def check_record(data: bytes) -> str:
    """The property: a record replays (and its own record replays the same), or one RecordError sentence."""
    with within():
        try:
            game = Game.from_record(parse_record_text(data))
        except RecordError as err:
            assert_one_sentence(err)
            return "refused"
        again = Game.from_record(game.record())
        assert again.state() == game.state() and again.actions == game.actions
        return "replayed"


@fuzz_settings(300)
@given(record_texts())
@door("records")
def test_fuzz_a_record_replays_or_is_refused_in_one_sentence(data):
    check_record(data)


def check_replay_command(data: bytes, tmp_path, flag: list[str], in_process: bool = True, lang: str = "en") -> int:
    path = tmp_path / "game.json"
    path.write_bytes(data)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = ["replay", str(path), *flag]
    code, out, err = run_command(args, lang) if in_process else run_process(args, cwd=tmp_path, lang=lang)
    assert_answered(code, out, err, args, lang)
    assert path.read_bytes() == data and sorted(p.name for p in tmp_path.iterdir()) == before  # nothing changed
    return code


@fuzz_settings(60, campaign_share=0.05)
@given(record_texts(), st.sampled_from([[], ["--json"]]), st.sampled_from(sorted(LANGUAGES)))
@door("replay")
def test_fuzz_replay_command_prints_the_game_or_one_sentence_in_any_language(tmp_path_factory, data, flag, lang):
    check_replay_command(data, tmp_path_factory.mktemp("replay"), flag, lang=lang)


@fuzz_settings(4, campaign_share=0.002)
@given(record_texts())
@door("replay")
def test_fuzz_replay_as_a_process(tmp_path_factory, data):
    check_replay_command(data, tmp_path_factory.mktemp("replay"), [], in_process=False)


def check_verify_command(data: bytes, tmp_path, lang: str = "en") -> int:
    """`unokart verify` on any file: "Verified" (exit 0), or one sentence on stderr and exit 2, nothing changed."""
    path = tmp_path / "game.json"
    path.write_bytes(data)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = ["verify", str(path)]
    code, out, err = run_command(args, lang)
    assert code in (0, 2) and "Traceback" not in out + err, (code, err[-2000:])
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and len(lines[0]) <= MAX_SENTENCE + 200, (args, err[:2000])
    assert path.read_bytes() == data and sorted(p.name for p in tmp_path.iterdir()) == before
    return code


@fuzz_settings(40, campaign_share=0.05)
@given(record_texts(), st.sampled_from(sorted(LANGUAGES)))
@door("verify")
def test_fuzz_verify_command_verifies_or_refuses_in_one_sentence_in_any_language(tmp_path_factory, data, lang):
    check_verify_command(data, tmp_path_factory.mktemp("verify"), lang)

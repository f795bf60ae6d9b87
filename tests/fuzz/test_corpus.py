"""Every input in tests/fuzz/corpus, replayed on every run (see corpus/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fuzz_helpers import assert_answered, assert_refused, played_game, run_command, run_guarded
from test_fuzz_notation import check_apply, check_parse
from test_fuzz_options import check_option_text
from test_fuzz_records import check_record, check_replay_command

CORPUS = Path(__file__).parent / "corpus"


def _files(folder: str) -> list[Path]:
    return sorted((CORPUS / folder).iterdir())


@pytest.mark.parametrize("path", _files("records"), ids=lambda p: p.name)
def test_corpus_record(path, tmp_path):
    data = path.read_bytes()
    check_record(data)
    check_replay_command(data, tmp_path, [])


@pytest.mark.parametrize("path", _files("actions"), ids=lambda p: p.name)
def test_corpus_action(path):
    text = path.read_text(encoding="utf-8")
    check_parse(text)
    for steps in (0, 7, 40):
        check_apply(played_game(4, steps, {"jump_in": True, "stacking": True}, steps), text)


@pytest.mark.parametrize("path", _files("options"), ids=lambda p: p.name)
def test_corpus_options(path):
    pairs = json.loads(path.read_text(encoding="utf-8"))
    for players in (2, 10):
        check_option_text(pairs, players)


@pytest.mark.parametrize("path", _files("argv"), ids=lambda p: p.name)
def test_corpus_command_line(path, tmp_path):
    args = json.loads(path.read_text(encoding="utf-8"))
    if args[0] in ("serve", "play"):  # a real process, stopped should it serve or open its app
        outcome, code, out, err = run_guarded(args, tmp_path)
        assert outcome == "answered", (outcome, args, err[-500:])
        assert_refused(code, out, err, args)
        assert sorted(p.name for p in tmp_path.iterdir()) == [], args
    else:
        assert_answered(*run_command(args), args)

"""``simulate --from-results``: a saved round robin is read as a record is (bounded size, nesting checked before
the parser recurses) and its shape checked; any fault is one sentence in the user's language, exit code 2."""

import json

import pytest
from typer.testing import CliRunner

from unokart.cli import app
from unokart.i18n import LANGUAGES, t


def from_results(path, lang="en"):
    return CliRunner().invoke(app, ["simulate", "--from-results", str(path)], env={"UNOKART_LANG": lang})


def refused(result, path, reason, lang="en"):
    """Exit 2, the catalogue's sentence with ``reason`` in it, no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert t("sim.error.read_results", lang, path=path, reason=reason) in result.stderr
    assert "Traceback" not in result.output


GOOD_PAIRING = {"players": 2, "levels": ["random", "easy"], "games": 2,
                "sides": [{"level": "random", "share": 0.5, "ci95": [0.1, 0.9], "decision_ms": 0.1},
                          {"level": "easy", "share": 0.5, "ci95": [0.1, 0.9], "decision_ms": 0.1}]}
GOOD = {"kind": "round_robin", "levels": ["random", "easy"], "tables": [2], "seed": 1, "pairings": [GOOD_PAIRING]}


@pytest.mark.parametrize("content, key, fields", [
    ("[" * 100_000 + "]" * 100_000, "sim.error.results.too_deep", {"limit": 32}),  # was a RecursionError
    ('{"kind": "round_robin",\n', "sim.error.results.not_json", {"line": 2, "column": 1}),  # was "Expecting value"
    (b"\xcb\x00\x01", "sim.error.results.not_utf8", {"byte": 0}),  # was "'utf-8' codec can't decode"
    ("1" * 5000, "sim.error.results.not_json_value", {}),  # an integer too long to convert
    ('{"kind": "round_robin"}', "sim.error.results.levels", {"limit": 100}),  # was KeyError 'levels'
    ('{"kind": "round_robin", "levels": 5, "tables": "x"}', "sim.error.results.levels", {"limit": 100}),
    ('{"kind": "round_robin", "levels": ["random", "easy"], "tables": "x"}', "sim.error.results.tables", {}),
    ('{"kind": "round_robin", "levels": ["random", "grandmaster"], "tables": [2]}',
     "sim.error.results.levels", {"limit": 100}),
    ('{"kind": "round_robin", "levels": ["random", "random"], "tables": [2]}',
     "sim.error.results.levels", {"limit": 100}),
    (json.dumps({**GOOD, "levels": [f"ismcts:{n}" for n in range(1, 102)]}),  # its heat map would be 101 x 101
     "sim.error.results.levels", {"limit": 100}),
    ('{"kind": "round_robin", "levels": ["random", "easy"], "tables": [2, 2]}', "sim.error.results.tables", {}),
    ('{"kind": "round_robin", "levels": ["random", "easy"], "tables": [2], "seed": "1"}', "sim.error.results.seed", {}),
    (json.dumps({**GOOD, "pairings": None}), "sim.error.results.pairings", {}),
    (json.dumps({**GOOD, "pairings": [GOOD_PAIRING, {**GOOD_PAIRING, "players": 4}]}),
     "sim.error.results.pairing", {"number": 2}),  # a table size the file does not list
    (json.dumps({**GOOD, "pairings": [{**GOOD_PAIRING, "sides": [GOOD_PAIRING["sides"][0], {"level": "easy"}]}]}),
     "sim.error.results.pairing", {"number": 1}),  # a side without its share
    ('{"games": 3}', "sim.error.not_round_robin", {}),
])
def test_a_broken_saved_round_robin_is_one_sentence_naming_its_fault(tmp_path, content, key, fields):
    path = tmp_path / "rr.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    refused(from_results(path), path, t(key, **fields))


def test_an_endless_file_is_read_no_further_than_the_size_limit():
    # /dev/zero was read whole until memory ran out; now 16 MiB and one byte are read, then refused
    refused(from_results("/dev/zero"), "/dev/zero", t("sim.error.results.too_large", limit=16 * 1024 * 1024))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reason_for_a_truncated_file_is_in_the_users_language(tmp_path, lang):
    path = tmp_path / "rr.json"
    path.write_text('{"kind": "round_robin",\n', encoding="utf-8")
    result = from_results(path, lang)
    refused(result, path, t("sim.error.results.not_json", lang, line=2, column=1), lang)
    assert "Expecting" not in result.stderr


def test_a_well_formed_file_still_shows_its_tables(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    result = from_results(path)
    assert result.exit_code == 0, result.output
    assert "| beginner (random) | easy | 2 | 50.0% | 10.0–90.0% |" in result.stdout

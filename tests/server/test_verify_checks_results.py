"""`unokart verify` checks a game's result, not only its deals.

The commitments bind each round's seed; they say nothing of the scores, the
winner or whether the game was played to its end. A game played here by real
bots to the end is turned into the object GET /api/games/{id} serves, then
edited the ways a forger would: verify must refuse each edit with one clear
sentence and exit code 2, and never print "Verified".
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from unokart.bots import make_bot
from unokart.cli import app
from unokart.rules import Game
from unokart.server.shuffle import commitments_of

runner = CliRunner()


def _play(seed: int) -> Game:
    """Four real bots play one game to its end (target 150, so that it lasts a few rounds)."""
    game = Game.new(["Ann", "Bob", "Cy", "Di"], seed=seed, options={"target_score": 150})
    bots = [make_bot(name) for name in ("heuristic", "easy", "random", "heuristic")]
    rng = random.Random(seed)
    while game.awaiting != "game_over":
        if game.awaiting == "round_over":
            game.next_round()
            continue
        seat = game.to_act
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(), rng))
    return game


@pytest.fixture(scope="module")
def finished() -> dict:
    """The /api/games/{id} object of a finished game of at least two rounds."""
    for seed in range(1, 50):
        game = _play(seed)
        record = game.record()
        if len(record["rounds"]) >= 2 and all(len(r["actions"]) >= 3 for r in record["rounds"]):
            break
    else:
        pytest.fail("no game of two rounds in 49 seeds")
    assert game.game_winner is not None
    return {"id": 1, "code": "K7Q2XM", "game": 1, "players": list(record["players"]), "scores": list(game.scores),
            "winner": game.game_winner, "rounds": len(record["rounds"]), "finished_at": "2026-12-01T10:00:00Z",
            "record": record, "commitments": commitments_of([r["seed"] for r in record["rounds"]], record["players"], record.get("options", {}))}


def _verify(tmp_path, game: dict, *flags: str):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    return runner.invoke(app, ["verify", str(path), *flags])


def _refused(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Verified" not in result.output and "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output


def test_an_untouched_finished_game_is_verified_with_its_result(finished, tmp_path):
    result = _verify(tmp_path, finished)
    assert result.exit_code == 0, result.output
    winner = finished["winner"]
    assert f"Result: scores {json.dumps(finished['scores'])}; the winner is seat {winner}, {finished['players'][winner]}." in result.output
    assert f"Verified: {finished['rounds']} round{'' if finished['rounds'] == 1 else 's'}" in result.output


def test_edited_scores_are_refused(finished, tmp_path):
    forged = copy.deepcopy(finished)
    loser = next(seat for seat in range(4) if seat != finished["winner"])
    forged["scores"][loser] += 50
    _refused(_verify(tmp_path, forged), "scores", json.dumps(finished["scores"]), "NOT")


def test_an_edited_winner_is_refused(finished, tmp_path):
    forged = copy.deepcopy(finished)
    forged["winner"] = (finished["winner"] + 1) % 4
    _refused(_verify(tmp_path, forged), "winner", "NOT")
    forged["winner"] = True if finished["winner"] == 1 else float(finished["winner"])  # the same number, not a seat
    _refused(_verify(tmp_path, forged), "winner")


def test_an_edited_round_count_or_player_is_refused(finished, tmp_path):
    forged = copy.deepcopy(finished)
    forged["rounds"] += 1
    _refused(_verify(tmp_path, forged), "rounds")
    forged = copy.deepcopy(finished)
    forged["players"][0] = "Mallory"
    _refused(_verify(tmp_path, forged), "players")


def test_a_game_whose_last_three_actions_were_cut_is_unfinished(finished, tmp_path):
    cut = copy.deepcopy(finished)
    del cut["record"]["rounds"][-1]["actions"][-3:]  # still legal, but nobody goes out
    _refused(_verify(tmp_path, cut), "unfinished", f"round {finished['rounds']}")


def test_a_game_whose_last_round_was_removed_with_its_commitment_is_unfinished(finished, tmp_path):
    cut = copy.deepcopy(finished)
    cut["record"]["rounds"].pop()
    cut["commitments"].pop()
    cut["rounds"] -= 1
    del cut["scores"], cut["winner"]  # even with no stated result to contradict, an unfinished game is not verified
    result = _verify(tmp_path, cut)
    _refused(result, "unfinished", f"round {finished['rounds'] - 1}", "(The round is over)")  # in words, not its state name
    assert "round_over" not in result.output


def test_a_bare_record_is_verified_only_when_it_reaches_the_end(finished, tmp_path):
    flags = [arg for digest in finished["commitments"] for arg in ("--commitment", digest)]
    result = _verify(tmp_path, finished["record"], *flags)
    assert result.exit_code == 0 and "Verified" in result.output, result.output
    assert json.dumps(finished["scores"]) in result.output  # the result comes from the replay
    cut = copy.deepcopy(finished["record"])
    del cut["rounds"][-1]["actions"][-3:]
    _refused(_verify(tmp_path, cut, *flags), "unfinished")


def test_a_forger_cannot_flood_the_terminal_through_a_stated_result(finished, tmp_path):
    forged = copy.deepcopy(finished)
    forged["scores"] = ["x" * 100_000]
    result = _verify(tmp_path, forged)
    _refused(result, "scores")
    assert len(result.output) < 1000


def test_verify_refuses_a_deep_a_huge_or_a_broken_file_in_one_sentence(tmp_path):
    """The record door's limits hold for `verify` too: checked before parsing, never a traceback."""
    from unokart.rules.records import MAX_DEPTH, MAX_RECORD_BYTES

    cases = {"deep.json": b"[" * 400_000, "huge.json": b" " * (MAX_RECORD_BYTES + 10), "broken.json": b"{",
             "latin1.json": "{\"players\": [\"Zo\u00eb\"]}".encode("latin-1")}
    said = {}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        done = subprocess.run([sys.executable, "-m", "unokart.cli", "verify", str(tmp_path / name)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr, (name, done.stderr[-2000:])
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        said[name] = done.stderr
    assert str(MAX_DEPTH) in said["deep.json"] and str(MAX_RECORD_BYTES) in said["huge.json"]
    missing = subprocess.run([sys.executable, "-m", "unokart.cli", "verify", str(tmp_path / "none.json")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "none.json" in missing.stderr and len(missing.stderr.strip().splitlines()) == 1


def test_commitments_carried_by_the_file_itself_are_printed_to_be_compared_with_those_announced(finished, tmp_path):
    """A file can carry commitments made to fit its own seeds: verify says so, and prints them for comparison."""
    from unokart.i18n import t

    result = _verify(tmp_path, finished)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    warning = lines.index(t("server.verify.compare", "en"))
    assert "announced during play" in lines[warning]
    shown = lines[warning + 1:warning + 1 + finished["rounds"]]
    assert shown == [t("server.verify.commitment", "en", round=number, sha256=digest)
                     for number, digest in enumerate(finished["commitments"], 1)]
    tamil = runner.invoke(app, ["verify", str(tmp_path / "game.json")], env={"UNOKART_LANG": "ta"})
    assert tamil.exit_code == 0 and t("server.verify.compare", "ta") in tamil.output, tamil.output
    assert all(digest in tamil.output for digest in finished["commitments"])
    # Commitments the player gives (the ones they kept during play) need no such warning.
    flags = [arg for digest in finished["commitments"] for arg in ("--commitment", digest)]
    own = _verify(tmp_path, finished, *flags)
    assert own.exit_code == 0 and t("server.verify.compare", "en") not in own.output, own.output


# The first commitment binds the players and every house rule with the seed (PROTOCOL.md section 7): a record's
# target score, house rule or player edited after the game is refused, naming what the record now states.

def test_an_edited_target_score_is_refused_naming_it(finished, tmp_path):
    winner = finished["winner"]
    for target in (finished["scores"][winner], finished["record"]["options"]["target_score"] + 100):
        forged = copy.deepcopy(finished)
        forged["record"]["options"]["target_score"] = target  # still replays to the same end
        _refused(_verify(tmp_path, forged), "Round 1", "house rules", f'"target_score": {target}', "NOT")


def test_an_edited_house_rule_or_player_in_the_record_is_refused(finished, tmp_path):
    forged = copy.deepcopy(finished)
    forged["record"]["options"]["jump_in"] = False  # the default, written out: the same rules, still verified
    assert _verify(tmp_path, forged).exit_code == 0
    forged["record"]["options"]["hand_size"] = 8
    _refused(_verify(tmp_path, forged), "Round 1", '"hand_size": 8')
    forged = copy.deepcopy(finished)
    forged["record"]["players"][1] = "Mallory"
    forged["players"][1] = "Mallory"  # the stated result agrees with the edit; only the commitment does not
    _refused(_verify(tmp_path, forged), "Round 1", "Mallory")


def test_a_verified_game_says_its_first_commitment_binds_its_players_and_rules(finished, tmp_path):
    result = _verify(tmp_path, finished)
    assert result.exit_code == 0, result.output
    assert "also binds the players" in result.output and '"target_score": 150' in result.output


def test_a_record_whose_first_commitment_is_the_seed_alone_is_not_called_verified(finished, tmp_path):
    """A game stored before the binding: its deals check out, but nothing proves its rules, so it is refused,
    saying so; a forger cannot use the old form to pass an edited target score."""
    from unokart.server.shuffle import commitment

    old = copy.deepcopy(finished)
    old["commitments"][0] = commitment(old["record"]["rounds"][0]["seed"])
    _refused(_verify(tmp_path, old), "seed alone", '"target_score": 150', "NOT")
    old["record"]["options"]["target_score"] = finished["scores"][finished["winner"]]
    _refused(_verify(tmp_path, old), "seed alone", "NOT")


def test_a_commitment_that_is_no_sha256_is_said_to_be_malformed_not_an_edit(finished, tmp_path):
    from unokart.i18n import t

    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished["record"]))
    digests = [c for c in finished["commitments"]]
    result = CliRunner().invoke(app, ["verify", str(path), "-c", "zz", *sum([["-c", d] for d in digests[1:]], [])],
                                env={"UNOKART_LANG": "en", "COLUMNS": "200"})
    assert result.exit_code == 2
    assert t("server.verify.error.bad_commitment", "en", value="zz") in result.output
    assert "edited" not in result.output

"""Whole games at a real server: two humans and two bots to the end (and a rematch), watched by a spectator.

Every message each seat receives is kept, then checked against the rules core
replaying the stored record: each seat got exactly its own view and only the
events meant for it, and never a card it may not see.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys

import httpx
import pytest

from unokart import Game
from unokart.i18n import t

from helpers.server import Client, check_messages_against_record, play_to_the_end
TABLES = [
    ({"target_score": 100}, {"2": "easy", "3": "ismcts:5"}, 1),
    ({"target_score": 40, "hand_size": 4, "stacking": True, "jump_in": True, "seven_zero": True},
     {"2": "random", "3": "careful"}, 2),
]


async def _play_table(server, options: dict, bots: dict, games: int, seed: int) -> dict:
    created = server.create(seats=4, options=options, bots=bots)
    code = created["code"]
    ann, bob, spectator = [await Client.connect(server, code, n) for n in ("Ann", "Bob", "spectator")]
    await ann.join("Ann")
    await bob.join("Bob")
    await spectator.send(type="watch")
    await spectator.reply("welcome")
    rng = random.Random(seed)
    for number in range(games):
        if number == 0:
            await ann.send(type="start", token=ann.token)
        else:
            await bob.send(type="rematch", token=bob.token)
        watched = spectator.until(lambda m: m["type"] == "state" and m["game"] == number + 1
                                  and m["view"]["awaiting"] == "game_over", 120)
        ann.last_state = bob.last_state = None
        finals = await asyncio.gather(play_to_the_end(ann, rng, 120), play_to_the_end(bob, rng, 120), watched)
        assert {f["game"] for f in finals} == {number + 1}
    for client in (ann, bob, spectator):
        await client.close()
    return {"code": code, "clients": {0: ann, 1: bob, None: spectator}, "options": options}


@pytest.fixture(scope="module")
def played(server):
    async def main():
        return await asyncio.gather(*(_play_table(server, o, b, g, i) for i, (o, b, g) in enumerate(TABLES)))
    tables = asyncio.run(main())
    finished = httpx.get(server.url + "/api/games").json()["games"]
    for table in tables:
        table["games"] = {g["game"]: httpx.get(f"{server.url}/api/games/{g['id']}").json()
                          for g in finished if g["code"] == table["code"]}
    return tables


def test_two_humans_and_two_bots_play_whole_games_to_the_end(played, server, tmp_path):
    for table in played:
        assert set(table["games"]) == set(range(1, len(table["games"]) + 1)) and table["games"]
        for number, game in table["games"].items():
            final = next(m for m in reversed(table["clients"][0].received)
                         if m["type"] == "state" and m["game"] == number)
            assert final["view"]["awaiting"] == "game_over"
            assert game["scores"] == final["view"]["scores"]
            assert game["scores"][game["winner"]] >= table["options"]["target_score"]
            replayed = Game.from_record(game["record"])
            assert replayed.awaiting == "game_over" and replayed.scores == game["scores"]
            assert game["players"][:2] == ["Ann", "Bob"]
            path = tmp_path / f"{table['code']}-{number}.json"
            path.write_text(json.dumps(game))
            done = subprocess.run([sys.executable, "-m", "unokart.cli", "verify", str(path)], capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            assert t("server.verify.ok", "en", count=len(game["record"]["rounds"])) in done.stdout
    assert len(played[1]["games"]) == 2  # the rematch was a second game at the same table


def test_every_message_to_a_seat_shows_only_what_that_seat_may_see(played):
    checked = 0
    for table in played:
        for number, stored in table["games"].items():
            checked += check_messages_against_record(table["clients"], number, stored)
    assert checked > 200


def test_a_finished_game_is_served_round_by_round_for_replay(played, server):
    table = played[1]
    game_id = next(g["id"] for g in httpx.get(server.url + "/api/games").json()["games"] if g["code"] == table["code"])
    stored = httpx.get(f"{server.url}/api/games/{game_id}").json()
    last = len(stored["record"]["rounds"])
    replay = httpx.get(f"{server.url}/api/games/{game_id}/replay", params={"round": last}).json()
    assert replay["round"] == last and len(replay["frames"]) == len(stored["record"]["rounds"][-1]["actions"]) + 1
    assert replay["frames"][-1]["scores"] == stored["scores"]
    refused = httpx.get(f"{server.url}/api/games/{game_id}/replay", params={"round": last + 1})
    assert refused.status_code == 404 and refused.json()["code"] == "no_such_round"  # a round it did not play
    malformed = httpx.get(f"{server.url}/api/games/{game_id}/replay", params={"round": "0"})
    assert malformed.status_code == 400 and malformed.json()["code"] == "no_such_round"
    assert httpx.get(f"{server.url}/api/games/999999/replay").status_code == 404


def test_verify_refuses_a_deal_that_is_not_the_one_committed_to(played, tmp_path):
    from typer.testing import CliRunner

    from unokart.cli import app

    game = played[0]["games"][1]
    record_path = tmp_path / "record.json"
    record_path.write_text(json.dumps(game["record"]))
    flags = [arg for digest in game["commitments"] for arg in ("--commitment", digest)]
    runner = CliRunner()
    assert runner.invoke(app, ["verify", str(record_path), *flags]).exit_code == 0
    assert runner.invoke(app, ["verify", str(record_path)]).exit_code == 2  # no commitments given

    forged = json.loads(json.dumps(game))
    forged["record"]["rounds"][0]["seed"] += 1  # another deal than the one committed to
    forged_path = tmp_path / "forged.json"
    forged_path.write_text(json.dumps(forged))
    refused = runner.invoke(app, ["verify", str(forged_path)])
    assert refused.exit_code == 2 and "Round 1" in refused.output and "NOT" in refused.output

    decked = json.loads(json.dumps(game))
    decked["record"]["rounds"][0]["deck"] = Game.new(2, seed=1).record()["rounds"][0].get("deck", [])
    decked_path = tmp_path / "decked.json"
    decked_path.write_text(json.dumps(decked))
    assert runner.invoke(app, ["verify", str(decked_path)]).exit_code == 2
    (tmp_path / "broken.json").write_text("{")
    broken = runner.invoke(app, ["verify", str(tmp_path / "broken.json")])
    assert broken.exit_code == 2 and "Traceback" not in broken.output

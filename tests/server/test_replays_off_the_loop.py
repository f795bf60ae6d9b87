"""A finished game's replay is built in a thread, one at a time, and kept: a long round's frames took 0.8 s on the
event loop, for every GET, stalling every table (a probe's /api/health waited 3 s behind four such GETs)."""

from __future__ import annotations

import threading

import unokart.replay.frames as frames
from helpers.server import Client, run_in_process


def test_a_replay_is_built_off_the_event_loop_once_and_then_kept(tmp_path, monkeypatch):
    built: list[str] = []
    real = frames.replay_round

    def watched(record, number, lang):
        built.append(threading.current_thread().name)
        return real(record, number, lang)

    monkeypatch.setattr(frames, "replay_round", watched)

    async def main(server):
        code = (await server.create(seats=2, bots={"0": "random", "1": "random"}, start=True,
                                    options={"target_score": 1}))["code"]
        watcher = await Client.connect(server, code)
        await watcher.send(type="watch")
        await watcher.until(lambda m: m["type"] == "state" and m["view"]["awaiting"] == "game_over")
        game = (await server.http.get("/api/games")).json()["games"][0]
        url = f"/api/games/{game['id']}/replay?round=1&lang=ta"
        first, again = await server.http.get(url), await server.http.get(url)
        assert first.status_code == again.status_code == 200 and first.json() == again.json()
        assert len(built) == 1, f"built {len(built)} times"
        assert built[0] != threading.current_thread().name, "the replay was built on the server's event loop"
        assert (await server.http.get(f"/api/games/{game['id']}/replay?round=1&lang=en")).json() != first.json()
        assert len(built) == 2  # another language is another replay
    run_in_process(main, tmp_path)

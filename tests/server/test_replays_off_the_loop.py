"""A finished game's replay is built in a thread, one at a time, and kept: a long round's frames took 0.8 s on the
event loop, for every GET, stalling every table (a probe's /api/health waited 3 s behind four such GETs)."""

from __future__ import annotations

import threading
import time

import httpx

import unokart.replay.frames as frames
from helpers.server import ManualClock, serving
from unokart.server.app import Settings, create_app


def test_a_replay_is_built_off_the_event_loop_once_and_then_kept(tmp_path, monkeypatch):
    built: list[str] = []
    real = frames.replay_round

    def watched(record, number, lang):
        built.append(threading.current_thread().name)
        return real(record, number, lang)

    monkeypatch.setattr(frames, "replay_round", watched)
    app = create_app(tmp_path / "tables.sqlite", Settings(bot_delay=0.0, round_pause=0.0), clock=ManualClock())
    with serving(app) as base:
        httpx.post(base + "/api/tables", json={"seats": 2, "bots": {"0": "random", "1": "random"}, "start": True,
                                               "options": {"target_score": 1}})
        deadline = time.monotonic() + 60  # a bound for a hang: the bots finish their round at once
        while not (games := httpx.get(base + "/api/games").json()["games"]):
            assert time.monotonic() < deadline, "the bots' game did not finish"
            time.sleep(0.02)
        url = f"{base}/api/games/{games[0]['id']}/replay?round=1&lang=ta"
        first, again = httpx.get(url), httpx.get(url)
        assert first.status_code == again.status_code == 200 and first.json() == again.json()
        assert len(built) == 1, f"built {len(built)} times"
        assert built[0] != "served", "the replay was built on the server's event loop"  # serving()'s loop thread
        assert httpx.get(f"{base}/api/games/{games[0]['id']}/replay?round=1&lang=en").json() != first.json()
        assert len(built) == 2  # another language is another replay

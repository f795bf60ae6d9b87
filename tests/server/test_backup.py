"""`unokart backup`: an online copy of a live server's SQLite database (SQLite's backup API), taken while bots
play and the server writes; the copy opens as a store, its finished game replays to the end and verifies, and a
server started on the copy serves that game as the live one does."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from helpers.server import Server, finished_game, serve_for_module
from unokart.rules import Game
from unokart.server.shuffle import commitments_of, record_of, verify
from unokart.server.store import SQLiteStore


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("backup") / "unokart.sqlite")


def _backup(db, copy, lang: str = "en") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unokart.cli", "--lang", lang, "backup", str(copy), "--db", str(db)],
                          capture_output=True, text=True, timeout=120)


def test_a_live_servers_database_is_copied_and_the_copy_replays_its_games(server, tmp_path):
    game_id = finished_game(server)
    served = httpx.get(f"{server.url}/api/games/{game_id}").json()
    # Bots go on playing (and the server writing) while the copy is taken.
    server.create(seats=4, bots={str(s): "random" for s in range(4)}, start=True, options={"target_score": 5000})
    copy = tmp_path / "copy.sqlite"
    done = _backup(server.db, copy)
    assert done.returncode == 0, done.stderr
    assert f"Copied {server.db} to {copy}" in done.stdout and "integrity checked" in done.stdout
    assert httpx.get(server.url + "/api/health").json() == {"status": "ok"}  # the server never stopped
    store = SQLiteStore(copy)
    try:
        stored = store.load_game(game_id)
        assert stored is not None and stored.finished is not None
        record = record_of(stored.players, stored.options, stored.seeds, stored.actions)
        replayed = Game.from_record(record)
        assert replayed.awaiting == "game_over" and list(replayed.scores) == served["scores"]
        assert Game.from_record(record).record() == served["record"]
        summary = store.finished_game(game_id)
        verified = verify(served["record"], commitments_of(stored.seeds, stored.players, stored.options, stored.bound),
                          summary)
        assert verified.winner == served["winner"]
        assert store.live_tables()  # the table still in play is in the copy too, to be resumed from it
    finally:
        store.close()
    restored = Server(copy)
    try:
        assert httpx.get(f"{restored.url}/api/games/{game_id}").json() == served
    finally:
        restored.stop()


def test_a_backup_never_overwrites_and_a_missing_database_is_said_so(server, tmp_path):
    taken = tmp_path / "taken.sqlite"
    taken.write_bytes(b"precious")
    for lang in ("en", "ta"):
        refused = _backup(server.db, taken, lang)
        assert refused.returncode == 2 and str(taken) in refused.stderr and "Traceback" not in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "exists already" in _backup(server.db, taken).stderr
    assert taken.read_bytes() == b"precious"
    missing = _backup(tmp_path / "none.sqlite", tmp_path / "copy.sqlite")
    assert missing.returncode == 2 and "none.sqlite" in missing.stderr
    assert not (tmp_path / "copy.sqlite").exists() and not (tmp_path / "copy.sqlite.partial").exists()


def test_a_copy_of_one_table_says_one_table_and_a_wrong_folder_names_the_right_one(tmp_path):
    from unokart.i18n import t
    from unokart.server.store import StoredSeat

    db = tmp_path / "one.sqlite"
    store = SQLiteStore(db)
    with store.transaction() as writing:
        writing.create_table("ABCDEF", {}, None, [StoredSeat(kind="empty"), StoredSeat(kind="empty")])
    store.close()
    done = _backup(db, tmp_path / "copy.sqlite", "ta")
    assert done.returncode == 0, done.stderr
    assert t("server.backup.count.tables", "ta", count=1) in done.stdout and "மேசைகள்" not in done.stdout
    assert t("server.backup.count.games", "ta", count=0) in done.stdout

    nowhere = _backup(db, tmp_path / "nodir" / "copy.sqlite")  # the copy's folder is missing, not the database's
    assert nowhere.stderr.strip() == t("cli.error", "en", message=t("server.backup.error.copy_folder", "en", folder=tmp_path / "nodir"))
    folder = _backup(tmp_path, tmp_path / "copy2.sqlite")  # a folder given for the database: said as such
    assert folder.stderr.strip() == t("cli.error", "en", message=t("server.backup.error.db_is_folder", "en", path=tmp_path))

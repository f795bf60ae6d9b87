"""The first commitment binds a game's players and house rules (PROTOCOL.md section 7), in a database made
before that too: its games keep the seed-only commitment they were announced with, new games bind."""

from __future__ import annotations

import sqlite3

from unokart.server.shuffle import commitment, commitments_of, first_commitment
from unokart.server.store import SCHEMA, SQLiteStore

OLD_SCHEMA = SCHEMA.replace(",\n    bound INTEGER NOT NULL DEFAULT 0", "")


def test_a_database_made_before_the_binding_keeps_its_games_seed_only_and_binds_new_ones(tmp_path):
    path = tmp_path / "old.db"
    assert OLD_SCHEMA != SCHEMA
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO tables VALUES ('K7Q2XM', 0, 2, '{}', NULL, 'playing', 1)")
    db.execute("INSERT INTO games (code, game, players, options, started) VALUES ('K7Q2XM', 1, '[\"A\", \"B\"]', '{}', 0)")
    db.execute("INSERT INTO rounds VALUES (1, 1, 42)")
    db.commit()
    db.close()
    store = SQLiteStore(path)
    try:
        old = store.load_game(1)
        assert old is not None and not old.bound
        assert commitments_of(old.seeds, old.players, old.options, old.bound) == [commitment(42)]
        with store.transaction() as tx:
            game_id = tx.start_game("K7Q2XM", 2, ["A", "B"], {"target_score": 200}, 43)
        new = store.load_game(game_id)
        assert new is not None and new.bound
        assert commitments_of(new.seeds, new.players, new.options) == [first_commitment(43, ["A", "B"], {"target_score": 200})]
    finally:
        store.close()


def test_the_first_commitment_is_the_documented_hash(tmp_path):
    """PROTOCOL.md's preimage, written out by hand: seed digits, newline, sorted compact JSON, UTF-8."""
    import hashlib

    text = ('7\n{"options":{"draw_until_playable":false,"force_play":false,"hand_size":7,"jump_in":false,'
            '"seven_zero":false,"stacking":true,"target_score":500},"players":["Zoë","Bo"]}')
    assert first_commitment(7, ["Zoë", "Bo"], {"stacking": True}) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert first_commitment(7, ["Zoë", "Bo"], {"stacking": True}) != first_commitment(7, ["Zoë", "Bo"], {"stacking": True, "target_score": 501})

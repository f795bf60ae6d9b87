"""Verifiable shuffle: each round's secret seed, its public commitment, and the check of a finished game."""

from __future__ import annotations

import hashlib
import secrets

from ..rules import Game, RecordError


def new_seed() -> int:
    """A round's secret seed, 0 <= seed < 2**63."""
    return secrets.randbits(63)


def commitment(seed: int) -> str:
    """The SHA-256 of the seed's decimal digits (docs/PROTOCOL.md section 7)."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def record_of(players: list[str], options: dict, seeds: list[int], actions: list[list[str]]) -> dict:
    """The NOTATION.md record of a stored game (each round dealt from its seed)."""
    return {"format": "unokart-record/1", "players": players, "options": options,
            "rounds": [{"seed": seed, "actions": acts} for seed, acts in zip(seeds, actions)]}


class VerifyError(Exception):
    """A record that does not prove its deals, with the message key and fields explaining why."""

    def __init__(self, key: str, **fields: object):
        super().__init__(key)
        self.key = key
        self.fields = fields


def verify(record: object, commitments: object) -> list[tuple[int, int, str]]:
    """Check every round's seed against its commitment and replay the record.

    Returns (round, seed, sha256) per round; raises VerifyError naming the first problem.
    """
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        raise VerifyError("server.verify.error.not_record")
    rounds = record["rounds"]
    if not isinstance(commitments, list) or not all(isinstance(c, str) for c in commitments):
        raise VerifyError("server.verify.error.no_commitments")
    if len(commitments) != len(rounds):
        raise VerifyError("server.verify.error.count", rounds=len(rounds), commitments=len(commitments))
    checked = []
    for number, (rnd, committed) in enumerate(zip(rounds, commitments), 1):
        if not isinstance(rnd, dict):
            raise VerifyError("server.verify.error.not_record")
        if "deck" in rnd:
            raise VerifyError("server.verify.error.deck", round=number)
        seed = rnd.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise VerifyError("server.verify.error.seed", round=number)
        digest = commitment(seed)
        if digest != committed.strip().lower():
            raise VerifyError("server.verify.error.mismatch", round=number, seed=seed, sha256=digest, committed=committed)
        checked.append((number, seed, digest))
    try:
        Game.from_record(record)
    except RecordError as err:
        raise VerifyError("server.verify.error.replay", reason=str(err)) from None
    return checked

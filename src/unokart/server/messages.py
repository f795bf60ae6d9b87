"""What each seat is told: table summaries and per-seat `state` messages, in each reader's language.

Views are the only way game information leaves the core (DESIGN 6): a seat's
message holds its own view, its own legal actions and the events tagged for
it; a spectator's holds the public view and the public events.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..i18n import t
from ..levels import bot_name  # the server names its bots as the clients do
from ..narrate import describe_event
from ..rules.states import GAME_OVER, ROUND_OVER
from ..rules.view import may_see
from .shuffle import commitments_of

if TYPE_CHECKING:
    from .tables import Seat, Table

ENDED = (ROUND_OVER, GAME_OVER)


def dumps(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def names_in(table: "Table", lang: str) -> list[str]:
    """The players' names as a reader of ``lang`` sees them: bots' names in that language."""
    assert table.game is not None
    return [bot_name(i, s.level, lang) if s.kind == "bot" and s.level else name
            for i, (s, name) in enumerate(zip(table.seats, table.game.names))]


def seat_summary(seat: "Seat", index: int) -> dict:
    return {"seat": index, "kind": seat.kind, "name": seat.name, "level": seat.level,
            "connected": bool(seat.connections), "away": seat.away}


def table_summary(table: "Table", base_url: str) -> dict:
    return {
        "code": table.code, "link": f"{base_url}/t/{table.code}", "status": table.status, "version": table.version,
        "game": table.game_number, "options": asdict(table.options), "turn_timer": table.turn_timer,
        "seats": [seat_summary(s, i) for i, s in enumerate(table.seats)],
        "spectators": sum(1 for c in table.connections if c.seat is None),
    }


def commitments(table: "Table") -> list[dict]:
    """Each round's SHA-256, and its seed once the round is over (PROTOCOL.md section 7)."""
    game = table.game
    assert game is not None
    out = []
    made_for, digests = table.digests
    if made_for != (table.game_id, len(table.seeds)):  # the first binds the rules: a JSON text, hashed once
        digests = commitments_of(table.seeds, game.names, game.options, table.bound)
        table.digests = ((table.game_id, len(table.seeds)), digests)
    for number, (seed, digest) in enumerate(zip(table.seeds, digests), 1):
        ended = number < game.round or game.awaiting in ENDED
        out.append({"round": number, "sha256": digest, "seed": seed if ended else None})
    return out


def state_message(table: "Table", seat: int | None, lang: str, start: int, re: Any = None) -> dict:
    """The `state` message for one seat (None: a spectator): its view, legal actions and the events from ``start``.

    The whole state (start 0) is what a reconnect or a `sync` asks for, again and again under a hostile client:
    its costly parts are kept per (seat, language) for the current version, as JSON text: as Python objects a
    long round's events took about 1 MB a reader (a finished table read in two languages held 2 MB until it
    left memory); as text, about 30 KB, read back in a fraction of what building them costs.
    """
    game = table.game
    assert game is not None
    # What a whole state is built for (a broadcast's news, start > 0, is never kept: no need to count).
    made_for = (table.version, game.round, game.event_count()) if start == 0 else None
    cached = table.full_states.get((seat, lang)) if start == 0 else None
    if cached is not None and cached[0] == made_for:
        parts = json.loads(cached[1])
    else:
        names = names_in(table, lang)
        events = []
        logged = game.events
        for index in range(start, len(logged)):
            to, event = logged[index]
            if may_see(to, seat):
                events.append({**event, "i": index, "text": describe_event(event, names, lang, seat)})
        parts = {"view": game.view(seat).to_json(),
                 "legal": [str(a) for a in game.legal_actions(seat)] if seat is not None else [],
                 "events": events, "commitments": commitments(table)}
        if start == 0:
            # Only the current version's: an older one is never sent again.
            if any(made != made_for for made, _ in table.full_states.values()):
                table.full_states = {key: entry for key, entry in table.full_states.items() if entry[0] == made_for}
            table.full_states[(seat, lang)] = (made_for, dumps(parts))
    deadline = None
    if table.deadline is not None:
        deadline = {"seat": game.to_act, "at": int(table.deadline * 1000)}
    message = {
        "type": "state", "code": table.code, "version": table.version, "game": table.game_number, "seat": seat,
        **parts, "deadline": deadline, "seats": [seat_summary(s, i) for i, s in enumerate(table.seats)],
    }
    if re is not None:
        message["re"] = re
    return message


def broadcast_state(table: "Table", sender: tuple[Any, Any] | None = None) -> None:
    """The news since the last broadcast, to every connection of the table: one message per (seat, language)."""
    game = table.game
    if game is None:
        return
    start = table.news()
    if not table.connections:
        return
    cache: dict[tuple, tuple[dict, str]] = {}
    for conn in table.connections:
        key = (conn.seat, conn.lang)
        if key not in cache:
            message = state_message(table, conn.seat, conn.lang, start)
            cache[key] = message, dumps(message)
        message, text = cache[key]
        if sender is not None and sender[0] is conn and sender[1] is not None:
            conn.push(dumps({**message, "re": sender[1]}))
        else:
            conn.push(text)


def broadcast_table(table: "Table", base_url: str) -> None:
    if not table.connections:
        return
    text = dumps({"type": "table", "table": table_summary(table, base_url)})
    for conn in table.connections:
        conn.push(text)

"""Chat and reactions in the table service (in-process, a real SQLite file, a clock the test moves) and the
character rules they share with names: PROTOCOL.md section 4."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from unokart.server import protocol
from unokart.server.app import Connection
from unokart.server.limits import talk_limits
from unokart.server.protocol import ServerError
from unokart.server.store import SQLiteStore
from unokart.server.tables import CHAT_HISTORY, Settings, TableService

from test_table_service import Seen, create, message, sit


class FakeClock:
    """Time that moves only when the test says so; timers go to the running loop (none fires in these tests)."""

    def __init__(self, now: float = 1_796_011_943.5):
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.time()

    def call_later(self, delay, callback, *args):
        return asyncio.get_running_loop().call_later(delay, callback, *args)


def new_service(tmp_path, clock: FakeClock) -> TableService:
    settings = Settings(bot_delay=0.0, round_pause=0.0, grace=30.0)
    return TableService(SQLiteStore(tmp_path / "tables.sqlite"), settings, clock=clock)


def chat(conn, token, text, **extra):
    return message(type="chat", token=token, text=text, **extra)


def said(conn: Seen, kind: str) -> list[dict]:
    return [m for m in conn.messages if m["type"] == kind]


def run(main):
    asyncio.run(main())


def test_a_chat_message_reaches_every_connection_with_its_seat_name_and_the_clocks_time(tmp_path):
    async def main():
        clock = FakeClock()
        service = new_service(tmp_path, clock)
        table = create(service, seats=3)
        ann, ann_token = sit(service, table, "Ann")
        bob, _ = sit(service, table, "Bob")
        watcher = Seen()
        service.handle(watcher, table, message(type="watch"))
        service.handle(ann, table, chat(ann, ann_token, "  <b>hi</b> & <script>x</script>  ", id="c1"))
        expected = {"type": "chat", "seat": 0, "name": "Ann", "text": "<b>hi</b> & <script>x</script>",
                    "at": 1_796_011_943_500}
        assert said(bob, "chat") == [expected] and said(watcher, "chat") == [expected]
        assert said(ann, "chat") == [{**expected, "re": "c1"}]  # markup is text: sent as written, never changed
        await service.close()

    run(main)


def test_reactions_come_from_players_with_their_token_and_from_spectators_without(tmp_path):
    async def main():
        service = new_service(tmp_path, FakeClock())
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        watcher = Seen()
        service.handle(watcher, table, message(type="watch"))
        service.handle(ann, table, message(type="react", token=ann_token, emoji="\U0001F34C"))
        service.handle(watcher, table, message(type="react", emoji="\U0001F389"))
        assert said(watcher, "react") == [{"type": "react", "seat": 0, "emoji": "\U0001F34C"},
                                          {"type": "react", "seat": None, "emoji": "\U0001F389"}]
        for emoji in ("\U0001F44D\U0001F3FD", "\u2764\ufe0f", "x", "\U0001F44D\ufe0f"):
            with pytest.raises(ServerError) as refused:
                service.handle(ann, table, message(type="react", token=ann_token, emoji=emoji))
            assert refused.value.code == "bad_emoji" and "\U0001F34C" in refused.value.message("en")
        with pytest.raises(ServerError) as refused:  # a seated connection proves its seat
            service.handle(ann, table, message(type="react", emoji="\U0001F44D"))
        assert refused.value.code == "missing_field"
        assert len(said(watcher, "react")) == 2
        await service.close()

    run(main)


def test_only_seated_players_chat_and_only_with_their_own_tables_token(tmp_path):
    async def main():
        service = new_service(tmp_path, FakeClock())
        table, other = create(service, seats=2), create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        _, stranger_token = sit(service, other, "Eve")
        watcher = Seen()
        service.handle(watcher, table, message(type="watch"))
        for conn, token, code in ((watcher, ann_token, "spectator"), (ann, stranger_token, "bad_token"),
                                  (ann, bob_token, "not_your_seat")):
            with pytest.raises(ServerError) as refused:
                service.handle(conn, table, chat(conn, token, "hello"))
            assert refused.value.code == code
        assert not said(ann, "chat") and not said(bob, "chat") and not table.chat
        await service.close()

    run(main)


def test_a_seats_chat_budget_refuses_a_flood_says_when_to_retry_and_refills_as_the_clock_moves(tmp_path):
    async def main():
        clock = FakeClock()
        service = new_service(tmp_path, clock)
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        for n in range(5):  # ten seconds' worth at the default 0.5 a second
            service.handle(ann, table, chat(ann, ann_token, f"spam {n}"))
        with pytest.raises(ServerError) as refused:
            service.handle(ann, table, chat(ann, ann_token, "spam 5"))
        assert refused.value.code == "rate_limited"
        assert refused.value.payload("ta")["retry_after"] == 2
        assert refused.value.message("ta") != refused.value.message("en")
        service.handle(bob, table, chat(bob, bob_token, "my turn to talk"))  # another seat is not affected
        clock.now += 1.9
        with pytest.raises(ServerError):
            service.handle(ann, table, message(type="react", token=ann_token, emoji="\U0001F44D"))
        clock.now += 0.2
        service.handle(ann, table, chat(ann, ann_token, "back"))
        assert [m["text"] for m in said(bob, "chat")] == [*(f"spam {n}" for n in range(5)), "my turn to talk", "back"]
        await service.close()

    run(main)


def test_a_connection_over_its_budget_does_not_spend_its_addresss_so_other_connections_there_still_talk():
    now = [0.0]
    addresses = talk_limits(0.5, now=lambda: now[0])
    flooder, other = (Connection(500, "en", now=lambda: now[0]) for _ in range(2))
    allowed = 0
    for _ in range(100):
        try:
            flooder.may_talk(addresses, "10.0.0.1")
            allowed += 1
        except ServerError as err:
            assert err.code == "rate_limited"
    assert allowed == 5
    other.may_talk(addresses, "10.0.0.1")
    # Many connections of one address share five connections' worth.
    crowd = [Connection(500, "en", now=lambda: now[0]) for _ in range(10)]
    spoken = 0
    for conn in crowd:
        for _ in range(5):
            try:
                conn.may_talk(addresses, "10.0.0.2")
                spoken += 1
            except ServerError:
                pass
    assert spoken == 25
    now[0] += 2.0
    crowd[-1].may_talk(addresses, "10.0.0.2")


def test_who_says_hello_gets_the_tables_last_fifty_chat_messages_oldest_first(tmp_path):
    async def main():
        clock = FakeClock()
        service = new_service(tmp_path, clock)
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        assert said(ann, "chat_history") == [{"type": "chat_history", "messages": []}]
        for n in range(60):
            clock.now += 2
            service.handle(ann, table, chat(ann, ann_token, f"message {n}", id=n))
        back = Seen()
        service.handle(back, table, message(type="resume", token=ann_token))
        history = said(back, "chat_history")[0]["messages"]
        assert CHAT_HISTORY == 50
        assert [m["text"] for m in history] == [f"message {n}" for n in range(10, 60)]
        assert all("re" not in m for m in history) and history[-1]["at"] == int(clock.now * 1000)
        kinds = [m["type"] for m in back.messages]
        assert kinds.index("welcome") < kinds.index("chat_history")
        await service.close()

    run(main)


def test_chat_is_stored_apart_and_never_written_into_the_games_record(tmp_path):
    async def main():
        clock = FakeClock()
        service = new_service(tmp_path, clock)
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, bob_token = sit(service, table, "Bob")
        service.handle(ann, table, message(type="start", token=ann_token))
        marker = "zebra-unicorn-4417"
        service.handle(ann, table, chat(ann, ann_token, marker))
        game = table.game
        action = next(a for a in game.legal_actions(game.to_act))
        token = ann_token if game.to_act == 0 else bob_token
        conn = ann if game.to_act == 0 else bob
        service.handle(conn, table, message(type="action", token=token, version=table.version, action=str(action)))
        assert marker not in json.dumps(game.record())
        stored = service.store.load_game(table.game_id)
        assert marker not in json.dumps([stored.players, stored.options, stored.actions])
        await service.close()
        service.store.close()
        with sqlite3.connect(tmp_path / "tables.sqlite") as db:
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'chat'"):
                assert marker not in json.dumps(db.execute(f"SELECT * FROM {name}").fetchall()), name
            assert [marker in text for (text,) in db.execute("SELECT message FROM chat")] == [True]
        assert said(bob, "chat")[0]["text"] == marker

    run(main)


def test_bad_chat_text_is_refused_with_its_rule_in_the_senders_language_and_nothing_is_said(tmp_path):
    async def main():
        service = new_service(tmp_path, FakeClock())
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann", lang="ta")
        bob, _ = sit(service, table, "Bob")
        cases = {"abc\u202edef": ("bad_text_char", "U+202E"), "tab\there": ("bad_text_control", "U+0009"),
                 "   ": ("bad_text", None), "\u2800\ufe0f": ("text_blank", None), "x" * 201: ("text_too_long", "201"),
                 "a\u200b": ("bad_text_char", "U+200B"), "\u200d\U0001F469": ("bad_text_char", "U+200D")}
        for text, (sentence, shown) in cases.items():
            with pytest.raises(ServerError) as refused:
                service.handle(ann, table, chat(ann, ann_token, text))
            assert refused.value.code == "bad_text" and refused.value.sentence == sentence, text
            tamil = refused.value.message("ta")
            assert tamil != refused.value.message("en") and (shown is None or shown in tamil)
        assert not said(bob, "chat")
        await service.close()

    run(main)


@pytest.mark.parametrize("value", ["\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F469\u200d\U0001F52C",
                                   "\U0001F468\U0001F3FD\u200d\U0001F52C", "\U0001F469\u200d\u2764\ufe0f\u200d\U0001F468",
                                   "\U0001F3F3\ufe0f\u200d\U0001F308", "Ann \U0001F469\u200d\U0001F52C", "க்\u200dஷ"])
def test_a_zero_width_joiner_between_emoji_is_accepted_in_names_and_chat_as_between_letters(value):
    assert protocol.clean_name(value) == value
    assert protocol.clean_text(value) == value


@pytest.mark.parametrize("value", ["\u200d\U0001F469", "\U0001F469\u200d", "\U0001F469 \u200d\U0001F52C",
                                   "a\u200d ", "\U0001F469\u200c\U0001F52C", "\u200d"])
def test_a_joiner_at_an_edge_beside_a_space_or_a_non_joiner_between_emoji_is_still_refused(value):
    for clean, code in ((protocol.clean_name, "bad_name"), (protocol.clean_text, "bad_text")):
        with pytest.raises(ServerError) as refused:
            clean(value)
        assert refused.value.code == code and "U+200" in refused.value.message("en"), value


def test_a_chat_frame_with_a_lone_surrogate_or_too_long_is_refused_as_bad_text():
    for frame, sentence in (('{"type":"chat","token":"t","text":"a\\ud800"}', "bad_text_char"),
                            (json.dumps({"type": "chat", "token": "t", "text": "y" * 3000}), "text_too_long")):
        with pytest.raises(ServerError) as refused:
            protocol.parse_message(frame)
            protocol.clean_text(json.loads(frame)["text"])
        assert refused.value.code == "bad_text" and refused.value.sentence == sentence

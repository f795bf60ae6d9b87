"""The table service in-process: a real SQLite file, the real bot scheduler, connections that record what they are told."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from unokart.bots import make_bot
from unokart.rules import Action
from unokart.rules.cards import card_codes
from unokart.server import protocol
from unokart.server.bots import Accounts, BotScheduler, within
from unokart.server.protocol import ServerError
from unokart.server.store import SQLiteStore
from unokart.server.tables import Settings, TableService

from helpers.server import ManualClock


class Seen:
    """A connection as the service sees it, keeping every message it is told."""

    def __init__(self, lang: str = "en"):
        self.seat: int | None = None
        self.lang = lang
        self.hello = False
        self.table = None
        self.messages: list[dict] = []

    def push(self, text: str) -> None:
        self.messages.append(json.loads(text.encode("utf-8")))  # what a socket could send: valid UTF-8

    def last(self, kind: str) -> dict:
        return next(m for m in reversed(self.messages) if m["type"] == kind)


def new_service(tmp_path, factory=None, processes: int = 1, cheap_timeout: float = 2.0, cpu=None,
                **settings) -> TableService:
    """``cpu``: the CPU clock searches are measured on (a test's, which its bots move), with time standing still."""
    store = SQLiteStore(tmp_path / "tables.sqlite")
    options = {"bot_delay": 0.0, "round_pause": 0.0, "grace": 30.0, **settings}
    if factory is None:
        return TableService(store, Settings(**options))
    clock = {"clock": ManualClock(), "cpu": cpu} if cpu is not None else {}
    return TableService(store, Settings(**options), bots=lambda service: BotScheduler(
        service._bot_answer, 0.0, processes, factory=factory, cheap_timeout=cheap_timeout, **clock))


def message(**fields):
    return protocol.parse_message(json.dumps(fields))[0]


def create(service: TableService, **fields):
    return service.create_table(protocol.CreateTable.model_validate(fields))


def sit(service: TableService, table, name: str, lang: str = "en") -> tuple[Seen, str]:
    conn = Seen(lang)
    service.handle(conn, table, message(type="join", name=name))
    return conn, conn.last("welcome")["token"]


async def until(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_catch_that_would_change_nothing_is_refused_without_moving_the_version(tmp_path):
    async def main():
        service = new_service(tmp_path)
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann")
        bob, _ = sit(service, table, "Bob")
        service.handle(ann, table, message(type="start", token=ann_token))
        version, told_bob = table.version, len(bob.messages)
        for _ in range(5):
            with pytest.raises(ServerError) as refused:
                service.handle(ann, table, message(type="action", token=ann_token, version=version, action="0: catch 1"))
            assert refused.value.code == "no_effect" and refused.value.rule == "R8.3"
        assert table.version == version and len(bob.messages) == told_bob
        assert len(table.game.actions) == 0
        await service.close()
    asyncio.run(main())


class Raises:
    def choose(self, view, legal, rng):
        raise RuntimeError("a bot with a bug")


class AnswersNothing:
    def choose(self, view, legal, rng):
        return None


class AnswersIllegally:
    def choose(self, view, legal, rng):
        return Action(view.seat, "draw") if Action(view.seat, "draw") not in legal else Action(view.seat, "swap", target=9)


class ComputesTooLong:
    def choose(self, view, legal, rng):
        spent = time.thread_time()
        while time.thread_time() - spent < 0.02:  # CPU time, twice the cap: the cap counts what a bot computes
            pass
        return legal[0]


class PlaysACardItMayNotPlay:
    """Plays the first card of its hand that is not legal now: the log must name the kind, never the card."""

    played: list[str] = []

    def choose(self, view, legal, rng):
        for card in card_codes(view.hand):
            action = Action.parse(f"{view.seat}: play {card}")
            if action not in legal:
                PlaysACardItMayNotPlay.played.append(card)
                return action
        return legal[0]


@pytest.mark.parametrize("broken", [Raises, AnswersNothing, AnswersIllegally, ComputesTooLong, PlaysACardItMayNotPlay])
def test_a_broken_bot_never_freezes_its_table_the_autopilot_plays_for_it(tmp_path, broken, caplog):
    async def main():
        factory = lambda level: broken() if level == "easy" else make_bot(level)  # noqa: E731
        service = new_service(tmp_path, factory, cheap_timeout=0.01)
        # Several rounds: one round of three-card hands can end (Skip, Reverse, last card) before seat 0 is asked.
        table = create(service, seats=2, bots={"0": "easy", "1": "heuristic"}, start=True,
                       options={"target_score": 100, "hand_size": 3})
        await until(lambda: table.status == "game_over")
        assert service.bots.incidents > 0
        assert table.game.game_winner in (0, 1)
        await service.close()
    asyncio.run(main())
    assert "the autopilot plays" in caplog.text
    # A failure is logged by its kind, never with a card of the bot's hidden hand.
    assert not any(f"play {card}" in caplog.text for card in PlaysACardItMayNotPlay.played), caplog.text
    if broken is PlaysACardItMayNotPlay:
        assert PlaysACardItMayNotPlay.played and "illegal action (play)" in caplog.text


class Starved:
    """A bot the machine gives no CPU for a while (a loaded machine: here it sleeps, which costs no CPU time
    either) before it answers at once."""

    def choose(self, view, legal, rng):
        time.sleep(0.1)
        return legal[0]


def test_a_bot_starved_of_cpu_past_its_cap_is_waited_for_not_replaced(tmp_path, caplog):
    async def main():
        factory = lambda level: Starved() if level == "easy" else make_bot(level)  # noqa: E731
        service = new_service(tmp_path, factory, cheap_timeout=0.05)  # 0.1 s asleep: twice the cap, in wall time
        table = create(service, seats=2, bots={"0": "easy", "1": "heuristic"}, start=True,
                       options={"target_score": 100, "hand_size": 3})
        await until(lambda: table.status == "game_over")
        assert service.bots.incidents == 0
        await service.close()
    asyncio.run(main())
    assert "the autopilot plays" not in caplog.text


def test_a_search_starved_of_cpu_past_its_cap_is_waited_for_and_one_that_computes_past_it_is_not(tmp_path):
    async def main():
        loop = asyncio.get_running_loop()
        answered = loop.run_in_executor(None, time.sleep, 0.2)  # no CPU used: starved
        await within(answered, 0.01, lambda: 0.0)
        computing = loop.create_future()
        with pytest.raises(asyncio.TimeoutError):
            await within(computing, 0.05, lambda: 1.0)  # its worker used a whole CPU second
        assert computing.cancelled()
    asyncio.run(main())


def recording(order: list[str], seconds, cpu: list[float]):
    """A bot factory whose bots write their level down in ``order`` and use ``seconds(level)`` of CPU time to
    decide, on the test's CPU clock ``cpu[0]`` (what a table is charged), at once: nothing depends on how fast the
    machine is or on what else it runs."""
    class Recorder:
        def __init__(self, level):
            self.level = level

        def choose(self, view, legal, rng):
            order.append(self.level)
            cpu[0] += seconds(self.level)
            return legal[0]
    return Recorder


def test_search_time_is_shared_between_tables_so_twenty_tables_of_near_default_bots_cannot_starve_another(tmp_path):
    """Searches once went cheapest first: the default ismcts costs 60 playouts, so tables of ismcts:59 bots
    always went ahead of it and a default table waited for as long as any of them had a search queued."""
    order: list[str] = []

    async def main():
        # A search takes some time, so that the tables' accounts fill.
        cpu = [0.0]
        service = new_service(tmp_path, recording(order, lambda level: 0.02, cpu), cpu=lambda: cpu[0])
        service.bots.search_in_processes = False
        crowd = [create(service, seats=2, bots={"0": "ismcts:59", "1": "ismcts:59"}, start=True) for _ in range(20)]
        watched = create(service, seats=2, bots={"0": "ismcts", "1": "ismcts"}, start=True)
        await until(lambda: len(order) >= 5 * 21)
        for table in crowd + [watched]:
            table.status = "lobby"  # stop them
        await service.close()

    asyncio.run(main())
    decided = order[:5 * 21]
    turns = [index for index, level in enumerate(decided) if level == "ismcts"]
    # Twenty-one tables asking all the time: each is served about once in every 21 searches.
    assert len(turns) >= 4, decided
    assert all(later - earlier <= 2 * 21 for earlier, later in zip(turns, turns[1:])), turns


def test_a_table_that_asks_little_goes_before_tables_of_expensive_bots_even_when_they_are_new(tmp_path):
    """Each table's account plus what its search is expected to take: five tables of ismcts:500 bots created
    together do not all go before a light table that asked just after them (they are new, so their accounts are
    as empty as its own, but each of their searches costs fifty of its)."""
    order: list[str] = []

    async def main():
        # 0.2 s a heavy search, 0.004 s a light one (CPU time). The light table goes again while its account plus
        # its expected time stays under a heavy search's (once real time: a light search slowed past 25 ms by a busy
        # machine let a heavy table in; then the CPU time really spent, now the test's CPU clock).
        cpu = [0.0]
        service = new_service(tmp_path, recording(order, lambda level: int(level.partition(":")[2]) / 2500, cpu),
                              cpu=lambda: cpu[0])
        service.bots.search_in_processes = False
        heavy = [create(service, seats=2, bots={"0": "ismcts:500", "1": "ismcts:500"}, start=True) for _ in range(5)]
        light = create(service, seats=2, bots={"0": "ismcts:10", "1": "ismcts:10"}, start=True)
        await until(lambda: len(order) >= 8)
        for table in heavy + [light]:
            table.status = "lobby"
        await service.close()

    asyncio.run(main())
    # The first heavy search was running when the others asked; then the light table, again and again.
    assert order[0] == "ismcts:500" and order[1:4] == ["ismcts:10"] * 3, order


def test_a_tables_account_of_search_time_halves_every_half_life_and_quiet_tables_are_forgotten():
    now = [100.0]
    accounts = Accounts(half_life=10.0, clock=lambda: now[0])
    accounts.charge("A", 2.0)
    accounts.charge("B", 1.0)
    now[0] += 10.0
    assert accounts.used("A") == pytest.approx(1.0) and accounts.used("B") == pytest.approx(0.5)
    accounts.charge("B", 1.0)  # B has now used more lately than A
    assert accounts.used("B") > accounts.used("A")
    now[0] += 1000.0
    for number in range(300):  # every 256 charges, accounts that decayed to nothing are dropped
        accounts.charge(f"T{number}", 0.5)
    assert accounts.used("A") == 0.0 and len(accounts) <= 300


def test_idle_finished_tables_leave_memory_and_come_back_when_asked_for(tmp_path):
    async def main():
        service = new_service(tmp_path, idle=0.0)
        table = create(service, seats=2, bots={"0": "random", "1": "random"}, start=True,
                       options={"target_score": 10, "hand_size": 3})
        await until(lambda: table.status == "game_over")
        code, version, scores = table.code, table.version, list(table.game.scores)
        watcher = Seen()
        service.handle(watcher, table, message(type="watch"))
        assert service.sweep() == 0  # watched: it stays
        service.disconnect(watcher)
        assert service.sweep() == 1 and code not in service.tables
        again = service.table(code.lower())
        assert again.status == "game_over" and again.version == version and list(again.game.scores) == scores
        await service.close()
    asyncio.run(main())


def test_a_full_server_refuses_new_tables_with_a_clear_error(tmp_path):
    async def main():
        service = new_service(tmp_path, max_tables=3)
        tables = [create(service, seats=2) for _ in range(3)]
        for table in tables[1:]:  # someone at each but the first
            service.handle(Seen(), table, message(type="watch"))
        made = create(service, seats=2)  # the table nobody is at makes room (issue 26, item 1)
        assert tables[0].code not in service.tables
        service.handle(Seen(), made, message(type="watch"))  # now every table held has someone at it
        with pytest.raises(ServerError) as full:
            create(service, seats=2)
        assert full.value.code == "server_full" and full.value.status == 503
        assert "3" in full.value.message("en")
        await service.close()
    asyncio.run(main())


@pytest.mark.parametrize("name, why", [
    ("\ud800", "bad_name_char"),             # a lone surrogate: it once took the seat and broke the lobby
    ("Eve\u202egnp.exe", "bad_name_char"),   # right-to-left override
    ("\u2066Eve", "bad_name_char"),          # an isolate
    ("\u200b\u200b", "bad_name_char"),       # only zero-width characters
    ("\u200d", "bad_name_char"),
    ("A" * 25, "name_too_long"),
    ("   ", "bad_name"),
    ("\x07bell", "bad_name_control"),       # control characters are called that, not invisible (item 9)
    ("Ann\tBob", "bad_name_control"),
    ("Ann\nBob", "bad_name_control"),
    ("Ann\x00", "bad_name_control"),
    ("\u3164", "bad_name_char"),            # Hangul filler: a letter that draws nothing
    ("\u3164\u3164\u3164", "bad_name_char"),
    ("Ann\uffa0", "bad_name_char"),         # its halfwidth form, making a second "Ann"
    ("\u2800", "name_blank"),               # braille blank: a symbol that draws nothing
    ("\u2800 \u2800", "name_blank"),
    ("\u034f\ufe0f", "name_blank"),         # a grapheme joiner and a variation selector alone
])
def test_a_bad_name_is_refused_with_its_reason_and_the_seat_stays_empty(tmp_path, name, why):
    async def main():
        service = new_service(tmp_path)
        table = create(service, seats=2)
        conn = Seen()
        with pytest.raises(ServerError) as refused:
            service.handle(conn, table, message(type="join", name=name))
        assert refused.value.code == "bad_name" and refused.value.sentence == why
        assert refused.value.message("ta") != refused.value.message("en")
        assert all(seat.kind == "empty" for seat in table.seats)
        assert service.store.load_table(table.code).seats[0].kind == "empty"
        json.dumps(service.summary(table), ensure_ascii=False).encode("utf-8")  # the lobby still serialises
        await service.close()
    asyncio.run(main())


def test_names_in_every_script_are_kept_as_written():
    for name in ("ಕನ್ನಡ", "தமிழ்", "తెలుగు", "سنڌي", "Ann-Marie O'Neil", "क्\u200dष", "می\u200cخواهم", "한글",
                 "⠁⠝⠝", "♥"):
        assert protocol.clean_name(f"  {name} ") == name


def test_an_illegal_move_is_explained_to_each_reader_in_their_language_with_the_rule_beside_it(tmp_path):
    async def main():
        service = new_service(tmp_path)
        table = create(service, seats=2)
        ann, ann_token = sit(service, table, "Ann", "ta")
        bob, bob_token = sit(service, table, "Bob", "en")
        service.handle(ann, table, message(type="start", token=ann_token))
        game = table.game
        seat = game.to_act
        conn, token = (ann, ann_token) if seat == 0 else (bob, bob_token)
        hand = game.view(seat).to_json()["hands"][seat]
        wrong = next(f"{seat}: play {c}" for c in ("R1", "G2", "B3", "Y4", "R5") if c not in hand)  # R4.1: not held
        with pytest.raises(ServerError) as refused:
            service.handle(conn, table, message(type="action", token=token, version=table.version, action=wrong))
        payload_ta, payload_en = refused.value.payload("ta"), refused.value.payload("en")
        assert payload_ta["rule"] == payload_en["rule"] == "R4.1"
        assert payload_ta["message"] != payload_en["message"] and "R4.1" not in payload_ta["message"]
        await service.close()
    asyncio.run(main())


def test_the_write_ahead_log_stays_bounded_under_constant_writes(tmp_path):
    path = tmp_path / "busy.sqlite"
    store = SQLiteStore(path, wal_limit=256 * 1024, checkpoint_every=0.05)
    wal = path.with_name(path.name + "-wal")
    with store.transaction() as tx:
        tx.create_table("AAAAAA", {}, None, [])
        game = tx.start_game("AAAAAA", 1, ["a", "b"], {}, 1)
    largest = 0
    for index in range(3000):  # as fast as one thread commits: the background checkpoints never catch up
        with store.transaction() as tx:
            tx.add_action(game, 1, index, "0: draw" + "x" * 200)
        if index % 200 == 0:
            largest = max(largest, wal.stat().st_size)
    deadline = time.monotonic() + 30  # a bound for a hang: the next background checkpoint empties the log
    while (settled := wal.stat().st_size if wal.exists() else 0) >= 2**20 and time.monotonic() < deadline:
        time.sleep(0.02)
    store.close()
    # Without the writer's own checkpoints the log grew with every commit: 39 MB in 3 s of these.
    assert largest < 4 * 2**20 and settled < 2**20, (largest, settled)


def test_bot_levels_are_only_the_named_levels_and_policies_only_by_name():
    for level in ("random", "easy", "heuristic", "ismcts", "ismcts:0", "ismcts:500", "ismcts:500ms", " ISMCTS "):
        assert protocol.bot_level(level)
    for level in ("policy:/etc/passwd", "policy:../x", "policy:a.zip", "ismcts:501", "ismcts:501ms", "grandmaster",
                  "ismcts:-1", "x" * 5000, "ran dom", "ismcts:1e3"):
        with pytest.raises(ServerError) as refused:
            protocol.bot_level(level, frozenset({"x"}))
        assert refused.value.code in ("bad_level", "no_such_model") and refused.value.status == 400
    assert protocol.bot_level("policy:baseline", frozenset({"baseline"})) == "policy:baseline"
    with pytest.raises(ServerError):
        protocol.bot_level("policy:other", frozenset({"baseline"}))


def test_every_level_a_client_may_ask_for_makes_a_bot_and_the_others_say_what_is_wrong():
    for level in ("random", "easy", "heuristic", "ismcts", "ismcts:0", "ismcts:1", "ismcts:500", "ismcts:1ms",
                  "ismcts:500ms"):
        make_bot(protocol.bot_level(level))  # accepted: the bot is made (once ismcts:0ms was, and every move failed)
    refusals = {
        "ismcts:0ms": ("level_no_time", ["1 ms"]),
        "ismcts:00ms": ("bad_level", ["random", "heuristic"]),  # one spelling per number: no leading zeros
        "ismcts:20000": ("level_over_cap", ["ismcts:500", "ismcts:500ms"]),
        "ismcts:9999999999": ("level_over_cap", ["ismcts:500"]),
        "ismcts:501ms": ("level_over_cap", ["ismcts:500ms"]),
        "x" * 100: ("level_too_long", ["100", "32"]),
        "grandmaster": ("bad_level", ["random", "heuristic"]),
    }
    for level, (sentence, words) in refusals.items():
        with pytest.raises(ServerError) as refused:
            protocol.bot_level(level)
        assert refused.value.code == "bad_level" and refused.value.status == 400, level
        assert refused.value.sentence == sentence, (level, refused.value.sentence)
        english = refused.value.message("en")
        assert all(word in english for word in words), (level, english)
        assert sentence == "bad_level" or "Unknown" not in english, english
        assert refused.value.message("ta") != english


def test_a_zero_time_budget_is_refused_at_table_creation_and_nothing_is_created(tmp_path):
    async def main():
        service = new_service(tmp_path)
        for body in ({"seats": 2, "bots": {"1": "ismcts:0ms"}}, {"seats": 2, "bots": {"0": "ismcts:0ms", "1": "easy"},
                                                                 "start": True}):
            with pytest.raises(ServerError) as refused:
                create(service, **body)
            assert refused.value.code == "bad_level" and "1 ms" in refused.value.message("en")
        assert service.tables == {}
        table = create(service, seats=2)
        owner, token = sit(service, table, "Ann")
        service.handle_text(owner, table, json.dumps({"type": "bot", "token": token, "seat": 1, "level": "ismcts:0ms",
                                                      "id": "b"}))
        refused = owner.last("error")
        assert refused["code"] == "bad_level" and refused["re"] == "b" and table.seats[1].kind == "empty"
        await service.close()
    asyncio.run(main())


def test_whole_states_are_kept_only_for_the_current_version(tmp_path):
    """A whole state (a reconnect's, a sync's) is cached per seat and language, each holding a round's events as
    Python objects (about 1 MB at the end of a long round): one built for an older version is dropped, never
    kept beside the new ones until the table leaves memory (issue 26, item 2)."""
    from unokart.server import messages

    async def main():
        service = new_service(tmp_path, bot_delay=5.0)  # the bots wait: the versions move only when told
        table = create(service, seats=2, bots={"0": "random", "1": "random"}, start=True)
        built = messages.state_message(table, 0, "en", 0)
        messages.state_message(table, None, "ta", 0)
        assert len(table.full_states) == 2
        assert all(isinstance(text, str) for _, text in table.full_states.values())  # JSON text, not objects
        assert messages.state_message(table, 0, "en", 0) == built  # read back from the text, the same
        game = table.game
        service.submit(table, game.legal_actions(game.to_act)[0])  # a new version
        messages.state_message(table, 1, "en", 0)
        assert list(table.full_states) == [(1, "en")]
        await service.close()
    asyncio.run(main())

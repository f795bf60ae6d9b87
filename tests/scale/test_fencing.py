"""Fencing (README: Running several servers): once another process has taken a table over, the old owner's
writes are refused by PostgreSQL, change nothing, and send the table and its players away from the old owner.

Two table services in-process on one real PostgreSQL database, each with its own lease token for the table
(the cluster gives them from Redis; here they are set by hand, newer token = newer owner).
"""

from __future__ import annotations

import asyncio
import json

from unokart.server import protocol
from unokart.server.store_postgres import PostgresStore
from unokart.server.tables import Settings, TableService


class Seen:
    def __init__(self):
        self.seat = None
        self.lang = "en"
        self.hello = False
        self.table = None
        self.messages: list[dict] = []
        self.closed: list[int] = []

    def push(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def last(self, kind: str) -> dict:
        return next(m for m in reversed(self.messages) if m["type"] == kind)


def message(**fields):
    return protocol.parse_message(json.dumps(fields))[0]


def service_on(url: str, token: list[int]) -> TableService:
    store = PostgresStore(url)
    store.fence = lambda code: token[0]
    return TableService(store, Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))


async def acting(service: TableService, table, conns: dict, tokens: dict) -> dict:
    """One action by the seat to act, once its commit is through (the store commits in groups, off the event
    loop): the answer its sender got, its state or its refusal."""
    seat = table.game.to_act
    legal = table.game.legal_actions(seat)
    action = next((a for a in legal if a.verb in ("draw", "pass")), legal[0])
    service.handle(conns[seat], table, message(type="action", token=tokens[seat], version=table.version,
                                                action=str(action), id="acted"))
    await service.writer.drain()
    return next(m for m in reversed(conns[seat].messages) if m.get("re") == "acted")


def test_the_old_owners_write_is_refused_changes_nothing_and_sends_the_table_away(postgres_url):
    async def main():
        old_token, new_token = [1], [0]
        old, new = service_on(postgres_url, old_token), service_on(postgres_url, new_token)
        lost: list[str] = []
        old.lease_lost = lost.append
        table = old.create_table(protocol.CreateTable.model_validate({"seats": 2}))
        conns, tokens = {}, {}
        for seat, name in enumerate(["Ann", "Bob"]):
            conns[seat] = Seen()
            old.handle(conns[seat], table, message(type="join", name=name))
            tokens[seat] = conns[seat].last("welcome")["token"]
        old.handle(conns[0], table, message(type="start", token=tokens[0]))
        assert (await acting(old, table, conns, tokens))["type"] == "state"  # the owner writes with token 1
        # Another process takes the table over with a newer token and plays on.
        new_token[0] = 2
        taken = new.table(table.code)
        assert taken.game.actions == table.game.actions
        here = {s: Seen() for s in (0, 1)}
        for seat, conn in here.items():  # the players reconnected to the new owner
            new.handle(conn, taken, message(type="resume", token=tokens[seat]))
        assert (await acting(new, taken, here, tokens))["type"] == "state"
        stored = len(new.store.load_game(taken.game_id).actions[-1])
        # The old owner, unaware, tries to write: refused, nothing stored, and the table leaves it.
        version, actions = table.version, list(table.game.actions)
        refused = await acting(old, table, conns, tokens)
        assert (refused["type"], refused["code"]) == ("error", "table_unavailable")
        assert lost == [table.code]
        assert (table.version, table.game.actions) == (version, actions)  # undone in memory too
        assert len(new.store.load_game(taken.game_id).actions[-1]) == stored
        assert (await acting(new, taken, here, tokens))["type"] == "state"  # the new owner is not disturbed
        assert len(new.store.load_game(taken.game_id).actions[-1]) == stored + 1
        await old.close()
        await new.close()
    asyncio.run(main())


def test_a_lease_taken_after_redis_restarts_has_a_token_greater_than_every_one_before(redis_server, redis_url, postgres_url):
    """Redis, restarted without persistence, forgets its counters: the tokens come from PostgreSQL, so the next
    owner's token is still the newest, its writes are accepted, and an older owner's are refused."""
    import redis.asyncio as aredis

    from services import restart_redis
    from unokart.server.cluster import Cluster

    async def main():
        service = TableService(PostgresStore(postgres_url), Settings(bot_delay=0.0, round_pause=0.0, grace=30.0))
        cluster = Cluster(service, aredis.Redis.from_url(redis_url), ttl=30)
        code = service.new_code()
        await cluster.claim_new(code)
        table = service.create_table(protocol.CreateTable.model_validate({"seats": 4}), code)
        handed_out = [cluster.token_of(code)]
        for name in ("Ann", "Bob"):  # each owner after the first writes (a join), raising the table's fence
            await cluster.abandon(code)
            table = await cluster.take(code)
            handed_out.append(cluster.token_of(code))
            service.join(table, name)
        await cluster.client.aclose()
        restart_redis(redis_server)
        cluster.leases.clear()  # this process's leases went with Redis
        cluster.client = aredis.Redis.from_url(redis_url)
        table = await cluster.take(code)
        token = cluster.token_of(code)
        assert token > max(handed_out), (token, handed_out)
        seat, _ = service.join(table, "Cy")  # the new owner's write passes the fence
        assert service.store.load_table(code).seats[seat].name == "Cy"
        await cluster.client.aclose()
        await service.close()
        service.store.close()
    asyncio.run(main())

"""`serve --metrics`: GET /metrics in Prometheus' exposition format, scraped from a real server while bots play
and clients are refused; off without the flag. `--log-format json`: the log is JSON lines (issue 26, item 18)."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from helpers.server import Client, Server, finished_game


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("metrics") / "unokart.sqlite",
                    extra=["--metrics", "--log-format", "json", "--idle", "0"])
    yield server
    server.stop()
    assert server.errors_logged() == ""


def scrape(server: Server) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape, by (name, sorted labels); the text parsed as Prometheus parses it."""
    response = httpx.get(server.url + "/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain; version=")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def test_metrics_are_off_unless_asked_for(tmp_path):
    plain = Server(tmp_path / "plain.sqlite")
    try:
        assert httpx.get(plain.url + "/metrics").status_code == 404
    finally:
        plain.stop()


def test_a_scrape_reports_play_latencies_tables_connections_and_refusals(server):
    game_id = finished_game(server)
    assert httpx.get(server.url + "/api/tables/ZZZZZZ").json()["code"] == "no_such_table"
    assert httpx.post(server.url + "/api/tables", content=b"null",
                      headers={"Content-Type": "application/json"}).json()["code"] == "not_object"
    code = server.create(seats=2)["code"]

    async def watching() -> dict:
        client = await Client.connect(server, code)
        await client.send(type="watch", id=1)
        await asyncio.wait_for(client.ws.recv(), 20)  # welcome: the connection is counted
        try:
            return scrape(server)
        finally:
            await client.ws.close()

    seen = asyncio.run(watching())
    actions = seen[("unokart_actions_total", ())]
    stored = httpx.get(f"{server.url}/api/games/{game_id}").json()["record"]
    assert actions >= sum(len(r["actions"]) for r in stored["rounds"]) > 0
    assert seen[("unokart_action_state_seconds_count", ())] == actions  # one latency per accepted action
    assert seen[("unokart_action_state_seconds_bucket", (("le", "+Inf"),))] == actions
    assert seen[("unokart_store_commit_seconds_count", ())] >= actions  # and the deals' commits
    assert seen[("unokart_bot_queue_wait_seconds_count", ())] >= actions  # every action here was a bot's
    assert seen[("unokart_connections", ())] == 1
    assert seen[("unokart_tables", (("status", "lobby"),))] >= 1
    assert seen[("unokart_refusals_total", (("code", "no_such_table"),))] == 1
    assert seen[("unokart_refusals_total", (("code", "not_object"),))] == 1
    assert ("unokart_evictions_total", ()) in seen
    assert ("unokart_relay_seconds_count", (("kind", "frame"),)) not in seen  # one process: nothing relayed


def test_idle_tables_leaving_memory_are_counted_as_evictions(server):
    finished_game(server)  # --idle 0: out of play and unwatched, it leaves memory at the next sweep (1 s)
    deadline = time.monotonic() + 60  # a bound for a hang, not a wait the test relies on
    while scrape(server)[("unokart_evictions_total", ())] < 1:
        assert time.monotonic() < deadline, "no eviction counted"
        time.sleep(0.1)


def test_the_log_is_json_lines(server):
    lines = [line for line in server.log.read_text(encoding="utf-8").splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    assert any(r["level"] == "INFO" and r["message"].startswith("ready:") and "/metrics on" in r["message"]
               for r in records), lines
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    text = server.log.read_text(encoding="utf-8")
    assert " INFO " not in text and "WARNING:" not in text  # no line in the text format, uvicorn's included

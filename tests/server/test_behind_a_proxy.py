"""Behind a reverse proxy on the same machine (README: Running several servers), named by
--forwarded-allow-ips, the per-address limits count each player's forwarded address, not the proxy's; a
forwarded address from elsewhere is not believed, and without the flag none is (issue 26, item 4)."""

import httpx
import pytest

from helpers.server import serve_for_module


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("proxied") / "unokart.sqlite", extra=["--http-rate", "0.01", "--forwarded-allow-ips", "127.0.0.1"])
    # (a budget of 20 that comes back one table in 100 s: at 1 a second, 24 creations on a busy machine took long
    # enough to get four back, and no 429 came)


def created(server, headers: dict, count: int, local: str = "127.0.0.1") -> list[int]:
    with httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(local_address=local)) as client:
        return [client.post("/api/tables", json={"seats": 2}, headers=headers).status_code for _ in range(count)]


def test_players_behind_a_local_proxy_each_have_their_own_budget(proxied):
    first = created(proxied, {"X-Forwarded-For": "203.0.113.7"}, 24)
    assert first[:20] == [201] * 20 and 429 in first
    # Another player through the same proxy: a budget of its own.
    assert created(proxied, {"X-Forwarded-For": "203.0.113.8"}, 5) == [201] * 5


def test_a_forwarded_address_from_a_machine_that_is_not_trusted_is_ignored(proxied):
    # 127.0.0.5 is not the trusted proxy (only 127.0.0.1 is named),
    # so changing the header at each request does not buy a new budget.
    statuses = [created(proxied, {"X-Forwarded-For": f"198.51.100.{i}"}, 1, local="127.0.0.5")[0] for i in range(24)]
    assert statuses[:20] == [201] * 20 and 429 in statuses


@pytest.fixture(scope="module")
def unproxied(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("unproxied") / "unokart.sqlite", extra=["--http-rate", "0.01"])


def test_without_a_named_proxy_no_forwarded_address_is_believed_not_even_from_loopback(unproxied):
    # Any program on the server's machine could otherwise claim a new address at each request.
    statuses = [created(unproxied, {"X-Forwarded-For": f"198.51.100.{i}"}, 1)[0] for i in range(24)]
    assert statuses[:20] == [201] * 20 and 429 in statuses

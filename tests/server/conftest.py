"""Fixtures of the server tests: one real server per test module."""

import pytest

from server_harness import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("server") / "unokart.sqlite")
    yield srv
    srv.stop()
    assert srv.errors_logged() == ""

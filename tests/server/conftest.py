"""Fixtures of the server tests: one real server per test module."""

import pytest

from helpers.server import serve_for_module


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("server") / "unokart.sqlite")

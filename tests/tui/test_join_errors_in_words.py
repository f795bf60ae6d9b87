"""Why ``play --join`` cannot reach a server is said in the player's language, never in the system's English."""

from __future__ import annotations

import socket

import pytest

from unokart.i18n import LANGUAGES, os_reason, t
from unokart.tui.remote import JoinError, RemoteTable


def closed_port() -> int:
    """A loopback port nothing listens on (taken, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_connection_is_said_in_the_language(lang, monkeypatch):
    monkeypatch.setenv("UNOKART_LANG", lang)
    server = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(JoinError) as refused:
        RemoteTable.from_address("ABCDEF", "Ann", server).check()
    assert str(refused.value) == t("tui.remote.unreachable", lang, server=server, reason=t("cli.os.ECONNREFUSED", lang))
    assert "Errno" not in str(refused.value)


@pytest.mark.parametrize("server", ["notaurl", "ftp://host", "http://", "http://host:port", "http://h/?x=1"])
def test_a_server_that_is_no_http_address_is_refused_before_anything_is_sent(server):
    with pytest.raises(JoinError) as refused:
        RemoteTable.from_address("ABCDEF", "Ann", server)
    assert str(refused.value) == t("tui.remote.bad_server", "en", server=server)


def test_a_server_behind_a_prefix_keeps_its_path():
    assert RemoteTable.from_address("ABCDEF", "Ann", "https://games.example/unokart/").base == "https://games.example/unokart"


def test_an_unknown_host_name_is_said_as_such():
    err = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert os_reason(err, "te") == t("cli.os.name_unknown", "te")

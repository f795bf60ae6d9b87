"""Seat tokens: kept per table and name, where the user chooses (--profile, UNOKART_PROFILE, UNOKART_CONFIG_DIR).

The real command in tmux against a real server (tests/helpers/server.py): a second
``unokart play --join`` from the same account with another --name takes a new seat instead of
taking over the first player's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unokart.i18n import t
from unokart.tui.remote import JoinError, RemoteTable, SeatStore, config_dir, parse_address, seats_file

from helpers.tui import ARTIFACTS, Tmux

from helpers.server import Server

UNOKART = str(Path(sys.executable).with_name("unokart"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("seats") / "tables.sqlite")
    yield running
    running.stop()


def join(link: str, name: str, config: Path, *extra: str) -> Tmux:
    return Tmux(f"{UNOKART} play --join {link} --name {name} {' '.join(extra)}",
                {"UNOKART_LANG": "en", "UNOKART_CONFIG_DIR": str(config)})


def test_another_name_takes_a_new_seat_and_a_profile_keeps_its_own_file(server, tmp_path):
    assert shutil.which("tmux"), "tmux is needed (test.sh installs it)"
    link = server.create(seats=3)["link"]
    config = tmp_path / "config"
    ann = join(link, "Ann", config)
    bob = cleo = None
    try:
        ann.wait_for("0 Ann (you)")
        bob = join(link, "Bob", config)  # the same account (same seat file), another name
        lobby = bob.wait_for("0 Ann", "1 Bob (you)")
        (ARTIFACTS / "tmux_second_name_lobby.txt").write_text(lobby, encoding="utf-8")
        assert "0 Ann (you)" in ann.screen(), "Ann keeps her seat"
        kept = json.loads((config / "seats.json").read_text())[link]
        assert {name: entry["seat"] for name, entry in kept.items()} == {"Ann": 0, "Bob": 1}
        assert kept["Ann"]["token"] != kept["Bob"]["token"]
        assert t("tui.remote.seat_kept", "en", path=config / "seats.json").split(" in ")[0] in lobby

        cleo = join(link, "Cleo", config, "--profile", "cleo")
        cleo.wait_for("2 Cleo (you)")
        profile_file = config / "profiles" / "cleo" / "seats.json"
        assert list(json.loads(profile_file.read_text())[link]) == ["Cleo"]
        assert "Cleo" not in json.loads((config / "seats.json").read_text())[link]
    finally:
        for term in (ann, bob, cleo):
            if term:
                term.close()

    # Without --name, a new --join comes back to the seat used last at that table.
    again = RemoteTable(*parse_address(link), None, SeatStore(config / "seats.json"))
    assert (again.name, again.seat) == ("Bob", 1)
    named = RemoteTable(*parse_address(link), "Ann", SeatStore(config / "seats.json"))
    assert (named.name, named.seat) == ("Ann", 0)


def test_where_tokens_are_kept_is_chosen_by_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("UNOKART_CONFIG_DIR", raising=False)
    monkeypatch.delenv("UNOKART_PROFILE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert seats_file() == tmp_path / "xdg" / "unokart" / "seats.json"
    monkeypatch.setenv("UNOKART_CONFIG_DIR", str(tmp_path / "mine"))
    assert config_dir() == tmp_path / "mine" and seats_file() == tmp_path / "mine" / "seats.json"
    monkeypatch.setenv("UNOKART_PROFILE", "kid")
    assert seats_file() == tmp_path / "mine" / "profiles" / "kid" / "seats.json"
    assert seats_file("other") == tmp_path / "mine" / "profiles" / "other" / "seats.json"
    for bad in ("../up", "a b", "x" * 41):
        with pytest.raises(JoinError, match="A profile name is 1 to 40 letters"):
            seats_file(bad)


def test_a_bad_profile_is_one_sentence_and_nothing_written(tmp_path):
    result = subprocess.run([UNOKART, "play", "--join", "http://127.0.0.1:9/t/K7Q2XM", "--profile", "../up"],
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "UNOKART_CONFIG_DIR": str(tmp_path), "UNOKART_LANG": "en"})
    assert result.returncode == 2
    assert result.stderr == "error: A profile name is 1 to 40 letters, digits, - or _, not '../up'.\n"
    assert list(tmp_path.iterdir()) == []


def test_the_seat_file_of_earlier_versions_is_read(tmp_path):
    path = tmp_path / "seats.json"
    path.write_text(json.dumps({"http://h/t/K7Q2XM": {"token": "t" * 32, "seat": 2, "name": "Ann"}}))
    store = SeatStore(path)
    assert store.get("http://h/t/K7Q2XM", "Ann")["seat"] == 2 and store.name_of("http://h/t/K7Q2XM") == "Ann"
    assert store.get("http://h/t/K7Q2XM", "Bob") is None
    store.put("http://h/t/K7Q2XM", "Bob", {"token": "b" * 32, "seat": 3})
    assert sorted(json.loads(path.read_text())["http://h/t/K7Q2XM"]) == ["Ann", "Bob"]

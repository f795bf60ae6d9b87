"""`unokart serve` checks its flags before it announces anything, and announces the address it really bound.

Each case runs the real command in a subprocess: a bad --port or --db is one
sentence on stderr and exit code 2, with nothing announced and nothing
created; --port 0 announces the port the system chose, and that port answers.
"""

from __future__ import annotations

import os
import re
import selectors
import socket
import subprocess
import sys
import time

import httpx
import pytest

from unokart.i18n import LANGUAGES, t


def _serve(*args: str, lang: str = "en", timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "UNOKART_LANG": lang, "COLUMNS": "400"}
    return subprocess.run([sys.executable, "-m", "unokart.cli", "serve", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def _refused(done: subprocess.CompletedProcess, *words: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""  # nothing announced
    message = done.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    for word in words:
        assert word in message, message
    prefixes = [t("cli.error", lang, message="") for lang in LANGUAGES]  # "error: ", "பிழை: ", ... as every command says it
    said = [message[len(p):] for p in prefixes if message.startswith(p)]
    assert said, message
    return said[0]


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "abc", "80.5", "８０"])
def test_a_port_outside_1_to_65535_is_refused_before_anything_is_announced(port, tmp_path):
    db = tmp_path / "unokart.sqlite"
    message = _refused(_serve("--port", port, "--db", str(db)), port)
    assert message == t("server.serve.error.port", port=port)
    assert not db.exists()


def test_a_database_in_a_missing_folder_is_refused(tmp_path):
    db = tmp_path / "no such folder" / "unokart.sqlite"
    _refused(_serve("--port", "0", "--db", str(db)), str(db.parent), "does not exist")
    assert not db.parent.exists()


def test_a_folder_given_as_the_database_is_refused(tmp_path):
    _refused(_serve("--port", "0", "--db", str(tmp_path)), str(tmp_path), "folder")


def test_a_database_in_a_folder_that_takes_no_files_is_refused():
    # /proc takes no new files, even for root (a chmod'ed folder would not stop root).
    _refused(_serve("--port", "0", "--db", "/proc/unokart.sqlite"), "/proc", "not writable")


def test_the_systems_reason_is_said_in_the_users_language():
    # /proc takes no new file: ENOENT, which the catalogue words in every language (not the system's English).
    message = _refused(_serve("--port", "0", "--db", "/proc/unokart.sqlite", lang="ta"), "/proc")
    assert t("cli.os.ENOENT", "ta") in message and "No such file" not in message, message


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_was(tmp_path):
    db = tmp_path / "notes.txt"
    db.write_bytes(b"my notes, not a database\n" * 100)
    _refused(_serve("--port", "0", "--db", str(db)), str(db), "SQLite")
    assert db.read_bytes() == b"my notes, not a database\n" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no -wal or -shm beside it


def test_several_process_flags_are_checked_before_anything_is_announced(tmp_path):
    from helpers.ports import free_port

    db = tmp_path / "unokart.sqlite"
    closed = free_port()  # nothing listens there
    alone = _refused(_serve("--port", "0", "--db", str(db), "--redis", f"redis://127.0.0.1:{closed}/0"), "--database")
    assert alone == t("server.serve.error.redis_needs_database")
    _refused(_serve("--port", "0", "--database", f"postgresql://unokart@127.0.0.1:{closed}/unokart"),
             "PostgreSQL", str(closed))
    _refused(_serve("--port", "0", "--database", "not a url"), "PostgreSQL")
    assert not db.exists()  # --database given: no SQLite file either


def test_a_port_another_program_holds_is_refused(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        _refused(_serve("--port", port, "--db", str(tmp_path / "unokart.sqlite")), "127.0.0.1", port)


def test_an_unknown_host_is_refused(tmp_path):
    _refused(_serve("--host", "no-such-host.invalid", "--port", "0", "--db", str(tmp_path / "u.sqlite")),
             "no-such-host.invalid")


def test_port_0_announces_the_port_actually_bound_and_it_answers(tmp_path):
    db = tmp_path / "unokart.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "unokart.cli", "serve", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "UNOKART_LANG": "en"})
    try:
        with selectors.DefaultSelector() as waiting:
            waiting.register(proc.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + 60  # a loaded machine may take a while to import everything
            line = ""
            while not line and time.monotonic() < deadline and proc.poll() is None:
                if waiting.select(timeout=1):
                    line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert found, line
        port = int(found.group(1))
        assert port != 0
        # The announcement comes once the server accepts: no waiting loop needed.
        assert httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json() == {"status": "ok"}
        assert line.strip() == t("server.serve.listening", url=f"http://127.0.0.1:{port}", db=db)
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_help_texts_speak_the_users_language():
    for lang in ("ta", "sd"):
        shown = _serve("--help", lang=lang)
        assert shown.returncode == 0, shown.stderr
        text = " ".join(shown.stdout.split())
        for key in ("server.help.serve", "server.help.port", "server.help.db"):
            assert t(key, lang) in text, (lang, key)


def test_models_that_is_a_file_or_missing_is_refused_in_one_sentence_like_the_other_flags(tmp_path):
    db = tmp_path / "unokart.sqlite"
    message = _refused(_serve("--port", "0", "--db", str(db), "--models", "/etc/passwd"), "/etc/passwd")
    assert message == t("server.serve.error.models_not_folder", folder="/etc/passwd")
    missing = tmp_path / "no such folder"
    message = _refused(_serve("--port", "0", "--db", str(db), "--models", str(missing)), str(missing))
    assert message == t("server.serve.error.models", folder=missing)
    assert not db.exists()

"""The server's door: ``unokart serve`` with broken arguments.

Every line made here holds at least one flag that cannot work (given last, so that no
earlier good value of the same flag wins), so the property is that serve refuses it:
exit code 2, one sentence, nothing announced, nothing created, no traceback. A line
that would serve is never made: a server that started would be stopped by
``run_guarded`` and the test would fail. Databases and Redis are only ever asked
for at port 1 of the loopback address, where nothing listens, or in forms no
client can parse.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

from hypothesis import given
from hypothesis import strategies as st

from fuzz_helpers import assert_refused, door, fits_argv, fuzz_settings, run_command, run_guarded, tree
from unokart.i18n import LANGUAGES

# What a command line can hold: no NUL, and no lone surrogates but the ones undecodable bytes become.
argv_text = st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=30)
odd_strings = st.one_of(argv_text, st.sampled_from([
    "\udcff", "\udc80x", "a\u202eb", "\u200f", "ಡೇಟಾ", "سنڌي", "a\nb", "\t", " ", "x" * 3000, "９" * 5, "%00", "~",
]))
OPTIONS = ("--host", "--port", "--db", "--bot-delay", "--round-pause", "--grace", "--bot-processes", "--http-rate",
           "--max-tables", "--idle", "--models", "--rate-limit", "--url", "--redis", "--database", "--lease-ttl")
UNREACHABLE_DB = ["postgresql://127.0.0.1:1/unokart", "postgresql://u:p@[::1]:1/x", "not a url", "postgresql://[::1/x",
                  "postgresql://127.0.0.1:99999/x", "postgresql://\udcff@127.0.0.1:1/x", "host=127.0.0.1 port=1",
                  "x" * 3000, "postgresql://127.0.0.1:1/" + "ಡೇಟಾ" * 50]


def _good_port(text: str) -> bool:
    value = text.strip()
    return value.isdigit() and value.isascii() and len(value) <= 5 and int(value) <= 65535


def _not_an_option(text: str) -> bool:
    # "--" alone ends the options; "--help" answers; a real option is not unknown.
    return text not in ("--", "-h", "--help") and text.split("=")[0] not in OPTIONS


@st.composite
def bad_parts(draw, tmp: str) -> list[str]:
    """One flag that cannot work, whatever else the line holds."""
    kind = draw(st.sampled_from(["port", "port", "db", "db", "models", "number", "unknown", "redis", "database"]))
    if kind == "port":
        return ["--port", draw(st.one_of(st.sampled_from(["99999", "65536", "-1", "", "x", "²", "８０", "1.5", "0x50",
                                                             "9" * 3000, "80 80", "\udcff"]),
                                         odd_strings.filter(lambda s: not _good_port(s))))]
    if kind == "db":
        return ["--db", draw(st.sampled_from([
            "/no/such/folder/u.sqlite", "/proc/u.sqlite", "/sys/u.sqlite", "/dev/null", "/dev/zero", tmp,
            f"{tmp}/notes.txt", f"{tmp}/" + "d" * 300, f"{tmp}/missing/" + "ಡೇಟಾ", "\udcff/u.sqlite",
            f"{tmp}/notes.txt/u.sqlite", "/no/" + "d" * 3000 + "/u.sqlite", f"{tmp}/a\nb/u.sqlite"]))]
    if kind == "models":
        return ["--models", draw(st.sampled_from(["/no/such/models", f"{tmp}/notes.txt", f"{tmp}/missing\u202e",
                                                  "/no/" + "m" * 3000]))]
    if kind == "number":
        flag = draw(st.sampled_from(["--lease-ttl", "--lease-ttl", "--bot-delay", "--round-pause", "--grace",
                                     "--bot-processes", "--http-rate", "--max-tables", "--idle", "--rate-limit"]))
        bad = {"--lease-ttl": ["0", "0.4", "61", "nan", "inf", "-1", "1e309", "x", ""],
               "--bot-processes": ["0", "-1", "1.5", "x", "9" * 30 + "x"], "--max-tables": ["0", "-3", "x", ""],
               "--http-rate": ["0", "-1", "x"], "--rate-limit": ["0.5", "-1", "x"]}.get(flag, ["-1", "-0.5", "x", ""])
        return [flag, draw(st.sampled_from(bad))]
    if kind == "unknown":
        return [draw(st.one_of(st.sampled_from(["--bogus", "--Port", "--pört", "-x", "--db-path", "--port=", "-p"]),
                               argv_text.map(lambda s: "--" + s).filter(_not_an_option)))]
    if kind == "redis":  # without --database
        # (an empty --redis is no --redis: the server may start)
        return ["--redis", draw(st.one_of(st.sampled_from(["redis://127.0.0.1:1/0", "x", " "]), odd_strings.filter(bool)))]
    return ["--database", draw(st.sampled_from(UNREACHABLE_DB))]


@st.composite
def noise(draw, tmp: str) -> list[str]:
    """A flag that may work on its own (or not)."""
    flag = draw(st.sampled_from(["--host", "--port", "--db", "--url", "--models", "--lease-ttl", "--bot-delay",
                                 "--redis", "--idle"]))
    value = {
        "--host": st.sampled_from(["127.0.0.1", "::1", "", ":::::", "ಹೋಸ್ಟ್", "h" * 300, "256.1.1.1", "a\u202eb"]),
        "--port": st.sampled_from(["0", "1", "65535", " 0 "]) | odd_strings,
        "--db": st.sampled_from([f"{tmp}/u.sqlite", f"{tmp}/ಡೇಟಾ.sqlite"]) | odd_strings.map(lambda s: f"{tmp}/{s}"),
        "--url": odd_strings, "--models": st.sampled_from([tmp, "/no/such"]), "--lease-ttl": st.sampled_from(["3", "0.5"]),
        "--bot-delay": st.sampled_from(["0", "0.8"]), "--redis": odd_strings, "--idle": st.sampled_from(["0", "5"]),
    }[flag]
    return [flag, draw(value)]


@st.composite
def serve_args(draw, tmp: str) -> list[str]:
    parts = draw(st.lists(noise(tmp), max_size=3)) + [draw(bad_parts(tmp))]
    if not any(p[0] == "--database" for p in parts) and draw(st.integers(0, 5)) == 0:
        parts.insert(0, ["--database", draw(st.sampled_from(UNREACHABLE_DB))])
    if not any(p[0] == "--db" for p in parts):
        parts.insert(0, ["--db", f"{tmp}/u.sqlite"])  # never the working folder's unokart.sqlite
    return ["serve", *(a for p in parts for a in p)]


def _workplace(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    (tmp / "notes.txt").write_text("my notes, not a database\n")
    return tmp


TEMPLATE = "/TMP"  # strategies are made once: the folder of each example is put in when it runs


def _placed(args: list[str], tmp) -> list[str]:
    return [a.replace(TEMPLATE, str(tmp)) for a in args]


@fuzz_settings(30, campaign_share=0.1)
@given(serve_args(TEMPLATE).filter(fits_argv), st.sampled_from(sorted(LANGUAGES)))
@door("serve")
def test_fuzz_serve_refuses_a_flag_that_cannot_work_in_one_sentence_in_any_language(tmp_path_factory, args, lang):
    tmp = _workplace(tmp_path_factory)
    args = _placed(args, tmp)
    before = tree(tmp)
    # Should it serve after all, Ctrl+C stops it (the exit code 0 then fails the test) rather than the suite hanging.
    stop = threading.Timer(30, os.kill, (os.getpid(), signal.SIGINT))
    stop.start()
    try:
        with contextlib.chdir(tmp):  # the default --db is the working folder's: never this checkout's
            code, out, err = run_command(args, lang)
    finally:
        stop.cancel()
    assert_refused(code, out, err, args)
    assert tree(tmp) == before, args  # no database, no -wal or -shm, the notes untouched


@fuzz_settings(2, campaign_share=0.01)
@given(serve_args(TEMPLATE).filter(fits_argv))
@door("serve")
def test_fuzz_serve_as_a_process_refuses_without_serving(tmp_path_factory, args):
    tmp = _workplace(tmp_path_factory)
    args = _placed(args, tmp)
    before = tree(tmp)
    outcome, code, out, err = run_guarded(args, tmp)
    assert outcome == "answered", (outcome, args, out[-500:], err[-500:])  # it served, or hung
    assert_refused(code, out, err, args)
    assert tree(tmp) == before, args
    assert os.path.exists(tmp / "notes.txt")

"""Strategies and the one property every door shares: it works, or it refuses in one sentence.

A door is where text from outside reaches unokart: a record file, an action's
notation, a house rule, a bot level, a command line. For each, Hypothesis
makes valid and broken inputs; the property is always the same: either the
input works, or a typed error (the Python API) or exit code 2 with one line
(the commands) says what is wrong, within a time bound, and nothing changed.
"""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import string
from collections import Counter
from contextlib import contextmanager

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

from unokart import Game
from unokart.i18n import LANGUAGES
from unokart.narrate import describe_refusal
from unokart.rules.cards import FACE_CODE
from unokart.rules.engine import RACERS

# Examples per door: a few hundred in CI; UNOKART_FUZZ_EXAMPLES=20000 for a longer campaign.
CAMPAIGN = int(os.environ.get("UNOKART_FUZZ_EXAMPLES", "0") or 0)


def fuzz_settings(ci_examples: int, campaign_share: float = 1.0) -> settings:
    """``ci_examples`` in CI; in a campaign, UNOKART_FUZZ_EXAMPLES times ``campaign_share``
    (a command run costs a hundred API calls, so command doors take a smaller share)."""
    examples = max(ci_examples, int(CAMPAIGN * campaign_share)) if CAMPAIGN else ci_examples
    return settings(max_examples=examples, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])


# Inputs tried per door in this process: conftest.py adds them to each test's report and prints them after a campaign.
TRIED: Counter = Counter()


def door(name: str):
    """Counts every input the test below tries (Hypothesis calls it once per input) under its door's name."""
    def wrap(test):
        @functools.wraps(test)
        def counted(*args, **kwargs):
            TRIED[name] += 1
            return test(*args, **kwargs)
        return counted
    return wrap


# A bound for hangs, not a speed test: far beyond what any input here needs. Counted in CPU seconds
# (a loaded machine does not trip it), with a wall-clock bound for a hang that does not compute.
HANG_CPU_SECONDS = 30
HANG_SECONDS = 300


@contextmanager
def within(cpu_seconds: int = HANG_CPU_SECONDS, seconds: int = HANG_SECONDS):
    """Fail (rather than hang the suite) when the block computes or waits far too long."""
    def expired(signum, _frame):
        what = f"{cpu_seconds} CPU seconds" if signum == signal.SIGPROF else f"{seconds} s"
        raise AssertionError(f"no answer within {what}: a hang")

    previous = signal.signal(signal.SIGPROF, expired), signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


MAX_SENTENCE = 600  # an error echoes at most 40 characters of its input


def assert_one_sentence(err: Exception) -> None:
    """A typed error says what is wrong in one line of bounded length, in every language."""
    text = str(err)
    assert text.strip() and "\n" not in text and len(text) <= MAX_SENTENCE, repr(text[:2000])
    if getattr(err, "key", ""):
        for lang in LANGUAGES:
            said = describe_refusal(err, lang)
            assert said.strip() and "\n" not in said and len(said) <= MAX_SENTENCE, (lang, said[:2000])


def snapshot(game: Game):
    return (json.dumps(game.state(), sort_keys=True), list(game.actions), game.version, len(game.events),
            [h[:] for h in game._hands], game._stock[:])


# ---------------------------------------------------------------- games and records
BOOLEAN_OPTIONS = ("stacking", "draw_until_playable", "force_play", "jump_in", "seven_zero")


@st.composite
def option_dicts(draw) -> dict:
    """House rules a valid record may have."""
    chosen = draw(st.lists(st.sampled_from(BOOLEAN_OPTIONS), unique=True, max_size=5))
    options = {name: True for name in chosen}
    if draw(st.booleans()):
        options["target_score"] = draw(st.integers(1, 600))
    if draw(st.booleans()):
        options["hand_size"] = draw(st.integers(1, 10))
    return options


def played_game(players: int, seed: int, options: dict, steps: int) -> Game:
    """A game after ``steps`` random legal actions (out of turn ones too), dealing new rounds as needed."""
    game = Game.new(list(RACERS[:players]), seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.awaiting == "game_over":
            break
        if game.awaiting == "round_over":
            game.next_round()
            continue
        acts = game.legal_actions()
        if rng.random() < 0.1:
            acts = [a for s in range(game.n) for a in game.legal_actions(s)] or acts
        game.apply(rng.choice(acts))
    return game


@st.composite
def games(draw) -> Game:
    players = draw(st.integers(2, 6))
    options = draw(option_dicts())
    if options.get("hand_size", 7) * players > 100:
        options["hand_size"] = 7
    return played_game(players, draw(st.integers(0, 2**32)), options, draw(st.integers(0, 250)))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)

names = st.one_of(
    st.sampled_from(RACERS), st.text(max_size=40),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Zs", "Mn"]), min_size=1, max_size=5),
    st.just("\ud800"), st.integers(0, 10**6).map(lambda k: "N" * k))


@st.composite
def action_texts(draw) -> str:
    """Notation-shaped text, valid or nearly, and sometimes anything at all."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.text(max_size=60))
    seat = draw(st.one_of(st.integers(-2, 11).map(str), st.sampled_from(["", " ", "x", "²", "٣", "1.0", "01", "9" * 50])))
    verb = draw(st.one_of(st.sampled_from(["play", "jump", "draw", "pass", "challenge", "accept", "color", "target",
                                           "uno", "catch", "swap", "PLAY", "Draw"]), st.text(max_size=8)))
    args = draw(st.lists(st.one_of(st.sampled_from(FACE_CODE), st.sampled_from(["R", "Y", "G", "B", "uno", "w+4", "P"]),
                                   st.integers(-1, 12).map(str), st.text(max_size=6)), max_size=4))
    sep = draw(st.sampled_from([":", ": ", " : ", "", "::"]))
    return f"{seat}{sep}{verb} {' '.join(args)}".rstrip() if draw(st.booleans()) else f"{seat}{sep} {verb} {' '.join(args)}"


@st.composite
def record_texts(draw) -> bytes:
    """A record file's bytes: a real game's record, mutated or not, or something else entirely."""
    kind = draw(st.sampled_from(["valid", "valid", "mutated", "mutated", "mutated", "json", "text", "deep", "bytes"]))
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "text":
        return draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(20, 3000))
        opener = draw(st.sampled_from(["[", "{\"a\":", "[{\"b\":"]))
        return (opener * depth).encode() + (b"]" * depth if draw(st.booleans()) else b"")
    record = draw(games()).record()
    if kind == "mutated":
        for _ in range(draw(st.integers(1, 3))):
            _mutate(draw, record)
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 9)) == 0:  # cut short
        text = text[: draw(st.integers(0, max(0, len(text) - 1)))]
    return text.encode("utf-8", "surrogatepass")


def _mutate(draw, record: dict) -> None:
    what = draw(st.sampled_from(["field", "unknown", "players", "options", "action", "drop", "round", "dealer", "deck"]))
    rounds = record.get("rounds")
    if isinstance(rounds, list) and rounds and isinstance(rounds[0], dict):
        rnd = rounds[draw(st.integers(0, len(rounds) - 1))]
        if not isinstance(rnd, dict):
            rnd = rounds[0]
    else:
        rnd = {}  # an earlier mutation broke the rounds: mutate a loose round, harmlessly
    if not isinstance(rnd.get("actions", []), list):
        rnd["actions"] = []
    if what == "field":
        record[draw(st.sampled_from(["players", "options", "rounds", "format"]))] = draw(json_values)
    elif what == "unknown":
        record[draw(st.text(max_size=60))] = draw(json_values)
    elif what == "players":
        record["players"] = draw(st.lists(names, max_size=12))
    elif what == "options":
        record["options"] = draw(st.one_of(json_values, st.dictionaries(
            st.sampled_from(BOOLEAN_OPTIONS + ("target_score", "hand_size", "bogus")), json_values, max_size=3)))
    elif what == "action":
        acts = rnd.setdefault("actions", [])
        index = draw(st.integers(0, len(acts)))
        acts.insert(index, draw(st.one_of(action_texts(), json_values)))
    elif what == "drop" and rnd.get("actions"):
        del rnd["actions"][draw(st.integers(0, len(rnd["actions"]) - 1))]
    elif what == "round":
        rnd[draw(st.sampled_from(["seed", "dealer", "deck", "actions", "extra"]))] = draw(json_values)
    elif what == "dealer":
        rnd["dealer"] = draw(st.integers(-3, 12))
    elif what == "deck":
        deck = [FACE_CODE[f] for f in draw(st.permutations(list(range(54)) * 2))][:draw(st.integers(100, 114))]
        rnd["deck"] = deck


option_words = st.one_of(
    st.sampled_from(["true", "false", "yes", "no", "on", "off", "1", "0", "TRUE", "Off", "maybe", "2", "-1", "",
                     "abc", "²", "٣", "1.5", " 5 ", "0x10", "9" * 12, "200", "5"]),
    st.text(max_size=12))
option_pairs = st.lists(
    st.builds(lambda name, sep, value: f"{name}{sep}{value}",
              st.one_of(st.sampled_from(BOOLEAN_OPTIONS + ("target_score", "hand_size")), st.text(max_size=12)),
              st.sampled_from(["=", "", "==", " = "]), option_words),
    max_size=4)

bot_levels = st.one_of(
    st.sampled_from(["random", "easy", "heuristic", "ismcts", "ismcts:0", "ismcts:3", "Random", " heuristic ",
                     "ismcts:", "ismcts:x", "ismcts:0ms", "ismcts:5ms", "ismcts:²", "grandmaster", "", "policy:",
                     "policy:missing.zip", "random:1", "heuristic:"]),
    st.text(alphabet=string.ascii_letters + string.digits + ":._-/ ", max_size=20))


# ---------------------------------------------------------------- the commands
def run_command(args: list[str], lang: str = "en"):
    """The command in this process (typer's runner): exit code, stdout, stderr."""
    from typer.testing import CliRunner

    from unokart.cli import app

    with within():
        result = CliRunner().invoke(app, args, env={"UNOKART_LANG": lang, "COLUMNS": "80", "TERM": "dumb"})
    if result.exit_code not in (0, 2):  # an exception the command let through: show it whole
        import traceback

        trace = "".join(traceback.format_exception(result.exception)) if result.exception else ""
        raise AssertionError(f"exit {result.exit_code} for {args!r}\n{trace}{result.stderr[-2000:]}")
    return result.exit_code, result.stdout, result.stderr


def _child_env(**extra: str) -> dict[str, str]:
    """This environment for a child process, PYTHONPATH made absolute (a child in another folder finds src/ too)."""
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", **extra}
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    return env


def run_process(args: list[str], cwd=None, lang: str = "en"):
    """The command as a user runs it: a real process, with a bound on how long it may take."""
    import subprocess
    import sys

    assume(not any("\0" in arg for arg in args))  # no command line carries a NUL: execve ends an argument there

    done = subprocess.run([sys.executable, "-m", "unokart.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=HANG_SECONDS, env=_child_env(UNOKART_LANG=lang))
    assert "Traceback" not in done.stdout + done.stderr, (args, done.stderr[-3000:])
    return done.returncode, done.stdout, done.stderr


def assert_answered(code: int, out: str, err: str, args, lang: str = "en") -> None:
    """Exit 0, or exit 2 with one sentence: ours ("error: ..." in ``lang``), or the framework's usage error."""
    from unokart.i18n import t

    prefix = t("cli.error", lang, message="")
    assert code in (0, 2), (code, args, err[-2000:])
    assert "Traceback" not in out + err, (args, err[-3000:])
    if code == 2:
        ours = [line for line in err.splitlines() if line.startswith(prefix)]
        if ours:
            assert len(ours) == 1 and err.rstrip().splitlines()[-1] == ours[0], (args, err)
            assert len(ours[0]) <= MAX_SENTENCE + 20, (args, ours[0][:2000])
        else:
            assert "Usage:" in err and ("Error" in err or "error" in err), (args, err)
            assert len(err) < 3000, (args, err[:3000])


# ---------------------------------------------------------------- commands that must not keep running
GUARD_SECONDS = 30  # wall clock for a process that should answer at once: far beyond a refusal on a loaded machine


def run_guarded(args: list[str], cwd, lang: str = "en") -> tuple[str, int | None, str, str]:
    """``unokart ARGS`` as a real process that is stopped if it starts (serve serving, play's app drawing).

    Stdin is closed (a terminal app cannot wait on a player); a process that writes to stdout (or an
    escape sequence to stderr, where Textual draws) and is still running a moment later has started,
    and is killed. Returns (outcome, exit code, stdout, stderr)
    with outcome "answered", "started" or "hung" (no answer within GUARD_SECONDS).
    """
    import selectors
    import subprocess
    import sys
    import time

    env = _child_env(UNOKART_LANG=lang, UNOKART_CONFIG_DIR=str(cwd))
    proc = subprocess.Popen([sys.executable, "-m", "unokart.cli", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    chunks = {proc.stdout: b"", proc.stderr: b""}
    outcome, deadline, grace = "answered", time.monotonic() + GUARD_SECONDS, None
    try:
        with selectors.DefaultSelector() as waiting:
            for stream in chunks:
                waiting.register(stream, selectors.EVENT_READ)
            while waiting.get_map():
                now = time.monotonic()
                if now > deadline:
                    outcome = "hung"
                    break
                if grace is not None and now > grace:
                    outcome = "started"
                    break
                for key, _ in waiting.select(timeout=0.2):
                    data = os.read(key.fd, 65536)
                    if not data:
                        waiting.unregister(key.fileobj)
                    chunks[key.fileobj] += data
                    # Textual draws on stderr: an escape sequence there, or anything on stdout, may be a start.
                    if data and (key.fileobj is proc.stdout or b"\x1b" in data) and grace is None:
                        grace = time.monotonic() + 3  # help text ends the process; a server or an app does not
        if outcome == "answered":
            proc.wait(GUARD_SECONDS)  # both streams closed: it is exiting
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: the server's bot workers go with it
        code = proc.wait(30)
        proc.stdout.close()
        proc.stderr.close()
    out, err = (chunks[s].decode("utf-8", "backslashreplace") for s in (proc.stdout, proc.stderr))
    return outcome, (code if outcome == "answered" else None), out, err


def fits_argv(args: list[str]) -> bool:
    """Whether a real command line can hold ``args``: no NUL, nothing the file system encoding cannot write."""
    try:
        for arg in args:
            os.fsencode(arg)
    except UnicodeEncodeError:  # a lone surrogate that no undecodable byte becomes
        return False
    return not any("\x00" in arg for arg in args)


def assert_refused(code: int | None, out: str, err: str, args) -> None:
    """Exit code 2 with one sentence on stderr (or the framework's usage error) and nothing on stdout."""
    assert code == 2, (code, args, out[-500:], err[-2000:])
    assert "Traceback" not in out + err, (args, err[-3000:])
    assert out == "", (args, out[:2000])  # nothing announced, no app drawn
    lines = err.strip().splitlines()
    if "Usage:" in err:
        assert "Error" in err or "error" in err, (args, err)
        assert len(err) < 3000, (args, err[:3000])
    else:
        assert len(lines) == 1 and len(lines[0]) <= MAX_SENTENCE + 200, (args, err[:2000])


def tree(folder) -> list[tuple[str, bytes]]:
    """Every file under ``folder`` with its contents: a refused command changes none of them."""
    from pathlib import Path

    return sorted((str(p.relative_to(folder)), p.read_bytes() if p.is_file() else b"")
                  for p in Path(folder).rglob("*"))

"""The terminal client's door: ``unokart play`` with broken arguments, as real processes.

``play`` opens a Textual app, so it never runs in this process, and every line made
here holds one argument that cannot work (given last, so no earlier good value of the
same flag wins): the property is that it is refused before the app opens, in one
sentence with exit code 2, nothing drawn and nothing written. Stdin is closed and
``run_guarded`` stops an app that opens anyway (then the test fails, showing the line).
No server is ever reached: a code is looked up at port 1 of the loopback address,
where nothing listens, and a link names that address or none.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzz_helpers import assert_refused, bot_levels, door, fits_argv, fuzz_settings, option_words, run_guarded, tree
from unokart.bots import make_bot
from unokart.i18n import LANGUAGES
from unokart.rules.options import options_from_text

CLOSED = "http://127.0.0.1:1"  # nothing listens: refused at once, no one's server is asked
argv_text = st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=30)
odd_names = st.one_of(argv_text, st.sampled_from([
    "A" * 25, "A" * 100_000, "a\u202eb", "\u2067Ann\u2069", "\u200f", "Ann\nBob", "\x1b[31mAnn", "\udcff", "", " ",
    "ಕನ್ನಡ\u200cಹೆಸರು", "سنڌي نالو", "Mario", "mario",
]))
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
codes = st.one_of(st.text(alphabet=CODE_LETTERS, min_size=6, max_size=6), st.text(alphabet=CODE_LETTERS.lower(), min_size=6, max_size=6),
                  st.sampled_from(["ZZZ", "", "ABCDEFG", "ABCDE0", "ABCDEI", "ABC DE", "٣٣٣٣٣٣", "ＡＢＣＤＥＦ"]),
                  argv_text)
links = st.builds(lambda scheme, host, path, code, tail: f"{scheme}{host}{path}{code}{tail}",
                  st.sampled_from(["http://", "https://", "ws://", "wss://", "ftp://", "", "HTTP://", "http:/"]),
                  st.sampled_from(["127.0.0.1:1", "[::1]:1", "", "127.0.0.1:1@127.0.0.1:1", "[::1", "127.0.0.1:x",
                                   "a%00b:1", "127.0.0.1:99999"]),
                  st.sampled_from(["/t/", "/ws/", "/", "", "/t/x/"]), codes, st.sampled_from(["", "/", "?x=1", "#y"]))


def _refused_level(level: str) -> bool:
    try:
        make_bot(level)
    except (ValueError, RuntimeError, OSError, ImportError):  # a level, or a model file that cannot be read
        return True
    return False


def _refused_options(text: str) -> bool:
    try:
        options_from_text([text])
    except ValueError:
        return True
    return False


@st.composite
def bad_join(draw) -> list[str]:
    """--join, and what it needs, with one part that cannot work."""
    kind = draw(st.sampled_from(["code", "link", "link", "profile"]))
    if kind == "profile":
        profile = draw(st.one_of(st.sampled_from(["../x", "", " ", "a/b", "p" * 41, "ಕ", "a\u202eb"]), argv_text)
                       .filter(lambda p: not (p and len(p) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-") for c in p))))
        return ["--profile", profile, "--server", CLOSED, "--join", draw(codes.filter(bool))] if profile else ["--profile", "a/b", "--join", "ABCDEF"]
    if kind == "code":
        # Refused as a code, or the server is not there (an empty --join is no --join: a local game).
        server = draw(st.sampled_from([CLOSED, CLOSED, "nonsense", "ftp://127.0.0.1:1", "http://[::1"]))
        return ["--server", server, "--join", draw(codes.filter(bool))]
    link = draw(links)
    if link.startswith(("http://127", "https://127", "ws://127", "wss://127", "http://[", "https://[", "ws://[", "wss://[",
                        "HTTP://")) or "://" not in link:
        return ["--server", CLOSED, "--join", link]
    return ["--join", link]


@st.composite
def bad_local(draw) -> list[str]:
    """A local game with one setting that cannot work."""
    kind = draw(st.sampled_from(["players", "option", "option", "target", "bots", "bots"]))
    if kind == "players":
        return ["--players", draw(st.sampled_from(["0", "1", "11", "-1", "99999999999999999999"]))]
    if kind == "option":
        text = draw(st.one_of(st.sampled_from(["stacking=maybe", "bogus", "hand_size=abc", "hand_size=200", "",
                                               "target_score=0", "jump_in=2"]),
                              st.builds(lambda n, v: f"{n}={v}", st.sampled_from(["stacking", "hand_size", "zz"]),
                                        option_words)).filter(_refused_options))
        return ["-o", text]
    if kind == "target":
        return ["--target", draw(st.sampled_from(["0", "-5", "-99999999999"]))]
    return ["--bots", draw(st.one_of(st.sampled_from([",", " , ", "grandmaster", "ismcts:x", "policy:nosuch",
                                                       "x" * 3000]),
                                     bot_levels.filter(lambda b: "," not in b and _refused_level(b))))]


@st.composite
def bad_anywhere(draw) -> list[str]:
    """Refused by the command line itself, whatever else is given."""
    kind = draw(st.sampled_from(["lang", "number", "unknown", "name"]))
    if kind == "lang":
        return ["--lang", draw(st.one_of(st.sampled_from(["xx", "", "EN", "en ", "tamil", "ta_IN", "\u202een", "a\nb",
                                                          "x" * 3000]),
                                         argv_text).filter(lambda code: code not in LANGUAGES))]
    if kind == "name":  # the server's rule for names holds before a local game opens too
        return ["--name", draw(st.sampled_from(["A" * 25, "a\u202eb", "\u2067Ann\u2069", "\u200f", "Ann\nBob", "",
                                                "\x1b[31mAnn", " "]))]
    if kind == "number":
        flag = draw(st.sampled_from(["--players", "--seed", "--target", "--delay"]))
        # --delay takes seconds from 0 (1.5 is fine, -1 is not); the others take whole numbers
        bad = ["-1"] if flag == "--delay" else ["1.5", "1e3"]
        return [flag, draw(st.sampled_from(["x", "", "²", "٣", *bad]))]
    return [draw(st.one_of(st.sampled_from(["--bogus", "--Name", "-x", "--join=", "--nme"]),
                           argv_text.map(lambda s: "--" + s).filter(lambda a: a != "--" and a.split("=")[0] not in (
                               "--lang", "--players", "--bots", "--name", "--seed", "--option", "--target", "--delay",
                               "--join", "--server", "--profile", "--help"))))]


@st.composite
def play_args(draw) -> list[str]:
    noise = []
    if draw(st.booleans()):
        noise += ["--name", draw(odd_names)]
    if draw(st.booleans()):
        noise += ["--lang", draw(st.sampled_from(sorted(LANGUAGES)))]
    if draw(st.booleans()):
        noise += ["--seed", draw(st.sampled_from(["1", "-1", "99999999999999999999"]))]
    if draw(st.booleans()):
        noise += ["--delay", "0"]
    bad = draw(st.one_of(bad_join(), bad_local(), bad_anywhere()))
    if bad[0] in ("--players", "-o", "--target", "--bots") and draw(st.booleans()):
        noise += ["--players", draw(st.sampled_from(["2", "4", "10"]))]
    return ["play", *noise, *bad]


@fuzz_settings(4, campaign_share=0.02)
@given(play_args().filter(fits_argv))
@door("play")
def test_fuzz_play_refuses_an_argument_that_cannot_work_before_the_app_opens(tmp_path_factory, args):
    tmp = tmp_path_factory.mktemp("play")
    outcome, code, out, err = run_guarded(args, tmp)
    assert outcome == "answered", (outcome, args, out[-300:], err[-500:])  # the app opened, or nothing answered
    assert_refused(code, out, err, args)
    assert tree(tmp) == [], args  # no seats file, no profile folder

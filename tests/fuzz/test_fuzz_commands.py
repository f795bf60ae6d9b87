"""The command-line door: ``unokart watch`` and ``unokart simulate`` with any arguments.

Most runs are in this process (typer's runner: fast); a few are real processes,
as a user runs them. Values are kept small where a valid one means real work
(games to play); the arguments themselves are anything.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from unokart.i18n import LANGUAGES
from fuzz_helpers import assert_answered, bot_levels, door, fuzz_settings, option_words, run_command, run_process

numbers = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["x", "", "1.5", "²", "9" * 30, "-0", "+3"]),
                    st.text(max_size=5))
option_args = st.lists(st.builds(lambda name, value: ["-o", f"{name}={value}" if value is not None else name],
                                 st.sampled_from(["stacking", "jump_in", "hand_size", "target_score", "seven_zero",
                                                  "bogus", "", "force_play"]),
                                 st.none() | option_words), max_size=3).map(lambda parts: [a for p in parts for a in p])


@st.composite
def watch_args(draw) -> list[str]:
    args = ["watch", "--rounds", draw(st.sampled_from(["1", "1", "1", "0", "-1", "x"]))]
    if draw(st.booleans()):
        args += ["--players", draw(numbers)]
    if draw(st.booleans()):
        args += ["--seed", draw(st.one_of(numbers, st.integers(-2**70, 2**70).map(str)))]
    if draw(st.booleans()):
        args += ["--delay", draw(st.sampled_from(["0", "-1", "nan", "inf", "x", "61", "0.0"]))]
    args += draw(option_args)
    if "--rounds" in args and args[args.index("--rounds") + 1] == "0":
        args += ["-o", "target_score=30"]  # a whole game, kept short
    return args


@st.composite
def simulate_args(draw) -> list[str]:
    levels = draw(st.lists(bot_levels.filter(lambda b: not b.strip().lower().startswith("ismcts") or b.strip().lower()
                                             in ("ismcts:0", "ismcts:x", "ismcts:", "ismcts:0ms", "ismcts:²")),
                           min_size=1, max_size=3))
    args = ["simulate", "--bots", ",".join(levels), "--games", draw(st.sampled_from(["1", "2", "0", "-2", "x"])),
            "--target", draw(st.sampled_from(["30", "60", "0", "-5", "x"]))]
    if draw(st.booleans()):
        args += ["--players", draw(st.sampled_from(["2", "3", "1", "11", "0", "x"]))]
    if draw(st.booleans()):
        args += ["--seed", draw(numbers)]
    if draw(st.booleans()):
        args += ["--json"]
    if draw(st.booleans()):
        args += ["--plot", "/no/such/folder/plot.png"]
    return args + draw(option_args)


@fuzz_settings(30, campaign_share=0.02)
@given(watch_args())
@door("watch")
def test_fuzz_watch_plays_or_refuses_in_one_sentence(args):
    assert_answered(*run_command(args), args)


@fuzz_settings(30, campaign_share=0.02)
@given(simulate_args(), st.sampled_from(sorted(LANGUAGES)))
@door("simulate")
def test_fuzz_simulate_plays_or_refuses_in_one_sentence_in_any_language(args, lang):
    assert_answered(*run_command(args, lang), args, lang)


@fuzz_settings(3, campaign_share=0.002)
@given(st.one_of(watch_args(), simulate_args()))
@door("watch/simulate (process)")
def test_fuzz_commands_as_processes(args):
    assert_answered(*run_process(args), args)

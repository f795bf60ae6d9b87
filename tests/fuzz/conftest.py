"""Counts per door: each fuzz test's report carries the inputs it tried; after a campaign, a table of them."""

from __future__ import annotations

from collections import Counter

import pytest

from fuzz_helpers import CAMPAIGN, TRIED

_tried: Counter = Counter()
_failed: Counter = Counter()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    before = TRIED.copy()
    yield
    # user_properties travel with the report, also from pytest-xdist's workers to the process that prints.
    item.user_properties.append(("fuzz_tried", dict(TRIED - before)))


def pytest_runtest_logreport(report):
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "fuzz_tried":
            _tried.update(value)
            if report.failed:
                _failed.update(dict.fromkeys(value, 1))


def pytest_terminal_summary(terminalreporter):
    if not CAMPAIGN or not _tried:
        return
    write = terminalreporter.write_line
    write(f"fuzz campaign, UNOKART_FUZZ_EXAMPLES={CAMPAIGN}: inputs tried per door (shrinking included)")
    write(f"  {'door':<22}{'inputs':>9}{'failing tests':>15}")
    for name in sorted(_tried):
        write(f"  {name:<22}{_tried[name]:>9}{_failed[name]:>15}")
    write(f"  {'all':<22}{sum(_tried.values()):>9}{sum(_failed.values()):>15}")

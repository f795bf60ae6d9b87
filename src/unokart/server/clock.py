"""The server's one clock (docs/DESIGN.md, "The server: composition"): every time the server reads or waits for
comes from here, so that a test moves time by hand instead of waiting for it to pass.

``time()`` is wall time, for what is stored or told (a table's creation, a turn's deadline in epoch milliseconds);
``monotonic()`` measures intervals (rate limits, idle tables, bot ticks and queue waits, leases); ``call_later``
runs a callback after ``delay`` seconds of that clock, on the running event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def time(self) -> float: ...
    def monotonic(self) -> float: ...
    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Any: ...


class RealClock:
    """The system's clocks and the running event loop's timers."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback, *args)


REAL = RealClock()

"""Rate limits: token buckets, one per connection, seat or client address, each on a clock it is given.

The clock is a function giving seconds (monotonic time by default); tests give one they move themselves.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from .protocol import ServerError

Now = Callable[[], float]


class TokenBucket:
    """``rate`` events a second on average, in bursts of ``burst``."""

    __slots__ = ("rate", "burst", "tokens", "refilled", "now")

    def __init__(self, rate: float, burst: float, now: Now = time.monotonic):
        self.rate, self.burst, self.now = rate, burst, now
        self.tokens, self.refilled = burst, now()

    def take(self) -> float:
        """0 when allowed (a token is spent), else the seconds until a token is due."""
        now = self.now()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class AddressLimits:
    """A bucket per client address, the least recently seen forgotten first (so the limiter itself stays bounded)."""

    def __init__(self, rate: float, burst: float, remember: int = 10000, now: Now = time.monotonic):
        self.rate, self.burst, self.remember, self.now = rate, burst, remember, now
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, address: str) -> float:
        """0 when allowed, else the seconds until this address may go on."""
        bucket = self.buckets.pop(address, None) or TokenBucket(self.rate, self.burst, self.now)
        self.buckets[address] = bucket
        if len(self.buckets) > self.remember:
            self.buckets.popitem(last=False)
        return bucket.take()

    def check(self, address: str, websocket: bool = False) -> None:
        """ServerError when this address is over its budget: HTTP's 429 too_many_requests, or over a websocket
        the same refusal as the error rate_limited (both say in how many seconds to try again)."""
        wait = self.take(address)
        if wait:
            seconds = max(1, math.ceil(wait))
            if websocket:
                raise ServerError("rate_limited", status=429, sentence="join_rate_limited", seconds=seconds)
            raise ServerError("too_many_requests", status=429, seconds=seconds)


# Chat messages and reactions (PROTOCOL.md section 4): ``serve --chat-rate`` a second per seat (and per
# connection), in bursts of TALK_SECONDS' worth, and TALK_SHARE times that for all connections of one address.
TALK_SECONDS = 10
TALK_SHARE = 5


def talk_bucket(rate: float, now: Now = time.monotonic) -> TokenBucket:
    """The chat and reaction budget of one seat, or one connection."""
    return TokenBucket(rate, max(1.0, rate * TALK_SECONDS), now)


def talk_limits(rate: float, now: Now = time.monotonic) -> AddressLimits:
    """The chat and reaction budgets of client addresses."""
    return AddressLimits(TALK_SHARE * rate, TALK_SHARE * max(1.0, rate * TALK_SECONDS), now=now)


def talk_limited(wait: float) -> ServerError:
    """The refusal of a chat message or reaction over its budget, saying when the next one is allowed."""
    return ServerError("rate_limited", status=429, sentence="talk_rate_limited", seconds=max(1, math.ceil(wait)))

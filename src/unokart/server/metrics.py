"""What an operator watches: ``/metrics`` in Prometheus' text format (``serve --metrics``), and JSON log lines
(``serve --log-format json``).

The table service, the bot scheduler and the cluster report through a ``Metrics``; the default one does
nothing, so a server without ``--metrics`` neither imports prometheus_client nor counts anything. Counts
that are already kept (tables by status, open connections) are read when scraped, not mirrored.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from . import protocol

if TYPE_CHECKING:
    from .tables import TableService

# Seconds: an action answered within a millisecond on an idle server, up to a database stalling for seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The hooks the server reports through; these do nothing (``--metrics`` not given)."""

    def action(self, seconds: float) -> None:
        """An accepted action: from its arrival to the new state queued for every connection."""

    def commit(self, seconds: float) -> None:
        """One store commit (a table's change, or a group of them), as the table waited for it."""

    def bot_wait(self, seconds: float) -> None:
        """A bot's decision, from when it was due to when a worker started on it."""

    def relay(self, kind: str, seconds: float) -> None:
        """Several processes: a relayed frame to the owner's first answer (``frame``), or a call to an owner."""

    def eviction(self, count: int = 1) -> None:
        """Tables that left memory, idle."""

    def exposition(self) -> tuple[bytes, str]:
        raise NotImplementedError


class Prometheus(Metrics):
    """The metrics in a registry of their own (one per server, so that tests may run several in a process)."""

    def __init__(self, service: "TableService", connections: Callable[[], int]):
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry = CollectorRegistry()
        self.actions = Counter("unokart_actions", "Game actions accepted (rate() gives actions a second)",
                               registry=self.registry)
        self.latency = Histogram("unokart_action_state_seconds", "From an action's arrival to its state queued "
                                 "for every connection", buckets=LATENCY_BUCKETS, registry=self.registry)
        self.commits = Histogram("unokart_store_commit_seconds", "Store commits, as the table waited for them",
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.bots = Histogram("unokart_bot_queue_wait_seconds", "Bot decisions, from due to started",
                              buckets=LATENCY_BUCKETS, registry=self.registry)
        self.relays = Histogram("unokart_relay_seconds", "Several processes: a relayed frame to the owner's first "
                                "answer (kind=frame), or a call to a table's owner (kind=call)", ["kind"],
                                buckets=LATENCY_BUCKETS, registry=self.registry)
        self.evictions = Counter("unokart_evictions", "Tables that left memory, idle", registry=self.registry)
        self.refused: Tally[str] = Tally()
        self.registry.register(_Live(service, connections, self.refused))
        protocol.REFUSED.append(self._refused)

    def action(self, seconds: float) -> None:
        self.actions.inc()
        self.latency.observe(seconds)

    def commit(self, seconds: float) -> None:
        self.commits.observe(seconds)

    def bot_wait(self, seconds: float) -> None:
        self.bots.observe(max(seconds, 0.0))

    def relay(self, kind: str, seconds: float) -> None:
        self.relays.labels(kind).observe(seconds)

    def eviction(self, count: int = 1) -> None:
        self.evictions.inc(count)

    def _refused(self, code: str) -> None:
        self.refused[code] += 1

    def exposition(self) -> tuple[bytes, str]:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def close(self) -> None:
        if self._refused in protocol.REFUSED:
            protocol.REFUSED.remove(self._refused)


class _Live:
    """What the server already knows, read at each scrape: tables by status, connections, refusals by code."""

    def __init__(self, service: "TableService", connections: Callable[[], int], refused: Tally[str]):
        self.service, self.connections, self.refused = service, connections, refused

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        tables = GaugeMetricFamily("unokart_tables", "Tables in this process's memory, by status (paused: waiting "
                                   "for the database)", labels=["status"])
        counts = Tally("paused" if table.paused else table.status for table in list(self.service.tables.values()))
        for status in ("lobby", "playing", "game_over", "paused"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        yield GaugeMetricFamily("unokart_connections", "Websocket connections open to this process",
                                value=self.connections())
        refusals = CounterMetricFamily("unokart_refusals", "Refusals sent (HTTP and websocket), by error code",
                                       labels=["code"])
        for code, count in sorted(self.refused.items()):
            refusals.add_metric([code], count)
        yield refusals


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def log_to_stderr(fmt: str) -> None:
    """The server's logging: text lines, or JSON lines (uvicorn's own loggers included)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if fmt == "json" else
                         logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)

"""What a host's monitoring scrapes: ``/metrics`` in Prometheus's text format.

One registry per process (a worker of a site is one process), written by the parts as
they work and read by :class:`ServerCollector` at each scrape:

- ``rummykit_events_total{event}``: every event of the event log (``events_log.py``),
  whatever the log level: moves (``action``), lease moves (``taken_over``,
  ``lease_lost``, ``take_over_failed``), failures (``storage_failed``, ``redis_lost``,
  ``bot_failed``, ``hint_failed``), hints, reviews, logins, games over...;
- ``rummykit_action_seconds``: a person's move from its receipt to its broadcast;
- ``rummykit_bot_wait_seconds{kind}`` and ``rummykit_bot_calls_total{kind,outcome}``:
  the bot queue's waits and its calls' outcomes;
- ``rummykit_sockets``: table sockets open;
- ``rummykit_assessments_due`` and ``rummykit_assessment_oldest_due_timestamp_seconds``:
  the site's backlog of fair-play assessments, counted by this process's assessment
  loop each time it looks for work (every process of a site counts the same backlog);
- read at the scrape: tables hosted and relayed, bot calls running and waiting, and the
  event loop's lag (a histogram in seconds, and the worst).

Writing a figure is a counter's or histogram's own cost (a lock and an add); nothing
here is read unless someone scrapes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Final, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY: Final = CollectorRegistry()
EVENTS: Final = Counter(
    "rummykit_events", "Events of the server's event log, by name.", ["event"], registry=REGISTRY
)
ACTION_SECONDS: Final = Histogram(
    "rummykit_action_seconds",
    "A person's move, from its receipt to its broadcast.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
BOT_WAIT_SECONDS: Final = Histogram(
    "rummykit_bot_wait_seconds",
    "A bot call's wait in the queue before a worker took it, by kind.",
    ["kind"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
BOT_CALLS: Final = Counter(
    "rummykit_bot_calls",
    "Bot calls finished, by kind and outcome (done, failed, cancelled).",
    ["kind", "outcome"],
    registry=REGISTRY,
)
SOCKETS: Final = Gauge("rummykit_sockets", "Table sockets open.", registry=REGISTRY)
ASSESSMENTS_DUE: Final = Gauge(
    "rummykit_assessments_due",
    "Seats of the site's rated games waiting for their fair-play assessment, as this"
    " process last counted them.",
    registry=REGISTRY,
)
OLDEST_DUE: Final = Gauge(
    "rummykit_assessment_oldest_due_timestamp_seconds",
    "When the oldest game with a seat never claimed for assessment ended (0: none), as"
    " this process last counted.",
    registry=REGISTRY,
)


def action_took(received_at: float) -> None:
    """Count a person's move broadcast now, received at ``received_at`` (perf_counter;
    0: not known, not counted)."""
    if received_at:
        ACTION_SECONDS.observe(time.perf_counter() - received_at)


class Watched(Protocol):
    """What a scrape reads of a running server process."""

    def tables_hosted(self) -> int: ...

    def tables_relayed(self) -> int: ...

    def bot_calls(self) -> dict[str, int]: ...

    def loop_lag(self) -> tuple[list[tuple[float, int]], float, float]:
        """The loop lag's histogram (upper bound in seconds, count; ``inf`` last), the
        sum of the lags (seconds) and the worst."""
        ...


class ServerCollector(Collector):
    """The figures of one running server, read at each scrape."""

    def __init__(self, watched: Callable[[], Watched | None]) -> None:
        self._watched = watched

    def collect(self) -> Iterator[Metric]:
        watched = self._watched()
        if watched is None:
            return
        yield GaugeMetricFamily(
            "rummykit_tables_hosted", "Tables this process hosts.", value=watched.tables_hosted()
        )
        yield GaugeMetricFamily(
            "rummykit_tables_relayed",
            "Tables hosted by other workers that this one relays players to.",
            value=watched.tables_relayed(),
        )
        calls = GaugeMetricFamily(
            "rummykit_bot_calls_now", "Bot calls running and waiting now.", labels=["state"]
        )
        for state, count in watched.bot_calls().items():
            calls.add_metric([state], count)
        yield calls
        buckets, total, worst = watched.loop_lag()
        cumulative, running = [], 0
        for bound, count in buckets:
            running += count
            cumulative.append(("+Inf" if bound == float("inf") else repr(bound), running))
        yield HistogramMetricFamily(
            "rummykit_loop_lag_seconds",
            "How late the event loop woke, each time it was asked to.",
            buckets=cumulative,
            sum_value=total,
        )
        yield GaugeMetricFamily(
            "rummykit_loop_lag_worst_seconds", "The worst lag of the event loop.", value=worst
        )

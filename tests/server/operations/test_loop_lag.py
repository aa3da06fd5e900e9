"""The event-loop lag watch: its figures, a real stall caught and logged, and /healthz."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from rummykit.server.operations.loop_lag import SECONDS_KEPT, LoopLag
from tests.kit.apps import app_client
from tests.kit.databases import make_settings
from tests.kit.wait import wait_until, wait_until_async


def test_histogram_counts_each_lag_under_its_upper_bound() -> None:
    lag = LoopLag()
    for seconds in (0.0004, 0.001, 0.0011, 0.030, 0.7, 9.0):
        lag.record(seconds, at=50.0)
    histogram = lag.snapshot()["histogram_ms"]
    assert histogram["1"] == 2  # 0.4 ms and exactly 1 ms
    assert histogram["2"] == 1
    assert histogram["50"] == 1
    assert histogram["1000"] == 1
    assert histogram["inf"] == 1
    assert sum(histogram.values()) == lag.samples == 6
    assert lag.snapshot()["worst_ms"] == 9000.0


def test_worst_since_keeps_the_worst_of_each_second() -> None:
    lag = LoopLag()
    lag.record(0.200, at=10.1)
    lag.record(0.010, at=10.9)  # a smaller lag later in the same second
    lag.record(0.020, at=12.5)
    assert lag.worst_since(10.0) == pytest.approx(0.200)
    assert lag.worst_since(10.5) == pytest.approx(0.200)  # to the second
    assert lag.worst_since(11.0) == pytest.approx(0.020)
    assert lag.worst_since(13.0) == 0.0
    assert lag.snapshot(since=11.0)["worst_since_ms"] == 20.0


def test_only_the_last_hour_is_kept_by_second() -> None:
    lag = LoopLag()
    lag.record(5.0, at=0.0)
    for second in range(1, SECONDS_KEPT + 1):
        lag.record(0.001, at=float(second))
    assert lag.worst_since(0.0) == pytest.approx(0.001)
    assert lag.worst == 5.0


def test_lags_past_the_threshold_are_stalls_logged_at_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    lag = LoopLag(warn_after=0.1)
    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        lag.record(0.099, at=1.0)
        lag.record(0.350, at=2.0)
        lag.record(0.250, at=3.0, busy=0.2)
    assert lag.stalls == 2
    assert [r.getMessage() for r in caplog.records] == [
        "table=- event=loop_stalled lag_ms=350.0",
        "table=- event=loop_stalled lag_ms=250.0 busy_ms=200.0",
    ]


def _busy_stalls(caplog: pytest.LogCaptureFixture) -> list[float]:
    """The ``busy_ms`` of each stall logged."""
    return [
        float(record.getMessage().split("busy_ms=")[1])
        for record in caplog.records
        if "event=loop_stalled" in record.getMessage()
    ]


async def watched(hold: Callable[[], None]) -> LoopLag:
    """A watch (every 10 ms, a stall from 100 ms) of this loop while ``hold`` holds it:
    started and sampling, then held, then woken (late) and sampling once more."""
    lag = LoopLag(interval=0.01, warn_after=0.1)
    lag.start()
    await wait_until_async(lambda: lag.samples >= 1, 10, what="the watch's first sample")
    hold()
    held = lag.samples
    # the watch wakes late (the stall's sample), then samples once more on time
    await wait_until_async(lambda: lag.samples >= held + 2, 10, what="the watch's waking")
    await lag.stop()
    return lag


def test_a_blocked_loop_is_measured(caplog: pytest.LogCaptureFixture) -> None:
    def blocked() -> None:
        time.sleep(0.3)  # holds the loop, as a blocking call would, using no CPU

    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        lag = asyncio.run(watched(blocked))
    assert 0.25 <= lag.worst < 1.0
    assert lag.stalls == 1
    assert lag.samples >= 3
    [busy] = _busy_stalls(caplog)
    assert busy < 100  # the thread waited


def test_a_loop_held_by_work_is_measured_as_busy(caplog: pytest.LogCaptureFixture) -> None:
    def busy() -> None:
        began = time.thread_time()
        while time.thread_time() - began < 0.25:  # as a long collection would
            pass

    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        lag = asyncio.run(watched(busy))
    assert lag.worst >= 0.2
    assert max(_busy_stalls(caplog)) >= 250


def test_stop_before_start_and_twice_is_harmless() -> None:
    async def scenario() -> None:
        lag = LoopLag(interval=0.01)
        await lag.stop()
        lag.start()
        lag.start()  # still one watch
        await wait_until_async(lambda: lag.samples >= 1, 10, what="the watch's first sample")
        await lag.stop()
        await lag.stop()
        samples = lag.samples
        await asyncio.sleep(0.03)  # three intervals of wall time: a stopped watch samples none
        assert lag.samples == samples

    asyncio.run(scenario())


@pytest.fixture
def server(sqlite_url: str, bot_runner: BotRunner) -> Iterator[TestClient]:
    with app_client(make_settings(sqlite_url), runner=bot_runner) as client:
        yield client


def test_healthz_shows_a_stall_of_the_server_loop(server: TestClient) -> None:
    before = server.get("/healthz").json()["loop_lag"]
    assert before["interval_ms"] == 50.0
    assert set(before) >= {"samples", "worst_ms", "stalls", "histogram_ms", "warning_ms"}
    moment = time.time()
    assert server.portal is not None
    server.portal.call(time.sleep, 0.4)  # runs in the server's event loop, holding it

    def recorded() -> dict[str, Any] | None:
        """The loop's lag since ``moment``, once the watch woke (late) and recorded."""
        health = server.get("/healthz", params={"lag_since": moment}).json()
        lag: dict[str, Any] = health["loop_lag"]
        return lag if lag["stalls"] > before["stalls"] else None

    after = wait_until(recorded, 10, what="the stall in /healthz")
    assert after["worst_since_ms"] >= 300
    assert after["worst_ms"] >= 300
    assert after["stalls"] >= before["stalls"] + 1
    assert after["since"] == moment
    later = server.get("/healthz", params={"lag_since": time.time() + 5}).json()["loop_lag"]
    assert later["worst_since_ms"] == 0.0


def test_healthz_refuses_a_bad_lag_since(server: TestClient) -> None:
    response = server.get("/healthz", params={"lag_since": "yesterday"})
    assert response.status_code == 422
    assert response.json()["error"]["params"] == {"field": "lag_since"}


def test_a_stall_logged_between_two_tests_stays_out_of_the_runs_output() -> None:
    """A ``loop_stalled`` line that a shared server logs while no test runs meets a handler
    below the root (tests/conftest.py), never Python's last-resort one, which would print
    it into the output of the whole run."""
    handlers: list[logging.Handler] = []
    logger: logging.Logger | None = logging.getLogger("rummykit.server.operations.loop_lag")
    while logger is not None and logger is not logging.root:
        handlers += logger.handlers
        logger = logger.parent if logger.propagate else None
    assert handlers

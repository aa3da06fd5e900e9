"""``rummykit bot-worker`` on the real Redis: it starts with nothing but the site's Redis
(a bot worker opens no database), and a killed bot worker's consumer leaves the
streams' group once another has claimed its pending entries.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from rummykit.server.cluster.bot_stream import GROUP, pack, stream_names

REDIS = "redis://127.0.0.1:6379"
STARTUP_DATABASE = 14  # the default prefix, alone in a database of its own


def bare_environment(**settings: str) -> dict[str, str]:
    """This process's environment without any ``RUMMYKIT_*`` setting, plus ``settings``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RUMMYKIT_")}
    env.update(settings)
    return env


def start_bot_worker(env: dict[str, str], log: Path, *options: str) -> subprocess.Popen[bytes]:
    """A bot worker in a process group of its own (its pool's processes die with it)."""
    command = [sys.executable, "-m", "rummykit", "bot-worker", "--processes", "1", *options]
    with log.open("ab") as out:
        return subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def wait_for(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(what)


def consumers(client: redis.Redis, stream: str) -> dict[str, dict[str, Any]]:
    return {
        (c["name"].decode() if isinstance(c["name"], bytes) else c["name"]): c
        for c in client.xinfo_consumers(stream, GROUP)
    }


@pytest.fixture
def startup_redis() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(f"{REDIS}/{STARTUP_DATABASE}")
    streams = stream_names("rummykit")
    client.delete(*streams)
    yield client
    client.delete(*streams)
    client.close()


def test_the_bot_worker_starts_with_only_the_site_s_redis(
    startup_redis: redis.Redis, tmp_path: Path
) -> None:
    log = tmp_path / "bot-worker.log"
    env = bare_environment(RUMMYKIT_REDIS_URL=f"{REDIS}/{STARTUP_DATABASE}")
    process = start_bot_worker(env, log)
    try:
        decisions = stream_names("rummykit")[0]
        wait_for(
            lambda: process.poll() is not None or startup_redis.exists(decisions),
            90,
            "the bot worker made no consumer group",
        )
        assert process.poll() is None, log.read_text()
        time.sleep(1.0)
        assert process.poll() is None, log.read_text()  # still running, reading the streams
        assert "need PostgreSQL" not in log.read_text()
        assert "rummykit bot worker bot-" in log.read_text()
    finally:
        kill_group(process)


@pytest.fixture
def prefix() -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    client = redis.Redis.from_url(f"{REDIS}/0")
    client.delete(*stream_names(name))
    client.close()


def test_a_killed_bot_worker_s_consumer_is_removed_after_its_entries_are_claimed(
    prefix: str, tmp_path: Path
) -> None:
    client = redis.Redis.from_url(f"{REDIS}/0")
    env = bare_environment(RUMMYKIT_REDIS_URL=f"{REDIS}/0", RUMMYKIT_REDIS_PREFIX=prefix)
    options = ("--claim-after", "1", "--forget-after", "3")
    decisions = stream_names(prefix)[0]
    first = start_bot_worker(env, tmp_path / "first.log", *options)
    second: subprocess.Popen[bytes] | None = None
    try:
        wait_for(lambda: client.exists(decisions), 90, "the first bot worker did not start")
        # a call that takes a few seconds: the first bot worker dies in the middle of it
        call = pack(functools.partial(time.sleep, 3.0))
        client.xadd(decisions, {"call": call, "id": "slow", "reply": f"{prefix}:nobody"})
        pending = wait_for(
            lambda: client.xpending_range(decisions, GROUP, "-", "+", 10),
            60,
            "the first bot worker took nothing",
        )
        dead = pending[0]["consumer"].decode()
        kill_group(first)
        second = start_bot_worker(env, tmp_path / "second.log", *options)

        def claimed_and_answered() -> bool:
            return client.xpending(decisions, GROUP)["pending"] == 0 and any(
                name != dead for name in consumers(client, decisions)
            )

        wait_for(claimed_and_answered, 90, "the dead bot worker's entry was not taken over")
        wait_for(
            lambda: dead not in consumers(client, decisions),
            30,
            f"the dead consumer is still registered: {consumers(client, decisions)}",
        )
        assert second.poll() is None
        assert list(consumers(client, decisions)) != []  # the live one stays (or comes back)
    finally:
        kill_group(first)
        if second is not None:
            kill_group(second)
        client.close()

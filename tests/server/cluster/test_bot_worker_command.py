"""``rummykit bot-worker`` on the real Redis: it starts with nothing but the site's Redis
(a bot worker opens no database), and a killed bot worker's consumer leaves the
streams' group once another has claimed its pending entries.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from rummykit.server.cluster.bot_stream import GROUP, pack, stream_names
from tests.kit.processes import BotWorkerProcess, bare_environment
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.wait import wait_until

STARTUP_DATABASE = 14  # the default prefix, alone in a database of its own
STARTUP_URL = f"{REDIS_URL.rsplit('/', 1)[0]}/{STARTUP_DATABASE}"


def consumers(client: redis.Redis, stream: str) -> dict[str, dict[str, Any]]:
    return {
        (c["name"].decode() if isinstance(c["name"], bytes) else c["name"]): c
        for c in client.xinfo_consumers(stream, GROUP)
    }


@pytest.fixture
def startup_redis() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(STARTUP_URL)
    streams = stream_names("rummykit")
    client.delete(*streams)
    yield client
    client.delete(*streams)
    client.close()


def test_the_bot_worker_starts_with_only_the_site_s_redis(
    startup_redis: redis.Redis, tmp_path: Path
) -> None:
    log = tmp_path / "bot-worker.log"
    process = BotWorkerProcess(bare_environment(REDIS_URL=STARTUP_URL), log)
    try:
        decisions = stream_names("rummykit")[0]
        wait_until(
            lambda: not process.alive() or startup_redis.exists(decisions),
            90,
            what="the bot worker's consumer group",
        )
        assert process.alive(), log.read_text()

        def reading() -> bool:  # a connection of the bot worker blocked on the streams
            return any(
                client["db"] == str(STARTUP_DATABASE) and client["cmd"] == "xreadgroup"
                for client in startup_redis.client_list()
            )

        wait_until(
            lambda: not process.alive() or reading(), 30, what="the bot worker reading the streams"
        )
        assert process.alive(), log.read_text()  # still running, reading the streams
        assert "need PostgreSQL" not in log.read_text()
        assert "rummykit bot worker bot-" in log.read_text()
    finally:
        process.kill()


@pytest.fixture
def prefix() -> Iterator[str]:
    name = new_prefix()
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    client.delete(*stream_names(name))
    client.close()


def test_a_killed_bot_worker_s_consumer_is_removed_after_its_entries_are_claimed(
    prefix: str, tmp_path: Path
) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    env = bare_environment(REDIS_URL=REDIS_URL, REDIS_PREFIX=prefix)
    options = ("--claim-after", "1", "--forget-after", "3")
    decisions = stream_names(prefix)[0]
    first = BotWorkerProcess(env, tmp_path / "first.log", *options)
    second: BotWorkerProcess | None = None
    try:
        wait_until(lambda: client.exists(decisions), 90, what="the first bot worker's start")
        # a call that takes a few seconds: the first bot worker dies in the middle of it
        call = pack(functools.partial(time.sleep, 3.0))  # work that takes wall time
        client.xadd(decisions, {"call": call, "id": "slow", "reply": f"{prefix}:nobody"})
        pending = wait_until(
            lambda: client.xpending_range(decisions, GROUP, "-", "+", 10),
            60,
            what="the first bot worker taking the call",
        )
        consumer = pending[0]["consumer"]
        dead = consumer.decode() if isinstance(consumer, bytes) else str(consumer)
        first.kill()
        second = BotWorkerProcess(env, tmp_path / "second.log", *options)

        def claimed_and_answered() -> bool:
            return client.xpending(decisions, GROUP)["pending"] == 0 and any(
                name != dead for name in consumers(client, decisions)
            )

        wait_until(claimed_and_answered, 90, what="the dead bot worker's entry taken over")
        wait_until(
            lambda: dead not in consumers(client, decisions),
            30,
            what="the dead consumer's removal",
        )
        assert second.alive()
        assert list(consumers(client, decisions)) != []  # the live one stays (or comes back)
    finally:
        first.kill()
        if second is not None:
            second.kill()
        client.close()

"""The account limits of a site, counted in Redis for every worker together: a limit
holds against attempts racing at several workers at once, across two real workers a
flood of logins for one name is checked only as often as the limit allows, and with
Redis away an attempt is refused with a typed 503, never let through uncounted."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import BlockingConnectionPool, Redis

from rummykit.server.accounts.throttles import LimitsUnavailable, Throttled
from rummykit.server.cluster.redis_throttles import RedisWindow, shared_limits
from tests.kit import http_clients
from tests.kit.apps import OpenClient
from tests.kit.players import credentials
from tests.kit.processes import ServerProcess
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.site import Site


def test_a_window_counts_every_key_and_gives_back() -> None:
    async def run() -> None:
        redis = Redis.from_url(REDIS_URL)
        window = RedisWindow(redis, "login", 2, 10.0, prefix=new_prefix())
        try:
            first = await window.take("name:ann", "address:a")
            await window.take("name:ann", "address:b")
            with pytest.raises(Throttled) as throttled:
                await window.take("name:ann", "address:c")  # the name is full
            assert 9 <= throttled.value.retry_after <= 10
            with pytest.raises(Throttled):
                await window.take("name:bob", "address:a", "address:b", "name:ann")
            await window.take("name:bob", "address:a")  # nothing was recorded for bob
            await first.give_back()
            await first.give_back()  # once only
            await window.take("name:ann", "address:d")
            with pytest.raises(Throttled):
                await window.take("name:ann")
        finally:
            await redis.aclose()

    asyncio.run(run())


def test_attempts_racing_at_several_workers_never_pass_the_limit() -> None:
    async def run() -> list[bool]:
        prefix = new_prefix()
        # four workers, each with a bounded pool: the attempts race over 40 connections.
        # The client's own time limits (5 s to connect, 5 s a reply) are lifted: a test
        # process left unscheduled that long on a busy machine is not what this is about
        pools = [
            BlockingConnectionPool.from_url(
                REDIS_URL, max_connections=10, socket_connect_timeout=60, socket_timeout=60
            )
            for _ in range(4)
        ]
        clients = [Redis(connection_pool=pool) for pool in pools]
        windows = [RedisWindow(c, "login", 5, 60.0, prefix=prefix) for c in clients]

        async def attempt(index: int) -> bool:
            try:
                await windows[index % 4].take("name:ann", f"address:{index}")
            except Throttled:
                return False
            return True

        try:
            return list(await asyncio.gather(*(attempt(i) for i in range(200))))
        finally:
            for client, pool in zip(clients, pools, strict=True):
                await client.aclose()
                await pool.aclose()  # a pool given to a client is not closed with it

    assert sum(asyncio.run(run())) == 5


@pytest.fixture
def workers(postgres_schema: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two ``rummykit serve`` processes of one site, five login attempts a minute.

    Processes, not threads of the test's own: in one process the two workers' event
    loops and the test's client share one GIL, and on a busy machine a loop held up for
    seconds saw its Redis commands time out (a 503) as if Redis were away."""
    with Site(tmp_path, postgres_schema, workers=2, LOGIN_ATTEMPTS_PER_MINUTE="5") as site:
        yield site.workers


def test_logins_spread_over_two_workers_are_checked_five_times(
    workers: list[ServerProcess],
) -> None:
    async def flood() -> list[int]:
        async with http_clients.async_client(timeout=60) as client:

            async def login(index: int) -> int:
                server = workers[index % 2]
                body = {"name": "victim", "password": f"guess-{index}-long-enough"}
                return (await client.post(f"{server.url}/api/login", json=body)).status_code

            return list(await asyncio.gather(*(login(i) for i in range(40))))

    codes = asyncio.run(flood())
    assert codes.count(401) == 5, codes  # checked (and wrong)
    assert codes.count(429) == 35, codes  # refused before any check


NOBODY = "redis://127.0.0.1:1"  # no Redis listens there: every connection is refused


def test_a_window_whose_redis_is_away_refuses_the_attempt() -> None:
    async def run() -> None:
        away = Redis.from_url(NOBODY)
        window = RedisWindow(away, "login", 5, 60.0, prefix=new_prefix())
        try:
            with pytest.raises(LimitsUnavailable):
                await window.take("name:ann", "address:a")
        finally:
            await away.aclose()

    asyncio.run(run())


def test_an_account_route_whose_limit_cannot_be_counted_answers_a_typed_503(
    open_client: OpenClient,
) -> None:
    client = open_client()
    server = client.app.state.server  # type: ignore[attr-defined]
    assert client.post("/api/register", json=credentials("ann_limits")).status_code == 200
    client.cookies.clear()
    server.limits = shared_limits(Redis.from_url(NOBODY), new_prefix(), server.settings)
    for path, body in (
        ("/api/login", credentials("ann_limits")),
        ("/api/register", credentials("bob_limits")),
        ("/api/session", {"nickname": "cy"}),
    ):
        answer = client.post(path, json=body)
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "limits_unavailable"
    assert client.get("/api/me").status_code == 401  # nobody was let in

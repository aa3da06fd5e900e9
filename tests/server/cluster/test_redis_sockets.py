"""Each player's open table sockets counted in Redis for the workers of a site: the cap
holds across workers, even for sockets opened at several workers at once; a socket
closed gives its place back; the sockets of a worker that stopped renewing them (it
died) lapse; and one player's sockets at two real workers count together.  Memory's own
count (one process) is checked too."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from redis.asyncio import Redis
from websockets.sync.client import connect

from rummykit.server.accounts.socket_caps import LocalSockets
from rummykit.server.cluster.redis_sockets import RedisSockets
from tests.kit import http_clients
from tests.kit.live import LiveServer
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.workers import OpenWorkers

LIMIT = 5


def test_the_cap_holds_across_workers_racing_for_one_player() -> None:
    async def run() -> None:
        prefix = new_prefix()
        clients = [Redis.from_url(REDIS_URL) for _ in range(3)]  # three workers
        workers = [
            RedisSockets(client, prefix=prefix, limit=LIMIT, worker_id=f"w{number}")
            for number, client in enumerate(clients)
        ]
        try:
            taken = await asyncio.gather(
                *(workers[n % 3].take("ann") for n in range(30))
            )  # fmt: skip
            slots = [slot for slot in taken if slot is not None]
            assert len(slots) == LIMIT
            assert await workers[0].take("bob") is not None  # another player's count
            await slots[0].give_back()
            await slots[0].give_back()  # once only
            again = await workers[2].take("ann")
            assert again is not None
            assert await workers[1].take("ann") is None
        finally:
            await clients[0].delete(workers[0].key("ann"), workers[0].key("bob"))
            for client in clients:
                await client.aclose()

    asyncio.run(run())


def test_a_dead_worker_s_sockets_lapse_and_a_live_one_s_are_renewed() -> None:
    async def run() -> None:
        prefix = new_prefix()
        client = Redis.from_url(REDIS_URL)
        dead = RedisSockets(client, prefix=prefix, limit=2, worker_id="dead", lapse_seconds=0.5)
        live = RedisSockets(client, prefix=prefix, limit=2, worker_id="live", lapse_seconds=0.5)
        try:
            assert await dead.take("ann") is not None
            assert await live.take("ann") is not None
            assert await live.take("ann") is None
            # the live worker renews, the dead one does not, for longer than a lapse:
            # lapses are wall time, by Redis's own clock
            for _ in range(4):
                await asyncio.sleep(0.2)  # wall time: the dead one's lapse runs out
                await live.renew()
            assert await live.take("ann") is not None  # the dead one's socket lapsed
            assert await dead.take("ann") is None  # the live one's two still count
        finally:
            await client.delete(live.key("ann"))
            await client.aclose()

    asyncio.run(run())


def test_memory_counts_each_player_and_gives_back_once() -> None:
    async def run() -> None:
        sockets = LocalSockets(2)
        first = await sockets.take("ann")
        assert first is not None
        assert await sockets.take("ann") is not None
        assert await sockets.take("ann") is None
        assert await sockets.take("bob") is not None
        await first.give_back()
        await first.give_back()
        assert sockets.open_sockets("ann") == 1
        assert await sockets.take("ann") is not None
        assert await sockets.take("ann") is None

    asyncio.run(run())


@pytest.fixture
def workers(open_workers: OpenWorkers) -> tuple[LiveServer, ...]:
    """Two workers of one site, three table sockets a player."""
    return open_workers(sockets_per_player=3)


def test_one_player_s_sockets_at_two_workers_count_together(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = workers
    with http_clients.client(base_url=first.url, timeout=60) as http:
        http.post("/api/session", json={"nickname": "two-workers"}).raise_for_status()
        cookie = http.cookies["rummykit_session"]
        created = http.post(
            "/api/tables",
            json={"game": "three-thirteen", "seats": [{"kind": "bot", "level": "greedy"}] * 2,
                  "sit": False},
        )  # fmt: skip
        created.raise_for_status()
    table_id = created.json()["table_id"]
    headers = {"Cookie": f"rummykit_session={cookie}"}

    def first_message(server: LiveServer, stack: contextlib.ExitStack) -> dict[str, Any]:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        ws = stack.enter_context(connect(url, additional_headers=headers, open_timeout=60))
        message: dict[str, Any] = json.loads(ws.recv(timeout=60))
        return message

    with contextlib.ExitStack() as stack:
        opened = [first_message(server, stack) for server in (first, second, first)]
        assert all(message["type"] != "error" for message in opened), opened
        for server in (second, first):  # the fourth is refused at either worker
            refused = first_message(server, stack)
            assert (refused["type"], refused["code"]) == ("error", "too_many_sockets")

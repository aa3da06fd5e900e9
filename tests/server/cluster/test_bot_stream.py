"""A site's bot work on its shared queue: a server worker with ``bot_queue = "redis"``
runs no bot itself; ``rummykit bot-worker`` processes answer its decisions and hints
through Redis Streams, and one killed mid-game (SIGKILL) costs a retry, not the game.

One server for the module (no test stops it); each test starts its own bot workers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.kit import http_clients
from tests.kit.databases import new_postgres_schema
from tests.kit.processes import BotWorkerProcess, ServerProcess, free_port, site_environment
from tests.kit.scripted import expected_actions
from tests.kit.wait import wait_until

CLAIM_AFTER = 2.0


class BotWorkers:
    """``rummykit bot-worker`` processes of one site, each killed at the end."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.processes: list[BotWorkerProcess] = []

    def start(self) -> BotWorkerProcess:
        process = BotWorkerProcess(self.env, self.log, "--claim-after", str(CLAIM_AFTER))
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            process.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server worker of a site whose bots run at its bot workers."""
    folder = tmp_path_factory.mktemp("bot-stream")
    with new_postgres_schema() as schema:
        env = site_environment(
            schema,
            BOT_QUEUE="redis",
            BOT_PAUSE_SECONDS="0.05",
            SECRET_KEY="bot-stream-test",
            HINT_ITERATIONS="8",
        )
        with ServerProcess(env, free_port(), folder / "server.log") as server:
            yield server


@pytest.fixture
def bots(server: ServerProcess, tmp_path: Path) -> Iterator[BotWorkers]:
    """The test's bot workers (none started yet), all killed at its end."""
    workers = BotWorkers(server.env, tmp_path / "bots.log")
    try:
        yield workers
    finally:
        workers.stop()


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            found.extend(int(child) for child in listed.read().split())
    return found


def test_bot_workers_play_a_table_and_one_killed_costs_a_retry(
    server: ServerProcess, bots: BotWorkers
) -> None:
    first = bots.start()
    with http_clients.client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
        http.post("/api/session", json={"nickname": "host"}).raise_for_status()
        created = http.post(
            "/api/tables",
            json={"game": "burraco", "rules": {"mode": "quick"},
                  "seats": [{"kind": "bot", "level": "greedy"}] * 2, "sit": False},
        ).json()  # fmt: skip
        table_id = created["table_id"]

        def actions() -> int:
            return len(http.get(f"/api/tables/{table_id}/record").json()["actions"])

        wait_until(lambda: actions() >= 10, 60, what="ten bot moves")  # the bots play
        first.kill()  # maybe in the middle of a decision
        bots.start()

        def over() -> bool:
            return bool(http.get(f"/api/tables/{table_id}").json()["status"] == "over")

        wait_until(over, 240, what="the game's end", interval=0.25)
        record = http.get(f"/api/tables/{table_id}/record").json()
    assert record["actions"] == expected_actions(record, set())  # the bots' own moves
    assert server.process is not None
    assert children_of(server.process.pid) == []  # the server ran no bot of its own
    assert "bot_unavailable" not in server.log.read_text()


def test_a_hint_comes_from_the_bot_workers(server: ServerProcess, bots: BotWorkers) -> None:
    bots.start()
    with http_clients.client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
        http.post("/api/session", json={"nickname": "asker"}).raise_for_status()
        cookie = http.cookies["rummykit_session"]
        created = http.post(
            "/api/tables",
            json={"game": "three-thirteen", "seats": [{"kind": "human"},
                  {"kind": "bot", "level": "greedy"}], "turn_seconds": None},
        ).json()  # fmt: skip
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{created['table_id']}"

    with connect(url, additional_headers={"Cookie": f"rummykit_session={cookie}"}) as ws:

        def our_turn() -> list[str] | None:
            message = json.loads(ws.recv(timeout=60))
            found = message["type"] == "state" and message["legal_actions"]
            return list(message["legal_actions"]) if found else None

        legal = wait_until(our_turn, 60, what="our turn", interval=0)  # the bot may move first
        ws.send(json.dumps({"type": "hint"}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "hint":
                break
            assert message["type"] != "error", message
    assert message["action"] in legal

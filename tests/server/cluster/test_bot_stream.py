"""A site's bot work on its shared queue: a server worker with ``bot_queue = "redis"``
runs no bot itself; ``rummykit bot-worker`` processes answer its decisions and hints
through Redis Streams, and one killed mid-game (SIGKILL) costs a retry, not the game.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.kit.processes import REDIS_URL, ServerProcess, free_port
from tests.kit.scripted import expected_actions
from tests.server.conftest import POSTGRES_URL

CLAIM_AFTER = 2.0


class BotWorkers:
    """``rummykit bot-worker`` processes of one site."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "rummykit", "bot-worker", "--processes", "1"]
        command += ["--claim-after", str(CLAIM_AFTER)]
        with self.log.open("ab") as out:
            process = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str) -> Iterator[tuple[ServerProcess, BotWorkers]]:
    env = dict(os.environ)
    env.update(
        RUMMYKIT_DATABASE_URL=POSTGRES_URL,
        RUMMYKIT_DATABASE_SCHEMA=postgres_schema,
        RUMMYKIT_REDIS_URL=REDIS_URL,
        RUMMYKIT_REDIS_PREFIX=f"test-{uuid.uuid4().hex[:12]}",
        RUMMYKIT_BOT_QUEUE="redis",
        RUMMYKIT_BOT_PAUSE_SECONDS="0.05",
        RUMMYKIT_SECRET_KEY="bot-stream-test",
        RUMMYKIT_HINT_ITERATIONS="8",
    )
    server = ServerProcess(env, free_port(), tmp_path / "server.log")
    bots = BotWorkers(env, tmp_path / "bots.log")
    server.start()
    yield server, bots
    bots.stop()
    if server.process is not None and server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            found.extend(int(child) for child in listed.read().split())
    return found


def test_bot_workers_play_a_table_and_one_killed_costs_a_retry(
    site: tuple[ServerProcess, BotWorkers],
) -> None:
    server, bots = site
    first = bots.start()
    with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
        http.post("/api/session", json={"nickname": "host"}).raise_for_status()
        created = http.post(
            "/api/tables",
            json={"game": "burraco", "rules": {"mode": "quick"},
                  "seats": [{"kind": "bot", "level": "greedy"}] * 2, "sit": False},
        ).json()  # fmt: skip
        table_id = created["table_id"]

        def actions() -> int:
            return len(http.get(f"/api/tables/{table_id}/record").json()["actions"])

        deadline = time.monotonic() + 60
        while actions() < 10:  # the bot worker is playing
            assert time.monotonic() < deadline, "no bot move came"
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)  # maybe in the middle of a decision
        first.wait()
        bots.start()
        deadline = time.monotonic() + 240
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.25)
        record = http.get(f"/api/tables/{table_id}/record").json()
    assert record["actions"] == expected_actions(record, set())  # the bots' own moves
    assert server.process is not None
    assert children_of(server.process.pid) == []  # the server ran no bot of its own
    assert "bot_unavailable" not in server.log.read_text()


def test_a_hint_comes_from_the_bot_workers(site: tuple[ServerProcess, BotWorkers]) -> None:
    server, bots = site
    bots.start()
    with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
        http.post("/api/session", json={"nickname": "asker"}).raise_for_status()
        cookie = http.cookies["rummykit_session"]
        created = http.post(
            "/api/tables",
            json={"game": "three-thirteen", "seats": [{"kind": "human"},
                  {"kind": "bot", "level": "greedy"}], "turn_seconds": None},
        ).json()  # fmt: skip
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{created['table_id']}"

    with connect(url, additional_headers={"Cookie": f"rummykit_session={cookie}"}) as ws:
        deadline = time.monotonic() + 60
        while True:  # wait for our turn (the bot may move first), then ask
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "state" and message["legal_actions"]:
                legal = message["legal_actions"]
                break
            assert time.monotonic() < deadline
        ws.send(json.dumps({"type": "hint"}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "hint":
                break
            assert message["type"] != "error", message
    assert message["action"] in legal

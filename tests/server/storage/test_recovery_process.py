"""Recovery of a real server process killed (SIGKILL) at random moments.

A scripted client plays a game against a server bot; the server process is killed at
random points (right after an action is sent, or right after one is acknowledged),
started again on the same database, and the client reconnects and goes on.  At the end
no acknowledged action is missing and the game equals the same deterministic players'
game replayed here without any kill.
"""

from __future__ import annotations

import json
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.kit import http_clients
from tests.kit.processes import (
    SCRIPTED_PLAY,
    ServerProcess,
    database_environment,
    free_port,
    server_environment,
)
from tests.kit.scripted import choose, expected_actions

KILLS = 3


@pytest.fixture
def server(database: dict[str, Any], tmp_path: Path) -> Iterator[ServerProcess]:
    env = server_environment(**SCRIPTED_PLAY, SECRET_KEY="recovery-test")
    env.update(database_environment(database))
    with ServerProcess(env, free_port(), tmp_path / "server.log") as process:
        yield process


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with http_clients.client(base_url=f"http://127.0.0.1:{server.port}") as client:
        yield client


@pytest.mark.parametrize(
    ("game", "rules"),
    [("three-thirteen", {"first_round": 1, "last_round": 4}), ("burraco", {"mode": "quick"})],
)
def test_killed_server_resumes_every_table(
    server: ServerProcess, http: httpx.Client, game: str, rules: dict[str, Any]
) -> None:
    rng = random.Random(f"{game}-{server.port}")
    http.post("/api/session", json={"nickname": "scripted"}).raise_for_status()
    cookie = http.cookies["rummykit_session"]
    created = http.post(
        "/api/tables",
        json={
            "game": game,
            "rules": rules,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
            "turn_seconds": None,
        },
    ).json()
    table_id = created["table_id"]
    sent: dict[int, str] = {}
    acknowledged: set[int] = set()
    kills = 0
    over = None
    while over is None:
        countdown = rng.randint(1, 6) if kills < KILLS else None
        kill_on_send = rng.random() < 0.5
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        try:
            with connect(url, additional_headers={"Cookie": f"rummykit_session={cookie}"}) as ws:
                acted = -1
                base = len(acknowledged)
                while True:
                    message = json.loads(ws.recv(timeout=60))
                    if message["type"] == "game_over":
                        over = message
                        break
                    assert message["type"] == "state", message
                    number = message["state_number"]
                    acknowledged.update(n for n in sent if n < number)
                    if (
                        countdown is not None
                        and not kill_on_send
                        and len(acknowledged) - base >= (countdown)
                    ):
                        raise TimeoutError  # kill now, right after an acknowledgement
                    if message["legal_actions"] and number != acted:
                        acted = number
                        action = choose(number, message["legal_actions"])
                        sent[number] = action
                        ws.send(json.dumps(
                            {"type": "action", "state_number": number, "action": action}
                        ))  # fmt: skip
                        if countdown is not None and kill_on_send:
                            countdown -= 1
                            if countdown <= 0:
                                raise TimeoutError  # kill now, the action maybe unstored
        except (TimeoutError, ConnectionClosed):
            pass
        if over is None:
            server.kill()
            kills += 1
            server.start()
    assert kills >= 2  # the game may end before the last planned kill
    http.cookies.set("rummykit_session", cookie)
    record = http.get(f"/api/tables/{table_id}/record").json()
    assert record["totals"] == over["totals"]
    for number in acknowledged:
        assert record["actions"][number] == sent[number]  # no acknowledged action lost
    assert record["actions"] == expected_actions(record, {0})
    code = server.terminate()
    assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal after shutting down
    log = server.log.read_text()
    assert log.count("event=server_started") == KILLS + 1
    assert log.count("event=server_stopped") == 1  # only the SIGTERM let it finish

"""Recovery of a real server process killed (SIGKILL) at random moments.

A scripted client plays a game against a server bot; the server process is killed at
random points (right after an action is sent, or right after one is acknowledged),
started again on the same database, and the client reconnects and goes on.  At the end
no acknowledged action is missing and the game equals the same deterministic players'
game replayed here without any kill.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.bots.service import decide
from rummykit.server.table.committed_deal import bot_seed
from tests.server.conftest import POSTGRES_URL

KILLS = 3


def choose(state_number: int, legal: list[str]) -> str:
    """The scripted player: a fixed pseudo-random legal action (seldom the pile)."""
    options = [a for a in legal if a != "take"] or legal
    digest = hashlib.sha256(f"scripted|{state_number}".encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.env = env
        self.port = port
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                # every table event in the log the tests read
                [sys.executable, "-m", "rummykit", "serve", "--verbose", "--port", str(self.port)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).is_success:
                    return
            time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    env = dict(os.environ)
    env.update(
        RUMMYKIT_BOT_PAUSE_SECONDS="0",
        RUMMYKIT_BOT_WORKERS="1",
        RUMMYKIT_SECRET_KEY="recovery-test",
        RUMMYKIT_MESSAGES_PER_SECOND="1000",
        RUMMYKIT_MESSAGE_BURST="1000",
        RUMMYKIT_LOG_LEVEL="INFO",
    )
    if request.param == "sqlite":
        env["RUMMYKIT_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite3'}"
    else:
        env["RUMMYKIT_DATABASE_URL"] = POSTGRES_URL
        env["RUMMYKIT_DATABASE_SCHEMA"] = request.getfixturevalue("postgres_schema")
    process = ServerProcess(env, free_port(), tmp_path / "server.log")
    process.start()
    yield process
    if process.process is not None and process.process.poll() is None:
        process.process.kill()
        process.process.wait()


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"http://127.0.0.1:{server.port}") as client:
        yield client


def expected_actions(record: dict[str, Any], people: set[int]) -> list[str]:
    """The same players' game without any kill: the scripted choice for the seats of
    ``people``, the greedy bot's for the others."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    actions: list[str] = []
    while not state.game_over:
        number = len(actions)
        seat = state.current_player
        legal = [game.format_action(a) for a in state.legal_actions()]
        if seat in people:
            action = choose(number, legal)
        else:
            observation = state.observation(seat).to_json()
            action, _ = decide(
                game.name, "greedy", observation, legal, bot_seed(record["nonce"], number, seat)
            )
        state.apply(game.parse_action(action))
        actions.append(action)
    return actions


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

"""``rummykit serve`` and ``rummykit bot-worker`` as a host runs them: a log level set in
the environment is the level logged (``INFO`` shows the tables' events without
``--verbose``), ``--log-format json`` writes one JSON object a line with the table,
worker and player ids, and Ctrl-C (SIGINT to the whole process group, as a terminal
sends it, pool processes included) stops either with no traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.kit import http_clients
from tests.kit.databases import postgres_schema
from tests.kit.processes import bare_environment, site_environment
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.threaded import free_port
from tests.kit.wait import wait_until

__all__ = ["postgres_schema"]  # a fixture of the tests here

SIGINT_IGNORED = 1 << (signal.SIGINT - 1)


class Launched:
    """A ``rummykit`` command in a process group of its own, its error stream (the log
    lines) and its output kept in files."""

    def __init__(self, tmp_path: Path, env: dict[str, str], *arguments: str) -> None:
        self.stderr_path = tmp_path / "stderr.log"
        self.stdout_path = tmp_path / "stdout.log"
        with self.stderr_path.open("wb") as errors, self.stdout_path.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rummykit", *arguments],
                # a process that does not stop tells where it is when aborted (ctrl_c)
                env={**env, "PYTHONFAULTHANDLER": "1"},
                stdout=out,
                stderr=errors,
                start_new_session=True,
            )

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    @property
    def stdout(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    def children(self) -> list[int]:
        """The process ids of this process's children (its pool's workers among them)."""
        found: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            found += [int(p) for p in (task / "children").read_text().split()]
        return found

    def pool_ignores_ctrl_c(self) -> bool:
        """Whether this process has children and every one ignores SIGINT (the pool's
        workers have run their start-up)."""
        children = self.children()
        for child in children:
            status = Path(f"/proc/{child}/status").read_text()
            ignored = next(line for line in status.splitlines() if line.startswith("SigIgn:"))
            if not int(ignored.split()[1], 16) & SIGINT_IGNORED:
                return False
        return bool(children)

    def ctrl_c(self) -> int:
        """SIGINT to the whole group, as a terminal's Ctrl-C; the exit status, which must
        be 0 or, as a shell reports a command Ctrl-C stopped, 130."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            status = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGABRT)  # each process prints its threads
            self.process.wait(timeout=30)
            pytest.fail(f"still running 60 s after Ctrl-C; its threads:\n{self.stderr[-8000:]}")
        assert status in (0, 130), (status, self.stderr[-3000:])
        return status

    def end(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


@pytest.fixture
def launched(tmp_path: Path) -> Iterator[list[Launched]]:
    """The commands a test launches, killed at its end if still running."""
    started: list[Launched] = []
    yield started
    for one in started:
        one.end()


def serve(
    tmp_path: Path, launched: list[Launched], env: dict[str, str], *options: str
) -> tuple[Launched, str]:
    """``rummykit serve`` with ``env`` and ``options`` on a free port, started (it answers
    ``/healthz``); it and its address."""
    port = free_port()
    server = Launched(tmp_path, env, "serve", "--port", str(port), *options)
    launched.append(server)
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert server.process.poll() is None, server.stderr[-3000:]
        try:
            return http_clients.get(f"{url}/healthz", timeout=2).is_success
        except httpx.HTTPError:
            return False

    wait_until(healthy, 60, what="the server's start", interval=0.1)
    return server, url


def sqlite_environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    return bare_environment(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'host.sqlite3'}",
        SECRET_KEY="host-logs",
        BOT_WORKERS="1",
        **settings,
    )


def open_a_table(url: str) -> tuple[str, str]:
    """A guest opens a table of two seats and another guest takes the second: the
    table's id and the second guest's."""
    ids: list[str] = []
    with (
        http_clients.client(base_url=url, timeout=30) as host,
        http_clients.client(base_url=url, timeout=30) as guest,
    ):
        for client in (host, guest):
            session = client.post("/api/session", json={"nickname": "Host"})
            assert session.status_code == 200, session.text
            ids.append(session.json()["player_id"])
        seats = [{"kind": "human"}, {"kind": "human"}]
        table = host.post("/api/tables", json={"game": "three-thirteen", "seats": seats})
        assert table.status_code == 200, table.text
        table_id = str(table.json()["table_id"])
        joined = guest.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200, joined.text
    return table_id, ids[1]


def test_info_in_the_environment_prints_the_tables_events(
    tmp_path: Path, launched: list[Launched]
) -> None:
    server, url = serve(tmp_path, launched, sqlite_environment(tmp_path, LOG_LEVEL="info"))
    table_id, player_id = open_a_table(url)
    wait_until(
        lambda: f"table={table_id} event=seat_taken" in server.stderr,
        what="the table's events in the terminal",
    )
    assert f"player='{player_id}'" in server.stderr
    assert " DEBUG " not in server.stderr


def test_warning_in_the_environment_prints_no_table_event(
    tmp_path: Path, launched: list[Launched]
) -> None:
    env = sqlite_environment(tmp_path, LOG_LEVEL="WARNING")
    server, url = serve(tmp_path, launched, env, "--log-file", str(tmp_path / "kept.log"))
    open_a_table(url)
    server.ctrl_c()
    for where in (server.stderr, (tmp_path / "kept.log").read_text()):
        assert "event=created" not in where and "event=seat_taken" not in where
        assert " INFO " not in where


def json_lines(text: str) -> list[dict[str, Any]]:
    """Every line of ``text`` as JSON (each must be an object)."""
    lines = [json.loads(line) for line in text.splitlines() if line]
    assert all(isinstance(line, dict) for line in lines)
    return lines


def test_json_lines_carry_the_table_worker_and_player(
    tmp_path: Path, launched: list[Launched], postgres_schema: str
) -> None:
    env = site_environment(postgres_schema, SECRET_KEY="host-logs", LOG_LEVEL="INFO")
    server, url = serve(tmp_path, launched, env, "--log-format", "json")
    table_id, player_id = open_a_table(url)

    def seated() -> dict[str, Any] | None:
        return next(
            (
                line
                for line in json_lines(server.stderr)
                if line.get("event") == "seat_taken" and line.get("table") == table_id
            ),
            None,
        )

    line = wait_until(seated, what="the seat_taken line")
    assert line["player"] == player_id and line["level"] == "INFO"
    started = next(e for e in json_lines(server.stderr) if e.get("event") == "worker_started")
    assert line["worker"] == started["worker"] and ":" in line["worker"]
    assert any("message" in e for e in json_lines(server.stderr))  # a request line
    server.ctrl_c()
    json_lines(server.stderr)  # to the last line, shutdown included


def test_ctrl_c_stops_serve_with_no_traceback(tmp_path: Path, launched: list[Launched]) -> None:
    server, _ = serve(tmp_path, launched, sqlite_environment(tmp_path))
    wait_until(server.pool_ignores_ctrl_c, 60, what="the bot workers' start")
    server.ctrl_c()
    assert "Traceback" not in server.stderr + server.stdout
    assert "KeyboardInterrupt" not in server.stderr + server.stdout


def says_ctrl_c_stops_it(worker: Launched) -> bool:
    return "Ctrl-C stops it" in worker.stdout


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_ctrl_c_stops_the_bot_worker_with_no_traceback(
    tmp_path: Path, launched: list[Launched], log_format: str
) -> None:
    env = bare_environment(REDIS_URL=REDIS_URL, REDIS_PREFIX=new_prefix(), LOG_FORMAT=log_format)
    worker = Launched(tmp_path, env, "bot-worker", "--processes", "1")
    launched.append(worker)
    wait_until(partial(says_ctrl_c_stops_it, worker), 60, what="the bot worker's start")
    wait_until(worker.pool_ignores_ctrl_c, 60, what="the bot worker's pool")
    worker.ctrl_c()
    assert "Traceback" not in worker.stderr + worker.stdout
    assert "KeyboardInterrupt" not in worker.stderr + worker.stdout
    if log_format == "json":
        json_lines(worker.stderr)


def test_ctrl_c_as_soon_as_the_bot_worker_says_so_stops_it(
    tmp_path: Path, launched: list[Launched]
) -> None:
    """Ctrl-C the moment the bot worker says Ctrl-C stops it, while its event loop and
    pool are still starting (a cancellation landing in redis-py's connect was swallowed,
    and the worker read its streams for good)."""
    for attempt in range(5):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        env = bare_environment(REDIS_URL=REDIS_URL, REDIS_PREFIX=new_prefix())
        worker = Launched(folder, env, "bot-worker", "--processes", "1")
        launched.append(worker)
        wait_until(partial(says_ctrl_c_stops_it, worker), 60, what="the bot worker's start")
        worker.ctrl_c()
        assert "Traceback" not in worker.stderr + worker.stdout, worker.stderr
        assert "KeyboardInterrupt" not in worker.stderr + worker.stdout, worker.stderr

"""Server processes for tests: ``rummykit serve`` started on a free port of 127.0.0.1 and
waited for until it answers ``/healthz``, killed (SIGKILL), stopped (SIGTERM) or left to
the test's end; and the environment that points one at a test database."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.kit.threaded import free_port
from tests.kit.wait import wait_until

__all__ = ["ServerProcess", "database_environment", "free_port", "server_environment"]

REDIS_URL = "redis://127.0.0.1:6379/0"
"""The test Redis; each test keeps to a prefix of its own."""


class ServerProcess:
    """``rummykit serve --verbose`` in a process of its own on ``port``, with the
    environment ``env``, its output appended to ``log``."""

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
        process = self.process

        def healthy() -> bool:
            assert process.poll() is None, self.log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).is_success
            return False

        wait_until(healthy, 60, what="the server's start", interval=0.1)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)

    def stop(self) -> None:
        """Kill the process if it still runs (a test's end)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def database_environment(database: dict[str, Any]) -> dict[str, str]:
    """The environment of a server process on the database of :func:`database`'s
    fields (``database_url`` and maybe ``database_schema``)."""
    return {f"RUMMYKIT_{name.upper()}": str(value) for name, value in database.items()}


def server_environment(**settings: str) -> dict[str, str]:
    """This process's environment with the ``RUMMYKIT_`` settings given, for a server
    process: ``server_environment(BOT_WORKERS="1")``."""
    return {**os.environ, **{f"RUMMYKIT_{name}": value for name, value in settings.items()}}

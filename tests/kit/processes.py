"""Server processes for tests: ``rummykit serve`` started on a free port of 127.0.0.1 and
waited for until it answers ``/healthz``, killed (SIGKILL), stopped (SIGTERM) or left to
the test's end; ``rummykit bot-worker`` processes, each with its pool in a process group
of its own; and the environments that point them at the test database and Redis."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Self

import httpx

from tests.kit import http_clients
from tests.kit.databases import POSTGRES_URL
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.threaded import free_port
from tests.kit.wait import wait_until

__all__ = [
    "SCRIPTED_PLAY",
    "BotWorkerProcess",
    "ServerProcess",
    "bare_environment",
    "database_environment",
    "free_port",
    "server_environment",
    "site_environment",
    "start_all",
]


class Started:
    """Something with ``start`` and ``stop``, used in a ``with``: started on entry
    (stopped again if its start fails), stopped at the block's end."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


class ServerProcess(Started):
    """``rummykit serve`` in a process of its own on ``port``, with the environment
    ``env``, its output appended to ``log``: ``--verbose`` (every table event in the log
    the tests read) unless ``verbose`` is false, and at most ``open_files`` open files
    when given."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        log: Path,
        *,
        verbose: bool = True,
        open_files: int | None = None,
    ) -> None:
        self.env = env
        self.port = port
        self.log = log
        self.verbose = verbose
        self.open_files = open_files
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        """Whether the process was started and has not ended."""
        return self.process is not None and self.process.poll() is None

    def _command(self) -> list[str]:
        command = [sys.executable, "-m", "rummykit", "serve", "--port", str(self.port)]
        if self.verbose:
            command.insert(4, "--verbose")
        if self.open_files is None:
            return command
        limited = f"ulimit -n {self.open_files} && exec {shlex.join(command)}"
        return ["/bin/sh", "-c", limited]

    def start(self, timeout: float = 60.0) -> None:
        """Start the process and return once it answers ``/healthz``."""
        self.launch()
        self.wait_started(timeout)

    def launch(self) -> None:
        """Start the process (:meth:`wait_started` waits for it to answer): several
        processes launched first and then waited for start side by side."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self._command(), env=self.env, stdout=out, stderr=subprocess.STDOUT
            )

    def wait_started(self, timeout: float = 60.0) -> None:
        """Return once the process launched answers ``/healthz``."""

        def healthy() -> bool:
            assert self.alive(), self.log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                return http_clients.get(f"{self.url}/healthz", timeout=2).is_success
            return False

        wait_until(healthy, timeout, what="the server's start", interval=0.1)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)

    def stop(self) -> None:
        """Kill the process if it still runs, frozen (SIGSTOP) or not: a test's end."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait()


class BotWorkerProcess:
    """``rummykit bot-worker --processes 1`` with ``options``, in a process group of its
    own (its pool's process dies with it), its output appended to ``log``."""

    def __init__(self, env: dict[str, str], log: Path, *options: str) -> None:
        command = [sys.executable, "-m", "rummykit", "bot-worker", "--processes", "1", *options]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.log = log

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """Kill the bot worker and its pool (SIGKILL), maybe in the middle of a call."""
        if self.alive():
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def start_all(processes: Iterable[ServerProcess]) -> None:
    """Start ``processes`` side by side; return once every one answers ``/healthz``."""
    launched = list(processes)
    for process in launched:
        process.launch()
    for process in launched:
        process.wait_started()


SCRIPTED_PLAY = {
    "BOT_PAUSE_SECONDS": "0",
    "BOT_WORKERS": "1",
    "MESSAGES_PER_SECOND": "1000",
    "MESSAGE_BURST": "1000",
    "LOG_LEVEL": "INFO",
}
"""The settings of a server whose scripted players play as fast as they can: bots with no
pause and one bot worker, message limits a test never meets, every table event logged
(``server_environment(**SCRIPTED_PLAY, SECRET_KEY=...)``)."""


def database_environment(database: dict[str, Any]) -> dict[str, str]:
    """The environment of a server process on the database of :func:`database`'s
    fields (``database_url`` and maybe ``database_schema``)."""
    return {f"RUMMYKIT_{name.upper()}": str(value) for name, value in database.items()}


def _settings(settings: dict[str, str]) -> dict[str, str]:
    return {f"RUMMYKIT_{name}": value for name, value in settings.items()}


def server_environment(**settings: str) -> dict[str, str]:
    """This process's environment with the ``RUMMYKIT_`` settings given, for a server
    process: ``server_environment(BOT_WORKERS="1")``."""
    return {**os.environ, **_settings(settings)}


def bare_environment(**settings: str) -> dict[str, str]:
    """This process's environment without any ``RUMMYKIT_`` setting of its own, with the
    ``RUMMYKIT_`` settings given (every other setting is the default)."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("RUMMYKIT_")}
    return {**inherited, **_settings(settings)}


def site_environment(schema: str, **settings: str) -> dict[str, str]:
    """The environment of a process of a site (:func:`server_environment`): the test
    database's ``schema``, the test Redis under a fresh prefix, and ``settings``."""
    return server_environment(
        DATABASE_URL=POSTGRES_URL,
        DATABASE_SCHEMA=schema,
        REDIS_URL=REDIS_URL,
        REDIS_PREFIX=new_prefix(),
        **settings,
    )

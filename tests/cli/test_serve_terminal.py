"""``rummykit serve`` as a newcomer sees it: the address once the server answers there,
then only warnings, however many requests come; ``--verbose`` and ``--log-file`` show
and keep the rest (the line per request, the migrations applied at start)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from rummykit.cli.serve_logs import STALL_NOTE, FirstStallNote
from tests.kit.threaded import free_port
from tests.kit.wait import WaitTimeout, wait_until

START_LIMIT = 60.0


def run_serve(
    tmp_path: Path, *extra: str
) -> tuple[subprocess.Popen[str], list[str], int, threading.Thread]:
    """A ``rummykit serve`` on a fresh SQLite file, its terminal lines collected as they
    come (stdout and stderr together), its port, and the thread that reads them (it ends
    at the end of the output)."""
    port = free_port()
    env = {**os.environ, "RUMMYKIT_SECRET_KEY": "terminal-test"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "serve", "--port", str(port),
         "--database", f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return process, lines, port, reader


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/api/games/catalog", timeout=5
        ) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def wait_for_address(lines: list[str], port: int) -> None:
    """Wait for the address line; the server must answer as soon as it is printed."""
    try:
        wait_until(
            lambda: any("serving at" in line for line in lines), START_LIMIT, what="the address"
        )
    except WaitTimeout:
        raise AssertionError(f"no address after {START_LIMIT} s: {lines}") from None
    assert answers(port), "the address was printed before the server answered"


def stop(process: subprocess.Popen[str], reader: threading.Thread) -> None:
    """Stop the server; back once every line it wrote is read (the end of its output)."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    reader.join(timeout=20)
    assert not reader.is_alive(), "the server's output did not end"
    if process.stdout is not None:
        process.stdout.close()


def test_the_address_comes_once_ready_and_then_only_warnings(tmp_path: Path) -> None:
    log_file = tmp_path / "server.log"
    process, lines, port, reader = run_serve(tmp_path, "--log-file", str(log_file))
    try:
        wait_for_address(lines, port)
        for _ in range(30):
            assert answers(port)
    finally:
        stop(process, reader)  # every line the requests made is read by then
    shown = [line for line in lines if line.strip()]
    address = next(i for i, line in enumerate(shown) if "serving at" in line)
    assert shown[address] == f"rummykit is serving at http://127.0.0.1:{port}/ (Ctrl-C stops it)"
    quiet = [
        line
        for line in shown
        if "serving at" not in line and "WARNING" not in line and "ERROR" not in line
        and not line.startswith("  (loop_stalled")
    ]  # fmt: skip
    assert quiet == [], quiet
    assert not any("/api/games/catalog" in line for line in shown)
    kept = log_file.read_text(encoding="utf-8")
    assert "GET /api/games/catalog" in kept  # the access log, kept in the file
    assert "Running upgrade" in kept  # the migrations applied at start


def test_verbose_shows_every_request(tmp_path: Path) -> None:
    process, lines, port, reader = run_serve(tmp_path, "--verbose")
    try:
        wait_for_address(lines, port)
        assert answers(port)
    finally:
        stop(process, reader)
    assert any("GET /api/games/catalog" in line for line in lines)
    assert any("Running upgrade" in line for line in lines)


def test_the_first_stalled_loop_is_explained_once() -> None:
    """The first ``loop_stalled`` warning comes with a line saying what it means; the
    later ones and other warnings come as they are."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(FirstStallNote())
    log = logging.getLogger("rummykit.test.stalls")
    log.propagate = False
    log.addHandler(handler)
    try:
        log.warning("table=- event=request_dropped path=%s", "/api/me")
        log.warning("table=- event=loop_stalled lag_ms=%s busy_ms=%s", 130.0, 0.3)
        log.warning("table=- event=loop_stalled lag_ms=%s busy_ms=%s", 420.0, 1.0)
    finally:
        log.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert lines == [
        "table=- event=request_dropped path=/api/me",
        "table=- event=loop_stalled lag_ms=130.0 busy_ms=0.3",
        f"  {STALL_NOTE}",
        "table=- event=loop_stalled lag_ms=420.0 busy_ms=1.0",
    ]

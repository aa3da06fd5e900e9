"""The server's memory and answer time when a huge request body is sent, over loopback.

python benchmarks/big_body.py                      # 100 MB, with the server's body limit
python benchmarks/big_body.py --max-body-bytes 0   # the same with no limit (as before it)

Starts ``rummykit serve`` (SQLite in a temporary folder) on 127.0.0.1 and sends
``POST /api/session`` a JSON body of ``--megabytes`` MB (a nickname that long), twice:
once declared by ``Content-Length`` and once chunked.  Prints, for each, the answer's
status and code, how long the answer took and how much of the body was sent by then, and
the server process's resident memory (``VmRSS``) after it and at its peak (``VmHWM``), next
to the same figures before the first body.  ``--max-body-bytes 0`` lifts the limit (sets it
to a terabyte) to show what the server did without one.  Linux only (``/proc``); each body
gives up after ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

CHUNK = 2**20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path, max_body_bytes: int) -> Iterator[tuple[int, int]]:
    """``rummykit serve`` on a free loopback port: its port and process id."""
    port = free_port()
    env = dict(
        os.environ,
        RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{folder / 'rummykit.sqlite3'}",
        RUMMYKIT_LOG_LEVEL="WARNING",
    )
    if max_body_bytes:
        env["RUMMYKIT_MAX_BODY_BYTES"] = str(max_body_bytes)
    command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            if server.poll() is not None or time.monotonic() > deadline:
                error = server.stderr.read().decode() if server.stderr else ""
                raise SystemExit(f"the server did not start:\n{error}")
            time.sleep(0.2)
        yield port, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def memory(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024


def read_answer(sock: socket.socket, timeout: float) -> tuple[int, str]:
    """The status and error code of the HTTP answer on ``sock``."""
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        while True:
            part = sock.recv(65536)
            if not part:
                break
            data += part
            head, _, body = data.partition(b"\r\n\r\n")
            if body and body.count(b"{") and body.rstrip().endswith(b"}"):
                break
    if not data:
        return 0, "no answer"
    head, _, body = data.partition(b"\r\n\r\n")
    try:
        code = json.loads(body).get("error", {}).get("code", "")
    except ValueError:
        code = body[:60].decode(errors="replace")
    return int(head.split()[1]), code


def send_body(
    port: int, size: int, *, chunked: bool, timeout: float
) -> tuple[int, str, float, int]:
    """Send a ``size``-byte JSON body; the answer's status and code, the seconds until it
    came, and the bytes of body sent by then."""
    prefix, suffix = b'{"nickname": "', b'"}'
    filler = size - len(prefix) - len(suffix)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = (
        f"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()
    parts = [prefix, *([b"a" * CHUNK] * (filler // CHUNK)), b"a" * (filler % CHUNK), suffix]
    sent = 0
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head)
        try:
            for part in parts:
                if select.select([sock], [], [], 0)[0] or time.monotonic() - started > timeout:
                    break  # answered (or given up): stop sending
                sock.sendall(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
                sent += len(part)
            else:
                if chunked:
                    sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, code = read_answer(sock, max(1.0, timeout - (time.monotonic() - started)))
    return status, code, time.monotonic() - started, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument(
        "--max-body-bytes", type=int, default=None, help="the server's limit; 0: none"
    )
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    limit = 10**12 if args.max_body_bytes == 0 else (args.max_body_bytes or 0)
    size = args.megabytes * 10**6
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder), limit) as (port, pid):
        rss, peak = memory(pid)
        print(f"server pid {pid}: {rss:.0f} MB resident at start (peak {peak:.0f} MB)")
        for chunked in (False, True):
            how = "chunked" if chunked else "Content-Length"
            status, code, seconds, sent = send_body(
                port, size, chunked=chunked, timeout=args.timeout
            )
            time.sleep(0.5)
            rss, peak = memory(pid)
            print(
                f"{args.megabytes} MB by {how}: {status} {code} after {seconds:.2f} s, "
                f"{sent / 10**6:.1f} MB sent; server {rss:.0f} MB resident (peak {peak:.0f} MB)"
            )
        healthz = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10)
        print(f"then /healthz: {healthz.status_code}")


if __name__ == "__main__":
    main()

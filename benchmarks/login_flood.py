"""``/healthz`` while a flood of logins and registrations is hashed, over loopback.

python benchmarks/login_flood.py                 # 40 logins and 10 registrations at once
python benchmarks/login_flood.py --logins 80 --registrations 20 --rounds 3

Starts ``rummykit serve`` (uvicorn, SQLite in a temporary folder) on 127.0.0.1, registers
one player, then fires ``--logins`` logins with a wrong password and ``--registrations``
registrations all at once, while another connection asks ``/healthz`` every
``--interval`` seconds until the flood is answered (and first, for reference, for
``--quiet`` seconds with no flood).  The server's login and registration
limits are raised for the run (``RUMMYKIT_LOGIN_ATTEMPTS_PER_MINUTE``,
``RUMMYKIT_REGISTRATIONS_PER_HOUR``), so that every request of the flood reaches the
password hasher, as a flood from many addresses would.  Prints, per round and over all
rounds, the p50, p99 and worst ``/healthz`` answer time and how long the flood took.
Everything is bounded: one round gives up after ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path, logins: int, registrations: int) -> Iterator[str]:
    """``rummykit serve`` on a free loopback port; its base URL."""
    port = free_port()
    env = dict(
        os.environ,
        RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{folder / 'rummykit.sqlite3'}",
        RUMMYKIT_LOG_LEVEL="WARNING",
        RUMMYKIT_LOGIN_ATTEMPTS_PER_MINUTE=str(10 * logins + 10),
        RUMMYKIT_REGISTRATIONS_PER_HOUR=str(10 * registrations + 10),
    )
    command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None or time.monotonic() > deadline:
                error = server.stderr.read().decode() if server.stderr else ""
                raise SystemExit(f"the server did not start:\n{error}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=1).is_success:
                    break
            time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def quiet(base: str, seconds: float, interval: float) -> list[float]:
    """The ``/healthz`` answer times with no flood, for ``seconds`` (the reference)."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            asked = time.perf_counter()
            (await client.get("/healthz")).raise_for_status()
            latencies.append(time.perf_counter() - asked)
            await asyncio.sleep(interval)
    return latencies


def summary(latencies: list[float]) -> str:
    return (
        f"p50 {statistics.median(latencies) * 1000:.1f} ms,"
        f" p99 {percentile(latencies, 0.99) * 1000:.1f} ms,"
        f" worst {max(latencies) * 1000:.1f} ms ({len(latencies)} answers)"
    )


async def one_round(
    base: str, round_number: int, logins: int, registrations: int, interval: float
) -> tuple[list[float], float, dict[int, int]]:
    """The ``/healthz`` answer times (seconds) during the flood, how long it took, and
    how many answers of each status the flood got."""
    limits = httpx.Limits(max_connections=logins + registrations + 10)
    async with (
        httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as flood_client,
        httpx.AsyncClient(base_url=base, timeout=120) as health_client,
    ):

        async def login() -> int:
            answer = await flood_client.post(
                "/api/login", json={"name": "flood_owner", "password": "not-the-password"}
            )
            return answer.status_code

        async def register(index: int) -> int:
            # a client of its own: a registration keeps the caller's cookie otherwise
            async with httpx.AsyncClient(base_url=base, timeout=120) as client:
                name = f"flood_{round_number}_{index}"
                answer = await client.post(
                    "/api/register", json={"name": name, "password": "a-long-password"}
                )
                return answer.status_code

        started = time.perf_counter()
        flood = asyncio.gather(
            *(login() for _ in range(logins)), *(register(i) for i in range(registrations))
        )
        latencies: list[float] = []
        while not flood.done():
            asked = time.perf_counter()
            answer = await health_client.get("/healthz")
            answer.raise_for_status()
            latencies.append(time.perf_counter() - asked)
            await asyncio.sleep(interval)
        statuses = await flood
        took = time.perf_counter() - started
    counted: dict[int, int] = {}
    for status in statuses:
        counted[status] = counted.get(status, 0) + 1
    return latencies, took, counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=40)
    parser.add_argument("--registrations", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.01, help="seconds between asks")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per round")
    parser.add_argument(
        "--quiet", type=float, default=5.0, help="seconds of /healthz alone first (reference)"
    )
    options = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder), options.logins, options.registrations) as base,
    ):
        owner = httpx.post(
            f"{base}/api/register",
            json={"name": "flood_owner", "password": "the-owner-password"},
            timeout=60,
        )
        owner.raise_for_status()
        reference = asyncio.run(quiet(base, options.quiet, options.interval))
        print(f"/healthz with no flood: {summary(reference)}")
        everything: list[float] = []
        for round_number in range(options.rounds):
            latencies, took, statuses = asyncio.run(
                asyncio.wait_for(
                    one_round(
                        base,
                        round_number,
                        options.logins,
                        options.registrations,
                        options.interval,
                    ),
                    options.timeout,
                )
            )
            everything.extend(latencies)
            print(
                f"round {round_number + 1}: {options.logins} logins and"
                f" {options.registrations} registrations answered in {took:.1f} s"
                f" (statuses {dict(sorted(statuses.items()))});"
                f" /healthz meanwhile: {summary(latencies)}"
            )
    print(f"/healthz during the floods: {summary(everything)}")


if __name__ == "__main__":
    main()

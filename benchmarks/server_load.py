"""Load on server processes over loopback: human-like tables, bot tables, saturation.

python benchmarks/server_load.py                  # 60 s of load, then 20 s at saturation
python benchmarks/server_load.py --seconds 10 --tables 20 --bot-tables 20 --saturation 5
python benchmarks/server_load.py --database postgresql+asyncpg://postgres@127.0.0.1:5432/test
python benchmarks/server_load.py --database postgresql+asyncpg://postgres@127.0.0.1:5432/test \
    --workers 2 --redis redis://127.0.0.1:6379/0

Starts ``rummykit serve`` (on SQLite in a temporary folder, or with ``--database`` on
PostgreSQL in a schema of its own, dropped afterwards) and, in this process, opens
``--tables`` tables of two scripted WebSocket clients each, each client answering
``--think`` seconds after its turn begins, plus ``--bot-tables`` tables where server bots
(``greedy``, with the server's default pause) play each other; a finished game is
replaced by a new one.  The clock starts once every table is set up (created, its
players seated and connected); each client table then begins at a moment of its own
within the first ``--think`` seconds.  It prints the
actions stored per second (every table); the time from sending an action to receiving
one's own new state at p50, p99 and p99.9 and its maximum; the worst lag of the server's
event loop (``/healthz``, from the first whole second of the run) and how many of its
wake-ups were 100 ms late or more, and the worst lag of this process's own loop (its
collector is off during the run: a pause of the 200 clients' process would count
against the server); and the CPU time per stored action of the server
process, of its bot workers and of this (client) process, from ``/proc`` (Linux).  Then
the saturation run: the same clients answering at once, no bot tables.

With ``--workers N`` and ``--redis``, N server processes run as the workers of one site
(PostgreSQL and Redis, ``docs/scale-out.md``): each table is created at one worker, and
its two players talk to two different workers (with two or more), so that half of the
clients are served through a worker that does not host their table.  CPU and loop
figures are then the sums and the worst of the workers.

Nothing is retried: a request the server refuses or drops, or a WebSocket it closes
before the game's end, is printed and makes the run exit with status 1 (the server logs
its side at WARNING on the standard error both share).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from rummykit.server.operations.loop_lag import LoopLag
from rummykit.server.storage.engine import make_engine, normalize_url
from rummykit.server.storage.models import ActionRow

SET_UP_AT_ONCE = 16


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (0 where ``/proc`` is missing)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found.extend(int(child) for child in listed.read().split())
    return found


def cpu_now(servers: list[int]) -> tuple[float, float, float]:
    """CPU seconds so far of the server processes, of their bot worker processes, of
    this one."""
    workers = sum(cpu_seconds(child) for server in servers for child in children(server))
    return sum(cpu_seconds(server) for server in servers), workers, time.process_time()


class LoadFailure(Exception):
    """A request the server refused or dropped, or a WebSocket closed before its game's end."""


class Load:
    def __init__(
        self,
        bases: list[str],
        *,
        think: float,
        seconds: float,
        players: int,
        servers: list[int],
        spread: float,
    ) -> None:
        self.bases = bases
        self.spread = spread
        self.servers = servers
        self.cpu_start = (0.0, 0.0, 0.0)
        self.think = think
        self.seconds = seconds
        self.until = float("inf")
        self.ready = 0
        self.players = players
        self.go = asyncio.Event()
        self.started = 0.0
        self.latencies: list[float] = []
        self.games = 0
        self.failures: list[str] = []
        self.lag_start: dict[str, dict[str, Any]] = {}
        # this process's own event loop: its stalls delay the clients' figures too
        self.client_lag = LoopLag(warn_after=float("inf"))
        self.tls = ssl.create_default_context()
        # the set-up's requests, a few at a time: players do not all arrive in the same
        # instant, and hundreds at once only queue for the server's database connections
        self.setting_up = asyncio.Semaphore(SET_UP_AT_ONCE)

    def failed(self, what: str) -> LoadFailure:
        """Note a failure of the run (printed at once) and make the error that ends its
        table.  A failure during the set-up stops every table: the run cannot begin."""
        self.failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr, flush=True)
        self.go.set()
        return LoadFailure(what)

    def base(self, index: int) -> str:
        """The address of the server process a player (by index) talks to."""
        return self.bases[index % len(self.bases)]

    async def request(
        self, http: httpx.AsyncClient, method: str, url: str, **options: Any
    ) -> httpx.Response:
        """One request, never retried: an error or a refusal is a failure of the run."""
        path = url.split("/", 3)[-1]
        try:
            if self.go.is_set():
                response = await http.request(method, url, **options)
            else:
                async with self.setting_up:
                    response = await http.request(method, url, **options)
        except httpx.HTTPError as error:
            raise self.failed(f"{method} /{path}: {error!r}") from error
        if not response.is_success:
            raise self.failed(f"{method} /{path}: {response.status_code} {response.text[:300]}")
        return response

    def http(self) -> httpx.AsyncClient:
        """A client of its own (its own cookies) sharing this process's one TLS context:
        making one per client (the default) reads the certificate store each time."""
        return httpx.AsyncClient(timeout=30, verify=self.tls)

    async def start_together(self) -> None:
        """Every table is set up (created, its players seated and connected) before the
        clock starts; then all begin at once."""
        self.ready += 1
        if self.ready == self.players:
            async with self.http() as http:
                for base in self.bases:
                    health = await self.request(http, "GET", f"{base}/healthz")
                    self.lag_start[base] = health.json()["loop_lag"]
            self.started = time.time()
            # The clients of 200 players share this process: one pause of its garbage
            # collector would delay all of them at once and count against the server.
            # What the set-up made is kept out of its passes, and for the minute of the
            # run it makes none (``run_phase`` turns it back on).
            gc.collect()
            gc.freeze()
            gc.disable()
            self.cpu_start = cpu_now(self.servers)
            self.until = time.monotonic() + self.seconds
            self.client_lag.start()
            self.go.set()
        await self.go.wait()
        if not self.started:
            raise LoadFailure("the set-up failed")

    async def arrive(self, index: int) -> None:
        """Wait this table's own moment within the first ``spread`` seconds: players do not
        all sit down in the same millisecond, and tables begun together would go on acting
        together, every one of them a second after the last, in bursts no real server
        sees (``--together`` measures that too)."""
        await asyncio.sleep(random.Random(index).random() * self.spread)

    async def guest(self, http: httpx.AsyncClient, base: str, name: str) -> str:
        response = await self.request(http, "POST", f"{base}/api/session", json={"nickname": name})
        cookie = str(response.cookies["rummykit_session"])
        http.cookies.clear()  # each request below names its player
        return cookie

    async def client(
        self, base: str, table_id: str, cookie: str, seed: int, first: int | None
    ) -> None:
        """One player at one table until its game ends or time is up; for a table's
        ``first`` game (its index), once connected, wait for every table and then for
        the table's own moment."""
        rng = random.Random(seed)
        url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
        headers = {"Cookie": f"rummykit_session={cookie}"}
        sent_at: dict[int, float] = {}
        acted = -1
        where = f"WebSocket of table {table_id}"
        try:
            async with connect(url, additional_headers=headers, max_size=2**24) as ws:
                if first is not None:
                    await self.start_together()
                    await self.arrive(first)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout_at(self.until):
                        async for text in ws:
                            message = json.loads(text)
                            if message["type"] == "game_over":
                                return
                            if message["type"] == "error":
                                raise self.failed(f"{where}: {json.dumps(message)}")
                            if message["type"] != "state":
                                continue
                            number = message["state_number"]
                            if number - 1 in sent_at:
                                self.latencies.append(time.monotonic() - sent_at.pop(number - 1))
                            legal = message["legal_actions"]
                            if legal and number != acted:
                                acted = number
                                if self.think:
                                    await asyncio.sleep(self.think)
                                options = [a for a in legal if a != "take"] or legal
                                sent_at[number] = time.monotonic()
                                action = rng.choice(options)
                                await ws.send(
                                    json.dumps(
                                        {"type": "action", "state_number": number,
                                         "action": action}
                                    )
                                )  # fmt: skip
                        raise self.failed(
                            f"{where}: closed by the server before the game's end"
                            f" (code {ws.close_code}, {ws.close_reason!r})"
                        )
        except (OSError, WebSocketException) as error:
            raise self.failed(f"{where}: {error!r}") from error

    async def human_table(self, index: int) -> None:
        bases = [self.base(index), self.base(index + 1)]  # two workers, if there are two
        async with self.http() as http:
            cookies = [
                await self.guest(http, bases[0], f"a{index}"),
                await self.guest(http, bases[1], f"b{index}"),
            ]
            first: int | None = index
            while time.monotonic() < self.until:
                http.cookies.set("rummykit_session", cookies[0])
                created = await self.request(
                    http, "POST", f"{bases[0]}/api/tables",
                    json={"game": "burraco", "seats": [{"kind": "human"}] * 2,
                          "turn_seconds": None},
                )  # fmt: skip
                table_id = created.json()["table_id"]
                http.cookies.set("rummykit_session", cookies[1])
                await self.request(http, "POST", f"{bases[1]}/api/tables/{table_id}/join", json={})
                await asyncio.gather(
                    self.client(bases[0], table_id, cookies[0], index * 2, first),
                    self.client(bases[1], table_id, cookies[1], index * 2 + 1, first),
                )
                first = None
                self.games += 1

    async def bot_table(self, index: int) -> None:
        base = self.base(index)
        async with self.http() as http:
            http.cookies.set("rummykit_session", await self.guest(http, base, f"host{index}"))
            first = True
            while time.monotonic() < self.until:
                created = await self.request(
                    http,
                    "POST",
                    f"{base}/api/tables",
                    json={
                        "game": "burraco",
                        "seats": [{"kind": "bot", "level": "greedy"}] * 2,
                        "sit": False,
                    },
                )
                table_id = created.json()["table_id"]
                if first:
                    first = False
                    await self.start_together()
                # A bot game lasts minutes: a look every 10 s finds its end soon enough
                # without making the lobby's polling a load of its own.
                while (left := self.until - time.monotonic()) > 0:
                    await asyncio.sleep(min(10.0, left))
                    summary = await self.request(http, "GET", f"{base}/api/tables/{table_id}")
                    if summary.json()["status"] == "over":
                        break


async def execute(url: str, statement: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


@contextlib.contextmanager
def database(url: str | None) -> Iterator[tuple[str, str | None]]:
    """The database URL and schema of one run: a fresh SQLite file in a temporary folder,
    or, for a PostgreSQL ``url``, a fresh schema in that database, dropped afterwards."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix="rummykit-load-") as folder:
            yield f"sqlite+aiosqlite:///{Path(folder) / 'load.sqlite3'}", None
        return
    url = normalize_url(url)
    if not make_url(url).drivername.startswith("postgresql"):
        yield url, None
        return
    schema = f"load_{uuid.uuid4().hex[:12]}"
    asyncio.run(execute(url, f"CREATE SCHEMA {schema}"))
    try:
        yield url, schema
    finally:
        asyncio.run(execute(url, f"DROP SCHEMA {schema} CASCADE"))


async def stored_actions(url: str, schema: str | None, start: float, end: float) -> int:
    engine = make_engine(url, schema=schema)
    try:
        async with engine.connect() as connection:
            count = await connection.scalar(
                select(func.count())
                .select_from(ActionRow)
                .where(ActionRow.at >= start, ActionRow.at < end)
            )
    finally:
        await engine.dispose()
    return int(count or 0)


def report(
    title: str,
    load: Load,
    actions: int,
    seconds: float,
    cpu: tuple[float, float, float],
    lag: dict[str, Any],
) -> None:
    latencies = [latency * 1000 for latency in load.latencies]
    if len(latencies) >= 2:
        cuts = statistics.quantiles(latencies, n=1000, method="inclusive")
        figures = (
            f"p50 {statistics.median(latencies):.1f} ms, p99 {cuts[989]:.1f} ms,"
            f" p99.9 {cuts[998]:.1f} ms, max {max(latencies):.1f} ms"
            f" over {len(latencies)} actions"
        )
    else:
        figures = "too few client actions measured"
    print(f"{title}: {actions / seconds:.0f} actions/s stored; send -> own state {figures}")
    stalls = sum(
        lags["stalls"] - load.lag_start.get(base, {}).get("stalls", 0) for base, lags in lag.items()
    )
    worst = max(lags["worst_since_ms"] for lags in lag.values())
    warning = max(lags["warning_ms"] for lags in lag.values())
    print(
        f"  server event loop: worst lag {worst:.1f} ms,"
        f" {stalls} wake-ups {warning:.0f} ms late or more;"
        f" clients' event loop: worst lag {load.client_lag.worst * 1000:.1f} ms"
    )
    if actions:
        server, workers, client = (
            (now - then) * 1000 / actions for now, then in zip(cpu, load.cpu_start, strict=True)
        )
        print(
            f"  CPU per stored action: server {server:.2f} ms, bot workers {workers:.2f} ms,"
            f" clients {client:.2f} ms"
        )
    if load.failures:
        print(f"  {len(load.failures)} failures (each printed above), nothing retried")


async def run_phase(
    bases: list[str],
    servers: list[int],
    *,
    tables: int,
    bot_tables: int,
    think: float,
    seconds: float,
    spread: float,
) -> tuple[Load, dict[str, Any]]:
    """Run the tables; the load and each server loop's lag (by address) from the run's
    first whole second to its end."""
    load = Load(
        bases,
        think=think,
        seconds=seconds,
        players=2 * tables + bot_tables,
        servers=servers,
        spread=spread,
    )
    tasks = [load.human_table(i) for i in range(tables)]
    tasks += [load.bot_table(i) for i in range(bot_tables)]
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException) and not isinstance(outcome, LoadFailure):
            raise outcome
    await load.client_lag.stop()
    gc.enable()
    if not load.started:
        return load, {}
    lags = {}
    async with httpx.AsyncClient(timeout=30) as http:
        for base in bases:
            health = await load.request(
                http, "GET", f"{base}/healthz", params={"lag_since": math.ceil(load.started)}
            )
            lags[base] = health.json()["loop_lag"]
    return load, lags


def main() -> int:
    gc.set_threshold(10_000, *gc.get_threshold()[1:])  # as ``rummykit serve`` does
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--bot-tables", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--saturation", type=float, default=20.0)
    parser.add_argument(
        "--together",
        action="store_true",
        help="begin every table in the same instant instead of spread over --think seconds",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a PostgreSQL database (postgresql+asyncpg://user@host/db) to run on, in a"
        " fresh schema dropped afterwards; default: a fresh SQLite file",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes, as the workers of one site (needs --database and --redis)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="the Redis the workers share (redis://127.0.0.1:6379/0); with --workers 1, one"
        " worker of a site",
    )
    args = parser.parse_args()
    if (args.workers > 1 or args.redis) and not (args.redis and args.database):
        parser.error("workers of a site need --database (PostgreSQL) and --redis")
    where = "SQLite" if args.database is None else make_url(args.database).drivername
    if args.redis:
        where += " and Redis"
        processes = f"{args.workers} server process{'es' if args.workers > 1 else ''} of a site"
    else:
        processes = "one server process"
    print(
        f"server_load: {args.tables} tables of two clients answering after {args.think} s"
        f" and {args.bot_tables} bot tables for {args.seconds:.0f} s; then {args.tables}"
        f" tables answering at once for {args.saturation:.0f} s; {processes} each,"
        f" on {where}; load average {os.getloadavg()[0]:.2f}"
    )
    spread = 0.0 if args.together else args.think
    site = Site(args.database, args.workers, args.redis)
    failures = phase("load", site, args.tables, args.bot_tables, args.think, args.seconds, spread)
    if args.saturation > 0:
        failures += phase("saturation", site, args.tables, 0, 0.0, args.saturation, 0.0)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 1 if failures else 0


@dataclass(frozen=True)
class Site:
    """Where a run's servers keep their tables: the database (``None``: a fresh SQLite
    file), and for workers of one site, how many and the Redis they share."""

    database: str | None
    workers: int = 1
    redis: str | None = None


def phase(
    title: str,
    site: Site,
    tables: int,
    bot_tables: int,
    think: float,
    seconds: float,
    spread: float,
) -> int:
    """One run against fresh server processes and a fresh database; the number of
    failures."""
    with database(site.database) as (url, schema):
        env = dict(os.environ)
        env.update(
            RUMMYKIT_DATABASE_URL=url,
            RUMMYKIT_LOG_LEVEL="WARNING",
            RUMMYKIT_MAX_TABLES_PER_PLAYER="1000",
            # every player of the run is a guest from 127.0.0.1
            RUMMYKIT_GUEST_SESSIONS_PER_HOUR="100000",
            # the saturation run's clients answer the moment their turn comes, faster
            # than a person can; the per-socket message limit is not what is measured
            RUMMYKIT_MESSAGES_PER_SECOND="1000",
            RUMMYKIT_MESSAGE_BURST="1000",
        )
        if schema is not None:
            env["RUMMYKIT_DATABASE_SCHEMA"] = schema
            print(f"{title} run on PostgreSQL schema {schema} (dropped afterwards)", flush=True)
        if site.redis is not None:
            env["RUMMYKIT_REDIS_URL"] = site.redis
            env["RUMMYKIT_REDIS_PREFIX"] = f"load-{uuid.uuid4().hex[:12]}"
        ports = [free_port() for _ in range(site.workers)]
        servers = [
            subprocess.Popen(
                [sys.executable, "-m", "rummykit", "serve", "--port", str(port)],
                env=env,
                stdout=subprocess.DEVNULL,
            )
            for port in ports
        ]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for server, base in zip(servers, bases, strict=True):
                wait_for(server, base)
            load, lag = asyncio.run(
                run_phase(
                    bases,
                    [server.pid for server in servers],
                    tables=tables,
                    bot_tables=bot_tables,
                    think=think,
                    seconds=seconds,
                    spread=spread,
                )
            )
            end = time.time()
            cpu = cpu_now([server.pid for server in servers])
            if load.started:
                actions = asyncio.run(stored_actions(url, schema, load.started, end))
                report(title, load, actions, end - load.started, cpu, lag)
            else:
                print(f"{title}: the set-up failed ({len(load.failures)} failures above)")
        finally:
            for server in servers:
                server.send_signal(signal.SIGTERM)
            for server in servers:
                try:
                    server.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
    return len(load.failures)


def wait_for(server: subprocess.Popen[bytes], base: str) -> None:
    """Until the server at ``base`` answers ``/healthz``."""
    for _ in range(600):
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at start (status {server.returncode})")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).is_success:
                return
        time.sleep(0.1)


if __name__ == "__main__":
    raise SystemExit(main())

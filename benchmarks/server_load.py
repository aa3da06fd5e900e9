"""Load on one server process over loopback: human-like tables, bot tables, saturation.

python benchmarks/server_load.py                  # 60 s of load, then 20 s at saturation
python benchmarks/server_load.py --seconds 10 --tables 20 --bot-tables 20 --saturation 5

Starts ``rummykit serve`` (SQLite in a temporary folder) and, in this process, opens
``--tables`` tables of two scripted WebSocket clients each, each client answering
``--think`` seconds after its turn begins, plus ``--bot-tables`` tables where server bots
(``greedy``, with the server's default pause) play each other; a finished game is
replaced by a new one.  The clock starts once every table is set up; each table then
begins at a moment of its own within the first ``--think`` seconds.  It prints the
actions stored per second (every table) and the p50/p99 time from sending an action to
receiving one's own new state, and the CPU time per stored action of the server
process, of its bot workers and of this (client) process, from ``/proc`` (Linux).  Then
the saturation run: the same clients answering at once, no bot tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


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


def cpu_now(server: int) -> tuple[float, float, float]:
    """CPU seconds so far of the server process, of its worker processes, of this one."""
    workers = sum(cpu_seconds(child) for child in children(server))
    return cpu_seconds(server), workers, time.process_time()


class Load:
    def __init__(
        self, base: str, think: float, seconds: float, players: int, server: int, spread: float
    ) -> None:
        self.base = base
        self.spread = spread
        self.server = server
        self.cpu_start = (0.0, 0.0, 0.0)
        self.think = think
        self.seconds = seconds
        self.until = float("inf")
        self.ready = 0
        self.players = players
        self.go = asyncio.Event()
        self.started = 0.0

    async def start_together(self) -> None:
        """Every table is set up before the clock starts; then all begin at once."""
        self.ready += 1
        if self.ready == self.players:
            self.started = time.time()
            # The clients of 200 players share this process: one long pause of its
            # garbage collector would delay all of them at once, and count against the
            # server.  What the set-up made is kept out of its passes.
            gc.collect()
            gc.freeze()
            self.cpu_start = cpu_now(self.server)
            self.until = time.monotonic() + self.seconds
            self.go.set()
        await self.go.wait()
        self.latencies: list[float] = []
        self.games = 0

    async def arrive(self, index: int) -> None:
        """Wait this table's own moment within the first ``spread`` seconds: players do not
        all sit down in the same millisecond, and tables begun together would go on acting
        together, every one of them a second after the last, in bursts no real server
        sees (``--together`` measures that too)."""
        await asyncio.sleep(random.Random(index).random() * self.spread)

    async def guest(self, http: httpx.AsyncClient, name: str) -> str:
        response = await http.post(f"{self.base}/api/session", json={"nickname": name})
        response.raise_for_status()
        cookie = str(response.cookies["rummykit_session"])
        http.cookies.clear()  # each request below names its player
        return cookie

    async def client(self, table_id: str, cookie: str, seed: int) -> None:
        rng = random.Random(seed)
        url = self.base.replace("http", "ws") + f"/ws/tables/{table_id}"
        headers = {"Cookie": f"rummykit_session={cookie}"}
        sent_at: dict[int, float] = {}
        acted = -1
        async with connect(url, additional_headers=headers, max_size=2**24) as ws:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(self.until):
                    async for text in ws:
                        message = json.loads(text)
                        if message["type"] == "game_over":
                            return
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
                                    {"type": "action", "state_number": number, "action": action}
                                )
                            )

    async def human_table(self, index: int) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            cookies = [await self.guest(http, f"a{index}"), await self.guest(http, f"b{index}")]
            first = True
            while time.monotonic() < self.until:
                http.cookies.set("rummykit_session", cookies[0])
                created = await http.post(
                    f"{self.base}/api/tables",
                    json={"game": "burraco", "seats": [{"kind": "human"}] * 2,
                          "turn_seconds": None},
                )  # fmt: skip
                table_id = created.json()["table_id"]
                http.cookies.set("rummykit_session", cookies[1])
                await http.post(f"{self.base}/api/tables/{table_id}/join", json={})
                if first:
                    first = False
                    await self.start_together()
                    await self.arrive(index)
                await asyncio.gather(
                    self.client(table_id, cookies[0], index * 2),
                    self.client(table_id, cookies[1], index * 2 + 1),
                )
                self.games += 1

    async def bot_table(self, index: int) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            http.cookies.set("rummykit_session", await self.guest(http, f"host{index}"))
            await self.start_together()
            await self.arrive(index + 1000)
            while time.monotonic() < self.until:
                created = await http.post(
                    f"{self.base}/api/tables",
                    json={
                        "game": "burraco",
                        "seats": [{"kind": "bot", "level": "greedy"}] * 2,
                        "sit": False,
                    },
                )
                table_id = created.json()["table_id"]
                # A bot game lasts minutes: a look every 10 s finds its end soon enough
                # without making the lobby's polling a load of its own.
                while time.monotonic() < self.until:
                    await asyncio.sleep(10)
                    summary = await http.get(f"{self.base}/api/tables/{table_id}")
                    if summary.json()["status"] == "over":
                        break


def stored_actions(database: Path, start: float, end: float) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        row = db.execute(
            "SELECT COUNT(*) FROM actions WHERE at >= ? AND at < ?", (start, end)
        ).fetchone()
    return int(row[0])


def report(
    title: str, load: Load, actions: int, seconds: float, cpu: tuple[float, float, float]
) -> None:
    latencies = sorted(load.latencies)
    if latencies:
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        figures = f"p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(latencies)} actions"
    else:
        figures = "no client action measured"
    print(f"{title}: {actions / seconds:.0f} actions/s stored; send -> own state {figures}")
    if actions:
        server, workers, client = (
            (now - then) * 1000 / actions for now, then in zip(cpu, load.cpu_start, strict=True)
        )
        print(
            f"  CPU per stored action: server {server:.2f} ms, bot workers {workers:.2f} ms,"
            f" clients {client:.2f} ms"
        )


async def run_phase(
    base: str,
    server: int,
    *,
    tables: int,
    bot_tables: int,
    think: float,
    seconds: float,
    spread: float,
) -> Load:
    load = Load(base, think, seconds, tables + bot_tables, server, spread)
    tasks = [load.human_table(i) for i in range(tables)]
    tasks += [load.bot_table(i) for i in range(bot_tables)]
    await asyncio.gather(*tasks)
    return load


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
    args = parser.parse_args()
    print(
        f"server_load: {args.tables} tables of two clients answering after {args.think} s"
        f" and {args.bot_tables} bot tables for {args.seconds:.0f} s; then {args.tables}"
        f" tables answering at once for {args.saturation:.0f} s; one server process each"
    )
    spread = 0.0 if args.together else args.think
    phase("load", args.tables, args.bot_tables, args.think, args.seconds, spread)
    if args.saturation > 0:
        phase("saturation", args.tables, 0, 0.0, args.saturation, 0.0)
    return 0


def phase(
    title: str, tables: int, bot_tables: int, think: float, seconds: float, spread: float
) -> None:
    """One run against a fresh server process and database."""
    with tempfile.TemporaryDirectory(prefix="rummykit-load-") as folder:
        database = Path(folder) / "load.sqlite3"
        port = free_port()
        env = dict(os.environ)
        env.update(
            RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{database}",
            RUMMYKIT_LOG_LEVEL="WARNING",
            RUMMYKIT_MAX_TABLES_PER_PLAYER="1000",
        )
        server = subprocess.Popen(
            [sys.executable, "-m", "rummykit", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/healthz", timeout=1).is_success:
                        break
                time.sleep(0.1)
            load = asyncio.run(
                run_phase(
                    base,
                    server.pid,
                    tables=tables,
                    bot_tables=bot_tables,
                    think=think,
                    seconds=seconds,
                    spread=spread,
                )
            )
            end = time.time()
            cpu = cpu_now(server.pid)
            actions = stored_actions(database, load.started, end)
            report(title, load, actions, end - load.started, cpu)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    raise SystemExit(main())

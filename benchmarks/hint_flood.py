"""A hint flood from one seat against another table's greedy bot, over loopback.

python benchmarks/hint_flood.py                       # 10 s alone, then 10 s under a flood
python benchmarks/hint_flood.py --seconds 5 --connections 30

Starts ``rummykit serve`` on 127.0.0.1 (SQLite in a temporary folder, two bot workers,
each game's own hint search, no bot pause).  Player ``timed`` plays Burraco against
``greedy``, answering each of its turns after 0.1 s with a random legal move, and times each
move of the bot: from the moment the bot is to move (the client sent the move that gave
the bot its turn, or received the bot's previous move) to the moment it receives the
bot's move.  First alone for ``--seconds``, then for ``--seconds`` while player ``flood``,
to move at a Three-Thirteen table of its own, has ``--connections`` WebSockets on its
seat, each asking a hint again as soon as the last one is answered (and 50 ms after a
refusal).  It prints the bot's answer time (p50, p95, max) in both phases and the hints
answered and refused.  Everything stays on this machine and ends within the time asked.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
# The timed player waits this long before each move (the server takes 20 messages a
# second from a connection).
THINK = 0.1


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(folder: Path) -> Iterator[str]:
    """A ``rummykit serve`` process on loopback; its base URL."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        RUMMYKIT_HOST=HOST,
        RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{folder / 'flood.sqlite3'}",
        RUMMYKIT_LOG_LEVEL="WARNING",
        RUMMYKIT_BOT_WORKERS="2",
        RUMMYKIT_BOT_PAUSE_SECONDS="0",
        # the flood is one player's sockets, more than a player may hold by default (16)
        RUMMYKIT_SOCKETS_PER_PLAYER="200",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "serve", "--host", HOST, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    base = f"http://{HOST}:{port}"
    try:
        for _ in range(600):
            if process.poll() is not None:
                raise SystemExit(f"the server stopped at start (status {process.returncode})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=1).is_success:
                    break
            time.sleep(0.1)
        else:
            raise SystemExit("the server did not start within 60 s")
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def guest_table(http: httpx.AsyncClient, name: str, game: str) -> tuple[str, str]:
    """A new guest at a new table of ``game`` against greedy, no turn timer: the
    guest's cookie and the table's WebSocket URL."""
    http.cookies.clear()
    answer = await http.post("/api/session", json={"nickname": name})
    answer.raise_for_status()
    cookie = str(answer.cookies["rummykit_session"])
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    body = {"game": game, "seats": seats, "turn_seconds": None}
    answer = await http.post("/api/tables", json=body, cookies={"rummykit_session": cookie})
    answer.raise_for_status()
    return cookie, str(answer.json()["ws_url"])


def open_socket(base: str, ws_url: str, cookie: str) -> Any:
    return connect(
        base.replace("http", "ws") + ws_url,
        additional_headers={"Cookie": f"rummykit_session={cookie}"},
        max_size=2**24,
    )


class Timed:
    """The timed player: plays at once, times the bot's moves into ``phase``'s list."""

    def __init__(self) -> None:
        self.phase = "alone"
        self.times: dict[str, list[float]] = {"alone": [], "flood": []}
        self.games = 0
        self.waiting_since: float | None = None
        """When the bot became the mover, while its move has not come."""
        self.unanswered = 0.0
        """How long the bot's last move had been awaited when the run ended."""

    async def play(self, base: str, http: httpx.AsyncClient, until: float) -> None:
        rng = random.Random(1)
        while time.monotonic() < until:
            cookie, ws_url = await guest_table(http, f"timed{self.games}", "burraco")
            async with open_socket(base, ws_url, cookie) as ws:
                await self._game(ws, rng, until)
            self.games += 1

    async def _game(self, ws: ClientConnection, rng: random.Random, until: float) -> None:
        since = time.monotonic()
        acted = -1
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                async for text in ws:
                    message = json.loads(text)
                    now = time.monotonic()
                    if message["type"] == "game_over":
                        return
                    if message["type"] == "error":
                        raise SystemExit(f"the timed player's move was refused: {message}")
                    if message["type"] != "state":
                        continue
                    last = message.get("last_action")
                    if last is not None and last["actor"] == "bot":
                        self.times[self.phase].append(now - since)
                    since = now
                    legal = message["legal_actions"]
                    number = message["state_number"]
                    self.waiting_since = None if legal else since
                    if legal and number != acted:
                        acted = number
                        await asyncio.sleep(THINK)  # within the server's message rate
                        options = [a for a in legal if a != "take"] or legal
                        action = {"type": "action", "state_number": number}
                        await ws.send(json.dumps({**action, "action": rng.choice(options)}))
                        since = self.waiting_since = time.monotonic()


async def flood(base: str, ws_url: str, cookie: str, until: float, answers: Counter[str]) -> None:
    """One connection of the flooding seat: a hint, then another once it is answered."""
    async with open_socket(base, ws_url, cookie) as ws:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                await ws.send(json.dumps({"type": "hint"}))
                async for text in ws:
                    message = json.loads(text)
                    if message["type"] == "hint":
                        answers["answered"] += 1
                    elif message["type"] == "error":
                        answers[message["code"]] += 1
                        await asyncio.sleep(0.05)
                    else:
                        continue
                    await ws.send(json.dumps({"type": "hint"}))


async def wait_for_turn(base: str, ws_url: str, cookie: str) -> None:
    """Until the flooding player is to move (greedy may begin)."""
    async with open_socket(base, ws_url, cookie) as ws:
        async with asyncio.timeout(30):
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state" and message["legal_actions"]:
                    return


async def run(base: str, seconds: float, connections: int) -> tuple[Timed, Counter[str]]:
    timed = Timed()
    answers: Counter[str] = Counter()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        cookie, ws_url = await guest_table(http, "flood", "three-thirteen")
        await wait_for_turn(base, ws_url, cookie)
        start = time.monotonic()
        player = asyncio.create_task(timed.play(base, http, start + 2 * seconds))
        await asyncio.sleep(seconds)
        timed.phase = "flood"
        await asyncio.gather(
            *(flood(base, ws_url, cookie, start + 2 * seconds, answers) for _ in range(connections))
        )
        await player
        if timed.waiting_since is not None:  # the bot's move that has not come yet
            timed.unanswered = time.monotonic() - timed.waiting_since
    return timed, answers


def summary(times: list[float]) -> str:
    if not times:
        return "no bot move"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"{len(times)} bot moves, p50 {statistics.median(times) * 1000:.0f} ms,"
        f" p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--connections", type=int, default=30, help="flooding WebSockets")
    args = parser.parse_args()
    if not 0 < args.seconds <= 300 or not 1 <= args.connections <= 200:
        parser.error("--seconds from 0 to 300, --connections from 1 to 200")
    print(
        f"hint_flood: greedy's answer time at one table, {args.seconds:g} s alone, then"
        f" {args.seconds:g} s while {args.connections} connections of one seat ask hints;"
        f" load average {os.getloadavg()[0]:.2f}"
    )
    with tempfile.TemporaryDirectory() as folder, server(Path(folder)) as base:
        timed, answers = asyncio.run(run(base, args.seconds, args.connections))
    print(f"  alone: {summary(timed.times['alone'])}")
    print(f"  flood: {summary(timed.times['flood'])}")
    if timed.unanswered > 0.5:
        print(f"  at the end the bot's move had been awaited {timed.unanswered:.1f} s")
    print(f"  hints: {dict(sorted(answers.items()))} ({timed.games} games played)")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

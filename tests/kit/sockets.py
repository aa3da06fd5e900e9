"""Reading a table socket of the test client: the next state that matches (or the end
of the game), the next message of a kind, a message within a time limit, what came
before a ping's answer, or proof that nothing was pending.

Starlette's test socket blocks until a message comes, so these wait on the message
itself; a table that sends nothing more fails the test by its own limits (or
:func:`receive_within`'s)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

SEARCHED = 500
"""How many messages a search reads before it gives up."""


def next_state(ws: Any, predicate: Callable[..., Any]) -> dict[str, Any]:
    """The next ``state`` message that ``predicate`` takes (others are read past)."""
    for _ in range(SEARCHED):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state" and predicate(message):
            return message
    raise AssertionError("no such state came")


def next_state_or_end(ws: Any, predicate: Callable[..., Any]) -> dict[str, Any] | None:
    """The next ``state`` message that ``predicate`` takes, or ``None`` once the game is
    over (a ``game_over`` came first): for a test whose deal may end the game early."""
    for _ in range(SEARCHED):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "game_over":
            return None
        if message["type"] == "state" and predicate(message):
            return message
    raise AssertionError("no such state came, and the game did not end")


def next_of_type(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others are read past)."""
    for _ in range(SEARCHED):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} came")


def nothing_happens(ws: Any) -> None:
    """The table sends nothing before the answer to a ping (nothing was pending)."""
    ws.send_json({"type": "ping"})
    assert ws.receive_json()["type"] == "pong"


def sent_before_pong(ws: Any) -> list[dict[str, Any]]:
    """Ping the table and read up to its answer: what the table sent meanwhile (at a
    table whose bots or stand-ins may still be moving, where nothing pending cannot be
    asked for)."""
    ws.send_json({"type": "ping"})
    sent: list[dict[str, Any]] = []
    for _ in range(SEARCHED):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "pong":
            return sent
        sent.append(message)
    raise AssertionError("no pong came")


def receive_within(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The connection's next message, failing (not hanging) if none comes in time."""
    answers: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        try:
            answers.put(ws.receive_json())
        except Exception:  # the connection closed meanwhile: nothing came
            return

    threading.Thread(target=read, daemon=True).start()
    try:
        return answers.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"no message within {timeout} s") from None

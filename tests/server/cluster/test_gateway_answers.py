"""A gateway's client never waits for good on an action or chat line its table's owner
never heard: when nothing comes back from the owner within the answer time, the client
is told ``table_unavailable`` and its socket closes with "service restart", so it
reconnects and reads the table afresh; anything the owner sends it in time ends the
watch.  The gateway's clock is a fake one, moved by the tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from rummykit.server.clock import FakeClock
from rummykit.server.cluster.gateway import GatewaySide
from rummykit.server.table import remote
from rummykit.server.table.commands import Attach, ClientAction, ClientChat, Detach
from rummykit.server.table.connection import CLOSE_SERVICE_RESTART, Connection
from rummykit.server.table.remote import RemoteTable
from tests.kit.storage import human_seats, table_row


def texts(connection: Connection) -> list[str | None]:
    out: list[str | None] = []
    while not connection.outbox.empty():
        out.append(connection.outbox.get_nowait())
    return out


async def settle() -> None:
    """Let the loop run what is ready (a timer the clock just made due)."""
    for _ in range(5):
        await asyncio.sleep(0)  # yields once to the loop, no wall time


async def a_client(
    lost: list[dict[str, Any]], clock: FakeClock
) -> tuple[GatewaySide, RemoteTable, Connection]:
    """A gateway whose owner hears nothing: every envelope is dropped into ``lost``."""

    async def alive(workers: set[str]) -> set[str]:
        return workers

    side = GatewaySide(
        worker_id="gw",
        leases=None,  # type: ignore[arg-type]  # no owner is looked up here
        alive=alive,
        publish=lambda _channel, envelope: lost.append(envelope),
        clock=clock,
    )
    table = RemoteTable(
        row=table_row("t1"),
        seats=human_seats("t1", "ann"),
        owner="owner",
        gateway="gw",
        publish=side.publish,
        connections=side.connections,
        replies=side.replies,
        clock=clock,
    )
    connection = Connection(player_id="ann", name="Ann")
    table.submit(Attach(connection))
    return side, table, connection


@pytest.mark.parametrize("command", ["action", "chat"])
def test_a_lost_command_is_answered_and_the_socket_closes(command: str) -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        clock = FakeClock()
        _side, table, connection = await a_client(lost, clock)
        if command == "action":
            table.submit(ClientAction(connection, 7, "draw"))
        else:
            table.submit(ClientChat(connection, "hello", "c1"))
        clock.advance(remote.ANSWER_SECONDS * 0.9)
        await settle()
        assert not connection.closed  # not yet: the owner may still answer
        clock.advance(remote.ANSWER_SECONDS * 0.1)
        await settle()
        assert connection.closed and connection.close_code == CLOSE_SERVICE_RESTART
        sent = texts(connection)
        assert sent[-1] is None
        error = json.loads(str(sent[0]))
        assert error["type"] == "error" and error["code"] == "table_unavailable"
        assert [e["k"] for e in lost] == ["attach", "act" if command == "action" else "chat"]

    asyncio.run(run())


def test_anything_from_the_owner_ends_the_watch() -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        clock = FakeClock()
        side, table, connection = await a_client(lost, clock)
        table.submit(ClientAction(connection, 7, "draw"))
        connection_id = lost[-1]["c"]
        side.receive({"k": "send", "c": connection_id, "sn": 8, "x": '{"type":"state"}'})
        clock.advance(remote.ANSWER_SECONDS * 2)
        await settle()
        assert not connection.closed
        assert texts(connection) == ['{"type":"state"}']
        # a client that leaves before any answer is not closed behind its back either
        table.submit(ClientChat(connection, "bye", "c2"))
        table.submit(Detach(connection))
        clock.advance(remote.ANSWER_SECONDS * 2)
        await settle()
        assert not connection.closed

    asyncio.run(run())

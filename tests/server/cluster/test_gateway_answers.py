"""A gateway's client never waits for good on an action or chat line its table's owner
never heard: when nothing comes back from the owner within the answer time, the client
is told ``table_unavailable`` and its socket closes with "service restart", so it
reconnects and reads the table afresh; anything the owner sends it in time ends the
watch.  And a client follows its table when the lease moves, keeping its socket: the
owner's ``let_go`` holds its commands until the next owner is found in the leases (or
announced with ``moved``), then it is attached there and its commands go there; a
former owner's envelopes are dropped.  The gateway's clock is a fake one, moved by the
tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any

import pytest

from rummykit.server.clock import FakeClock
from rummykit.server.cluster import gateway
from rummykit.server.cluster.gateway import GatewaySide
from rummykit.server.cluster.owner import OwnerSide
from rummykit.server.table import remote
from rummykit.server.table.commands import (
    Attach,
    ClientAction,
    ClientChat,
    ClientSubstitute,
    Command,
    Detach,
)
from rummykit.server.table.connection import CLOSE_SERVICE_RESTART, Connection
from rummykit.server.table.remote import RemoteConnection, RemoteTable
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


class Leases:
    """The leases as a gateway asks them: who holds a table now (set by the test)."""

    def __init__(self, owner: str | None) -> None:
        self.owner = owner
        self.asked = 0

    async def owner_of(self, table_id: str) -> str | None:
        self.asked += 1
        return self.owner


FOLLOW_SECONDS = 12.0  # longer than an answer's wait, as at a site (a 10 s lease)


async def a_client(
    lost: list[dict[str, Any]], clock: FakeClock, leases: Leases | None = None
) -> tuple[GatewaySide, RemoteTable, Connection]:
    """A gateway whose owners hear nothing: every envelope is dropped into ``lost``,
    with the worker it was for (``to``)."""

    async def alive(workers: set[str]) -> set[str]:
        return workers

    tasks: set[asyncio.Task[None]] = set()

    def spawn(work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    side = GatewaySide(
        worker_id="gw",
        leases=leases or Leases("owner"),  # type: ignore[arg-type]  # owner_of only
        alive=alive,
        publish=lambda channel, envelope: lost.append({**envelope, "to": channel}),
        spawn=spawn,
        follow_seconds=FOLLOW_SECONDS,
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


def test_a_table_let_go_holds_its_client_and_follows_it_to_the_next_owner() -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        clock = FakeClock()
        leases = Leases("owner")  # the former owner's lease has not lapsed yet
        side, table, connection = await a_client(lost, clock, leases)
        connection_id = lost[-1]["c"]
        table.submit(ClientAction(connection, 7, "draw"))  # the owner never answers it
        side.receive({"k": "let_go", "c": connection_id, "o": "owner"})
        await settle()
        # the client says something meanwhile: held, not sent to the owner that let go
        table.submit(ClientChat(connection, "still here?", "c1"))
        assert [e["k"] for e in lost] == ["attach", "act"]
        clock.advance(remote.ANSWER_SECONDS)  # the action's watch waits for the next owner
        await settle()
        assert not connection.closed
        leases.owner = "next"
        clock.advance(gateway.FOLLOW_POLL)
        await settle()
        moved = [(e["k"], e["to"], e.get("c")) for e in lost[2:]]
        assert moved == [("attach", "next", connection_id)] + [
            (kind, "next", connection_id) for kind in ("act", "chat")
        ]
        assert lost[-2]["sn"] == 7 and lost[-2]["a"] == "draw"
        assert not connection.closed
        # a late envelope from the former owner is dropped; the new owner's arrives
        side.receive({"k": "close", "c": connection_id, "cd": 1012, "o": "owner"})
        side.receive({"k": "send", "c": connection_id, "sn": 8, "x": "{}", "o": "next"})
        assert not connection.closed and texts(connection) == ["{}"]

    asyncio.run(run())


def test_the_next_owner_has_the_whole_answer_time_however_late_the_move() -> None:
    """An action sent just before its owner began to drain, the table let go and taken
    over late: the new owner's silence is counted from the move, not from the send."""

    async def run() -> None:
        lost: list[dict[str, Any]] = []
        clock = FakeClock()
        side, table, connection = await a_client(lost, clock)
        connection_id = lost[-1]["c"]
        table.submit(ClientAction(connection, 7, "draw"))
        clock.advance(remote.ANSWER_SECONDS * 0.8)
        side.receive({"k": "let_go", "c": connection_id, "o": "owner"})
        side.receive({"k": "moved", "t": table.table_id, "o": "next"})
        assert (lost[-1]["k"], lost[-1]["to"]) == ("act", "next")
        clock.advance(remote.ANSWER_SECONDS * 0.9)  # past the send's own answer time
        await settle()
        assert not connection.closed and texts(connection) == []
        clock.advance(remote.ANSWER_SECONDS * 0.1)  # the new owner's, too: lost
        await settle()
        assert connection.closed and connection.close_code == CLOSE_SERVICE_RESTART
        assert json.loads(str(texts(connection)[0]))["code"] == "table_unavailable"

    asyncio.run(run())


def test_an_announced_move_attaches_the_client_at_the_new_owner_at_once() -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        side, table, connection = await a_client(lost, FakeClock())
        connection_id = lost[-1]["c"]
        side.receive({"k": "moved", "t": table.table_id, "o": "next"})
        assert (lost[-1]["k"], lost[-1]["to"], lost[-1]["c"]) == ("attach", "next", connection_id)
        assert lost[-1]["p"] == connection.player_id and not connection.closed
        # announced to every worker: a move to this worker itself sends the client to
        # the host here, by a reconnect
        side.receive({"k": "moved", "t": table.table_id, "o": "gw"})
        assert connection.closed and connection.close_code == CLOSE_SERVICE_RESTART

    asyncio.run(run())


def test_a_table_whose_next_owner_is_not_found_lets_its_client_reconnect() -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        clock = FakeClock()
        leases = Leases(None)  # nobody has taken the table over
        side, _table, connection = await a_client(lost, clock, leases)
        side.receive({"k": "let_go", "c": lost[-1]["c"], "o": "owner"})
        await settle()
        for _ in range(int(FOLLOW_SECONDS / gateway.FOLLOW_POLL) - 1):
            clock.advance(gateway.FOLLOW_POLL)
            await settle()
        assert not connection.closed and leases.asked > 5
        clock.advance(2 * gateway.FOLLOW_POLL)
        await settle()
        assert connection.closed and connection.close_code == CLOSE_SERVICE_RESTART

    asyncio.run(run())


def test_a_table_taken_again_by_the_owner_that_let_it_go_is_followed_back() -> None:
    async def run() -> None:
        lost: list[dict[str, Any]] = []
        side, table, connection = await a_client(lost, FakeClock())
        connection_id = lost[-1]["c"]
        side.receive({"k": "moved", "t": table.table_id, "o": "owner"})  # nothing moved
        assert [e["k"] for e in lost] == ["attach"]
        side.receive({"k": "let_go", "c": connection_id, "o": "owner"})
        side.receive({"k": "moved", "t": table.table_id, "o": "owner"})  # its host anew
        assert (lost[-1]["k"], lost[-1]["to"], lost[-1]["c"]) == ("attach", "owner", connection_id)
        assert table.held is None and not connection.closed

    asyncio.run(run())


class _Host:
    """A table host that only notes what it is handed."""

    stopped = False

    def __init__(self) -> None:
        self.commands: list[Command] = []

    def submit(self, command: Command) -> None:
        self.commands.append(command)


def test_a_turn_based_hand_over_crosses_from_the_gateway_to_the_owners_host() -> None:
    """A turn-based table's hand-over (``substitute``) crosses processes like a claim:
    the owner hands it to the table's host as that client's command (the host decides
    whether the client may)."""

    async def run() -> None:
        lost: list[dict[str, Any]] = []
        _side, table, connection = await a_client(lost, FakeClock())
        table.submit(ClientSubstitute(connection))
        envelope = lost[-1]
        assert envelope["k"] == "sub" and envelope["c"] == lost[0]["c"]
        owner = OwnerSide(
            worker_id="owner", publish=lambda _channel, _envelope: None, spawn=lambda _work: None
        )
        host = _Host()
        remote = RemoteConnection(
            connection_id=envelope["c"], gateway="gw", player_id="ann", name="Ann", token=None,
            publish=lambda _channel, _envelope: None,
        )  # fmt: skip
        owner.connections[envelope["c"]] = (remote, host)  # type: ignore[assignment]
        await owner.receive(envelope)
        [handed] = host.commands
        assert isinstance(handed, ClientSubstitute) and handed.connection is remote

    asyncio.run(run())

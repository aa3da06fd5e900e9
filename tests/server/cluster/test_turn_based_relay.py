"""A turn-based table's hand-over (``substitute``) crosses processes like a claim: a
gateway's client sends it to the table's owner, which hands it to the table's host as
that client's command (the host decides whether the client may)."""

from __future__ import annotations

import asyncio
from typing import Any

from rummykit.server.clock import FakeClock
from rummykit.server.cluster.gateway import GatewaySide
from rummykit.server.cluster.owner import OwnerSide
from rummykit.server.table.commands import Attach, ClientSubstitute, Command
from rummykit.server.table.connection import Connection
from rummykit.server.table.remote import RemoteConnection, RemoteTable
from tests.kit.storage import human_seats, table_row


class _Host:
    """A table host that only notes what it is handed."""

    stopped = False

    def __init__(self) -> None:
        self.commands: list[Command] = []

    def submit(self, command: Command) -> None:
        self.commands.append(command)


def test_a_hand_over_goes_from_the_gateway_to_the_owners_host() -> None:
    async def run() -> None:
        sent: list[dict[str, Any]] = []

        async def alive(workers: set[str]) -> set[str]:
            return workers

        clock = FakeClock()
        side = GatewaySide(
            worker_id="gw",
            leases=None,  # type: ignore[arg-type]  # no owner is looked up here
            alive=alive,
            publish=lambda _channel, envelope: sent.append(envelope),
            spawn=lambda _work: None,  # nothing here is followed
            follow_seconds=12.0,
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
        table.submit(ClientSubstitute(connection))
        envelope = sent[-1]
        assert envelope["k"] == "sub" and envelope["c"] == sent[0]["c"]

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

"""The owner's side of a worker: other gateways' clients at this worker's tables.

A gateway's envelopes for a table hosted here arrive on this worker's channel:
``attach`` and ``detach`` (a client comes or goes), ``act``, ``chat`` and ``hint`` (its
commands), ``join`` and ``leave`` (run at the host and answered with a ``reply``), and
``rematch`` (a table of this worker's made the next game elsewhere).  Each client stands
here as a :class:`~rummykit.server.table.remote.RemoteConnection`, which the host treats
as a local one; what it is sent goes back to its gateway with the table's state number.
The clients of a gateway whose heartbeat lapsed are detached; a later command from a
connection this side does not know is answered by telling its gateway to close it (it
reconnects and attaches again).

When this worker lets a table go (its lease lost, or its host stopped with the game
under way), or cannot restore it (the database failed), each client of it here is
handed on rather than closed: its gateway is told ``let_go`` and follows the table to its next
owner, the client keeping its socket.  A table this worker let go a moment ago, or any
table it does not host while its database is failing (``may_host``), is never restored
here: an attach is answered ``let_go`` at once, and a join or leave "try again".  An
attach that must restore its table runs on its own, so that a restore waiting on the
database holds up no other envelope (the views of the tables this worker relays among
them); the commands of that client wait for it.

This side never decides who holds a table (the registry takes the lease, or refuses)
and never touches the clients of this worker's own gateway.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from rummykit.server.cluster.tasks import Spawn
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.messages import CLIENT_ID_PATTERN
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.errors import StorageError
from rummykit.server.table.commands import (
    Attach,
    ClientAction,
    ClientChat,
    ClientClaim,
    ClientFocusLost,
    ClientHint,
    ClientSubstitute,
    Detach,
    Join,
    Leave,
    RematchMade,
)
from rummykit.server.table.connection import CLOSE_SERVICE_RESTART
from rummykit.server.table.host import TableHost
from rummykit.server.table.registry import TableRegistry
from rummykit.server.table.remote import Publish, Refusal, RemoteConnection


class OwnerSide:
    """The clients of other gateways at this worker's tables, by connection id."""

    KINDS = frozenset(
        {
            "attach",
            "detach",
            "act",
            "chat",
            "hint",
            "claim",
            "sub",
            "blur",
            "join",
            "leave",
            "rematch",
        }
    )
    """The envelopes a gateway sends an owner."""

    def __init__(
        self,
        *,
        worker_id: str,
        publish: Publish,
        spawn: Spawn,
        may_host: Callable[[str], bool] = lambda table_id: True,
        database_failed: Callable[[], None] = lambda: None,
    ) -> None:
        self.worker_id = worker_id
        self.publish = publish
        self.spawn = spawn
        self.may_host = may_host  # whether to host (restore) a table not in memory here
        self.database_failed = database_failed  # a restore failed on the database
        self.registry: TableRegistry | None = None  # set when the worker joins the site
        self.connections: dict[str, tuple[RemoteConnection, TableHost]] = {}
        # attaches waiting on a restore: the commands of their clients, held meanwhile
        self._attaching: dict[str, list[dict[str, Any]]] = {}

    async def receive(self, message: dict[str, Any]) -> None:
        """A gateway's envelope (one of :attr:`KINDS`) for a table here."""
        kind = message["k"]
        held = self._attaching.get(str(message.get("c")))
        if held is not None and kind != "attach":
            held.append(message)  # its client's attach is still restoring the table
            return
        match kind:
            case "attach":
                await self._attach_soon(message)
            case "detach":
                found_remote = self.connections.pop(str(message.get("c")), None)
                if found_remote is not None:
                    remote, host = found_remote
                    host.submit(Detach(remote))
            case "act" | "chat" | "hint" | "claim" | "sub" | "blur":
                found_remote = self.connections.get(str(message.get("c")))
                if found_remote is None:  # detached here (its gateway seemed dead): the
                    self._unknown(message)  # client must attach again, so it reconnects
                    return
                remote, host = found_remote
                if host.stopped:
                    remote.close(CLOSE_SERVICE_RESTART)
                elif kind == "act":
                    received = time.perf_counter()
                    move = ClientAction(remote, int(message["sn"]), str(message["a"]), received)
                    host.submit(move)
                elif kind == "chat":
                    host.submit(ClientChat(remote, str(message["x"]), _client_id(message.get("i"))))
                elif kind == "claim":
                    host.submit(ClientClaim(remote))
                elif kind == "sub":
                    host.submit(ClientSubstitute(remote))
                elif kind == "blur":
                    host.submit(ClientFocusLost(remote, int(message["sn"])))
                else:
                    host.submit(ClientHint(remote))
            case "join" | "leave":
                self.spawn(self._answer(message))
            case "rematch":
                self.spawn(self._rematch(message))

    async def _rematch(self, message: dict[str, Any]) -> None:
        owner = await self._owned_host(str(message["t"]))
        token = message.get("tok")
        if owner is not None:
            owner.submit(
                RematchMade(
                    str(message["nt"]),
                    token if isinstance(token, str) else None,
                    int(message["by"]),
                )
            )

    def _in_memory(self, table_id: str) -> TableHost | None:
        """The host of ``table_id`` running here, if any (no database needed)."""
        assert self.registry is not None
        host = self.registry.hosts.get(table_id)
        return host if host is not None and not host.stopped else None

    async def _owned_host(self, table_id: str) -> TableHost | None:
        """The host of ``table_id`` if this worker owns it (taking it if nobody does and
        this worker may host it: ``may_host``)."""
        assert self.registry is not None
        if self._in_memory(table_id) is None and not self.may_host(table_id):
            return None
        try:
            host = await self.registry.host(table_id)
        except (StorageError, TableError):  # no such table, or hosted elsewhere
            return None
        return host if isinstance(host, TableHost) else None

    async def _attach_soon(self, message: dict[str, Any]) -> None:
        """Attach a gateway's client: at once to a host running here; handed back
        (``let_go``) for a table this worker may not host now; otherwise once the table
        is restored, on its own, the client's commands held until then."""
        table_id, connection_id = str(message["t"]), str(message["c"])
        if self._in_memory(table_id) is not None:
            await self._attach_now(message)
        elif not self.may_host(table_id):
            log_event(table_id, "let_go", gateway=str(message["g"]))
            self._hand_back(str(message["g"]), connection_id)
        else:
            self._attaching[connection_id] = []
            self.spawn(self._attach(message))

    async def _attach(self, message: dict[str, Any]) -> None:
        try:
            await self._attach_now(message)
        finally:
            for held in self._attaching.pop(str(message["c"]), []):
                await self.receive(held)

    async def _attach_now(self, message: dict[str, Any]) -> None:
        gateway = str(message["g"])
        connection_id = str(message["c"])
        token = message.get("tok")
        remote = RemoteConnection(
            connection_id=connection_id,
            gateway=gateway,
            player_id=str(message["p"]),
            name=str(message["n"]),
            token=token if isinstance(token, str) else None,
            publish=self._publish_with_state,
        )
        try:
            host = await self._owned_host(str(message["t"]))
        except Exception:  # the database failed: its gateway finds the table elsewhere
            log_event(str(message["t"]), "attach_failed", level=logging.WARNING, gateway=gateway)
            self.database_failed()
            remote.closed = True
            self._hand_back(gateway, connection_id)
            return
        if host is None:  # the table moved (or is gone): the client reconnects
            remote.close(CLOSE_SERVICE_RESTART)
            return
        self.connections[connection_id] = (remote, host)
        host.submit(Attach(remote))
        log_event(host.table_id, "remote_client", gateway=gateway)

    def _unknown(self, message: dict[str, Any]) -> None:
        """A command from a connection this worker does not know (detached when its
        gateway's heartbeat lapsed, or never attached here): tell its gateway to close
        it, so that the client reconnects and attaches again where the table is."""
        gateway, connection_id = message.get("g"), message.get("c")
        if isinstance(gateway, str) and isinstance(connection_id, str):
            log_event(str(message.get("t")), "unknown_client", gateway=gateway)
            self.publish(
                gateway,
                {
                    "k": "close",
                    "c": connection_id,
                    "cd": CLOSE_SERVICE_RESTART,
                    "o": self.worker_id,
                },
            )

    def _publish_with_state(self, worker: str, message: dict[str, Any]) -> None:
        """What a remote connection is sent, with its table's state number (the gateway
        numbers its own refusals with it)."""
        found = self.connections.get(str(message.get("c")))
        if found is not None:
            message["sn"] = found[1].state_number
        message["o"] = self.worker_id
        self.publish(worker, message)

    def let_go(self, table_id: str) -> None:
        """This worker let ``table_id`` go: hand each of its clients here back to their
        gateway, which follows the table to its next owner (the host's stop closes no
        socket of theirs)."""
        for connection_id, (remote, host) in list(self.connections.items()):
            if host.table_id == table_id:
                del self.connections[connection_id]
                remote.closed = True  # the host sends it nothing more
                self._hand_back(remote.gateway, connection_id)

    def _hand_back(self, gateway: str, connection_id: str) -> None:
        """Tell ``gateway`` to hold its client ``connection_id`` and follow the table to
        its next owner."""
        self.publish(gateway, {"k": "let_go", "c": connection_id, "o": self.worker_id})

    async def _answer(self, message: dict[str, Any]) -> None:
        """Run a gateway's join or leave at this worker's host and answer it."""
        gateway = str(message["g"])
        reply: dict[str, Any] = {"k": "reply", "r": message.get("r")}
        host = await self._owned_host(str(message["t"]))
        try:
            if host is None:
                raise TableError("table_unavailable", "the table is busy; try again")
            result: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            player_id = str(message["p"])
            if message["k"] == "join":
                seat = message.get("s")
                seat = seat if isinstance(seat, int) else None
                host.submit(Join(player_id, str(message["n"]), seat, result))
            else:
                host.submit(Leave(player_id, result))
            reply.update(ok=True, v=await result)
        except TableError as error:
            reply.update(ok=False, e=Refusal.of(error))
        self.publish(gateway, reply)

    def forget_stopped(self) -> None:
        """Drop the clients of hosts that stopped and the clients already closed."""
        for connection_id, (remote, host) in list(self.connections.items()):
            if host.stopped or remote.closed:
                self.connections.pop(connection_id, None)

    def gateways(self) -> set[str]:
        """The gateways of the clients at this worker's tables."""
        return {remote.gateway for remote, _ in self.connections.values()}

    def detach_dead_gateways(self, alive: set[str]) -> None:
        """Detach the clients whose gateway is not in ``alive``."""
        for connection_id, (remote, host) in list(self.connections.items()):
            if remote.gateway not in alive:
                self.connections.pop(connection_id, None)
                host.submit(Detach(remote))


def _client_id(value: object) -> str | None:
    """A chat line's client id from an envelope, if it has the protocol's shape."""
    return value if isinstance(value, str) and re.fullmatch(CLIENT_ID_PATTERN, value) else None

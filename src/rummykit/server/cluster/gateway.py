"""The gateway's side of a worker: its clients of tables hosted by other workers.

A client's WebSocket may land on a worker that does not host its table.  That worker
(its *gateway*) hands the socket a :class:`~rummykit.server.table.remote.RemoteTable`
standing for the owner's host: the client's commands go out on the owner's channel, and
the owner's envelopes come back here: ``send`` (a text for one connection, with its
table's state number), ``close`` (the owner let the client go, with the close code to
end its socket with: it reconnects), and ``reply`` (the answer to a join or leave).
Players follow their table when its lease moves, keeping their sockets: an owner that
lets a table go says so (``let_go``), and this side holds the table's clients and their
commands until the next owner is known, asking the leases (``FOLLOW_POLL`` seconds
apart) or hearing the owner that took the table over announce it to every worker
(``moved``); it then attaches the clients there under their connection ids, and the new
owner's host sends each its view.  What an owner sends is tagged with its id (``o``), and
a former owner's envelopes are dropped, so a late one (from a worker thawed after a
freeze) cannot close a client that moved on.  A table whose next owner is not known
within ``follow_seconds`` gives up: its clients reconnect.  When an owner's heartbeat
lapses, its tables' clients here are told the owner is gone and reconnect to the next
one; when this worker takes a table over, its own clients of it reconnect to the host
here; and when this worker's own heartbeat no longer reaches Redis, every client here
is (no owner hears them), and they reconnect through a worker that can serve them.

This side never hosts a table, takes a lease or writes to storage, and relaying a
client's commands and views never waits on the database: what a client sees is decided
by the owner's host alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from rummykit.server.clock import Clock, SystemClock
from rummykit.server.cluster.tasks import Spawn
from rummykit.server.operations.events_log import log_event
from rummykit.server.storage.leases import LeaseStore
from rummykit.server.storage.store import Storage
from rummykit.server.table.connection import CLOSE_SERVICE_RESTART, Connection
from rummykit.server.table.remote import Publish, Refusal, RemoteTable

Alive = Callable[[set[str]], Awaitable[set[str]]]
"""Which of a set of workers have a live heartbeat."""

FOLLOW_POLL = 0.2
"""How often a gateway asks the leases for the next owner of a table let go."""


class GatewaySide:
    """This worker's clients of tables hosted elsewhere, by connection id, and the joins
    and leaves waiting for an owner's answer."""

    KINDS = frozenset({"send", "close", "reply", "let_go", "moved"})
    """The envelopes an owner sends a gateway (``moved`` goes to every worker)."""

    def __init__(
        self,
        *,
        worker_id: str,
        leases: LeaseStore,
        alive: Alive,
        publish: Publish,
        spawn: Spawn,
        follow_seconds: float,
        reaches_redis: Callable[[], bool] = lambda: True,
        clock: Clock | None = None,
    ) -> None:
        self.worker_id = worker_id
        self.spawn = spawn
        self.follow_seconds = follow_seconds  # how long a table let go waits for an owner
        self.clock = clock  # how long a stand-in waits for its owner (the system's: None)
        self.reaches_redis = reaches_redis
        self.leases = leases
        self.alive = alive
        self.publish = publish
        self.connections: dict[str, tuple[Connection, RemoteTable]] = {}
        self.replies: dict[str, asyncio.Future[Any]] = {}
        # every stand-in handed out while it is in use (a join's or leave's has no
        # connection here, but waits for its owner's answer all the same)
        self.tables: weakref.WeakSet[RemoteTable] = weakref.WeakSet()

    async def remote_table(self, table_id: str, storage: Storage) -> RemoteTable | None:
        """The gateway's stand-in for ``table_id`` hosted by another live worker;
        ``None`` when no live worker holds it."""
        if not self.reaches_redis():  # no owner hears this worker: answer at once
            return None
        owner = await self.leases.owner_of(table_id)
        if owner is None or owner == self.worker_id:
            return None
        try:
            if not await self.alive({owner}):
                return None
        except Exception:  # Redis away: no owner can be reached from here
            return None
        found = await storage.table_with_seats(table_id)
        if found is None:
            return None
        row, seats = found
        table = RemoteTable(
            row=row,
            seats=seats,
            owner=owner,
            gateway=self.worker_id,
            publish=self.publish,
            connections=self.connections,
            replies=self.replies,
            clock=self.clock,
        )
        self.tables.add(table)
        return table

    def close_connections(self, player_id: str) -> None:
        """Close every client of ``player_id`` this worker is the gateway of."""
        for connection, _table in list(self.connections.values()):
            if connection.player_id == player_id:
                connection.close()

    def receive(self, message: dict[str, Any]) -> None:
        """An owner's envelope (one of :attr:`KINDS`) for a client here."""
        kind = message["k"]
        if kind == "moved":
            self._moved(str(message.get("t")), str(message.get("o")))
            return
        if kind == "reply":
            result = self.replies.get(str(message.get("r")))
            if result is not None and not result.done():
                if message.get("ok"):
                    result.set_result(message.get("v"))
                else:
                    result.set_exception(Refusal.read(message.get("e")))
            return
        found = self.connections.get(str(message.get("c")))
        if found is not None:
            connection, table = found
            if message.get("o", table.owner) != table.owner:
                return  # from a former owner: the client has moved on
            if kind == "let_go":
                self._let_go(table)
            elif kind == "close":
                code = message.get("cd")
                connection.close(code if isinstance(code, int) else CLOSE_SERVICE_RESTART)
            else:
                table.state_number = int(message.get("sn", table.state_number))
                table.answered(str(message.get("c")))
                connection.send_text(str(message["x"]))

    def _let_go(self, table: RemoteTable) -> None:
        """The owner let ``table`` go: hold its clients, and follow it to the next owner."""
        if table.stopped or table.held is not None:
            return
        log_event(table.table_id, "owner_let_go", owner=table.owner)
        table.between_owners()
        self.spawn(self._follow(table, table.owner))

    async def _follow(self, table: RemoteTable, former: str) -> None:
        """Ask the leases for ``table``'s next owner until one is known (or announced,
        which ends the wait), for at most :attr:`follow_seconds`; then move the clients
        there, or let them reconnect."""
        clock = self.clock or SystemClock()
        deadline = clock.now() + self.follow_seconds
        while table.held is not None and not table.stopped and clock.now() < deadline:
            owner = None
            with contextlib.suppress(Exception):  # the database away: ask again
                owner = await asyncio.wait_for(
                    self.leases.owner_of(table.table_id), max(0.01, deadline - clock.now())
                )
            if owner is not None and owner != former and table.held is not None:
                self._moved(table.table_id, owner)
                return
            await _pause(clock, FOLLOW_POLL)
        if table.held is not None and not table.stopped:
            log_event(table.table_id, "owner_gone", owner=former)
            table.owner_gone()

    def _moved(self, table_id: str, owner: str) -> None:
        """``owner`` now holds ``table_id``: its clients here move there (if ``owner``
        is this worker, they reconnect to the host here)."""
        for table in self._in_use():
            if table.table_id != table_id or table.stopped:
                continue
            if table.owner == owner and table.held is None:
                continue  # there already (a table let go and taken again by its former
                # owner is moved back by that owner's announcement)
            log_event(table_id, "followed", owner=owner, former=table.owner)
            if owner == self.worker_id:
                table.owner_gone()
            else:
                table.move_to(owner)

    def owners(self) -> set[str]:
        """The workers hosting the tables of this worker's clients."""
        return {table.owner for table in self._in_use()}

    def _in_use(self) -> list[RemoteTable]:
        """The stand-ins with a client here or a join or leave waiting for an answer."""
        tables = {id(table): table for _, table in self.connections.values()}
        tables.update((id(table), table) for table in list(self.tables) if table.asked)
        return list(tables.values())

    def cut_off(self) -> None:
        """This worker no longer reaches Redis: no owner hears its clients' commands or
        sends them views, so close them all (they reconnect, through a worker that can
        serve them)."""
        for table in [table for table in self._in_use() if not table.stopped]:
            log_event(table.table_id, "gateway_cut_off", owner=table.owner)
            table.owner_gone()

    def table_moved(self, table_id: str) -> None:
        """This worker just took ``table_id`` over: its clients here of the former owner
        reconnect now (to this worker's host), without waiting for that owner's
        heartbeat to lapse."""
        for _connection, table in list(self.connections.values()):
            if table.table_id == table_id and not table.stopped:
                log_event(table_id, "owner_gone", owner=table.owner)
                table.owner_gone()

    def forget_dead_owners(self, alive: set[str]) -> None:
        """Tell the clients of tables whose owner is not in ``alive`` that it is gone
        (they reconnect to the next owner)."""
        for table in self._in_use():
            if table.owner not in alive and not table.stopped:
                log_event(table.table_id, "owner_gone", owner=table.owner)
                table.owner_gone()


async def _pause(clock: Clock, seconds: float) -> None:
    """Wait ``seconds`` by ``clock`` (a fake one in tests)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def ring() -> None:
        if not done.done():
            done.set_result(None)

    timer = clock.call_at(clock.now() + seconds, ring)
    try:
        await done
    finally:
        timer.cancel()

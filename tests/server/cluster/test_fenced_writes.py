"""Every write of a table is fenced: a seat taken or freed, the start, the end, a player
leaving and a chat line are stored only while the writer's lease still holds the table,
checked in the write's own transaction, as actions always were.  A former owner (frozen
past its lease, or cut off) writes nothing more for the table, however late its write
arrives; a seat is freed only for the player who holds it; a host whose lease is lost
is never handed out to a request; a chat line sent again with its client id is said
once, across a restart too.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, cast

import pytest

from rummykit.server.clock import FakeClock
from rummykit.server.cluster.leases import LeaseStore
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.errors import LeaseLost
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.models import ChatRow, SeatRow, TableRow
from rummykit.server.storage.store import Storage
from rummykit.server.table.commands import Attach, ClientChat, Join, Leave, SignedOut
from rummykit.server.table.connection import Connection
from rummykit.server.table.host import TableHost
from rummykit.server.table.registry import TableRegistry
from rummykit.server.table.remote import RemoteTable
from tests.kit.databases import make_settings
from tests.kit.leases import Processes, end_now, eventually, in_processes
from tests.kit.storage import human_seats, open_storage, table_row


def chat_row(table_id: str, client_id: str | None = "line-1") -> ChatRow:
    return ChatRow(
        table_id=table_id, seat=0, player_id="ann", name="ann", text="hi", at=1.0,
        client_id=client_id,
    )  # fmt: skip


async def seat_holders(storage: Storage, table_id: str) -> list[str | None]:
    stored = await storage.load_table(table_id)
    assert stored is not None
    return [seat.player_id for seat in stored.seats]


async def lost_and_taken(db: Processes, table_id: str) -> tuple[Storage, Lease, Storage, Lease]:
    """Alice's process held ``table_id`` and lost it; Bob's process holds it now."""
    alice_storage = await db.storage()
    bob_storage = await db.storage()
    alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
    old = await alice.acquire(table_id, "alice", 30.0)
    assert old is not None
    await end_now(alice_storage, table_id)
    new = await eventually(lambda: bob.acquire(table_id, "bob", 30.0))
    assert new.token > old.token
    return alice_storage, old, bob_storage, new


# -- storage: each write under a lost lease ------------------------------------------------


def test_every_write_under_a_lost_lease_is_refused_and_stores_nothing(
    postgres_schema: str,
) -> None:
    async def run(db: Processes) -> None:
        setup = await db.storage()
        await setup.add_table(table_row("w1", status="waiting"), human_seats("w1", "ann"))
        await setup.add_table(table_row("p1", status="playing"), human_seats("p1", "ann", "bob"))
        alice_w, old_w, bob_w, new_w = await lost_and_taken(db, "w1")
        alice_p, old_p, bob_p, new_p = await lost_and_taken(db, "p1")

        refused: list[Callable[[], Any]] = [
            lambda: alice_w.take_seat("w1", 1, "cid", "cid", start_at=5.0, lease=old_w),
            lambda: alice_w.free_seat("w1", 0, "ann", lease=old_w),
            lambda: alice_w.start_table("w1", 5.0, lease=old_w),
            lambda: alice_p.mark_left("p1", 1, 5.0, lease=old_p),
            lambda: alice_p.finish_table("p1", 5.0, [10, 20], [1], lease=old_p),
            lambda: alice_p.add_chat(chat_row("p1"), lease=old_p),
        ]
        for write in refused:
            with pytest.raises(LeaseLost):
                await write()

        stored_w = await setup.load_table("w1")
        stored_p = await setup.load_table("p1")
        assert stored_w is not None and stored_p is not None
        assert stored_w.table.status == "waiting" and stored_w.table.started_at is None
        assert [s.player_id for s in stored_w.seats] == ["ann", None]
        assert stored_p.table.status == "playing" and stored_p.table.totals is None
        assert [s.left_at for s in stored_p.seats] == [None, None]
        assert stored_p.chat == []

        # the new owner writes as usual
        assert await bob_w.take_seat("w1", 1, "cid", "cid", start_at=5.0, lease=new_w)
        await bob_p.mark_left("p1", 1, 5.0, lease=new_p)
        assert await bob_p.add_chat(chat_row("p1"), lease=new_p)
        await bob_p.finish_table("p1", 6.0, [10, 20], [1], lease=new_p)
        assert await seat_holders(setup, "w1") == ["ann", "cid"]
        stored_p = await setup.load_table("p1")
        assert stored_p is not None and stored_p.table.status == "over"
        assert len(stored_p.chat) == 1

    in_processes(postgres_schema, run)


def test_a_seat_is_freed_only_for_the_player_who_holds_it(database: dict[str, Any]) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        try:
            await storage.add_table(table_row("t1", status="waiting"), human_seats("t1", "ann"))
            assert not await storage.free_seat("t1", 0, "bob")
            assert await seat_holders(storage, "t1") == ["ann", None]
            assert await storage.free_seat("t1", 0, "ann")
            assert await seat_holders(storage, "t1") == [None, None]
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_chat_line_with_a_client_id_is_stored_once(database: dict[str, Any]) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        try:
            await storage.add_table(table_row("t1"), human_seats("t1", "ann"))
            assert await storage.add_chat(chat_row("t1", "line-1"))
            assert not await storage.add_chat(chat_row("t1", "line-1"))
            assert await storage.add_chat(chat_row("t1", "line-2"))
            assert await storage.add_chat(chat_row("t1", None))  # without an id: always
            assert await storage.add_chat(chat_row("t1", None))
            stored = await storage.load_table("t1")
            assert stored is not None
            assert [row.client_id for row in stored.chat] == ["line-1", "line-2", None, None]
        finally:
            await storage.close()

    asyncio.run(run())


# -- the host: a former owner -------------------------------------------------------------


class Fence:
    """The lease a test host writes under, as its process's keeper would give it."""

    def __init__(self, lease: Lease | None) -> None:
        self.lease = lease

    def __call__(self, table_id: str) -> Lease | None:
        return self.lease


def make_host(storage: Storage, row: TableRow, seats: list[SeatRow], fence: Fence) -> TableHost:
    return TableHost(
        row=row,
        seats=seats,
        storage=storage,
        runner=cast(Any, object()),  # a table of people only: no bot is ever asked
        settings=make_settings("sqlite://"),
        clock=FakeClock(100.0),
        fencing=fence,
    )


async def join(host: TableHost, player: str) -> int:
    result: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    host.submit(Join(player, player, None, result))
    return await asyncio.wait_for(result, 10)


async def leave(host: TableHost, player: str) -> None:
    result: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    host.submit(Leave(player, result))
    await asyncio.wait_for(result, 10)


def test_a_former_owner_that_kept_its_lease_in_memory_takes_no_seat_and_starts_nothing(
    postgres_schema: str,
) -> None:
    """The frozen owner's case: its keeper still hands out the old lease (the process
    did not run to notice it expired), a join reaches its host, and the database refuses
    the seat and the start; the joiner is told to try again, the host stops."""

    async def run(db: Processes) -> None:
        setup = await db.storage()
        await setup.add_table(table_row("t1", status="waiting"), human_seats("t1", "ann"))
        alice_storage, old, _bob_storage, _new = await lost_and_taken(db, "t1")
        stored = await setup.load_table("t1")
        assert stored is not None
        host = make_host(alice_storage, stored.table, stored.seats, Fence(old))
        host.start()
        with pytest.raises(TableError) as refused:
            await join(host, "cid")
        assert refused.value.code == "table_unavailable"
        await asyncio.wait_for(host.stop(), 10)
        assert host.stopped
        stored = await setup.load_table("t1")
        assert stored is not None
        assert stored.table.status == "waiting"
        assert [s.player_id for s in stored.seats] == ["ann", None]

    in_processes(postgres_schema, run)


def test_a_host_whose_keeper_let_the_lease_go_writes_nothing(postgres_schema: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage()
        await storage.add_table(table_row("t1", status="waiting"), human_seats("t1"))
        lease = await LeaseStore(storage.engine).acquire("t1", "alice", 30.0)
        assert lease is not None
        stored = await storage.load_table("t1")
        assert stored is not None
        fence = Fence(lease)
        host = make_host(storage, stored.table, stored.seats, fence)
        host.start()
        assert await join(host, "ann") == 0
        fence.lease = None  # the keeper's stop rule: no longer safe to act
        with pytest.raises(TableError) as refused:
            await join(host, "cid")
        assert refused.value.code == "table_unavailable"
        assert await seat_holders(storage, "t1") == ["ann", None]
        await asyncio.wait_for(host.stop(), 10)

    in_processes(postgres_schema, run)


def test_a_stale_host_leaving_a_seat_someone_else_holds_frees_nothing(sqlite_url: str) -> None:
    """A host's memory says Ann holds seat 0, the database says Cid (written by the
    table's newer owner): Ann's leave frees nothing and the host stops to be rebuilt."""

    async def run() -> None:
        storage = await open_storage(sqlite_url)
        try:
            await storage.add_table(table_row("t1", status="waiting"), human_seats("t1", "ann"))
            stored = await storage.load_table("t1")
            assert stored is not None
            host = make_host(storage, stored.table, stored.seats, Fence(None))
            host.fencing = None  # one process: no lease
            host.start()
            assert await storage.free_seat("t1", 0, "ann")
            assert await storage.take_seat("t1", 0, "cid", "cid")
            with pytest.raises(TableError) as refused:
                await leave(host, "ann")
            assert refused.value.code == "table_unavailable"
            assert await seat_holders(storage, "t1") == ["cid", None]
            await asyncio.wait_for(host.stop(), 10)
            assert host.stopped
        finally:
            await storage.close()

    asyncio.run(run())


class LostSite:
    """A site where this worker's lease of every table is lost and nobody else has
    them live (so a table is neither hosted here nor found elsewhere)."""

    def fencing(self, table_id: str) -> Lease | None:
        return None

    async def take(self, table_id: str) -> Lease | None:
        return None

    def host_stopped(self, table_id: str, *, unfinished: bool = False) -> None:
        pass

    async def remote_table(self, table_id: str, storage: Storage) -> RemoteTable | None:
        return None

    async def hidden_elsewhere(self, table_ids: list[str]) -> set[str]:
        return set()

    async def player_back(self, table_id: str) -> None:
        pass

    def signed_out(self, player_id: str) -> None:
        pass

    def vacations_changed(self, player_id: str) -> None:
        pass


def test_a_host_whose_lease_is_lost_is_never_handed_out(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await open_storage(sqlite_url)
        registry = TableRegistry(
            storage=storage,
            runner=cast(Any, object()),
            settings=make_settings("sqlite://"),
            clock=FakeClock(100.0),
            cluster=LostSite(),
        )
        try:
            table_id = "a" * 16
            await storage.add_table(table_row(table_id, status="waiting"), human_seats(table_id))
            stored = await storage.load_table(table_id)
            assert stored is not None
            stale = make_host(storage, stored.table, stored.seats, Fence(None))
            stale.start()
            registry.hosts[table_id] = stale
            with pytest.raises(TableError) as refused:  # found, but no live owner: later
                await registry.host(table_id)
            assert refused.value.code == "table_unavailable"
            assert stale.stopped
        finally:
            await registry.close()
            await storage.close()

    asyncio.run(run())


# -- chat sent again -----------------------------------------------------------------------


def sent(connection: Connection) -> list[dict[str, Any]]:
    messages = []
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        if text is not None:
            messages.append(json.loads(text))
    return messages


def test_a_chat_line_sent_again_is_said_once_even_to_a_restored_table(sqlite_url: str) -> None:
    async def run() -> None:
        storage = await open_storage(sqlite_url)
        try:
            await storage.add_table(table_row("t1"), human_seats("t1", "ann", "bob"))
            stored = await storage.load_table("t1")
            assert stored is not None
            host = make_host(storage, stored.table, stored.seats, Fence(None))
            host.fencing = None
            ann, bob = attached(host, "ann", "bob")
            host.start()
            host.submit(ClientChat(ann, "hello", "line-1"))
            host.submit(ClientChat(ann, "hello", "line-1"))  # sent again: no echo seen
            await _settle(host)
            chat_to_bob = [m for m in sent(bob) if m["type"] == "chat"]
            chat_to_ann = [m for m in sent(ann) if m["type"] == "chat"]
            assert [m["text"] for m in chat_to_bob] == ["hello"]
            assert [m["client_id"] for m in chat_to_ann] == ["line-1", "line-1"]
            await asyncio.wait_for(host.stop(), 10)

            # the table's next host (a restart, or a takeover) knows the line too
            stored = await storage.load_table("t1")
            assert stored is not None
            restored = TableHost.restore(
                stored,
                storage=storage,
                runner=cast(Any, object()),
                settings=make_settings("sqlite://"),
                clock=FakeClock(200.0),
            )
            ann2, bob2 = attached(restored, "ann", "bob")
            restored.start()
            restored.submit(ClientChat(ann2, "hello", "line-1"))
            await _settle(restored)
            assert [m for m in sent(bob2) if m["type"] == "chat"] == []
            assert [m["client_id"] for m in sent(ann2) if m["type"] == "chat"] == ["line-1"]
            stored = await storage.load_table("t1")
            assert stored is not None and [row.text for row in stored.chat] == ["hello"]
            await asyncio.wait_for(restored.stop(), 10)
        finally:
            await storage.close()

    asyncio.run(run())


def attached(host: TableHost, *names: str) -> list[Connection]:
    """A connection of each player named, attached first thing when ``host`` starts."""
    connections = [Connection(player_id=name, name=name) for name in names]
    for connection in connections:
        host.inbox.put_nowait(Attach(connection))
    return connections


async def _settle(host: TableHost) -> None:
    """Wait until the host has handled every command submitted so far: it handles its
    inbox in order, so once it has answered a sign-out of nobody, sent last, it has."""
    handled: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    host.submit(SignedOut("nobody", handled))
    await asyncio.wait_for(handled, 10)

"""Table leases and fencing on PostgreSQL (the server at 127.0.0.1:5432, database
``test``, a fresh schema per test): one owner per table, a higher token at every
takeover, and no write from an owner that lost its table, however it lost it (expiry,
a killed connection, a network that stalls before or in the middle of its write).

TTLs are a second or less and expiry is the database's clock: the tests wait for it by
asking the database, never by sleeping a fixed time.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable
from typing import TypeVar

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from rummykit.server.cluster.lease_keeper import LeaseKeeper
from rummykit.server.cluster.leases import LeaseStore, LocalLeases, Renewal
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.errors import LeaseLost, StorageError
from rummykit.server.storage.fencing import Lease, held_leases
from rummykit.server.storage.store import Storage
from tests.kit.leases import Processes, end_now, eventually, expiry, in_processes, within
from tests.kit.storage import bot_seat, open_storage, table_row

T = TypeVar("T")


async def logged(storage: Storage, table_id: str) -> list[tuple[int, str]]:
    stored = await storage.load_table(table_id)
    assert stored is not None
    return [(a.state_number, a.action) for a in stored.actions]


async def nobody_holds(store: LeaseStore, table_id: str) -> bool | None:
    """True once nobody holds the table (for :func:`eventually`)."""
    return True if await store.owner_of(table_id) is None else None


# -- acquiring, renewing, releasing ------------------------------------------------------


def test_of_many_processes_racing_for_a_table_exactly_one_gets_it(postgres_schema: str) -> None:
    tables = [f"t{i}" for i in range(4)]

    async def run(db: Processes) -> None:
        setup = await db.storage(tables=tables)
        processes = [await db.storage(pool_size=3) for _ in range(4)]
        stores = [LeaseStore(p.engine) for p in processes]
        contenders = [(store, f"p{i}-{j}") for i, store in enumerate(stores) for j in range(6)]
        for round_token in (1, 2):
            attempts = [
                store.acquire(table_id, owner, 30.0)
                for table_id in tables
                for store, owner in contenders
            ]
            leases = [x for x in await asyncio.gather(*attempts) if x is not None]
            assert sorted(x.table_id for x in leases) == tables
            assert {x.token for x in leases} == {round_token}
            for table_id in tables:  # the next round races for expired leases
                await end_now(setup, table_id)

    in_processes(postgres_schema, run)


def test_a_renewed_lease_outlives_its_first_ttl(postgres_schema: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1"])
        store = LeaseStore(storage.engine)
        lease = await store.acquire("t1", "alice", 1.0)
        assert lease is not None and lease.token == 1
        started = time.monotonic()
        # 2.5 ttls of wall time (the database's clock decides expiry), renewed all along
        while time.monotonic() - started < 2.5:
            await asyncio.sleep(0.1)  # wall time: the ttl runs out unless renewed
            assert await store.renew(lease)
            assert await store.acquire("t1", "bob", 1.0) is None
        assert await store.owner_of("t1") == "alice"
        assert await store.acquire("t1", "alice", 1.0) is None  # not even its holder
        await store.release(lease)
        assert await store.owner_of("t1") is None
        assert not await store.renew(lease)  # released is over
        taken = await store.acquire("t1", "bob", 0.4)
        assert taken is not None and taken.token == 2

    in_processes(postgres_schema, run)


def test_an_expired_lease_is_taken_with_a_higher_token_and_fences_its_old_owner(
    postgres_schema: str,
) -> None:
    async def run(db: Processes) -> None:
        alice_storage = await db.storage(tables=["t1"])
        bob_storage = await db.storage()
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        first = await alice.acquire("t1", "alice", 30.0)
        assert first is not None and first.token == 1
        await alice_storage.append_action("t1", 0, 0, "draw", "bot", 1.0, lease=first)
        assert await bob.acquire("t1", "bob", 0.5) is None

        await end_now(bob_storage, "t1")
        second = await eventually(lambda: bob.acquire("t1", "bob", 0.5))
        assert (second.owner, second.token) == ("bob", 2)
        with pytest.raises(LeaseLost) as refused:
            await alice_storage.append_action("t1", 1, 0, "late", "bot", 2.0, lease=first)
        assert refused.value.lease == first
        assert not await alice.renew(first)
        await alice.release(first)  # ends nothing of bob's
        assert await bob.owner_of("t1") == "bob"

        await bob_storage.append_action("t1", 1, 0, "take", "bot", 3.0, lease=second)
        with pytest.raises(StorageError) as duplicate:
            await bob_storage.append_action("t1", 1, 0, "again", "bot", 4.0, lease=second)
        assert not isinstance(duplicate.value, LeaseLost)
        assert await logged(bob_storage, "t1") == [(0, "draw"), (1, "take")]

    in_processes(postgres_schema, run)


def test_a_lease_renewed_too_late_is_not_brought_back(postgres_schema: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1"])
        store = LeaseStore(storage.engine)
        lease = await store.acquire("t1", "alice", 0.2)
        assert lease is not None
        await eventually(lambda: nobody_holds(store, "t1"))
        assert not await store.renew(lease)
        with pytest.raises(LeaseLost):
            await storage.append_action("t1", 0, 0, "draw", "bot", 1.0, lease=lease)
        again = await store.acquire("t1", "alice", 0.2)
        assert again is not None and again.token == 2

    in_processes(postgres_schema, run)


def test_renew_many_renews_only_the_leases_still_held(postgres_schema: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1", "t2", "t3"])
        store = LeaseStore(storage.engine)
        leases = [await store.acquire(t, "alice", 5.0) for t in ("t1", "t2", "t3")]
        assert all(leases)
        await end_now(storage, "t2")
        taken = await store.acquire("t2", "bob", 5.0)
        assert taken is not None
        held = [x for x in leases if x is not None]
        assert _parts(await store.renew_many(held)) == ({"t1", "t3"}, set())
        assert _parts(await store.renew_many([])) == (set(), set())

    in_processes(postgres_schema, run)


def test_a_renewal_is_held_up_by_no_other_tables_write(postgres_schema: str) -> None:
    """A write under its lease locks the lease row until its commit (which a busy
    process may be slow to send).  A renewal that does not wait skips that row (busy:
    neither renewed nor lost) and renews the others; the keeper renews those at once
    and then waits for the write to end to renew the busy one."""

    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1", "t2"])
        store = LeaseStore(storage.engine)
        lost: list[str] = []
        keeper = LeaseKeeper(store, owner="alice", ttl=30.0, margin=5.0, on_lost=lost.append)
        first, second = await keeper.take("t1"), await keeper.take("t2")
        assert first is not None and second is not None
        taken = {t: await expiry(storage.engine, t) for t in ("t1", "t2")}

        async def renewed(table_id: str) -> bool | None:
            return await _true_or_none(await expiry(storage.engine, table_id) > taken[table_id])

        async with storage.engine.connect() as writer, writer.begin():
            assert await held_leases(writer, [first]) == {first}  # the write's lock
            busy = await within(store.renew_many([first, second], wait=False))
            assert _parts(busy) == ({"t2"}, {"t1"})
            taken["t2"] = await expiry(storage.engine, "t2")
            keeping = asyncio.create_task(keeper.renew_round())
            await eventually(lambda: renewed("t2"))  # while t1's write is under way
            assert await expiry(storage.engine, "t1") == taken["t1"]
            await within(keeping)  # the round is over, t1's renewal still waits
        await eventually(lambda: renewed("t1"))
        assert lost == [] and keeper.lease_for("t1") == first
        await keeper.close()

    in_processes(postgres_schema, run)


def test_bad_acquisitions_are_refused(postgres_schema: str, sqlite_url: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1"])
        store = LeaseStore(storage.engine)
        with pytest.raises(StorageError, match="not stored"):
            await store.acquire("nowhere", "alice", 1.0)
        for ttl in (0.0, -1.0, float("nan"), float("inf")):
            with pytest.raises(ValueError):
                await store.acquire("t1", "alice", ttl)
        lease = await store.acquire("t1", "alice", 1.0)
        assert lease is not None
        with pytest.raises(ValueError):
            await storage.append_action("t2", 0, 0, "draw", "bot", 1.0, lease=lease)
        sqlite = make_engine(sqlite_url)
        with pytest.raises(ValueError, match="PostgreSQL"):
            LeaseStore(sqlite)
        await sqlite.dispose()

    in_processes(postgres_schema, run)


# -- fencing at the write ----------------------------------------------------------------


def test_a_group_commit_checks_each_action_under_its_own_lease(postgres_schema: str) -> None:
    """Actions of several tables stored together: each one under a lease still held is
    stored, each one under a lost lease is refused alone, each one without a lease is
    stored as before, and a state number stored twice is still refused."""
    tables = [f"t{i}" for i in range(6)]

    async def run(db: Processes) -> None:
        alice_storage = await db.storage(tables=tables)
        bob_storage = await db.storage()
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        held: dict[str, Lease] = {}
        for table_id in ("t0", "t1", "t2", "t3"):
            lease = await alice.acquire(table_id, "alice", 30.0)
            assert lease is not None
            held[table_id] = lease
        await end_now(alice_storage, "t2")
        taken = await bob.acquire("t2", "bob", 30.0)
        assert taken is not None

        def append(table_id: str, number: int, lease: Lease | None) -> Awaitable[None]:
            return alice_storage.append_action(
                table_id, number, 0, f"{table_id}-{number}", "bot", 1.0, lease=lease
            )

        first = [
            append("t0", 0, held["t0"]),
            append("t1", 0, held["t1"]),
            append("t2", 0, held["t2"]),  # lost to bob
            append("t3", 0, held["t3"]),
            append("t4", 0, None),
            append("t0", 1, held["t0"]),
        ]
        outcomes = await asyncio.gather(*first, return_exceptions=True)
        assert [type(x).__name__ for x in outcomes] == [
            "NoneType", "NoneType", "LeaseLost", "NoneType", "NoneType", "NoneType"
        ]  # fmt: skip
        second = [
            append("t0", 2, held["t0"]),
            append("t1", 0, held["t1"]),  # stored already
            append("t2", 1, held["t2"]),  # lost to bob
            append("t4", 0, None),  # stored already
            append("t4", 1, None),
        ]
        outcomes = await asyncio.gather(*second, return_exceptions=True)
        assert [type(x).__name__ for x in outcomes] == [
            "NoneType", "StorageError", "LeaseLost", "StorageError", "NoneType"
        ]  # fmt: skip
        # the action without a lease is stored, and once, although the other fails
        third = [append("t4", 2, None), append("t0", 2, held["t0"])]
        outcomes = await asyncio.gather(*third, return_exceptions=True)
        assert [type(x).__name__ for x in outcomes] == ["NoneType", "StorageError"]
        expected = {
            "t0": [(0, "t0-0"), (1, "t0-1"), (2, "t0-2")],
            "t1": [(0, "t1-0")],
            "t2": [],
            "t3": [(0, "t3-0")],
            "t4": [(0, "t4-0"), (1, "t4-1"), (2, "t4-2")],
            "t5": [],
        }
        assert {t: await logged(alice_storage, t) for t in tables} == expected

    in_processes(postgres_schema, run)


def test_an_owner_whose_connection_was_killed_cannot_write_once_taken_over(
    postgres_schema: str,
) -> None:
    async def run(db: Processes) -> None:
        alice_storage = await db.storage(tables=["t1"], pool_size=1)
        bob_storage = await db.storage()
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        lease = await alice.acquire("t1", "alice", 30.0)
        assert lease is not None
        await alice_storage.append_action("t1", 0, 0, "draw", "bot", 1.0, lease=lease)
        async with alice_storage.engine.connect() as connection:
            backend = await connection.scalar(select(func.pg_backend_pid()))
        async with bob_storage.engine.connect() as connection:
            assert await connection.scalar(select(func.pg_terminate_backend(backend)))

        with pytest.raises((SQLAlchemyError, OSError)):
            await alice_storage.append_action("t1", 1, 0, "cut", "bot", 2.0, lease=lease)
        await end_now(bob_storage, "t1")
        taken = await eventually(lambda: bob.acquire("t1", "bob", 5.0))
        assert taken.token == 2
        with pytest.raises(LeaseLost):  # on a new connection, too late
            await alice_storage.append_action("t1", 1, 0, "late", "bot", 3.0, lease=lease)
        assert not await alice.renew(lease)
        await bob_storage.append_action("t1", 1, 0, "take", "bot", 4.0, lease=taken)
        assert await logged(bob_storage, "t1") == [(0, "draw"), (1, "take")]

    in_processes(postgres_schema, run)


def test_a_write_delayed_past_a_takeover_is_refused(postgres_schema: str) -> None:
    """A network that holds an owner's whole write until another owner has taken the
    table over, then delivers it: the write arrives with a lost token."""

    async def run(db: Processes) -> None:
        bob_storage = await db.storage(tables=["t1"])
        alice_storage = await db.storage(stallable=True, pool_size=1)
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        lease = await alice.acquire("t1", "alice", 0.3)
        assert lease is not None

        db.proxy.stall()
        write = asyncio.create_task(
            alice_storage.append_action("t1", 0, 0, "late", "bot", 1.0, lease=lease)
        )
        taken = await eventually(lambda: bob.acquire("t1", "bob", 5.0))
        await bob_storage.append_action("t1", 0, 0, "draw", "bot", 2.0, lease=taken)
        assert not write.done() and db.proxy.stalled_packets > 0
        db.proxy.release()
        with pytest.raises(LeaseLost):
            await write
        assert await logged(bob_storage, "t1") == [(0, "draw")]

    in_processes(postgres_schema, run)


def test_an_owner_cut_off_in_its_write_does_not_block_the_takeover(
    postgres_schema: str,
) -> None:
    """The network stalls the owner's write on its way: the write checks and locks its
    lease row in the very statement that inserts, so no lock is left waiting on the
    owner; another owner takes the table over as soon as the lease expires, and the
    write, delivered late, stores nothing."""

    async def run(db: Processes) -> None:
        bob_storage = await db.storage(tables=["t1"])
        alice_storage = await db.storage(stallable=True, pool_size=1)
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        lease = await alice.acquire("t1", "alice", 1.0)  # its write starts well within it
        assert lease is not None

        db.proxy.stall_at(b"INSERT INTO actions")
        write = asyncio.create_task(
            alice_storage.append_action("t1", 0, 0, "cut", "bot", 1.0, lease=lease)
        )
        await eventually(lambda: _true_or_none(db.proxy.stalled_packets > 0))
        stalled_at = time.monotonic()
        taken = await eventually(lambda: bob.acquire("t1", "bob", 5.0))
        waited = time.monotonic() - stalled_at
        assert waited < lease.ttl * 2 + 1.0  # expiry, then the idle transaction's end
        await bob_storage.append_action("t1", 0, 0, "draw", "bot", 2.0, lease=taken)
        db.proxy.release()
        with pytest.raises((SQLAlchemyError, OSError, LeaseLost)):
            await write
        with pytest.raises(LeaseLost):
            await alice_storage.append_action("t1", 1, 0, "late", "bot", 3.0, lease=lease)
        assert await logged(bob_storage, "t1") == [(0, "draw")]

    in_processes(postgres_schema, run)


async def _true_or_none(condition: bool) -> bool | None:
    return True if condition else None


def test_a_lease_statement_cut_off_leaves_no_lock_behind(postgres_schema: str) -> None:
    """Lease statements commit with themselves: a network that stalls whatever follows a
    renewal (a separate COMMIT, were there one) cannot leave a transaction holding the
    lease row, and a renewal stalled whole and delivered after the takeover is refused;
    the table is taken over as soon as the lease ends."""

    async def run(db: Processes) -> None:
        bob_storage = await db.storage(tables=["t1"])
        alice_storage = await db.storage(stallable=True, pool_size=1)
        alice, bob = LeaseStore(alice_storage.engine), LeaseStore(bob_storage.engine)
        lease = await alice.acquire("t1", "alice", 30.0)
        assert lease is not None

        db.proxy.stall_at(b"COMMIT")
        assert await within(alice.renew(lease))
        db.proxy.stall()
        late = asyncio.create_task(alice.renew(lease))
        await within(end_now(bob_storage, "t1"))  # no lock left on the lease row
        taken = await eventually(lambda: bob.acquire("t1", "bob", 5.0))
        assert taken.token == 2
        db.proxy.release()
        assert not await within(late)

    in_processes(postgres_schema, run)


# -- orphans ---------------------------------------------------------------------------


def test_expired_tables_are_the_unfinished_tables_nobody_holds(postgres_schema: str) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage()
        names = ["never", "held", "expired", "released", "over", "waiting"]
        for at, table_id in enumerate(names):
            status = {"over": "over", "waiting": "waiting"}.get(table_id, "playing")
            row = table_row(table_id, status=status, created_at=float(at))
            await storage.add_table(row, bot_seat(table_id))
        # stored a moment ago and not leased yet: its creator is about to take it
        await storage.add_table(table_row("newborn", created_at=time.time()), bot_seat("newborn"))
        store = LeaseStore(storage.engine)
        leases = {t: await store.acquire(t, "alice", 30.0) for t in ("held", "expired", "released")}
        await end_now(storage, "expired")
        released = leases["released"]
        assert released is not None
        await store.release(released)

        assert await store.expired_tables() == ["never", "expired", "released", "waiting"]
        assert await store.expired_tables(limit=2) == ["never", "expired"]
        taken = await store.acquire("expired", "bob", 30.0)
        assert taken is not None and taken.token == 2
        assert await store.expired_tables() == ["never", "released", "waiting"]

    in_processes(postgres_schema, run)


# -- the stop rule ---------------------------------------------------------------------


def _parts(renewal: Renewal) -> tuple[set[str], set[str]]:
    """What a renewal did: the leases renewed and those found busy."""
    return renewal.renewed, renewal.busy


class ManualClock:
    """A lease clock that moves only when told to."""

    def __init__(self) -> None:
        self.reading = 1000.0

    def __call__(self) -> float:
        return self.reading


def test_the_keeper_acts_only_until_ttl_minus_margin_since_its_last_renewal(
    postgres_schema: str,
) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1", "t2"])
        clock = ManualClock()
        lost: list[str] = []
        keeper = LeaseKeeper(
            LeaseStore(storage.engine, clock=clock),
            owner="alice",
            ttl=30.0,
            margin=5.0,
            renew_every=10.0,
            clock=clock,
            on_lost=lost.append,
        )
        lease = await keeper.take("t1")
        assert lease is not None and lease.acquired_at == 1000.0
        assert await keeper.take("t1") is lease
        assert await keeper.take("t2") is not None
        # a renewal round waits for its statement until the first lease would lapse, in
        # real time: sent at 1010 it has 15 s, however busy the machine (sent just before
        # 1025 it would have a moment, and a slow statement would let the tables lapse,
        # as the stop rule means it to)
        clock.reading = 1010.0
        assert keeper.lease_for("t1") is lease
        await keeper.renew_round()  # sent at 1010: safe until 1035, past the take's 1025
        clock.reading = 1034.9
        assert keeper.lease_for("t1") is lease
        clock.reading = 1035.0
        assert keeper.lease_for("t1") is None and lost == []
        await keeper.renew_round()
        assert sorted(lost) == ["t1", "t2"] and keeper.tables() == []

    in_processes(postgres_schema, run)


def test_a_lease_allows_its_whole_time_from_the_send_however_long_the_connection_took(
    postgres_schema: str,
) -> None:
    """A take (or a renewal) that waited for a free connection sent its statement only
    once it had one; the database's expiry counts from then, so must the holder's safe
    time, or a takeover of many tables at once on a few connections would see the last
    of them lapse before their first renewal."""

    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1"], pool_size=1)
        clock = ManualClock()
        keeper = LeaseKeeper(
            LeaseStore(storage.engine, clock=clock),
            owner="alice",
            ttl=30.0,
            margin=5.0,
            clock=clock,
        )
        async with storage.engine.connect():  # the only connection, busy
            taking = asyncio.create_task(keeper.take("t1"))
            for _ in range(50):  # no I/O before it waits for the pool: steps, not time
                await asyncio.sleep(0)
            assert not taking.done()
            clock.reading += 40.0  # longer than the lease, waiting for the connection
        lease = await within(taking)
        assert lease is not None and lease.acquired_at == 1040.0
        assert keeper.lease_for("t1") is lease
        clock.reading += 24.9
        assert keeper.lease_for("t1") is lease

    in_processes(postgres_schema, run)


def test_the_keeper_lets_go_of_a_table_taken_over_and_gives_tables_up(
    postgres_schema: str,
) -> None:
    async def run(db: Processes) -> None:
        storage = await db.storage(tables=["t1", "t2"])
        store = LeaseStore(storage.engine)
        lost: list[str] = []
        keeper = LeaseKeeper(store, owner="alice", ttl=30.0, margin=5.0, on_lost=lost.append)
        assert await keeper.take("t1") is not None
        assert await keeper.take("t2") is not None
        await end_now(storage, "t1")
        assert await store.acquire("t1", "bob", 30.0) is not None
        await keeper.renew_round()
        assert lost == ["t1"] and keeper.tables() == ["t2"]
        assert keeper.lease_for("t1") is None and keeper.lease_for("t2") is not None
        await keeper.give_up("t2")
        assert await store.owner_of("t2") is None and keeper.lease_for("t2") is None
        assert await keeper.take("t2") is not None
        await keeper.close()
        assert await store.owner_of("t2") is None and keeper.tables() == []

    in_processes(postgres_schema, run)


def test_a_partitioned_keeper_stops_before_its_lease_can_be_taken_over(
    postgres_schema: str,
) -> None:
    """The owner's network stalls while it renews every 0.2 s: it stops acting by its
    own clock while the database still names it the owner, and only later does another
    process get the table."""

    async def run(db: Processes) -> None:
        bob_storage = await db.storage(tables=["t1"])
        alice_storage = await db.storage(stallable=True, pool_size=2)
        lost: list[str] = []
        keeper = LeaseKeeper(
            LeaseStore(alice_storage.engine),
            owner="alice",
            ttl=1.0,
            margin=0.5,
            renew_every=0.2,
            on_lost=lost.append,
        )
        bob = LeaseStore(bob_storage.engine)
        assert await keeper.take("t1") is not None
        renewing = asyncio.create_task(keeper.run())
        # as long as its first safe window (ttl - margin) in wall time: only the
        # renewals keep it acting
        await asyncio.sleep(0.5)  # wall time: the safe window passes, renewals keep it
        assert keeper.lease_for("t1") is not None

        db.proxy.stall()
        await eventually(lambda: _true_or_none(keeper.lease_for("t1") is None))
        assert await within(bob.owner_of("t1")) == "alice"
        assert await within(bob.acquire("t1", "bob", 5.0)) is None
        taken = await eventually(lambda: bob.acquire("t1", "bob", 5.0))
        assert taken.token == 2
        await eventually(lambda: _true_or_none(lost == ["t1"]))

        renewing.cancel()
        db.proxy.release()
        await keeper.close()

    in_processes(postgres_schema, run)


def test_the_keeper_refuses_timings_that_cannot_hold() -> None:
    leases = LocalLeases()
    for ttl, margin, renew_every in [
        (4.0, 4.0, 1.0),
        (4.0, 0.0, 1.0),
        (4.0, 1.0, 2.0),
        (4.0, 1.0, 0.0),
        (float("inf"), 1.0, 1.0),
    ]:
        with pytest.raises(ValueError):
            LeaseKeeper(leases, owner="a", ttl=ttl, margin=margin, renew_every=renew_every)


# -- a single process ------------------------------------------------------------------


def test_local_leases_always_grant_and_are_not_fenced() -> None:
    async def run() -> None:
        ticks = itertools.count()
        leases = LocalLeases(clock=lambda: float(next(ticks)))
        assert leases.fencing is False and LeaseStore.fencing is True
        first = await leases.acquire("t1", "me", 4.0)
        assert (first.token, first.acquired_at) == (1, 0.0)
        assert await leases.renew(first)
        second = await leases.acquire("t1", "me", 4.0)
        assert second.token == 2
        assert not await leases.renew(first) and await leases.renew(second)
        renewal = await leases.renew_many([first, second])
        assert renewal == Renewal(renewed={"t1"}, busy=set(), sent_at=renewal.sent_at)
        assert renewal.sent_at > first.acquired_at  # read from the clock when sent
        await leases.release(first)  # not the current one: nothing happens
        assert await leases.renew(second)
        await leases.release(second)
        assert not await leases.renew(second)
        assert await leases.expired_tables() == []

    asyncio.run(run())


def test_storage_without_lease_rows_refuses_a_lease_checked_write(sqlite_url: str) -> None:
    """On SQLite (one process, no lease rows) a lease passed by mistake (one of
    ``LocalLeases``, whose ``fencing`` is false) fails loudly at the first write, and
    writes without a lease are stored as ever."""

    async def run() -> None:
        storage = await open_storage(sqlite_url)
        await storage.add_table(table_row("t1"), bot_seat("t1"))
        lease = await LocalLeases().acquire("t1", "me", 4.0)
        with pytest.raises(LeaseLost):
            await storage.append_action("t1", 0, 0, "draw", "bot", 1.0, lease=lease)
        await storage.append_action("t1", 0, 0, "draw", "bot", 1.0)
        assert await logged(storage, "t1") == [(0, "draw")]
        await storage.close()

    asyncio.run(run())

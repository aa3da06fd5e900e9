"""The action log's writer: every action of every table, committed in groups.

An action is stored with its table's state number, which the log holds once only, so
a stored game never forks; given a table lease (:mod:`~rummykit.server.storage.fencing`)
it is stored only while that lease still holds the table, checked in the insert's own
transaction.  Actions appended while a commit is under way share the next one (group
commit).  This module writes actions and nothing else; it never builds a game state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Float,
    Integer,
    String,
    and_,
    column,
    func,
    insert,
    select,
    values,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from rummykit.server.storage.errors import LeaseLost, StorageError
from rummykit.server.storage.fencing import Lease, held_leases
from rummykit.server.storage.models import ActionRow, LeaseRow

_COLUMNS = ("table_id", "state_number", "seat", "action", "actor", "at")
"""An action row's columns, in the order the fenced insert gives them."""


def _row_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[name] for name in _COLUMNS)


@dataclass(frozen=True, slots=True, eq=False)
class _PendingAction:
    """An action waiting for the next group commit, and who waits for it (each one
    distinct: compared and hashed by identity)."""

    row: dict[str, Any]
    lease: Lease | None
    stored: asyncio.Future[None]


class ActionWriter:
    """Appends actions to the log of one database, a group commit at a time."""

    def __init__(self, engine: AsyncEngine, *, on_write: Callable[[], None]) -> None:
        self.engine = engine
        self._on_write = on_write  # a write is starting (SQLite checkpoints after it)
        self._pending: list[_PendingAction] = []
        self._writer: asyncio.Task[None] | None = None

    async def append(
        self,
        table_id: str,
        state_number: int,
        seat: int,
        action: str,
        actor: str,
        at: float,
        *,
        lease: Lease | None = None,
    ) -> None:
        """Store one action; ``StorageError`` if the state number is already stored.

        Returns once the action is committed.  Actions appended while a commit is under
        way wait for the next one, which stores all of them in one transaction (group
        commit): under load many tables share a commit, and alone an action is written
        at once.

        With ``lease`` (several server processes: ``leases.py``) the action is stored
        only if, in that same transaction, the lease row still names this owner and
        token and has not expired by the database's clock; the row is locked
        (``FOR SHARE``) until the commit, so no other process can take the table over
        in between.  Otherwise nothing is stored and ``LeaseLost`` is raised.  A batch
        may mix tables, leases and actions without one: each is checked on its own.
        """
        if lease is not None and lease.table_id != table_id:
            raise ValueError(f"a lease of table {lease.table_id} cannot write to {table_id}")
        row = {
            "table_id": table_id,
            "state_number": state_number,
            "seat": seat,
            "action": action,
            "actor": actor,
            "at": at,
        }
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_PendingAction(row, lease, stored))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_actions())
            self._on_write()
        await stored

    async def close(self) -> None:
        """Wait for the commit under way, if this loop started it."""
        writer = self._writer
        if writer is not None and writer.get_loop() is asyncio.get_running_loop():
            await asyncio.wait([writer])

    async def _write_actions(self) -> None:
        """Commit the waiting actions, a batch at a time, until none is waiting."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                lost = await self._insert_actions(batch)
            except IntegrityError:
                # some state number is already stored: find which, one action at a time
                for pending in batch:
                    await self._insert_alone(pending)
            except Exception as error:
                for pending in batch:
                    if not pending.stored.done():
                        pending.stored.set_exception(error)
            else:
                for pending in batch:
                    if pending.stored.done():
                        continue
                    if pending in lost:
                        assert pending.lease is not None
                        pending.stored.set_exception(LeaseLost(pending.lease))
                    else:
                        pending.stored.set_result(None)

    async def _insert_actions(self, batch: list[_PendingAction]) -> set[_PendingAction]:
        """Insert the batch's actions, except those whose lease no longer holds their
        table: those are returned, not stored."""
        fenced = [p for p in batch if p.lease is not None]
        if fenced and self.engine.dialect.name == "postgresql":
            free = [p for p in batch if p.lease is None]
            if free:
                async with self.engine.begin() as connection:
                    await connection.execute(insert(ActionRow), [p.row for p in free])
                for pending in free:  # stored: not tried again if the fenced ones fail
                    if not pending.stored.done():
                        pending.stored.set_result(None)
            return await self._insert_fenced(fenced)
        async with self.engine.begin() as connection:
            held = await held_leases(connection, [p.lease for p in fenced if p.lease])
            lost = {p for p in fenced if p.lease not in held}
            rows = [p.row for p in batch if p not in lost]
            if rows:
                await connection.execute(insert(ActionRow), rows)
            return lost

    async def _insert_fenced(self, batch: list[_PendingAction]) -> set[_PendingAction]:
        """Insert actions written under leases in one statement that commits alone, each
        only if its lease still holds its table; those not stored are returned.

        The statement locks the lease rows it reads (``FOR SHARE``: no takeover commits
        in between) only while the database runs it: no lock waits on this process to
        send a commit, which a busy process may be slow to, so the renewal of its leases
        (an ``UPDATE`` of those rows) is never held up by its own writes.
        """
        pending = values(
            column("table_id", String),
            column("state_number", Integer),
            column("seat", Integer),
            column("action", String),
            column("actor", String),
            column("at", Float),
            column("owner", String),
            column("token", BigInteger),
            name="pending",
        ).data([(*_row_values(p.row), p.lease.owner, p.lease.token) for p in batch if p.lease])
        under_lease = (
            select(*(pending.c[name] for name in _COLUMNS))
            .join(
                LeaseRow,
                and_(
                    LeaseRow.table_id == pending.c.table_id,
                    LeaseRow.owner == pending.c.owner,
                    LeaseRow.token == pending.c.token,
                ),
            )
            .where(LeaseRow.expires_at > func.now())
            .with_for_update(read=True, of=LeaseRow)
        )
        statement = (
            insert(ActionRow)
            .from_select(list(_COLUMNS), under_lease)
            .returning(ActionRow.table_id, ActionRow.state_number)
        )
        alone = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        async with alone.connect() as connection:
            stored = {(row[0], row[1]) for row in await connection.execute(statement)}
        return {p for p in batch if (p.row["table_id"], p.row["state_number"]) not in stored}

    async def _insert_alone(self, pending: _PendingAction) -> None:
        """Store one action in its own transaction and tell its waiter how it went."""
        if pending.stored.done():
            return
        failure: Exception | None = None
        try:
            if await self._insert_actions([pending]):
                assert pending.lease is not None
                failure = LeaseLost(pending.lease)
        except IntegrityError:
            failure = StorageError(f"state number {pending.row['state_number']} is already stored")
        except Exception as error:
            failure = error
        if pending.stored.done():
            return
        if failure is None:
            pending.stored.set_result(None)
        else:
            pending.stored.set_exception(failure)

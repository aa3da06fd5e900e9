"""Storage of players, tables, seats, the action log and chat (SQLAlchemy 2, async).

SQLite (aiosqlite) by default, PostgreSQL (asyncpg) by URL.  Every write is one short
transaction, except that actions appended at the same time share one (group commit);
:meth:`Storage.append_action` succeeds only for a state number the table does not have
yet, so a stored game can never fork, and, given a table lease (``leases.py``), only
while that lease still holds the table.  This module knows rows, not games:
it never builds a game state.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, func, insert, or_, select, tuple_, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from rummykit.server import migrate
from rummykit.server.checkpoints import Checkpointer
from rummykit.server.models import (
    ActionRow,
    ChatRow,
    LeaseRow,
    PlayerRow,
    SeatRow,
    SecretRow,
    TableRow,
)
from rummykit.server.ratings_store import RatedGame, rate_finished_table

if TYPE_CHECKING:
    from rummykit.server.leases import Lease

PLAYERS_KEPT = 10_000


class StorageError(RuntimeError):
    """A write the database refused (for example a state number already stored)."""


class LeaseLost(StorageError):
    """An action written under a table lease that no longer holds the table (expired,
    released or taken over by another process): nothing was stored."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(
            f"table {lease.table_id} is no longer held by {lease.owner} under token {lease.token}"
        )
        self.lease = lease


@dataclass(frozen=True, slots=True, eq=False)
class _PendingAction:
    """An action waiting for the next group commit, and who waits for it (each one
    distinct: compared and hashed by identity)."""

    row: dict[str, Any]
    lease: Lease | None
    stored: asyncio.Future[None]


def normalize_url(url: str) -> str:
    """Give plain ``sqlite:`` and ``postgresql:`` URLs their async drivers."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def make_engine(
    url: str,
    *,
    schema: str | None = None,
    pool_size: int | None = None,
    max_overflow: int | None = None,
) -> AsyncEngine:
    """An async engine for ``url``; a SQLite file's folder is created if missing.

    ``schema`` (PostgreSQL only) puts every table in that schema (tests use one each).
    ``pool_size`` and ``max_overflow`` (PostgreSQL only; SQLAlchemy's 5 and 10 when
    omitted) bound the connections it opens: at most their sum, and a request that finds
    them all busy waits for one (up to 30 s, then ``sqlalchemy.exc.TimeoutError``).
    """
    url = normalize_url(url)
    parsed = make_url(url)
    connect_args: dict[str, Any] = {}
    if parsed.drivername.startswith("sqlite"):
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        connect_args["timeout"] = 30
    elif schema is not None:
        connect_args["server_settings"] = {"search_path": schema}
    options: dict[str, Any] = {}
    if parsed.drivername.startswith("sqlite"):
        # SQLite takes one writer at a time: one connection queues the transactions in
        # the pool, where several would wait in SQLite's sleeping busy handler.
        options.update(pool_size=1, max_overflow=0, pool_timeout=120)
    else:
        if pool_size is not None:
            options["pool_size"] = pool_size
        if max_overflow is not None:
            options["max_overflow"] = max_overflow
    engine = create_async_engine(url, connect_args=connect_args, **options)
    if parsed.drivername.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # a commit never checkpoints: the storage's Checkpointer does (checkpoints.py)
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

    return engine


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table with its seats and action log, as read back from the database."""

    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]
    chat: list[ChatRow]
    # the table made as this one's rematch, if any
    rematch: TableRow | None = None


class Storage:
    """The server's database, behind one async engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        # players by id, least recently asked first; ``_player_changes`` counts the
        # changes to players, so that a read begun before a change is not kept
        self._players: OrderedDict[str, PlayerRow] = OrderedDict()
        self._player_changes = 0
        self._pending_actions: list[_PendingAction] = []
        self._action_writer: asyncio.Task[None] | None = None
        url = engine.url
        file = url.database if url.drivername.startswith("sqlite") else None
        self._checkpointer = Checkpointer(file) if file and file != ":memory:" else None

    async def migrate(self) -> None:
        await migrate.upgrade(self.engine)
        self._keep_checkpointing()

    def _keep_checkpointing(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.start()

    async def close(self) -> None:
        writer = self._action_writer
        if writer is not None and writer.get_loop() is asyncio.get_running_loop():
            await asyncio.wait([writer])
        if self._checkpointer is not None:
            await self._checkpointer.stop()
        await self.engine.dispose()

    # -- secrets -------------------------------------------------------------------------

    async def secret(self, name: str) -> str:
        """The secret called ``name``, made (48 random bytes) the first time it is asked."""
        async with self._sessions() as session:
            row = await session.get(SecretRow, name)
            if row is not None:
                return row.value
        value = secrets.token_urlsafe(48)
        try:
            async with self._sessions.begin() as session:
                session.add(SecretRow(name=name, value=value))
        except IntegrityError:
            pass  # another process made it first
        async with self._sessions() as session:
            row = await session.get(SecretRow, name)
            assert row is not None
            return row.value

    # -- players -------------------------------------------------------------------------

    async def add_player(self, player: PlayerRow) -> None:
        try:
            async with self._sessions.begin() as session:
                session.add(player)
        except IntegrityError as error:
            raise StorageError("name_taken") from error

    async def add_guest(self, player: PlayerRow) -> bool:
        """Store a guest, unless a registered player's login name is the guest's name
        whatever the case (then false).  The check and the insert hold the name's lock,
        so a registration of that name cannot slip in between."""
        async with self._sessions.begin() as session:
            await self._lock_name(session, player.name)
            registered = await session.execute(
                select(PlayerRow.id)
                .where(func.lower(PlayerRow.login_name) == player.name.lower())
                .limit(1)
            )
            if registered.first() is not None:
                return False
            session.add(player)
        return True

    async def player(self, player_id: str) -> PlayerRow | None:
        """The player ``player_id`` (asked on every request: kept in memory once read)."""
        known = self._players.get(player_id)
        if known is not None:
            self._players.move_to_end(player_id)
            return known
        changes = self._player_changes
        async with self._sessions() as session:
            found = await session.get(PlayerRow, player_id)
        if found is not None and changes == self._player_changes:
            self._players[player_id] = found
            if len(self._players) > PLAYERS_KEPT:
                self._players.popitem(last=False)
        return found

    async def player_by_login(self, login_name: str) -> PlayerRow | None:
        """The registered player of ``login_name`` in any case (``Alice`` finds ``alice``)."""
        async with self._sessions() as session:
            result = await session.execute(
                select(PlayerRow).where(func.lower(PlayerRow.login_name) == login_name.lower())
            )
            return result.scalar_one_or_none()

    async def name_taken(self, name: str, *, besides: str | None = None) -> bool:
        """Whether a player other than ``besides`` goes by ``name`` (as a login name or
        as a guest's name) whatever the case."""
        async with self._sessions() as session:
            return await self._name_taken(session, name, besides)

    async def _name_taken(self, session: Any, name: str, besides: str | None) -> bool:
        key = name.lower()
        query = select(PlayerRow.id).where(
            or_(func.lower(PlayerRow.login_name) == key, func.lower(PlayerRow.name) == key)
        )
        if besides is not None:
            query = query.where(PlayerRow.id != besides)
        found = await session.execute(query.limit(1))
        return found.first() is not None

    async def register(self, player: PlayerRow | str, login_name: str, password_hash: str) -> None:
        """Give a guest (by id) a login name and password, or store a new registered
        ``player``.  ``StorageError("name_taken")`` if another player goes by that name
        whatever the case, a guest included: a name a guest uses is free only to that
        guest.  The check and the write hold the name's lock."""
        player_id = player if isinstance(player, str) else player.id
        self._forget_player(player_id)
        try:
            async with self._sessions.begin() as session:
                await self._lock_name(session, login_name)
                if await self._name_taken(session, login_name, player_id):
                    raise StorageError("name_taken")
                if isinstance(player, str):
                    await session.execute(
                        update(PlayerRow)
                        .where(PlayerRow.id == player_id)
                        .values(login_name=login_name, password_hash=password_hash, name=login_name)
                    )
                else:
                    session.add(player)
        except IntegrityError as error:
            raise StorageError("name_taken") from error
        finally:
            self._forget_player(player_id)

    async def end_sessions(self, player_id: str) -> int:
        """Raise the player's session epoch (revoking every cookie signed before) and
        give the new one."""
        self._forget_player(player_id)
        try:
            async with self._sessions.begin() as session:
                await session.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(session_epoch=PlayerRow.session_epoch + 1)
                )
                epoch = await session.scalar(
                    select(PlayerRow.session_epoch).where(PlayerRow.id == player_id)
                )
        finally:
            self._forget_player(player_id)
        return int(epoch or 0)

    async def session_epochs(self) -> dict[str, int]:
        """The session epoch of every player who ever logged out (the others are 0)."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(PlayerRow.id, PlayerRow.session_epoch).where(PlayerRow.session_epoch > 0)
            )
            return dict(rows.all())

    async def _lock_name(self, session: Any, name: str) -> None:
        """Hold ``name``'s lock (whatever its case) until the transaction ends.

        PostgreSQL: a transaction advisory lock, which orders every server process.
        SQLite: nothing to do, the engine's one connection runs one transaction at a time.
        """
        if self.engine.dialect.name != "postgresql":
            return
        digest = hashlib.sha256(b"player-name:" + name.lower().encode()).digest()
        key = int.from_bytes(digest[:8], "big", signed=True)
        await session.execute(select(func.pg_advisory_xact_lock(key)))

    def _forget_player(self, player_id: str) -> None:
        """Drop the kept row of a player being changed, and any read under way."""
        self._player_changes += 1
        self._players.pop(player_id, None)

    # -- tables --------------------------------------------------------------------------

    async def add_table(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        async with self._sessions.begin() as session:
            session.add(table)
            await session.flush()
            session.add_all(seats)

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        player_id: str,
        name: str,
        *,
        start_at: float | None = None,
    ) -> bool:
        """Seat a player in a free human seat; false if it was taken meanwhile.  With
        ``start_at`` (the last free seat) the table is started at that time in the same
        transaction."""
        async with self._sessions.begin() as session:
            result = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.player_id.is_(None),
                    or_(SeatRow.kept_for.is_(None), SeatRow.kept_for == player_id),
                )
                .values(player_id=player_id, name=name)
            )
            if not getattr(result, "rowcount", 0):
                return False
            if start_at is not None:
                await session.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.status == "waiting")
                    .values(status="playing", started_at=start_at)
                )
            return True

    async def free_seat(self, table_id: str, seat: int) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(player_id=None, name=None)
            )

    async def start_table(self, table_id: str, at: float) -> None:
        async with self._sessions.begin() as session:
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="playing", started_at=at)
            )

    async def append_action(
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
        self._pending_actions.append(_PendingAction(row, lease, stored))
        if self._action_writer is None or self._action_writer.done():
            self._action_writer = asyncio.create_task(self._write_actions())
            self._keep_checkpointing()
        await stored

    async def _write_actions(self) -> None:
        """Commit the waiting actions, a batch at a time, until none is waiting."""
        while self._pending_actions:
            batch, self._pending_actions = self._pending_actions, []
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
        """Insert the batch's actions in one transaction, except those whose lease no
        longer holds their table: those are returned, not stored."""
        async with self.engine.begin() as connection:
            held = await self._held_leases(connection, [p.lease for p in batch if p.lease])
            lost = {p for p in batch if p.lease is not None and p.lease not in held}
            rows = [p.row for p in batch if p not in lost]
            if rows:
                await connection.execute(insert(ActionRow), rows)
            return lost

    @staticmethod
    async def _held_leases(connection: AsyncConnection, leases: list[Lease]) -> set[Lease]:
        """Those of ``leases`` still held (right owner and token, not expired by the
        database's clock), their rows locked against a takeover until the commit."""
        if not leases:
            return set()
        held = select(LeaseRow.table_id, LeaseRow.owner, LeaseRow.token)
        if connection.dialect.name == "postgresql":
            # A process cut off after this statement would keep the rows it locked, and
            # so block any takeover, until its TCP connection is found dead (hours): the
            # database ends the transaction once it has been idle for a ttl instead.  Set
            # by the statement itself (for each row found, before it is locked): no
            # extra round trip.
            idle_ms = max(1, int(min(x.ttl for x in leases) * 1000))
            held = held.add_columns(
                func.set_config("idle_in_transaction_session_timeout", str(idle_ms), True)
            )
        found = await connection.execute(
            held.where(
                tuple_(LeaseRow.table_id, LeaseRow.owner, LeaseRow.token).in_(
                    sorted({(x.table_id, x.owner, x.token) for x in leases})
                ),
                LeaseRow.expires_at > func.now(),
            ).with_for_update(read=True)
        )
        keys = {(row[0], row[1], row[2]) for row in found}
        return {x for x in leases if (x.table_id, x.owner, x.token) in keys}

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

    async def finish_table(
        self,
        table_id: str,
        at: float,
        totals: Sequence[int],
        winners: Sequence[int],
        *,
        rated: RatedGame | None = None,
    ) -> None:
        """Store the game's end; a ``rated`` table's players are rated in the same
        transaction (``ratings_store.py``: once per table, however often this runs)."""
        async with self._sessions.begin() as session:
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="over", finished_at=at, totals=list(totals), winners=list(winners))
            )
            if rated is not None:
                await rate_finished_table(session, table_id, totals, rated, at)

    async def mark_left(self, table_id: str, seat: int, at: float) -> None:
        """Note that the seat's player left the game under way (first time only)."""
        async with self._sessions.begin() as session:
            await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.left_at.is_(None)
                )
                .values(left_at=at)
            )

    def writing(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A transaction (``async with storage.writing() as session``), committed at
        the end of the block, rolled back on an error."""
        return self._sessions.begin()

    def reading(self) -> AsyncSession:
        """A session for reads (``async with storage.reading() as session``)."""
        return self._sessions()

    async def add_chat(self, row: ChatRow) -> None:
        async with self._sessions.begin() as session:
            session.add(row)

    async def load_table(self, table_id: str) -> StoredTable | None:
        async with self._sessions() as session:
            table = await session.get(TableRow, table_id)
            if table is None:
                return None
            seats = (
                await session.execute(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            ).scalars()
            actions = (
                await session.execute(
                    select(ActionRow)
                    .where(ActionRow.table_id == table_id)
                    .order_by(ActionRow.state_number)
                )
            ).scalars()
            chat = (
                await session.execute(
                    select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id)
                )
            ).scalars()
            rematch = await self._rematch_of(session, table_id)
            return StoredTable(table, list(seats), list(actions), list(chat), rematch)

    async def rematch_of(self, table_id: str) -> TableRow | None:
        """The table made as the rematch of ``table_id``, if any."""
        async with self._sessions() as session:
            return await self._rematch_of(session, table_id)

    @staticmethod
    async def _rematch_of(session: AsyncSession, table_id: str) -> TableRow | None:
        found = await session.execute(select(TableRow).where(TableRow.rematch_of == table_id))
        return found.scalar_one_or_none()

    async def table_with_seats(self, table_id: str) -> tuple[TableRow, list[SeatRow]] | None:
        """A table and its seats, without its action log or chat (for summaries)."""
        async with self._sessions() as session:
            table = await session.get(TableRow, table_id)
            if table is None:
                return None
            return table, await self._seats(session, table_id)

    async def unfinished_table_ids(self) -> list[str]:
        async with self._sessions() as session:
            result = await session.execute(
                select(TableRow.id).where(TableRow.status != "over").order_by(TableRow.created_at)
            )
            return list(result.scalars())

    async def open_tables(self, limit: int = 100) -> list[tuple[TableRow, list[SeatRow]]]:
        """Public tables still waiting for players, newest first."""
        async with self._sessions() as session:
            tables = list(
                (
                    await session.execute(
                        select(TableRow)
                        .where(TableRow.status == "waiting", TableRow.private.is_(False))
                        .order_by(TableRow.created_at.desc())
                        .limit(limit)
                    )
                ).scalars()
            )
            return [(t, await self._seats(session, t.id)) for t in tables]

    async def _seats(self, session: Any, table_id: str) -> list[SeatRow]:
        result = await session.execute(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        )
        return list(result.scalars())

    async def tables_created_by(
        self, player_id: str, *, finished: bool, limit: int = 100
    ) -> list[tuple[TableRow, list[SeatRow]]]:
        """Tables ``player_id`` created (whether or not the player sits at them):
        finished ones, or those not over; newest first."""
        async with self._sessions() as session:
            status = TableRow.status == "over" if finished else TableRow.status != "over"
            tables = list(
                (
                    await session.execute(
                        select(TableRow)
                        .where(TableRow.creator_id == player_id, status)
                        .order_by(TableRow.created_at.desc())
                        .limit(limit)
                    )
                ).scalars()
            )
            return [(t, await self._seats(session, t.id)) for t in tables]

    async def tables_of(
        self, player_id: str, *, finished: bool, kept: bool = False, limit: int = 100
    ) -> list[tuple[TableRow, list[SeatRow]]]:
        """Tables where ``player_id`` holds a seat (one seat a table at most): finished
        ones, or those not over; with ``kept``, also those with a seat kept for them."""
        async with self._sessions() as session:
            status = TableRow.status == "over" if finished else TableRow.status != "over"
            whose = SeatRow.player_id == player_id
            if kept:
                whose = or_(whose, SeatRow.kept_for == player_id)
            tables = list(
                (
                    await session.execute(
                        select(TableRow)
                        .join(SeatRow, SeatRow.table_id == TableRow.id)
                        .where(whose, status)
                        .order_by(TableRow.created_at.desc())
                        .limit(limit)
                    )
                ).scalars()
            )
            return [(t, await self._seats(session, t.id)) for t in tables]

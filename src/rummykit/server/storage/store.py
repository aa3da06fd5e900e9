"""Storage of players, tables, seats, the action log and chat (SQLAlchemy 2, async).

SQLite (aiosqlite) by default, PostgreSQL (asyncpg) by URL.  Every write is one short
transaction, except that actions appended at the same time share one (group commit);
:meth:`Storage.append_action` succeeds only for a state number the table does not have
yet, so a stored game can never fork, and, given a table lease
(:mod:`~rummykit.server.storage.fencing`), only while that lease still holds the table
(the writer is :mod:`~rummykit.server.storage.action_log`).  This module knows rows, not games:
it never builds a game state.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
)

from rummykit.server.storage import migrate
from rummykit.server.storage.account_links import LinkStore
from rummykit.server.storage.action_log import ActionWriter
from rummykit.server.storage.assessments import AssessmentStore
from rummykit.server.storage.checkpoints import Checkpointer
from rummykit.server.storage.errors import LeaseLost
from rummykit.server.storage.fencing import Lease, held
from rummykit.server.storage.models import (
    ActionRow,
    ChatRow,
    SeatRow,
    SecretRow,
    TableRow,
)
from rummykit.server.storage.moderation import ModerationStore
from rummykit.server.storage.notifications import NotificationStore, queue_for_seats
from rummykit.server.storage.players import PlayerStore
from rummykit.server.storage.ratings import RatedGame, rate_finished_table
from rummykit.server.storage.turn_based import TurnBasedStore


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table with its seats and action log, as read back from the database."""

    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow]
    chat: list[ChatRow]
    # the table made as this one's rematch, if any
    rematch: TableRow | None = None


class Storage(
    PlayerStore, LinkStore, ModerationStore, AssessmentStore, NotificationStore, TurnBasedStore
):
    """The server's database, behind one async engine (its players' part is
    :class:`~rummykit.server.storage.players.PlayerStore`, the traces that link their
    accounts :class:`~rummykit.server.storage.account_links.LinkStore`, moderation
    :class:`~rummykit.server.storage.moderation.ModerationStore`, fair-play assessments
    :class:`~rummykit.server.storage.assessments.AssessmentStore`, notifications
    :class:`~rummykit.server.storage.notifications.NotificationStore`, turn-based play
    :class:`~rummykit.server.storage.turn_based.TurnBasedStore`)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._players = OrderedDict()
        self._player_changes = 0
        self._actions = ActionWriter(engine, on_write=self._keep_checkpointing)
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
        await self._actions.close()
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

    # -- tables --------------------------------------------------------------------------

    async def add_table(
        self, table: TableRow, seats: Sequence[SeatRow], *, session: AsyncSession | None = None
    ) -> None:
        """Store a table and its seats, in a transaction of its own or in ``session``'s,
        with the invitations it makes: a rematch's to the players whose seats it keeps
        (but its maker), a tournament table's to its players."""
        if session is not None:
            session.add(table)
            await session.flush()
            session.add_all(seats)
            await session.flush()
            await _invitations(session, table)
            return
        async with self._sessions.begin() as own:
            own.add(table)
            await own.flush()
            own.add_all(seats)
            await own.flush()
            await _invitations(own, table)

    async def take_seat(
        self,
        table_id: str,
        seat: int,
        player_id: str,
        name: str,
        *,
        start_at: float | None = None,
        lease: Lease | None = None,
        session: AsyncSession | None = None,
    ) -> bool:
        """Seat a player in a free human seat; false if it was taken meanwhile.  With
        ``start_at`` (the last free seat) the table is started at that time in the same
        transaction.  Like every write of a table, it is made only while ``lease`` (a
        worker of a site's) still holds the table, checked in the same transaction;
        else nothing is written and ``LeaseLost`` is raised.  Given ``session`` (one
        holding the player's lock), the write is made in its transaction."""
        if session is not None:
            return await self._take_seat(
                session, table_id, seat, player_id, name, start_at=start_at, lease=lease
            )
        async with self._sessions.begin() as own:
            return await self._take_seat(
                own, table_id, seat, player_id, name, start_at=start_at, lease=lease
            )

    @staticmethod
    async def _take_seat(
        session: AsyncSession,
        table_id: str,
        seat: int,
        player_id: str,
        name: str,
        *,
        start_at: float | None,
        lease: Lease | None,
    ) -> bool:
        await _fence(session, lease)
        result = await session.execute(
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.seat == seat,
                SeatRow.kind == "human",
                SeatRow.player_id.is_(None),
                or_(SeatRow.kept_for.is_(None), SeatRow.kept_for == player_id),
            )
            .values(player_id=player_id, name=name, came_at=None)
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

    async def free_seat(
        self, table_id: str, seat: int, player_id: str, *, lease: Lease | None = None
    ) -> bool:
        """Free the seat ``player_id`` holds; false if it is not theirs (any more)."""
        async with self._sessions.begin() as session:
            await _fence(session, lease)
            result = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.player_id == player_id,
                )
                .values(player_id=None, name=None, came_at=None)
            )
            return bool(getattr(result, "rowcount", 0))

    async def start_table(self, table_id: str, at: float, *, lease: Lease | None = None) -> None:
        async with self._sessions.begin() as session:
            await _fence(session, lease)
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
        """Store one action (:meth:`ActionWriter.append`): ``StorageError`` if the state
        number is already stored, ``LeaseLost`` if ``lease`` no longer holds the table."""
        await self._actions.append(table_id, state_number, seat, action, actor, at, lease=lease)

    async def finish_table(
        self,
        table_id: str,
        at: float,
        totals: Sequence[int],
        winners: Sequence[int],
        *,
        rated: RatedGame | None = None,
        lease: Lease | None = None,
        ended_by: str | None = None,
        gone: Sequence[int] = (),
    ) -> None:
        """Store the game's end (``ended_by`` when it was not played to its end, the
        seats ``gone`` marked as having left); a ``rated`` table's players are rated in
        the same transaction (``storage/ratings.py``: once per table, however often
        this runs)."""
        async with self._sessions.begin() as session:
            await _fence(session, lease)
            if gone:
                await session.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.table_id == table_id,
                        SeatRow.seat.in_(list(gone)),
                        SeatRow.left_at.is_(None),
                    )
                    .values(left_at=at)
                )
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(
                    status="over",
                    finished_at=at,
                    totals=list(totals),
                    winners=list(winners),
                    ended_by=ended_by,
                )
            )
            if rated is not None:
                await rate_finished_table(session, table_id, totals, rated, at)
            game = await session.scalar(select(TableRow.game).where(TableRow.id == table_id))
            await queue_for_seats(session, table_id, "game_ended", at=at, params={"game": game})

    async def mark_left(
        self, table_id: str, seat: int, at: float, *, lease: Lease | None = None
    ) -> None:
        """Note that the seat's player left the game under way (first time only)."""
        async with self._sessions.begin() as session:
            await _fence(session, lease)
            await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.left_at.is_(None)
                )
                .values(left_at=at)
            )

    async def mark_came(self, table_id: str, seat: int, at: float) -> None:
        """Note that the seat's player came to the table (first time only)."""
        async with self._sessions.begin() as session:
            await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.came_at.is_(None)
                )
                .values(came_at=at)
            )

    def writing(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A transaction (``async with storage.writing() as session``), committed at
        the end of the block, rolled back on an error."""
        return self._sessions.begin()

    def reading(self) -> AsyncSession:
        """A session for reads (``async with storage.reading() as session``)."""
        return self._sessions()

    async def add_chat(self, row: ChatRow, *, lease: Lease | None = None) -> bool:
        """Store a chat line; false if its player already said the line of that
        ``client_id`` here (a client sending again a line it saw no echo of)."""
        try:
            async with self._sessions.begin() as session:
                await _fence(session, lease)
                session.add(row)
        except IntegrityError:
            if row.client_id is None:
                raise
            return False
        return True

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

    async def tables_named(self, table_ids: Sequence[str]) -> list[TableRow]:
        """The stored tables among ``table_ids``, as the database has them now."""
        async with self._sessions() as session:
            found = await session.scalars(select(TableRow).where(TableRow.id.in_(list(table_ids))))
            return list(found.all())

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
        self, player_id: str, *, finished: bool, tournaments: bool = True, limit: int = 100
    ) -> list[tuple[TableRow, list[SeatRow]]]:
        """Tables ``player_id`` created (whether or not the player sits at them):
        finished ones, or those not over; newest first.  Without ``tournaments``, not
        the tables of the tournaments the player created."""
        async with self._sessions() as session:
            status = TableRow.status == "over" if finished else TableRow.status != "over"
            made = true() if tournaments else TableRow.tournament_id.is_(None)
            tables = list(
                (
                    await session.execute(
                        select(TableRow)
                        .where(TableRow.creator_id == player_id, status, made)
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


async def _invitations(session: AsyncSession, table: TableRow) -> None:
    """Queue the notifications a new table makes (``notifications.py``)."""
    params: dict[str, str | None] = {"game": table.game}
    if table.rematch_of is not None:
        besides = {table.creator_id} if table.creator_id else set()
        params |= {"source": "rematch", "invite_token": table.invite_token}
        await queue_for_seats(
            session, table.id, "invitation", at=table.created_at, params=params,
            kept=True, besides=besides,
        )  # fmt: skip
    elif table.tournament_id is not None:
        params |= {"tournament_id": table.tournament_id}
        await queue_for_seats(
            session, table.id, "tournament_round", at=table.created_at, params=params
        )


async def _fence(session: AsyncSession, lease: Lease | None) -> None:
    """Go on with this transaction's write only while ``lease`` holds its table."""
    if not await held(session, lease):
        assert lease is not None
        raise LeaseLost(lease)

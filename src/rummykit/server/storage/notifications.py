"""Notifications in storage: the outbox, the players' choices and push subscriptions.

:func:`queue_notification` records a message in the outbox, one row a channel the
player chose for its kind, in the transaction it is given (the one that stores what
caused it, where there is one): a game's end (``Storage.finish_table``), a rematch or a
tournament's table (``Storage.add_table``), and whatever calls it (a turn-based table's
turn and its running-out time).  A message about a table goes only to a player who
holds a seat there or has one kept for them; to anyone else nothing is queued.  Its
``key`` makes it once: the same cause queued again is not stored again.

A process sending them **claims** a due row by a conditional update (only one of two
processes changes a row from what both read), takes over a claim older than the lease
(its claimer died), and finishes it as ``sent``, ``skipped`` or ``failed``; a failed try
is due again later, up to a number of tries.  At most one e-mail about a game goes to a
player a day (UTC): :meth:`NotificationStore.reserve_mail_day` inserts the day's row,
whose primary key lets one message win.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, Protocol

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from rummykit.server.protocol.notifications import CHANNELS, KINDS
from rummykit.server.storage.models import SeatRow
from rummykit.server.storage.notification_rows import (
    MailDayRow,
    NotificationSettingsRow,
    OutboxRow,
    PushSubscriptionRow,
)

VERIFY_EMAIL: Final = "verify_email"
"""The kind of the message that asks a player to confirm an address (no choice of
channel: it is always an e-mail, to the address being verified)."""
SUBSCRIPTIONS_PER_PLAYER: Final = 10
"""The browsers one player's Web Push goes to at most (a new one drops the oldest)."""
VERIFICATIONS_PER_DAY: Final = 5
"""Verification mails one player may have sent in a day (to any addresses)."""
RETRY_SECONDS: Final = 30.0
"""The wait after a first failed try; it doubles with each try, up to an hour."""


class Writes(Protocol):
    """Anything that opens a writing transaction (the server's ``Storage``)."""

    def writing(self) -> AbstractAsyncContextManager[AsyncSession]: ...


async def queue_notification(
    target: AsyncSession | Writes,
    player_id: str,
    kind: str,
    table_id: str | None = None,
    *,
    at: float,
    params: dict[str, Any] | None = None,
    key: str = "",
) -> list[str]:
    """Queue a message of ``kind`` for ``player_id`` on each channel the player chose
    for it but the page (which needs nothing sent); the channels queued.

    ``target`` is the session of the transaction that stores the cause (preferred), or
    storage, which opens a transaction of its own.  ``table_id`` names the game it is
    about: nothing is queued unless the player holds a seat there, or has one kept for
    them.  ``params`` go with the message (``{"seconds": 300}`` for ``time_low``);
    ``key`` tells apart two messages of one kind about one table (the state number of
    a turn): without it a kind is sent once a table a player.  Turn-based tables call

    ``await queue_notification(session, player_id, "your_turn", table_id, at=now,
    key=str(state_number))`` and ``... "time_low", table_id, at=now,
    params={"seconds": left}, key=str(state_number))``.
    """
    if kind not in KINDS and kind != VERIFY_EMAIL:
        raise ValueError(f"no notification kind {kind!r}")
    if not isinstance(target, AsyncSession):
        async with target.writing() as session:
            return await queue_notification(
                session, player_id, kind, table_id, at=at, params=params, key=key
            )
    session = target
    if table_id is not None and not await _seated(session, player_id, table_id):
        return []
    if kind == VERIFY_EMAIL:
        channels = ["email"]
    else:
        choices = await session.get(NotificationSettingsRow, player_id)
        chosen = choices.channels.get(kind, []) if choices is not None else []
        channels = [c for c in CHANNELS if c != "page" and c in chosen]
    for channel in channels:
        await _insert_once(
            session,
            OutboxRow,
            "key",
            key=":".join((kind, table_id or "", key, player_id, channel))[:200],
            player_id=player_id,
            kind=kind,
            channel=channel,
            table_id=table_id,
            params=dict(params or {}),
            status="pending",
            due_at=at,
            attempts=0,
            created_at=at,
        )
    return channels


async def queue_for_seats(
    session: AsyncSession,
    table_id: str,
    kind: str,
    *,
    at: float,
    params: dict[str, Any] | None = None,
    kept: bool = False,
    besides: Collection[str] = (),
) -> None:
    """Queue ``kind`` for every player seated at ``table_id`` (with ``kept``, those
    whose seat is kept for them instead) but those ``besides``."""
    found = await session.execute(
        select(SeatRow.player_id, SeatRow.kept_for).where(
            SeatRow.table_id == table_id, SeatRow.kind == "human"
        )
    )
    players = {kept_for if kept else player for player, kept_for in found.all()}
    for player_id in sorted(p for p in players if p is not None and p not in besides):
        await queue_notification(session, player_id, kind, table_id, at=at, params=params)


async def _seated(session: AsyncSession, player_id: str, table_id: str) -> bool:
    seat = await session.scalar(
        select(SeatRow.seat)
        .where(
            SeatRow.table_id == table_id,
            or_(SeatRow.player_id == player_id, SeatRow.kept_for == player_id),
        )
        .limit(1)
    )
    return seat is not None


async def _insert_once(session: AsyncSession, model: Any, unique: str, **values: Any) -> None:
    """Insert a row of ``model`` unless one with its ``unique`` column's value is stored
    (without failing the transaction, as a caught ``IntegrityError`` would on
    PostgreSQL)."""
    if session.get_bind().dialect.name == "postgresql":
        statement: Any = postgresql_insert(model).values(**values)
    else:
        statement = sqlite_insert(model).values(**values)
    await session.execute(statement.on_conflict_do_nothing(index_elements=[unique]))


class NotificationStore:
    """Reads and writes of notifications (a part of
    :class:`~rummykit.server.storage.store.Storage`)."""

    engine: AsyncEngine
    _sessions: async_sessionmaker[AsyncSession]

    # -- choices -------------------------------------------------------------------------

    async def notification_settings(self, player_id: str) -> NotificationSettingsRow | None:
        async with self._sessions() as session:
            return await session.get(NotificationSettingsRow, player_id)

    async def save_notification_choices(
        self, player_id: str, channels: dict[str, list[str]], language: str, mail_more: bool
    ) -> None:
        """Keep the player's channels per kind, language and e-mail limit."""
        async with self._sessions.begin() as session:
            row = await _settings_row(session, player_id, language)
            row.channels = channels
            row.language = language
            row.mail_more = mail_more

    async def set_email(
        self, player_id: str, email: str, language: str, *, at: float, key: str
    ) -> bool:
        """Set the player's address (unverified until its link is followed, unless it is
        the verified one already) and queue its verification message (``key``: one per
        address and ``key``, so that repeated asks send one); ``False`` (nothing changed)
        when the player had :data:`VERIFICATIONS_PER_DAY` sent in the last day."""
        async with self._sessions.begin() as session:
            row = await _settings_row(session, player_id, language)  # the player's lock
            if row.email != email or not row.email_verified:
                sent = await session.scalar(
                    select(func.count())
                    .select_from(OutboxRow)
                    .where(
                        OutboxRow.player_id == player_id,
                        OutboxRow.kind == VERIFY_EMAIL,
                        OutboxRow.created_at > at - 86_400,
                    )
                )
                if (sent or 0) >= VERIFICATIONS_PER_DAY:
                    return False
                row.email = email
                row.email_verified = False
                await session.flush()
                await queue_notification(
                    session, player_id, VERIFY_EMAIL, at=at, params={"email": email}, key=key
                )
        return True

    async def verify_email(self, player_id: str, email: str) -> bool:
        """Mark ``email`` verified if it is still the player's address."""
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(NotificationSettingsRow)
                .where(
                    NotificationSettingsRow.player_id == player_id,
                    NotificationSettingsRow.email == email,
                )
                .values(email_verified=True)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def unsubscribe_email(self, player_id: str, email: str) -> bool:
        """Send no more e-mail to ``email`` if it is still the player's address (every
        kind's e-mail channel taken away); whether it was."""
        async with self._sessions.begin() as session:
            row = await session.get(NotificationSettingsRow, player_id, with_for_update=True)
            if row is None or row.email != email:
                return False
            row.channels = {
                kind: [c for c in chosen if c != "email"] for kind, chosen in row.channels.items()
            }
            return True

    # -- push subscriptions --------------------------------------------------------------

    async def add_push_subscription(
        self, player_id: str, endpoint: str, p256dh: str, auth: str, at: float
    ) -> None:
        """Keep a browser's subscription for ``player_id`` (a browser subscribed
        again, under whichever account, keeps one row: the last one's); past
        :data:`SUBSCRIPTIONS_PER_PLAYER`, the player's oldest are dropped, so that one
        message is never posted to more places than that."""
        async with self._sessions.begin() as session:
            await session.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            )
            kept = await session.scalars(
                select(PushSubscriptionRow.endpoint)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.endpoint)
                .offset(SUBSCRIPTIONS_PER_PLAYER - 1)
            )
            oldest = list(kept)
            if oldest:
                await session.execute(
                    delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint.in_(oldest))
                )
            session.add(
                PushSubscriptionRow(
                    endpoint=endpoint, player_id=player_id, p256dh=p256dh, auth=auth, created_at=at
                )
            )

    async def remove_push_subscription(self, endpoint: str, player_id: str | None = None) -> None:
        """Forget a subscription (only ``player_id``'s, when given)."""
        whose = [] if player_id is None else [PushSubscriptionRow.player_id == player_id]
        async with self._sessions.begin() as session:
            await session.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint, *whose)
            )

    async def push_subscriptions_of(self, player_id: str) -> list[PushSubscriptionRow]:
        async with self._sessions() as session:
            rows = await session.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at)
            )
            return list(rows)

    # -- the outbox ----------------------------------------------------------------------

    async def notifications_due(self, now: float, lease: float, limit: int) -> list[OutboxRow]:
        """Pending rows due by ``now``, oldest first, then claims older than ``lease``."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(OutboxRow)
                .where(
                    or_(
                        and_(OutboxRow.status == "pending", OutboxRow.due_at <= now),
                        and_(OutboxRow.status == "sending", OutboxRow.claimed_at < now - lease),
                    )
                )
                .order_by(OutboxRow.due_at, OutboxRow.id)
                .limit(limit)
            )
            return list(rows)

    async def claim_notification(self, row: OutboxRow, worker: str, now: float) -> bool:
        """Claim ``row`` as it was read for ``worker``; whether this call won it."""
        async with self._sessions.begin() as session:
            taken = await session.execute(
                update(OutboxRow)
                .where(
                    OutboxRow.id == row.id,
                    OutboxRow.status == row.status,
                    OutboxRow.attempts == row.attempts,
                    (
                        OutboxRow.claimed_at.is_(None)
                        if row.claimed_at is None
                        else OutboxRow.claimed_at == row.claimed_at
                    ),
                )
                .values(
                    status="sending",
                    claimed_by=worker,
                    claimed_at=now,
                    attempts=OutboxRow.attempts + 1,
                )
            )
            return bool(taken.rowcount)  # type: ignore[attr-defined]

    async def finish_notification(
        self, row_id: int, worker: str, status: str, now: float, error: str | None = None
    ) -> bool:
        """End ``worker``'s claim as ``sent``, ``skipped`` or ``failed``; ``False`` if
        the claim was taken over meanwhile."""
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(OutboxRow)
                .where(
                    OutboxRow.id == row_id,
                    OutboxRow.claimed_by == worker,
                    OutboxRow.status == "sending",
                )
                .values(status=status, done_at=now, error=None if error is None else error[:200])
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def retry_notification(
        self, row_id: int, worker: str, now: float, error: str, max_attempts: int
    ) -> str:
        """A try of ``worker``'s failed: the row is due again later (waiting twice as
        long each time), or ``failed`` after ``max_attempts`` tries; its new status."""
        async with self._sessions.begin() as session:
            row = await session.get(OutboxRow, row_id, with_for_update=True)
            if row is None or row.claimed_by != worker or row.status != "sending":
                return "lost"
            row.error = error[:200]
            if row.attempts >= max_attempts:
                row.status = "failed"
                row.done_at = now
            else:
                row.status = "pending"
                row.claimed_by = row.claimed_at = None
                row.due_at = now + min(3600.0, RETRY_SECONDS * 2 ** (row.attempts - 1))
            return row.status

    async def reserve_mail_day(
        self, player_id: str, table_id: str, day: int, outbox_id: int
    ) -> bool:
        """Take the day's one e-mail about ``table_id`` to ``player_id`` for the message
        ``outbox_id``; whether it is that message's (taken now or by an earlier try)."""
        try:
            async with self._sessions.begin() as session:
                session.add(
                    MailDayRow(player_id=player_id, table_id=table_id, day=day, outbox_id=outbox_id)
                )
            return True
        except IntegrityError:
            async with self._sessions() as session:
                row = await session.get(MailDayRow, (player_id, table_id, day))
                return row is not None and row.outbox_id == outbox_id

    async def outbox_of(self, player_id: str) -> Sequence[OutboxRow]:
        """The player's messages, oldest first."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(OutboxRow).where(OutboxRow.player_id == player_id).order_by(OutboxRow.id)
            )
            return list(rows)


async def _settings_row(
    session: AsyncSession, player_id: str, language: str
) -> NotificationSettingsRow:
    """The player's choices, locked for this transaction, made (the page only) if they
    have none (by one of two transactions making them at once)."""
    await _insert_once(
        session,
        NotificationSettingsRow,
        "player_id",
        player_id=player_id,
        channels={},
        language=language,
        email=None,
        email_verified=False,
        mail_more=False,
    )
    row = await session.get(
        NotificationSettingsRow, player_id, with_for_update=True, populate_existing=True
    )
    assert row is not None
    return row

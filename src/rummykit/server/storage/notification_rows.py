"""The tables of notifications: what each player chose (``notification_settings``), the
browsers a player's Web Push goes to (``push_subscriptions``), the outbox of messages
to send (``notification_outbox``) and the e-mails sent per game and day
(``mail_days``, whose primary key is the limit of one e-mail a game a day).

An outbox row is one message to one player on one channel.  Its ``key`` is unique: the
same cause (a game's end, a rematch, a round) queued twice, by a retried transaction or
by two processes, is stored once.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from rummykit.server.storage.base import Base


class NotificationSettingsRow(Base):
    """A player's choices: for each kind the channels (``{"game_ended": ["email"]}``),
    the language of what is sent, and the e-mail address (used only once verified;
    ``mail_more``: more than one e-mail a game a day)."""

    __tablename__ = "notification_settings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    channels: Mapped[dict[str, Any]] = mapped_column(JSON)
    language: Mapped[str] = mapped_column(String(8))
    email: Mapped[str | None] = mapped_column(String(254))
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    mail_more: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PushSubscriptionRow(Base):
    """One browser's Web Push subscription: its push service's endpoint and its keys."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1024), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class OutboxRow(Base):
    """A message to send: ``pending`` (from ``due_at`` on) until a process claims it
    (``sending``, with its name and the time: a claim older than the lease is taken
    over), then ``sent``, ``failed`` (tried too often) or ``skipped`` (the channel is not
    offered, the address not verified, the game's e-mail of the day sent already)."""

    __tablename__ = "notification_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    channel: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    # not tried before this time (a failed try waits longer each time)
    due_at: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_at: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
    done_at: Mapped[float | None] = mapped_column(Float)
    error: Mapped[str | None] = mapped_column(String(200))


class MailDayRow(Base):
    """The e-mail about a game a player was sent on a day (days since 1970, UTC)."""

    __tablename__ = "mail_days"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[int] = mapped_column(Integer, primary_key=True)
    outbox_id: Mapped[int] = mapped_column(Integer)

"""The database tables (SQLAlchemy 2): players, tables and seats, the action log, chat.

The action log is the truth about a game: a table's seed plus its actions in state
number order rebuild every state.  ``(table_id, state_number)`` is the action log's
primary key, so one state number can never hold two actions.  Schema changes go
through Alembic migrations (``migrations/``); this module only declares the tables (those of
notifications are in ``notification_rows.py``, imported here so that ``Base.metadata``
holds every table).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from rummykit.server.storage import notification_rows  # noqa: F401  (its tables join Base)
from rummykit.server.storage.base import Base as Base  # noqa: PLC0414  (the models' base)


class PlayerRow(Base):
    """A guest (no login name) or a registered player (``name`` is then the login name).

    Login names are unique whatever their case (an index on ``lower(login_name)``), and
    ``lower(name)`` is indexed to find who goes by a name.  A cookie signed before the
    player's ``session_epoch`` is revoked (``auth.py``)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    login_name: Mapped[str | None] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # what the name looks like (``protocol/names.py``): names alike are confusable
    name_key: Mapped[str | None] = mapped_column(String(64), index=True)


Index("ix_players_login_name_lower", func.lower(PlayerRow.login_name), unique=True)
Index("ix_players_name_lower", func.lower(PlayerRow.name))


class AccountLinkRow(Base):
    """A trace two accounts of one person share: the browser they were used from
    (``browser``, its long-lived id cookie) or the address (``address``), each kept only
    as a keyed hash (``key``), with when it was first and last seen for the player."""

    __tablename__ = "account_links"
    __table_args__ = (
        UniqueConstraint("player_id", "kind", "key", name="uq_account_links_trace"),
        Index("ix_account_links_key", "kind", "key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(64))
    first_seen: Mapped[float] = mapped_column(Float)
    last_seen: Mapped[float] = mapped_column(Float)


class RoleRow(Base):
    """A role a player holds besides playing (``moderator``), granted from the command
    line."""

    __tablename__ = "player_roles"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    granted_at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    """One player's report of another (``reason``: ``cheating``, ``abuse`` or ``name``),
    from a game (``table_id``) or a profile; ``open`` until a moderator closes it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(String(32), index=True)
    reported_id: Mapped[str] = mapped_column(String(32), index=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(500), default="")
    table_id: Mapped[str | None] = mapped_column(String(32), default=None)
    at: Mapped[float] = mapped_column(Float)
    open: Mapped[bool] = mapped_column(Boolean, default=True, index=True)


class SanctionRow(Base):
    """A moderator's measure against a player: ``engine`` or ``booster`` (marked: out of
    the leaderboards and tournaments), ``mute`` (chat reaches nobody else) or ``closed``
    (the account may not sign in); in force from ``at`` until ``until`` (null: until
    lifted) unless ``lifted_at``."""

    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    until: Mapped[float | None] = mapped_column(Float, default=None)
    lifted_at: Mapped[float | None] = mapped_column(Float, default=None)


class ModerationLogRow(Base):
    """Every moderator's action: who, on whom, what, why and when."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    moderator_id: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[str | None] = mapped_column(String(32), index=True)
    action: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    """Server secrets made at first start (the cookie signing key)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class TableRow(Base):
    """A game table.  ``seed`` and ``nonce`` stay secret until ``status`` is ``over``;
    ``commitment`` is SHA-256 of both (see ``committed_deal.py``), public from creation."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(Boolean)
    invite_token: Mapped[str | None] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    nonce: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    turn_seconds: Mapped[float | None] = mapped_column(Float)
    # each seat's time bank for the game (seconds), drawn on when a turn runs long
    time_bank_seconds: Mapped[float | None] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16), index=True)
    creator_id: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    totals: Mapped[list[int] | None] = mapped_column(JSON)
    winners: Mapped[list[int] | None] = mapped_column(JSON)
    # how a finished game ended, when not played to its end: "abandoned" (the win
    # claimed over a side that was gone) or "aborted" (every person gone: unrated)
    ended_by: Mapped[str | None] = mapped_column(String(16), default=None)
    # a rated table's end changes its players' ratings (``storage/ratings.py``)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # a table of a tournament's round (``tournaments.py``)
    tournament_id: Mapped[str | None] = mapped_column(String(32), index=True)
    # the seed of a finished table stays secret while this is set: a tournament round's
    # tables share their deal, revealed once every one of them is over
    reveal_held: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the finished table this one is the rematch of (``rematch.py``): one rematch a table
    rematch_of: Mapped[str | None] = mapped_column(String(32), index=True, unique=True)
    # a turn-based table's time per move in days (null: a live table, its clock in
    # ``turn_seconds``); and, while it is played, the seat to move and when that turn
    # began, kept for the lobby's list of current games (the host derives its clock from
    # the action log, and a restored host writes these again if they lag behind)
    days_per_move: Mapped[int | None] = mapped_column(Integer, default=None)
    turn_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    turn_since: Mapped[float | None] = mapped_column(Float, default=None)

    @property
    def turn_based(self) -> bool:
        """Whether the table is played over days (a time per move in days)."""
        return self.days_per_move is not None

    @property
    def revealed(self) -> bool:
        """Whether the deal may be shown: the game is over and its reveal not held."""
        return self.status == "over" and not self.reveal_held

    def invites(self, token: str | None) -> bool:
        """Whether ``token`` is this table's invitation token (compared in constant
        time; a table without one invites nobody)."""
        if token is None or self.invite_token is None:
            return False
        return secrets.compare_digest(token.encode(), self.invite_token.encode())


class VacationRow(Base):
    """A player's time away from their turn-based games, from ``starts_at`` to
    ``ends_at``: ``declared`` in advance, or taken when a turn's time would have run
    out.  The clocks of the player's turn-based games stand still meanwhile."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float] = mapped_column(Float)
    declared: Mapped[bool] = mapped_column(Boolean)


class SeatRow(Base):
    """One seat of a table: a human seat (``player_id`` once taken) or a bot of ``level``."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(64))
    player_id: Mapped[str | None] = mapped_column(String(32), index=True)
    name: Mapped[str | None] = mapped_column(String(64))
    # when the seat's player left the game under way (a rated game counts it as a loss)
    left_at: Mapped[float | None] = mapped_column(Float)
    # a rematch's human seat is kept for the player who held it at the finished table
    kept_for: Mapped[str | None] = mapped_column(String(32))
    # when the seat's player first came to a tournament's table (a restart keeps it:
    # a player who never came forfeits, one who came and went gets a substitute)
    came_at: Mapped[float | None] = mapped_column(Float)


class ActionRow(Base):
    """One applied action: stored before the table tells anyone about it."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    state_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(400))
    actor: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)


class AssessmentRow(Base):
    """The fair-play assessment of one seat of a finished rated or tournament game
    (``fairplay/``): ``running`` while the process ``claimed_by`` works on it (another
    may take it over once ``claimed_at`` is old), then ``done`` with the seat's
    ``figures``, or ``failed`` after too many attempts."""

    __tablename__ = "assessments"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    claimed_by: Mapped[str] = mapped_column(String(64))
    claimed_at: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    done_at: Mapped[float | None] = mapped_column(Float, default=None)
    verdict: Mapped[str | None] = mapped_column(String(16), default=None)
    evidence: Mapped[float | None] = mapped_column(Float, default=None)
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class FocusLossRow(Base):
    """A turn (``state_number``) in which the seat's player's page lost focus, at a rated
    or tournament table (for the fair-play assessment)."""

    __tablename__ = "focus_losses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    state_number: Mapped[int] = mapped_column(Integer, primary_key=True)


class LeaseRow(Base):
    """Which server process owns a live table, and until when (``storage/leases.py``).

    ``expires_at`` is set by the database's own clock; ``token`` goes up by one at every
    change of owner and is checked with every action written under the lease."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(64))
    token: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """A chat line said at a table."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    # the id the client gave the line: a line sent again (after a reconnect, or to a new
    # owner of the table) is stored once
    client_id: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (
        UniqueConstraint("table_id", "player_id", "client_id", name="uq_chat_client_id"),
    )


class PlayerRatingRow(Base):
    """A player's rating in one pool (``rating.model.pool_of``) and how many rated
    tables made it."""

    __tablename__ = "player_ratings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    pool: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """A player's rating after one rated table: where they finished, whether they left
    it early (rated last) and whether a substitute made most of their moves."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("table_id", "player_id", name="uq_rating_history_table_player"),
        Index("ix_rating_history_pool_at", "pool", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    pool: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE")
    )
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)
    left_early: Mapped[bool] = mapped_column(Boolean)
    substituted: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)
    # what this table took from the player was given back: an opponent was marked
    refunded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class TournamentRow(Base):
    """A tournament (``tournaments.py``): ``status`` goes ``registering`` → ``running``
    → ``over``; ``round`` is the round under way (-1 before the first).  ``rules``,
    ``turn_seconds`` and ``time_bank_seconds`` are every table's; ``bot_level`` fills the
    seats left empty at the start (none: no bots)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer)
    table_size: Mapped[int] = mapped_column(Integer)
    capacity: Mapped[int] = mapped_column(Integer)
    bot_level: Mapped[str | None] = mapped_column(String(64))
    turn_seconds: Mapped[float | None] = mapped_column(Float)
    time_bank_seconds: Mapped[float | None] = mapped_column(Float)
    starts_at: Mapped[float | None] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer, default=-1)
    creator_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)


class TournamentEntryRow(Base):
    """One entrant: a player (``player_id``) or a bot (``bot_level``), numbered in
    seeding order from 0 when the tournament starts (``entry`` is null before).  In a
    tournament of pairs (Burraco for four) the entry is a pair: its second player is a
    person (``partner_id``, ``partner_name``) or a bot (``partner_bot_level``).  A person
    becomes the partner only by consent: invited by the first player (``invited_id``) or
    holding the pair's link (``pair_token``); ``partner_left`` names a first player who
    withdrew, for the partner now leading the pair."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entries_player"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    entry: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(String(32))
    bot_level: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    registered_at: Mapped[float] = mapped_column(Float)
    partner_id: Mapped[str | None] = mapped_column(String(32), default=None)
    partner_name: Mapped[str | None] = mapped_column(String(64), default=None)
    partner_bot_level: Mapped[str | None] = mapped_column(String(64), default=None)
    pair_token: Mapped[str | None] = mapped_column(String(32), default=None)
    invited_id: Mapped[str | None] = mapped_column(String(32), default=None)
    invited_name: Mapped[str | None] = mapped_column(String(64), default=None)
    partner_left: Mapped[str | None] = mapped_column(String(64), default=None)


class TournamentTableRow(Base):
    """One table of a round: its entrants in seat order and, once it is over, their
    totals and who forfeited.  A Swiss bye is a row of one entrant and no table."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str | None] = mapped_column(String(32))
    entries: Mapped[list[int]] = mapped_column(JSON)
    totals: Mapped[list[float] | None] = mapped_column(JSON)
    forfeits: Mapped[list[int] | None] = mapped_column(JSON)
    # the round's deal, the same at every table of the round (secret like a table's)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    nonce: Mapped[str | None] = mapped_column(String(64))

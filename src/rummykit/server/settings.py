"""Server settings, read from the environment (``RUMMYKIT_*``) by pydantic-settings.

Every setting has a default that needs no set-up: SQLite in the user's data directory,
127.0.0.1:8000, a 60-second turn timer.  Command-line options override the environment.
This module only describes settings; it never opens a database or a socket.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

import platformdirs
from pydantic import BeforeValidator, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Annotated[
    Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
    BeforeValidator(lambda value: value.upper() if isinstance(value, str) else value),
]
"""A level of Python's logging, in any case ("info" is "INFO")."""
LogFormat = Literal["text", "json"]


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    folder = Path(platformdirs.user_data_dir("rummykit", appauthor=False))
    return f"sqlite+aiosqlite:///{folder / 'rummykit.sqlite3'}"


def default_hashes_at_once() -> int:
    """One password hash at a time for every four cores, at least one: an Argon2id hash
    (64 MiB) already works four lanes in four threads.  On two cores, two at once made the
    event loop answer later than one (benchmarks/login_flood.py) for no more logins a
    second."""
    return max(1, (os.cpu_count() or 1) // 4)


class Settings(BaseSettings):
    """What ``rummykit serve`` can be told (each also as ``RUMMYKIT_<NAME>``)."""

    model_config = SettingsConfigDict(env_prefix="RUMMYKIT_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    database_url: str = Field(default_factory=default_database_url)
    # PostgreSQL only: keep every table in this schema (it must exist).
    database_schema: str | None = Field(default=None, pattern=r"^[a-z_][a-z0-9_]{0,62}$")
    # PostgreSQL only (SQLite uses one connection): connections kept open, and how many
    # more a busy moment may open.  Every server process and client of the database
    # counts against its max_connections (100 by default): keep the sums under it.
    database_pool_size: int = Field(default=10, ge=1, le=1000)
    database_max_overflow: int = Field(default=5, ge=0, le=1000)
    # The key that signs session cookies; when empty, one is made and kept in the database.
    secret_key: str = ""
    # Origins allowed to open WebSockets besides the server's own (e.g. "https://example.org").
    allowed_origins: list[str] = Field(default_factory=list)
    secure_cookies: bool = False
    default_turn_seconds: float = Field(default=60.0, gt=0)
    max_turn_seconds: float = Field(default=3600.0, gt=0)
    # each seat's reserve for a game at a table of several people (0: none)
    default_time_bank_seconds: float = Field(default=120.0, ge=0)
    max_time_bank_seconds: float = Field(default=3600.0, ge=0)
    grace_seconds: float = Field(default=60.0, ge=0)
    # At a rated table, a person away past the grace period, or for whom a stand-in
    # played this many turns in a row, has abandoned the game: the others may claim it.
    abandon_turns: int = Field(default=3, ge=1, le=100)
    bot_pause_seconds: float = Field(default=0.8, ge=0)
    bot_workers: int = Field(default=2, ge=1, le=64)
    # A hint's search in iterations (unset: each game's own budget, about 0.5 to 1 s on two
    # cores); the review of a finished game searches each decision with the same budget.
    hint_iterations: int | None = Field(default=None, ge=1, le=100_000)
    # How many reviews search at once, and how many finished reviews are kept in memory.
    review_workers: int = Field(default=1, ge=1, le=64)
    reviews_kept: int = Field(default=200, ge=1)
    # Fair play (docs/fair-play.md): every seat of a finished rated or tournament game is
    # assessed in the background, at the bot workers' lowest priority, with this search
    # budget per decision; a process looks for games to assess this often (and whenever a
    # game ends), takes over a claim older than the lease, and pools this many of a
    # player's latest games into the report to moderators.
    fairplay: bool = True
    assessment_iterations: int = Field(default=400, ge=1, le=100_000)
    assessment_poll_seconds: float = Field(default=300.0, gt=0)
    assessment_lease_seconds: float = Field(default=1800.0, gt=0)
    assessment_games: int = Field(default=100, ge=1, le=10_000)
    max_message_bytes: int = Field(default=4096, ge=256)
    # Connections (HTTP and WebSocket) one server process keeps open at once: past it a
    # new connection is answered 503 and closed.  `rummykit serve` lowers it to what the
    # process may open (its open-file limit, less what the rest of the server needs).
    max_connections: int = Field(default=4096, ge=16)
    # Seconds a request has, from its first byte, to send all its headers (a WebSocket
    # handshake too), and the most bytes they may take: past either, 408 or 431.
    header_seconds: float = Field(default=10.0, gt=0, le=300)
    max_header_bytes: int = Field(default=32_768, ge=4096, le=1_048_576)
    # The largest HTTP request body accepted (bytes); larger ones are refused unread (413).
    max_body_bytes: int = Field(default=65_536, ge=1024)
    messages_per_second: float = Field(default=20.0, gt=0)
    message_burst: int = Field(default=40, ge=1)
    chat_per_minute: int = Field(default=12, ge=1)
    # Failed (or still checking) logins per login name and per client address a minute;
    # registrations and guest sessions per client address an hour.
    login_attempts_per_minute: int = Field(default=5, ge=1)
    registrations_per_hour: int = Field(default=5, ge=1)
    guest_sessions_per_hour: int = Field(default=30, ge=1)
    # Password hashes and checks run at once in worker threads; more wait their turn.
    password_hashes_at_once: int = Field(default_factory=default_hashes_at_once, ge=1, le=64)
    max_tables_per_player: int = Field(default=20, ge=1)
    # Turn-based games (games over days): how many one player may have under way (their
    # own and those they sit at; not counted in max_tables_per_player), how many days
    # of vacation a player has in a year (taken when a turn's time would run out, or
    # declared), and how long before a turn's end its player is told time runs low
    # (at most a quarter of the time per move).
    max_turn_based_per_player: int = Field(default=50, ge=1)
    vacation_days_per_year: int = Field(default=30, ge=0, le=366)
    turn_low_hours: float = Field(default=24.0, gt=0)
    # Rating farming: rated tables at which the same two opponents may meet in a pool in
    # so many days; past it their games are played unrated.
    rated_games_between: int = Field(default=10, ge=1)
    rated_games_between_days: float = Field(default=7.0, gt=0)
    # Chat words a host masks, by language (every language's list applies to every
    # table), as JSON: RUMMYKIT_CHAT_BLOCKED_WORDS='{"en": ["..."], "hu": ["..."]}'.
    chat_blocked_words: dict[str, list[str]] = Field(default_factory=dict)
    # Reports one player may make a day.
    reports_per_day: int = Field(default=10, ge=1)
    # Days the traces linking accounts (browser and address, as keyed hashes) are kept.
    link_days: float = Field(default=90.0, gt=0, le=3650)
    # Table sockets one player may hold open at once (every tab, every table), counted
    # for the whole site when its workers share Redis; one more is refused.
    sockets_per_player: int = Field(default=16, ge=1, le=10_000)
    # tournaments not yet over that one player may have made; how often every server
    # process looks for tournaments to start and rounds to move on (seconds)
    max_tournaments_per_player: int = Field(default=3, ge=1)
    tournament_sweep_seconds: float = Field(default=5.0, gt=0)
    # A guest's bots think at most this long (and search at most this many iterations) a
    # move; a registered player's up to 10 s and 100,000 iterations.
    guest_bot_seconds: float = Field(default=1.0, gt=0, le=10)
    guest_bot_iterations: int = Field(default=500, ge=1, le=100_000)
    # The longest the bots of one player's unfinished tables (created or seated at) and
    # tournaments not over (as if bots filled every place) may think a move, in all: a new
    # table or tournament whose bots would pass it is refused.
    bot_seconds_per_player: float = Field(default=30.0, gt=0)
    bot_seconds_per_guest: float = Field(default=4.0, gt=0)
    # Several server processes (on PostgreSQL): the Redis they share ("redis://host:6379/0"),
    # the prefix of their keys and channels there, and how long a worker's hold of a
    # table lasts unrenewed (a dead worker's tables move after about this long).
    redis_url: str | None = None
    redis_prefix: str = Field(default="rummykit", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    lease_seconds: float = Field(default=4.0, ge=0.5, le=60)
    # Where bot decisions, hints and reviews run: this process's own workers ("local"),
    # or the site's bot workers (`rummykit bot-worker`) through Redis ("redis").
    bot_queue: Literal["local", "redis"] = "local"
    # How long a finished table stays in memory after its last connection leaves.
    finished_linger_seconds: float = Field(default=30.0, ge=0)
    # What `rummykit serve` logs: unset, warnings in the terminal and INFO in a log file;
    # a level ("INFO": table events, lease moves and takeovers, requests) everywhere.
    # `--verbose` is DEBUG.  "json" writes one JSON object a line, for a log collector.
    log_level: LogLevel | None = None
    log_format: LogFormat = "text"
    # /metrics (Prometheus's text format): off unless asked for; with a token, a scrape
    # must send "Authorization: Bearer <token>".
    metrics: bool = False
    metrics_token: str | None = None
    # Notifications (docs/notifications.md).  The address the site is reached at, for the
    # links in e-mails ("https://cards.example.org"); the SMTP server mail goes through
    # ("smtp://user:password@host:587": STARTTLS when the server offers it, "smtps://"
    # for TLS from the start) and the sender's address.  Without all three, e-mail is
    # not offered.  Web Push is offered when a contact for the push services is set
    # ("mailto:admin@example.org"); its keys are made and kept in the database.
    public_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/[^\s]*)?$")
    smtp_url: str | None = Field(default=None, pattern=r"^smtps?://")
    mail_from: str | None = Field(default=None, pattern=r"^[^\s@<>]+@[^\s@<>]+$")
    push_contact: str | None = Field(default=None, pattern=r"^(mailto:|https://)\S+$")
    # How often a process looks for notifications to send (and whenever one is queued
    # here), how long its claim of one lasts, and how often one is tried before it fails.
    notify_poll_seconds: float = Field(default=30.0, gt=0)
    notify_lease_seconds: float = Field(default=120.0, gt=0)
    notify_attempts: int = Field(default=5, ge=1, le=100)

    @model_validator(mode="after")
    def _site_parts(self) -> Settings:
        """A site of several processes needs PostgreSQL under Redis."""
        if self.redis_url is not None and self.database_url.startswith("sqlite"):
            raise ValueError("workers sharing Redis need PostgreSQL (database_url), not SQLite")
        if self.bot_queue == "redis" and self.redis_url is None:
            raise ValueError('bot_queue "redis" needs redis_url')
        return self


class BotWorkerSettings(BaseSettings):
    """What ``rummykit bot-worker`` reads from the environment: only the site's Redis
    (a bot worker opens no database, so none is asked for or checked)."""

    model_config = SettingsConfigDict(env_prefix="RUMMYKIT_", extra="ignore")

    redis_url: str | None = None
    redis_prefix: str = Field(default="rummykit", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    log_level: LogLevel = "INFO"
    log_format: LogFormat = "text"

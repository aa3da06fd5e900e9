"""The database engine a server opens: SQLite by default (a file, no server), PostgreSQL
by URL, each with the driver, pool and connection settings the storage relies on.

This module makes engines; it never reads or writes a row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


def normalize_url(url: str) -> str:
    """Give plain ``sqlite:`` and ``postgresql:`` URLs their async drivers."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def limits(seconds: float) -> dict[str, str]:
    """A PostgreSQL session's limits for a worker of a site, each ``seconds``: a
    statement's run (``statement_timeout``), a wait for a lock (``lock_timeout``: a row
    locked by a worker frozen mid-transaction blocks nobody for longer), and a
    transaction left open and idle (``idle_in_transaction_session_timeout``: the frozen
    or cut-off worker's transaction is ended, and its locks released).

    >>> limits(4.0)["lock_timeout"]
    '4000'
    """
    milliseconds = str(max(1, round(seconds * 1000)))
    return {
        "statement_timeout": milliseconds,
        "lock_timeout": milliseconds,
        "idle_in_transaction_session_timeout": milliseconds,
    }


def make_engine(
    url: str,
    *,
    schema: str | None = None,
    pool_size: int | None = None,
    max_overflow: int | None = None,
    time_limit: float | None = None,
) -> AsyncEngine:
    """An async engine for ``url``; a SQLite file's folder is created if missing.

    ``schema`` (PostgreSQL only) puts every table in that schema (tests use one each).
    ``pool_size`` and ``max_overflow`` (PostgreSQL only; SQLAlchemy's 5 and 10 when
    omitted) bound the connections it opens: at most their sum, and a request that finds
    them all busy waits for one (up to 30 s, then ``sqlalchemy.exc.TimeoutError``).

    ``time_limit`` (PostgreSQL only; a worker of a site passes its lease's ttl) bounds
    every wait on the database, so that a worker cut off from it, or blocked by a row
    a frozen worker locks, fails within seconds instead of hanging, and a host whose
    write fails stops and lets its table go (see :func:`limits`).
    """
    url = normalize_url(url)
    parsed = make_url(url)
    connect_args: dict[str, Any] = {}
    if parsed.drivername.startswith("sqlite"):
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        connect_args["timeout"] = 30
    else:
        server_settings: dict[str, str] = {}
        if schema is not None:
            server_settings["search_path"] = schema
        if time_limit is not None:
            server_settings.update(limits(time_limit))
            # the client's own limits: a statement (even a network that holds what it
            # sends, so the server's limits never start) and opening a connection
            connect_args.update(command_timeout=time_limit, timeout=time_limit)
        if server_settings:
            connect_args["server_settings"] = server_settings
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
        if time_limit is not None:  # a free connection waited for at most this long
            options["pool_timeout"] = time_limit
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

"""Alembic migrations applied to an async engine (at start and by ``rummykit db upgrade``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _upgrade(connection: Connection) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


MIGRATION_LOCK = 0x72756D6D  # "rumm": the advisory lock the workers of a site migrate under

MIGRATION_IDLE_MS = 60_000
"""How long a migration's transaction may sit idle between two statements: far longer
than a worker's few seconds (a starved machine can stop a process for longer than that
in the middle of the migration), yet a migrating worker that is frozen or cut off still
lets the others go on after a minute."""


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database behind ``engine`` to the newest schema.  On PostgreSQL the
    upgrade runs under a transaction-level advisory lock, so that server processes
    starting together on a fresh database migrate one after the other (the first
    creates the tables, the others find them there)."""
    async with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # a worker's sessions time statements and lock waits out after a few
            # seconds (engine.py); another worker's migration may take longer, so the
            # lock is asked for again and again rather than waited for in one statement
            await connection.execute(text("SET LOCAL statement_timeout = 0"))
            await connection.execute(text("SET LOCAL lock_timeout = 0"))
            await connection.execute(
                text(f"SET LOCAL idle_in_transaction_session_timeout = {MIGRATION_IDLE_MS}")
            )
            while not (
                await connection.execute(
                    text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            ).scalar_one():
                await asyncio.sleep(0.1)
        await connection.run_sync(_upgrade)

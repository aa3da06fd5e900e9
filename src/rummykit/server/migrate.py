"""Alembic migrations applied to an async engine (at start and by ``rummykit db upgrade``)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
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


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database behind ``engine`` to the newest schema."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)

"""Alembic environment: migrations run on a connection handed in by ``migrate.py``."""

from __future__ import annotations

from alembic import context

from rummykit.server.storage.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run migrations through rummykit.server.storage.migrate (rummykit db upgrade)"
    )
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()

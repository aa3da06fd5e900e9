"""A seat remembers when its player first came to a tournament's table (``came_at``),
so that a restart does not turn a player who came and went into a no-show: only a
player who never came forfeits (``table/presence.py``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("came_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("came_at")

"""Rematches: a table made as the rematch of a finished one names it (at most one
rematch a table, kept by a unique index whichever server process makes it), and a
rematch's human seats are kept for the players who held them (``rematch.py``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
        batch.create_index("ix_game_tables_rematch_of", ["rematch_of"], unique=True)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("kept_for", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("kept_for")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_rematch_of")
        batch.drop_column("rematch_of")
